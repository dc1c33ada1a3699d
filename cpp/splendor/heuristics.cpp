// Search helpers for the base game: the heuristic rollout policy and the static
// evaluation used by rollout cut-offs and the greedy agent. Both are on the search's
// hot path: no allocation, a few passes over 12 table cards and the player's reserve.
#include <cmath>

#include "core/bits.hpp"
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
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
      for (int c = 0; c < kColours; ++c) cost[i] |= uint64_t{tables::kCards[i].cost[c]} << (8 * c);
    }
  }
};

constexpr HeuristicTables kH{};

// Nobles on the table still missing `colour` for this player: buying a card of that
// colour moves toward each of them.
int noble_help(uint16_t table_nobles, uint64_t bonuses, int colour) {
  int help = 0;
  core::for_each_bit(table_nobles, [&](int n) { help += lane(sat_sub(kH.noble_requirement[n], bonuses), colour) > 0; });
  return help;
}

#if !defined(__SSE4_1__)
// Tokens still missing to buy `card` once gold is spent (0: affordable).
int missing_tokens(const Player& p, int card) {
  const int short_sum = sum(sat_sub(kH.cost[card], p.bonuses + (p.tokens & kGemLanes)));
  const int gold = lane(p.tokens, kGold);
  return short_sum > gold ? short_sum - gold : 0;
}
#endif

}  // namespace

Action State::heuristic_action(core::Rng& rng) const {
  if (phase_ == Phase::kChance) return random_action(rng);
  const Player& p = players_[current_];
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
  if (phase_ == Phase::kNobleChoice) return kChooseNoble + core::lowest_bit(qualifying_nobles(current_));
  if (phase_ != Phase::kMain) return random_action(rng);

  const uint64_t mask = legal_main_mask();
  const uint64_t noise = rng.next();  // tie-breaking bits, two per card lane
  // A little uniform noise keeps rollouts from replaying one line.
  if ((noise >> 60) == 0) return random_action(rng);

  // Tokens each card still misses once gold is spent: lanes 0-11 the table, 12-14 the
  // player's reserve, computed for all cards at once like legal_main_mask's buy test.
  const uint64_t power = p.bonuses + (p.tokens & kGemLanes);
  const uint32_t lanes = table_mask_ | (((1u << p.n_reserved) - 1) << kTableSlots);
  auto lane_card = [&](int i) { return i < kTableSlots ? table_[i] : p.reserved[i - kTableSlots]; };
  alignas(16) uint8_t missing[16];
#if defined(__SSE4_1__)
  __m128i shortfall = _mm_setzero_si128();
  for (int c = 0; c < kColours; ++c) {
    const __m128i table_cost = _mm_load_si128(reinterpret_cast<const __m128i*>(lane_cost_[c]));
    const __m128i cost = _mm_insert_epi32(table_cost, static_cast<int>(p.reserved_cost[c]), 3);
    shortfall = _mm_adds_epu8(shortfall, _mm_subs_epu8(cost, _mm_set1_epi8(static_cast<char>(lane(power, c)))));
  }
  _mm_store_si128(reinterpret_cast<__m128i*>(missing),
                  _mm_subs_epu8(shortfall, _mm_set1_epi8(static_cast<char>(lane(p.tokens, kGold)))));
#else
  core::for_each_bit(lanes, [&](int i) { missing[i] = static_cast<uint8_t>(missing_tokens(p, lane_card(i))); });
#endif

  // 1. Buy the most valuable affordable card: points first, then progress to nobles.
  const uint64_t buys = (mask >> kBuyTable) & ((uint64_t{1} << (kTableSlots + kMaxReserved)) - 1);
  if (buys) {
    int best_action = -1, best_score = -1;
    core::for_each_bit(buys, [&](int i) {
      const int card = lane_card(i);
      const int score = 16 * kH.points[card] + 4 * noble_help(table_nobles_, p.bonuses, kH.bonus[card]) +
                        static_cast<int>((noise >> (2 * i)) & 3);
      if (score > best_score) {
        best_score = score;
        best_action = kBuyTable + i;
      }
    });
    return best_action;
  }

  // 2. Otherwise collect tokens toward the card closest to affordable, weighing points.
  int target = -1, target_score = 1 << 30;
  core::for_each_bit(lanes, [&](int i) {
    const int card = lane_card(i);
    const int score = 4 * missing[i] - 3 * kH.points[card] + static_cast<int>((noise >> (2 * i + 30)) & 3);
    if (score < target_score) {
      target_score = score;
      target = card;
    }
  });

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
    int best_action = -1, best_score = -1;
    core::for_each_bit(takes & ((uint64_t{1} << kTakeTwo) - 1), [&](int a) {
      const int score = 8 * __builtin_popcount(kTakeDistinctTable[a].colours & needed) +
                        2 * __builtin_popcount(kTakeDistinctTable[a].colours) + static_cast<int>((noise >> (a + 8)) & 1);
      if (score > best_score) {
        best_score = score;
        best_action = a;
      }
    });
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
               0.2 * p.n_reserved;
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
