// Search helpers for the base game: the heuristic rollout policy and the static
// evaluation used by rollout cut-offs and the greedy agent. Both are on the search's
// hot path: no allocation, a few passes over 12 table cards and the player's reserve.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/bits.hpp"
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
#include "splendor/card_lanes.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace splendor {

using core::swar::lane;
using core::swar::sat_sub;
using core::swar::sum;

namespace {

constexpr uint64_t kGemLanes = 0x000000FFFFFFFFFFULL;

struct HeuristicTables {
  uint64_t noble_requirement[kNumNobles];
  uint8_t bonus[kNumCards];
  uint8_t points[kNumCards];
  uint8_t level[kNumCards];
  uint64_t cost[kNumCards];  // packed cost words, inline here (State::card_cost is out of line)

  constexpr HeuristicTables() : noble_requirement(), bonus(), points(), level(), cost() {
    for (int n = 0; n < kNumNobles; ++n)
      for (int c = 0; c < kColours; ++c)
        noble_requirement[n] |= uint64_t{tables::kNobles[n].requirement[c]} << (8 * c);
    for (int i = 0; i < kNumCards; ++i) {
      bonus[i] = tables::kCards[i].bonus;
      points[i] = tables::kCards[i].points;
      level[i] = static_cast<uint8_t>(tables::kCards[i].level - 1);
      int total = 0;
      for (int c = 0; c < kColours; ++c) {
        cost[i] |= uint64_t{tables::kCards[i].cost[c]} << (8 * c);
        total += tables::kCards[i].cost[c];
      }
      // target_card scores lanes in bytes: 16 + 4 * missing + 3 - 3 * points in [1, 255].
      if (total > 59 || points[i] > 5) throw "cards.csv: a card's cost or points exceed what target_card scores";
    }
  }
};

constexpr HeuristicTables kH{};

// 8 * colours the target needs + 2 * colours, per needed-colour set and take-distinct
// action (lanes 25-31 unused: 0), for heuristic_take's vector scoring.
struct TakeScores {
  alignas(16) uint8_t base[32][32];
  TakeScores() : base() {
    for (uint32_t needed = 0; needed < 32; ++needed)
      for (int a = 0; a < kTakeTwo; ++a)
        base[needed][a] = static_cast<uint8_t>(8 * core::popcount(kTakeDistinctTable[a].colours & needed) +
                                               2 * core::popcount(kTakeDistinctTable[a].colours));
  }
};

// Per colour lane, the nobles on the table still missing that colour for this player:
// buying a card of that colour moves toward each of them.
uint64_t nobles_missing(uint16_t table_nobles, uint64_t bonuses) {
  uint64_t count = 0;
  core::for_each_bit(table_nobles, [&](int n) { count += core::swar::nonzero_lanes(sat_sub(kH.noble_requirement[n], bonuses)); });
  return count;
}

// Tokens still missing to buy `card` once gold is spent (0: affordable).
int missing_tokens(const Player& p, int card) {
  const int short_sum = sum(sat_sub(kH.cost[card], p.bonuses + (p.tokens & kGemLanes)));
  const int gold = lane(p.tokens, kGold);
  return short_sum > gold ? short_sum - gold : 0;
}

}  // namespace

#if defined(__SSE4_1__)
namespace {

// Byte k of the result: bits 2k..2k+1 of `fields` (k < 8).
uint64_t spread_pairs(uint64_t fields) {
  uint64_t x = fields & 0xFFFF;
  x = (x | (x << 24)) & 0x000000FF000000FFULL;
  x = (x | (x << 12)) & 0x000F000F000F000FULL;
  return (x | (x << 6)) & 0x0303030303030303ULL;
}

// Every lane set to the byte-wise minimum (or maximum, with _mm_max_epu8) of v's lanes.
template <class Op>
__m128i broadcast_reduce(__m128i v, Op op) {
  v = op(v, _mm_shuffle_epi32(v, 0x4E));
  v = op(v, _mm_shuffle_epi32(v, 0xB1));
  v = op(v, _mm_shufflelo_epi16(v, 0xB1));
  v = op(v, _mm_srli_epi16(v, 8));
  return _mm_shuffle_epi8(v, _mm_setzero_si128());
}

// 0xFF in byte lane i where bit i of `bits` is set.
__m128i lanes_of(uint32_t bits) {
  const __m128i select = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
  const __m128i bytes = _mm_shuffle_epi8(_mm_cvtsi32_si128(static_cast<int>(bits)),
                                         _mm_set_epi8(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0));
  return _mm_cmpeq_epi8(_mm_and_si128(bytes, select), select);
}

}  // namespace

// All card lanes at once: the shortfall per lane as legal_main_mask's buy test computes
// it, then score 16 + 4 * missing + noise - 3 * points, which stays within a byte
// (HeuristicTables checks the card data), so a byte-wise minimum and the first lane
// equal to it pick the card the reference picks scoring lane by lane.
int State::heuristic_target(uint64_t noise) const {
  const Player& p = players_[turn_seat_];
  const uint32_t lanes = card_lanes(table_mask_, p);
  if (!lanes) return -1;
  const __m128i shortfall = lane_shortfall(lane_cost_, p, p.bonuses + (p.tokens & kGemLanes));
  const __m128i m = _mm_subs_epu8(shortfall, _mm_set1_epi8(static_cast<char>(lane(p.tokens, kGold))));
  alignas(16) uint8_t points[16];
  std::memcpy(points, lane_points_, sizeof points);
  for (int j = 0; j < p.num_reserved; ++j) points[kTableSlots + j] = kH.points[p.reserved[j]];
  const __m128i pts = _mm_load_si128(reinterpret_cast<const __m128i*>(points));
  const __m128i m4 = _mm_slli_epi16(_mm_and_si128(m, _mm_set1_epi8(0x3F)), 2);  // no carry across bytes
  const uint64_t fields = noise >> 30;
  const __m128i jitter = _mm_set_epi64x(static_cast<long long>(spread_pairs(fields >> 16)),
                                        static_cast<long long>(spread_pairs(fields)));
  const __m128i p3 = _mm_add_epi8(_mm_add_epi8(pts, pts), pts);
  __m128i score = _mm_sub_epi8(_mm_add_epi8(_mm_add_epi8(m4, _mm_set1_epi8(16)), jitter), p3);
  score = _mm_or_si128(score, _mm_andnot_si128(lanes_of(lanes), _mm_set1_epi8(-1)));  // unused lanes: 255
  const __m128i lowest = broadcast_reduce(score, [](__m128i a, __m128i b) { return _mm_min_epu8(a, b); });
  return card_in_lane(p, __builtin_ctz(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(score, lowest))) & lanes));
}
#else
int State::heuristic_target(uint64_t noise) const { return heuristic_target_reference(noise); }
#endif

int State::heuristic_take_reference(uint32_t legal, uint32_t needed, uint64_t noise) {
  int best_action = -1, best_score = -1;
  core::for_each_bit(legal, [&](int a) {
    const int score = 8 * core::popcount(kTakeDistinctTable[a].colours & needed) +
                      2 * core::popcount(kTakeDistinctTable[a].colours) + static_cast<int>((noise >> (a + 8)) & 1);
    if (score > best_score) {
      best_score = score;
      best_action = a;
    }
  });
  return best_action;
}

#if defined(__SSE4_1__)
// The 25 actions in two vectors of byte lanes: scores stay below 32, every legal one is
// at least 2 (a take has a colour), so illegal lanes at 0 never win, and the first lane
// equal to the byte-wise maximum is the reference's choice.
int State::heuristic_take(uint32_t legal, uint32_t needed, uint64_t noise) {
  static const TakeScores kScores;
  if (!legal) return -1;
  const uint32_t jitter = static_cast<uint32_t>(noise >> 8);
  const __m128i one = _mm_set1_epi8(1);
  const __m128i* base = reinterpret_cast<const __m128i*>(kScores.base[needed]);
  const __m128i lo = _mm_and_si128(_mm_add_epi8(_mm_load_si128(base), _mm_and_si128(lanes_of(jitter & 0xFFFF), one)),
                                   lanes_of(legal & 0xFFFF));
  const __m128i hi = _mm_and_si128(_mm_add_epi8(_mm_load_si128(base + 1), _mm_and_si128(lanes_of(jitter >> 16), one)),
                                   lanes_of(legal >> 16));
  const __m128i highest = broadcast_reduce(_mm_max_epu8(lo, hi), [](__m128i a, __m128i b) { return _mm_max_epu8(a, b); });
  const uint32_t at = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(lo, highest))) |
                      static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(hi, highest))) << 16;
  return __builtin_ctz(at & legal);
}
#else
int State::heuristic_take(uint32_t legal, uint32_t needed, uint64_t noise) {
  return heuristic_take_reference(legal, needed, noise);
}
#endif

int State::heuristic_target_reference(uint64_t noise) const {
  const Player& p = players_[turn_seat_];
  int target = -1, target_score = 1 << 30;
  core::for_each_bit(card_lanes(table_mask_, p), [&](int i) {
    const int card = card_in_lane(p, i);
    const int score = 4 * missing_tokens(p, card) - 3 * kH.points[card] + static_cast<int>((noise >> (2 * i + 30)) & 3);
    if (score < target_score) {
      target_score = score;
      target = card;
    }
  });
  return target;
}

Action State::heuristic_action(core::Rng& rng) const {
  if (phase_ == Phase::kChance) return random_action(rng);
  const Player& p = players_[turn_seat_];
  if (phase_ == Phase::kReturning) {
    // Give back the gem colour held most; gold is the last to go.
    int best = -1, most = 0;
    for (int c = 0; c < kColours; ++c)
      if (lane(p.tokens, c) > most) {
        most = lane(p.tokens, c);
        best = c;
      }
    return kReturnToken + (best >= 0 ? best : kGold);
  }
  if (phase_ == Phase::kNobleChoice) return kChooseNoble + core::lowest_bit(qualifying_nobles(turn_seat_));
  if (phase_ != Phase::kMain) return random_action(rng);

  const uint64_t mask = legal_main_mask();
  const uint64_t noise = rng.next();  // tie-breaking bits, two per card lane
  // A little uniform noise keeps rollouts from replaying one line.
  if ((noise >> 60) == 0) return random_action(rng);

  const uint64_t power = p.bonuses + (p.tokens & kGemLanes);

  // 1. Buy the most valuable affordable card: points first, then progress to nobles.
  const uint64_t buys = (mask >> kBuyTable) & ((uint64_t{1} << (kTableSlots + kMaxReserved)) - 1);
  if (buys) {
    int best_action = -1, best_score = -1;
    const uint64_t missing_by_colour = nobles_missing(table_nobles_, p.bonuses);
    core::for_each_bit(buys, [&](int i) {
      const int card = card_in_lane(p, i);
      const int score = 16 * kH.points[card] + 4 * lane(missing_by_colour, kH.bonus[card]) +
                        static_cast<int>((noise >> (2 * i)) & 3);
      if (score > best_score) {
        best_score = score;
        best_action = kBuyTable + i;
      }
    });
    return best_action;
  }

  // 2. Otherwise collect tokens toward the card closest to affordable, weighing points.
  const int target = heuristic_target(noise);

  const uint64_t takes = mask & ((uint64_t{1} << kReserveTable) - 1);
  if (target >= 0 && takes) {
    const uint64_t target_short = sat_sub(kH.cost[target], power);
    uint32_t needed = 0;
    int max_need = 0, max_colour = 0;
    for (int c = 0; c < kColours; ++c)
      if (lane(target_short, c)) {
        needed |= 1u << c;
        if (lane(target_short, c) > max_need) {
          max_need = lane(target_short, c);
          max_colour = c;
        }
      }
    // Two of one colour when that is all the target still needs.
    if (max_need >= 2 && (needed & (needed - 1)) == 0 && ((takes >> (kTakeTwo + max_colour)) & 1))
      return kTakeTwo + max_colour;
    const int best_action = heuristic_take(static_cast<uint32_t>(takes & ((uint64_t{1} << kTakeTwo) - 1)), needed, noise);
    if (best_action >= 0) return best_action;
    return core::lowest_bit(takes);
  }
  // 3. No tokens to take: reserve the target if possible (gold), else anything legal.
  if (target >= 0) {
    for (int s = 0; s < kTableSlots; ++s)
      if (table_[s] == target && ((mask >> (kReserveTable + s)) & 1)) return kReserveTable + s;
  }
  return random_action(rng);
}

double State::evaluate(int player) const {
  if (phase_ == Phase::kOver) {
    double r[kMaxPlayers];
    returns(r);
    return r[player];
  }
  // Prestige-equivalent progress per seat, turned into win chances by a softmax.
  double score[kMaxPlayers];
  double best = -1e9;
  const int n = config_.players;
  for (int s = 0; s < n; ++s) {
    const Player& p = players_[s];
    double v = p.points + 0.5 * p.cards_bought + 0.12 * sum(p.tokens & kGemLanes) + 0.25 * lane(p.tokens, kGold) +
               0.2 * p.num_reserved;
    core::for_each_bit(table_nobles_, [&](int nb) {
      const int missing = sum(sat_sub(kH.noble_requirement[nb], p.bonuses));
      if (missing <= 3) v += 0.6 * (4 - missing);
    });
    score[s] = v;
    if (v > best) best = v;
  }
  double total = 0;
  for (int s = 0; s < n; ++s) total += score[s] = std::exp(0.5 * (score[s] - best));
  return score[player] / total;
}

}  // namespace splendor

namespace splendor {

bool State::others_hold_unseen(int seat) const {
  for (int s = 0; s < config_.players; ++s)
    if (s != seat && players_[s].reserved_blind) return true;
  return has_sampled_cards();  // the decks' cards are then unknown too
}

// A win needs the seat's points at the target when the game ends (the most points
// win, and the game ends once someone reaches the target). In its next two turns a seat
// buys at most two cards, the first affordable now and the second at most 3 tokens
// short of it now (a turn adds at most 3 tokens, or 1 gold and a reserve, or one bonus
// and no tokens), and takes at most one noble a turn, one whose bonuses are at most
// `turns` short. A game ended by a round of passes is won with the most points, maybe
// below the target: that needs the seat unable to move (no gem left to take, its
// reserve full), so it is considered only when so few gems are left and the reserve is
// full or can be filled in time.
bool State::may_win_within(int turns) const {
  if (turns > 2 || phase_ == Phase::kOver) return true;
  const int seat = turn_seat_;
  const Player& p = players_[seat];
  auto short_by = [&](int card) {
    int missing = 0;
    for (int c = 0; c < kColours; ++c)
      missing += std::max(0, tables::kCards[card].cost[c] - lane(p.bonuses, c) - lane(p.tokens, c));
    return std::max(0, missing - lane(p.tokens, kGold));
  };
  int now = 0, next = 0;  // the most points of a card bought now, and of one bought next turn
  auto consider = [&](int card, bool now_too) {
    const int pts = tables::kCards[card].points, missing = short_by(card);
    if (now_too && missing == 0) now = std::max(now, pts);
    if (missing <= 3) next = std::max(next, pts);
  };
  for (int slot = 0; slot < kTableSlots; ++slot)
    if (table_[slot] != kNoCard) consider(table_[slot], true);
  for (int i = 0; i < p.num_reserved; ++i) consider(p.reserved[i], true);
  for (int level = 0; level < kLevels; ++level)
    core::for_each_bit(deck_bits_[level], [&](int i) { consider(first_card_of_level(level) + i, false); });
  int nobles = 0, noble_points = 0;
  core::for_each_bit(table_nobles_, [&](int nb) {
    int missing = 0;
    for (int c = 0; c < kColours; ++c)
      missing += std::max(0, tables::kNobles[nb].requirement[c] - lane(p.bonuses, c));
    if (missing > turns) return;
    ++nobles;
    noble_points = std::max<int>(noble_points, tables::kNobles[nb].points);
  });
  const int most = p.points + now + (turns == 2 ? next : 0) + noble_points * std::min(nobles, turns);
  if (most >= config_.points_to_win) return true;
  if (sum(bank_ & kGemLanes) > 3 * config_.players || p.num_reserved + turns - 1 < config_.reserve_limit) return false;
  for (int s = 0; s < config_.players; ++s)
    if (s != seat && players_[s].points > most) return false;
  return true;
}

}  // namespace splendor
