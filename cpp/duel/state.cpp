// Splendor Duel rules: setup, turn phases, legal moves, chance, hashing.
#include "duel/state.hpp"

#include <cstddef>
#include <array>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string>

#include "core/reasons.hpp"
#include "core/zobrist.hpp"

namespace duel {

namespace {

using core::Action;
using tables::kCards;
using tables::kRoyals;

using core::swar::sat_sub;
constexpr uint64_t kJokerFlag = uint64_t{64} << 56;

struct CardTables {
  uint64_t cost[kNumCards];  // lanes W U G R K pearl
  // Cost for the buy test, indexed by pyramid entry (kNoCard included): empty slots cost
  // 100 gold-lane tokens and a joker 64 in lane 7, which only a coloured card covers.
  uint64_t buy_test[256];
  uint8_t joker_index[kNumCards];
  uint8_t joker_card[kNumJokers];
};
constexpr CardTables make_card_tables() {
  CardTables t{};
  int j = 0;
  for (auto& c : t.buy_test) c = core::swar::unit(kGold) * 100;
  for (int c = 0; c < kNumCards; ++c) {
    for (int k = 0; k < 6; ++k) t.cost[c] |= uint64_t{kCards[c].cost[k]} << (8 * k);
    t.buy_test[c] = t.cost[c];
    t.joker_index[c] = kNoCard;
    if (kCards[c].bonus == kBonusJoker) {
      t.buy_test[c] |= kJokerFlag;
      t.joker_index[c] = static_cast<uint8_t>(j);
      t.joker_card[j++] = static_cast<uint8_t>(c);
    }
  }
  return t;
}
constexpr CardTables kCardTab = make_card_tables();
static_assert(kCardTab.joker_card[kNumJokers - 1] != 0, "the rules have 9 jokers");

// Zobrist salts.
enum : uint64_t { kSaltCell = 1, kSaltPyramid, kSaltReserve, kSaltOwned, kSaltJoker, kSaltRoyal,
                  kSaltTokens0, kSaltTokens1, kSaltBag, kSaltStatus, kSaltConfig };
// Keys of the components that change during play come from tables (a zobrist_key is a
// chain of multiplies): 1.6 KB of board keys, 10.7 KB of card keys.
struct KeyTables {
  uint64_t cell[kNumCells * 8];
  uint64_t pyramid[kNumSlots][kNumCards];
  uint64_t reserve[2 * kMaxReserved][kNumCards];
  uint64_t owned[2][kNumCards];
};
constexpr KeyTables make_key_tables() {
  KeyTables t{};
  for (int i = 0; i < kNumCells * 8; ++i) t.cell[i] = core::zobrist_key(kSaltCell, static_cast<uint64_t>(i));
  for (int c = 0; c < kNumCards; ++c) {
    const auto card = static_cast<uint64_t>(c);
    for (uint64_t slot = 0; slot < kNumSlots; ++slot) t.pyramid[slot][c] = core::zobrist_key(kSaltPyramid, slot * 128 + card);
    for (uint64_t i = 0; i < 2 * kMaxReserved; ++i) t.reserve[i][c] = core::zobrist_key(kSaltReserve, i * 128 + card);
    for (uint64_t seat = 0; seat < 2; ++seat) t.owned[seat][c] = core::zobrist_key(kSaltOwned, seat * 128 + card);
  }
  return t;
}
constexpr KeyTables kKeys = make_key_tables();
inline uint64_t key_cell(int c, int kind) { return kKeys.cell[c * 8 + kind]; }
inline uint64_t key_pyramid(int slot, int card) { return kKeys.pyramid[slot][card]; }
inline uint64_t key_reserve(int seat, int i, int card) { return kKeys.reserve[seat * 3 + i][card]; }
inline uint64_t key_owned(int seat, int card) { return kKeys.owned[seat][card]; }
inline uint64_t key_joker(int j, int colour) { return core::zobrist_key(kSaltJoker, j * 8 + colour); }
inline uint64_t key_royal(int seat, int r) { return core::zobrist_key(kSaltRoyal, seat * 4 + r); }

// Board occupancy in spiral order (bit i: cell kSpiral[i]), one table entry per row:
// the bag fills the empty cells in this order.
struct SpiralTables {
  uint32_t row[5][32];
};
constexpr SpiralTables make_spiral_tables() {
  SpiralTables t{};
  for (int i = 0; i < kNumCells; ++i) {
    const int r = tables::kSpiral[i] / 5, col = tables::kSpiral[i] % 5;
    for (int v = 0; v < 32; ++v)
      if ((v >> col) & 1) t.row[r][v] |= 1u << i;
  }
  return t;
}
constexpr SpiralTables kSpiralTab = make_spiral_tables();
uint32_t empty_in_spiral_order(uint32_t occupied) {
  uint32_t s = 0;
  for (int r = 0; r < 5; ++r) s |= kSpiralTab.row[r][(occupied >> (5 * r)) & 31];
  return ~s & kBoardMask;
}

int level_of(int card) { return kCards[card].level - 1; }

}  // namespace

// ---- Config -------------------------------------------------------------------------

void Config::validate() const {
  auto check = [](const char* field, int v, int lo, int hi) {
    if (v < lo || v > hi)
      throw core::InvalidInput(std::string(field) + ": " + std::to_string(v) + " is outside " +
                               std::to_string(lo) + ".." + std::to_string(hi));
  };
  // Upper bounds keep every game winnable: 92 card + 9 royal points, 28 crowns in all.
  check("points_to_win", points_to_win, 1, 40);
  check("crowns_to_win", crowns_to_win, 1, 20);
  check("colour_points_to_win", colour_points_to_win, 1, 20);
  check("privileges", privileges, 0, 6);
  check("first_player", first_player, -1, 1);
}

// ---- Setup ----------------------------------------------------------------------------

State State::initial(const Config& config, uint64_t seed, bool explicit_chance) {
  config.validate();
  State s{};
  s.config_ = config;
  s.explicit_chance_ = explicit_chance;
  s.setup_ = true;
  for (auto& c : s.cell_) c = kEmpty;
  for (auto& p : s.pyramid_) p = kNoCard;
  for (auto& j : s.joker_colour_) j = kEmpty;
  for (auto& p : s.players_)
    for (auto& r : p.reserved) r = kNoCard;
  for (int l = 0; l < 3; ++l) s.deck_[l] = (1u << (kLevelFirst[l + 1] - kLevelFirst[l])) - 1;
  s.bag_ = 4 * (core::swar::unit(kWhite) + core::swar::unit(kBlue) + core::swar::unit(kGreen) + core::swar::unit(kRed) + core::swar::unit(kBlack)) +
           2 * core::swar::unit(kPearl) + 3 * core::swar::unit(kGold);
  s.deal_.s = core::splitmix64(seed);
  s.resolve();
  return s;
}

void State::set_explicit_chance(bool on) {
  explicit_chance_ = on;
  if (!on && is_chance()) resolve();
}

// ---- Primitive edits (keep the incremental hash in step) ------------------------------

template <bool H>
void State::place(int c, int kind) {
  uint32_t bit = 1u << c;
  int old = cell_[c];
  if (old != kEmpty) {
    kmask_[old] &= ~bit;
    mix_hash<H>(key_cell(c, old));
  }
  cell_[c] = static_cast<uint8_t>(kind);
  if (kind != kEmpty) {
    kmask_[kind] |= bit;
    mix_hash<H>(key_cell(c, kind));
  }
}

void State::set_cell(int c, int kind) {
  int old = cell_[c];
  if (old != kEmpty) bag_ += core::swar::unit(old);  // test edits keep the 25 tokens accounted for
  if (kind != kEmpty) bag_ -= core::swar::unit(kind);
  place(c, kind);
}

void State::set_tokens(int seat, uint64_t tokens) {
  bag_ = bag_ + players_[seat].tokens - tokens;
  players_[seat].tokens = tokens;
}

State State::empty(const Config& config) {
  State s = initial(config, 0, true);  // stops at the first chance node, nothing dealt yet
  s.setup_ = false;
  s.reveal_ = kNoCard;
  s.fills_ = 0;
  s.phase_ = Phase::kMain;
  s.turn_seat_ = 0;
  s.explicit_chance_ = false;
  return s;
}

void State::set_pyramid_card(int slot, int card) {
  int old = pyramid_[slot];
  if (old != kNoCard) deck_[level_of(old)] |= 1u << (old - kLevelFirst[level_of(old)]);
  if (card != kNoCard) deck_[level_of(card)] &= ~(1u << (card - kLevelFirst[level_of(card)]));
  set_pyramid(slot, card);
}

void State::give_card(int seat, int card, int joker_colour) {
  deck_[level_of(card)] &= ~(1u << (card - kLevelFirst[level_of(card)]));
  own_card(seat, card);
  if (kCards[card].bonus == kBonusJoker && joker_colour >= 0) join_joker(seat, card, joker_colour);
}

void State::give_reserved(int seat, int card, bool blind) {
  deck_[level_of(card)] &= ~(1u << (card - kLevelFirst[level_of(card)]));
  add_reserved(seat, card, blind);
}

void State::give_royal(int seat, int r) {
  royals_avail_ = static_cast<uint8_t>(royals_avail_ & ~(1u << r));
  players_[seat].royals = static_cast<uint8_t>(players_[seat].royals | (1u << r));
  players_[seat].points = static_cast<uint8_t>(players_[seat].points + kRoyals[r].points);
  mix_hash<true>(key_royal(seat, r));
}

template <bool H>
void State::take_cell(int seat, int c) {
  players_[seat].tokens += core::swar::unit(cell_[c]);
  place<H>(c, kEmpty);
}

template <bool H>
void State::set_pyramid(int slot, int card) {
  if (pyramid_[slot] != kNoCard) mix_hash<H>(key_pyramid(slot, pyramid_[slot]));
  pyramid_[slot] = static_cast<uint8_t>(card);
  pyramid_mask_ = static_cast<uint16_t>((pyramid_mask_ & ~(1u << slot)) | unsigned{card != kNoCard} << slot);
  if (card != kNoCard) mix_hash<H>(key_pyramid(slot, card));
}

template <bool H>
void State::add_reserved(int seat, int card, bool blind) {
  Player& p = players_[seat];
  int i = p.num_reserved++;
  p.reserved[i] = static_cast<uint8_t>(card);
  if (blind) p.reserved_blind |= static_cast<uint8_t>(1u << i);
  mix_hash<H>(key_reserve(seat, i, card));
}

template <bool H>
void State::remove_reserved(int seat, int index) {
  Player& p = players_[seat];
  for (int i = index; i < p.num_reserved; ++i) mix_hash<H>(key_reserve(seat, i, p.reserved[i]));
  for (int i = index; i + 1 < p.num_reserved; ++i) {
    p.reserved[i] = p.reserved[i + 1];
    mix_hash<H>(key_reserve(seat, i, p.reserved[i]));
  }
  uint8_t low = static_cast<uint8_t>(p.reserved_blind & ((1u << index) - 1));
  p.reserved_blind = static_cast<uint8_t>(low | ((p.reserved_blind >> (index + 1)) << index));
  p.reserved[--p.num_reserved] = kNoCard;
}

// A pyramid card left: its slot is refilled from its deck, or stays empty.
void State::refill_slot(int slot) {
  if (deck_[slot_level(slot)]) reveal_ = static_cast<uint8_t>(slot);
}

void State::gain_privilege(int seat) {
  Player& p = players_[seat];
  if (privilege_supply() > 0) {
    ++p.privileges;
  } else if (players_[seat ^ 1].privileges > 0) {
    --players_[seat ^ 1].privileges;
    ++p.privileges;
  }
}

template <bool H>
void State::own_card(int seat, int card) {
  Player& p = players_[seat];
  const CardRow& r = kCards[card];
  if (card < 64) p.owned_lo |= uint64_t{1} << card;
  else p.owned_hi = static_cast<uint8_t>(p.owned_hi | (1u << (card - 64)));
  mix_hash<H>(key_owned(seat, card));
  p.points = static_cast<uint8_t>(p.points + r.points);
  p.crowns = static_cast<uint8_t>(p.crowns + r.crowns);
  if (r.bonus < 5) {
    p.bonuses += core::swar::unit(r.bonus) * r.bonus_count;
    p.colour_points[r.bonus] = static_cast<uint8_t>(p.colour_points[r.bonus] + r.points);
  }
}

template <bool H>
void State::join_joker(int seat, int card, int colour) {
  Player& p = players_[seat];
  int j = kCardTab.joker_index[card];
  joker_colour_[j] = static_cast<uint8_t>(colour);
  mix_hash<H>(key_joker(j, colour));
  p.bonuses += core::swar::unit(colour) * kCards[card].bonus_count;
  p.colour_points[colour] = static_cast<uint8_t>(p.colour_points[colour] + kCards[card].points);
}

template <bool H>
void State::add_card(int seat, int card) {
  const CardRow& r = kCards[card];
  int before = players_[seat].crowns;
  own_card<H>(seat, card);
  int after = players_[seat].crowns;
  pend_royal_ = static_cast<uint8_t>(pend_royal_ + (before < 3 && after >= 3) + (before < 6 && after >= 6));
  // Abilities in the card's order; joker placement is the first decision.
  if (r.abilities & tables::kAbility_bonus_copy) pend_joker_ = static_cast<uint8_t>(card);
  if (r.abilities & tables::kAbility_again) again_ = true;
  if ((r.abilities & tables::kAbility_token) && r.bonus < 5) pend_token_ = r.bonus;
  if (r.abilities & tables::kAbility_privilege) gain_privilege(seat);
  if (r.abilities & tables::kAbility_steal) ++pend_steal_;
}

int State::joker_colour(int card) const {
  int j = kCardTab.joker_index[card];
  return j == kNoCard || joker_colour_[j] == kEmpty ? -1 : joker_colour_[j];
}

// ---- Phase sequencing -----------------------------------------------------------------

template <bool H>
void State::resolve() {
  for (;;) {
    Phase next;
    if (fills_) {
      next = Phase::kFill;
    } else if (reveal_ != kNoCard) {
      next = Phase::kReveal;
    } else if (setup_) {
      const int slot = core::lowest_bit(~pyramid_mask_ & 0xFFFFu);  // kNumSlots when full
      if (slot < kNumSlots) {
        reveal_ = static_cast<uint8_t>(slot);
        continue;
      }
      if (bag_) {
        fills_ = static_cast<uint8_t>(core::swar::sum(bag_));
        continue;
      }
      if (config_.first_player < 0) {
        next = Phase::kFirst;
      } else {
        apply_chance<H>(kFirstBase + config_.first_player);
        continue;
      }
    } else if (!mandatory_done_) {
      phase_ = Phase::kMain;
      return;
    } else if (pend_joker_ != kNoCard) {
      next = Phase::kJoker;
    } else if (pend_token_ != kNoCard) {
      if (!kmask_[pend_token_]) {  // none of the card's colour on the board: ignored
        pend_token_ = kNoCard;
        continue;
      }
      next = Phase::kToken;
    } else if (pend_steal_) {
      if (!(players_[turn_seat_ ^ 1].tokens & kGemPearlLanes)) {
        pend_steal_ = 0;
        continue;
      }
      next = Phase::kSteal;
    } else if (pend_royal_) {
      if (!royals_avail_) {
        pend_royal_ = 0;
        continue;
      }
      next = Phase::kRoyal;
    } else if (players_[turn_seat_].num_tokens() > kMaxTokensHeld) {
      next = Phase::kDiscard;
    } else {
      end_turn();
      return;
    }
    phase_ = next;
    if (next == Phase::kFill && !explicit_chance_) {  // one pass along the spiral for the whole fill
      uint32_t occupied = 0;
      for (uint32_t m : kmask_) occupied |= m;
      // As many empty cells as tokens in the bag (25 in all): no bound check needed.
      for (uint32_t empty = empty_in_spiral_order(occupied); fills_; empty &= empty - 1) {
        const int c = tables::kSpiral[core::lowest_bit(empty)];
        const int kind = draw_kind(deal_);
        place<H>(c, kind);
        bag_ -= core::swar::unit(kind);
        --fills_;
      }
      continue;
    }
    if (next == Phase::kReveal && !explicit_chance_) {  // the card itself, no action id round trip
      reveal<H>(draw_card(deal_));
      continue;
    }
    if (next >= Phase::kReveal && !explicit_chance_) {
      apply_chance<H>(draw(deal_));
      continue;
    }
    return;
  }
}

// Colour points, points and crowns are adjacent bytes of Player: one 8-byte read and one
// SWAR comparison test all three victory conditions.
static_assert(offsetof(Player, points) == offsetof(Player, colour_points) + 5 &&
              offsetof(Player, crowns) == offsetof(Player, colour_points) + 6 &&
              offsetof(Player, colour_points) + 8 <= sizeof(Player));

void State::end_turn() {
  uint64_t score;  // lanes: colour points W U G R K, points, crowns, privileges
  std::memcpy(&score, reinterpret_cast<const unsigned char*>(&players_[turn_seat_]) + offsetof(Player, colour_points), 8);
  // Every lane is below 128 and every threshold at most 128 (privileges: never).
  const uint64_t thresholds = 0x0000000101010101ULL * static_cast<uint64_t>(config_.colour_points_to_win) |
                              static_cast<uint64_t>(config_.points_to_win) << 40 |
                              static_cast<uint64_t>(config_.crowns_to_win) << 48 | uint64_t{128} << 56;
  if (((score | core::swar::kHigh) - thresholds) & core::swar::kHigh) {
    phase_ = Phase::kOver;
    winner_ = static_cast<int8_t>(turn_seat_);
    return;
  }
  turn_seat_ ^= static_cast<uint8_t>(!again_);
  again_ = replenished_ = mandatory_done_ = false;
  phase_ = Phase::kMain;
}

// ---- Chance ---------------------------------------------------------------------------

Action State::draw(core::Rng& rng) const {
  switch (phase_) {
    case Phase::kReveal:
      return kRevealBase + draw_card(rng);
    case Phase::kFill:
      return kFillBase + draw_kind(rng);
    default:
      return kFirstBase + static_cast<int>(rng.below(2));
  }
}

int State::draw_card(core::Rng& rng) const {
  const int level = reveal_ < kNumSlots ? slot_level(reveal_) : reveal_ - kNumSlots;
  const uint32_t d = deck_[level];
  return kLevelFirst[level] + core::nth_set_bit32(d, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(d)))));
}

int State::draw_kind(core::Rng& rng) const {
  // The r-th token in kind order: lane k of bag * 0x0101... is the count of kinds 0..k,
  // and the kind is the number of those prefix counts <= r (branch-free).
  const uint64_t r = rng.below(static_cast<uint32_t>(core::swar::sum(bag_)));
  const uint64_t prefix = bag_ * core::swar::kOnes;
  return core::popcount((((core::swar::kOnes * r) | core::swar::kHigh) - prefix) & core::swar::kHigh);
}

Action State::dealt_outcome() const {
  core::Rng copy = deal_;
  return draw(copy);
}

template <bool H>
void State::apply_chance(Action a) {
  if (a >= kFirstBase) {
    int first = a - kFirstBase;
    setup_ = false;
    turn_seat_ = static_cast<uint8_t>(first);
    mandatory_done_ = false;
    if (config_.privileges > 0) players_[first ^ 1].privileges = 1;  // the second player's privilege
  } else if (a >= kFillBase) {
    int kind = a - kFillBase;
    uint32_t occupied = 0;
    for (uint32_t m : kmask_) occupied |= m;
    place<H>(tables::kSpiral[core::lowest_bit(empty_in_spiral_order(occupied))], kind);
    bag_ -= core::swar::unit(kind);
    --fills_;
  } else {
    reveal<H>(a - kRevealBase);
  }
}

template <bool H>
void State::reveal(int card) {
  int level = level_of(card);
  deck_[level] &= ~(1u << (card - kLevelFirst[level]));
  if (reveal_ < kNumSlots) set_pyramid<H>(reveal_, card);
  else add_reserved<H>(turn_seat_, card, true);
  reveal_ = kNoCard;
}

void State::chance_outcomes(ChanceList& out) const {
  out.clear();
  if (phase_ == Phase::kReveal) {
    int level = reveal_ < kNumSlots ? slot_level(reveal_) : reveal_ - kNumSlots;
    uint32_t d = deck_[level];
    double p = 1.0 / core::popcount(d);
    core::for_each_bit(d, [&](int i) { out.push({kRevealBase + kLevelFirst[level] + i, p}); });
  } else if (phase_ == Phase::kFill) {
    double total = core::swar::sum(bag_);
    for (int k = 0; k < kNumKinds; ++k)
      if (core::swar::lane(bag_, k)) out.push({kFillBase + k, core::swar::lane(bag_, k) / total});
  } else if (phase_ == Phase::kFirst) {
    out.push({kFirstBase, 0.5});
    out.push({kFirstBase + 1, 0.5});
  }
}

// ---- Legal moves ------------------------------------------------------------------------

namespace {
// Buyable cards for tokens `tokens`: bits 0-11 pyramid slots, 12-14 reserve indexes.
// A joker needs a coloured card to sit on; empty slots (kNoCard) never pass.
uint16_t buyable_with(const Player& p, uint64_t tokens, const uint8_t* pyramid) {
  // Shortfall = sum of max(0, cost - bonus - tokens): one saturating subtraction per card.
  const uint64_t avail = p.bonuses + (tokens & kGemPearlLanes) + (p.bonuses ? kJokerFlag : 0);
  const int gold = core::swar::lane(tokens, kGold);
  const unsigned candidates = 0xFFFu | ((1u << p.num_reserved) - 1) << kNumSlots;
#if defined(__SSE2__)
  // Two cards per register: psubusb subtracts with saturation, psadbw sums each card's
  // lanes, and three rounds of packs bring the 16 sums to bytes in slot order.
  const __m128i av = _mm_set1_epi64x(static_cast<long long>(avail));
  auto pair = [&](int a, int b) {
    const __m128i cost = _mm_set_epi64x(static_cast<long long>(kCardTab.buy_test[b]),
                                        static_cast<long long>(kCardTab.buy_test[a]));
    return _mm_sad_epu8(_mm_subs_epu8(cost, av), _mm_setzero_si128());
  };
  const uint8_t* r = p.reserved;
  const __m128i lo = _mm_packs_epi32(_mm_packs_epi32(pair(pyramid[0], pyramid[1]), pair(pyramid[2], pyramid[3])),
                                     _mm_packs_epi32(pair(pyramid[4], pyramid[5]), pair(pyramid[6], pyramid[7])));
  const __m128i hi = _mm_packs_epi32(_mm_packs_epi32(pair(pyramid[8], pyramid[9]), pair(pyramid[10], pyramid[11])),
                                     _mm_packs_epi32(pair(r[0], r[1]), pair(r[2], kNoCard)));
  const __m128i shortfall = _mm_packus_epi16(lo, hi);
  const __m128i covered = _mm_cmpeq_epi8(_mm_min_epu8(shortfall, _mm_set1_epi8(static_cast<char>(gold))), shortfall);
  return static_cast<uint16_t>(static_cast<unsigned>(_mm_movemask_epi8(covered)) & candidates);
#else
  auto ok = [&](int card) {
    return unsigned{core::swar::sum(sat_sub(kCardTab.buy_test[card], avail)) <= gold};
  };
  unsigned m = 0;
  for (int s = 0; s < kNumSlots; ++s) m |= ok(pyramid[s]) << s;
  for (int i = 0; i < p.num_reserved; ++i) m |= ok(p.reserved[i]) << (kNumSlots + i);
  return static_cast<uint16_t>(m & candidates);
#endif
}
}  // namespace

uint16_t State::buyable(int seat) const { return buyable_with(players_[seat], players_[seat].tokens, pyramid_); }

State::MainMoves State::main_moves() const {
  MainMoves m{};
  const Player& p = players_[turn_seat_];
  uint32_t gp = kmask_[0] | kmask_[1] | kmask_[2] | kmask_[3] | kmask_[4] | kmask_[5];
  uint32_t gold = kmask_[kGold];
  m.starts[0] = gp;
  for (int ty = 1; ty < kNumSegTypes; ++ty) {
    int sh = kSegShift[ty];
    uint32_t s = gp & kSeg.valid_starts[ty] & (gp >> sh);
    if (kSegLen[ty] == 3) s &= gp >> (2 * sh);
    m.starts[ty] = s;
  }
  unsigned targets = pyramid_mask_;
  for (int l = 0; l < 3; ++l) targets |= unsigned{deck_[l] != 0} << (kNumSlots + l);
  // Bitwise & and |: random positions make short-circuit branches unpredictable.
  bool can_reserve = (gold != 0) & (p.num_reserved < kMaxReserved) & (targets != 0);
  m.buys = buyable(turn_seat_);
  m.replenish = !replenished_ & (bag_ != 0);
  // Masks, not branches: whether a player may reserve or spend a privilege changes
  // from move to move and would mispredict.
  m.gold_cells = gold & (0u - can_reserve);
  m.reserve_targets = static_cast<uint16_t>(targets & (0u - can_reserve));
  const bool may_spend = (p.privileges != 0) & !replenished_ & (gp != 0);
  m.privilege_cells = gp & (0u - may_spend);
  // Engine convention: no spending that leaves no mandatory action even after the
  // forced replenish. Only taking the last gem/pearl of board and bag can do that.
  // One OR'ed word, one test: `may_spend & ...` compiles to a branch on may_spend.
  const uint64_t spend_safe = (gp & (gp - 1)) | (bag_ & kGemPearlLanes) | (m.privilege_cells == 0);
  if (!spend_safe) {
    bool reserve_after = (gold || core::swar::lane(bag_, kGold)) && p.num_reserved < kMaxReserved && targets;
    if (!reserve_after && !m.buys) {
      uint64_t after = p.tokens + core::swar::unit(cell_[core::lowest_bit(gp)]);
      if (!buyable_with(p, after, pyramid_)) m.privilege_cells = 0;
    }
  }
  return m;
}

int State::phase_base() const {
  static constexpr int kBase[kNumPhases] = {0, kJokerBase, kTokenBase, kStealBase, kRoyalBase, kDiscardBase,
                                            kRevealBase, kFillBase, kFirstBase, 0};
  return kBase[static_cast<int>(phase_)] + (phase_ == Phase::kReveal ? kLevelFirst[slot_level(reveal_)] : 0);
}

namespace {
uint32_t nonzero_lanes(uint64_t w, int n) {
  uint32_t m = 0;
  for (int k = 0; k < n; ++k) m |= uint32_t{core::swar::lane(w, k) != 0} << k;
  return m;
}
}  // namespace

uint32_t State::choice_mask() const {
  // Tests in order of frequency (discards are most of the non-main decisions).
  if (phase_ == Phase::kDiscard) return nonzero_lanes(players_[turn_seat_].tokens, 7);
  if (phase_ == Phase::kJoker) return nonzero_lanes(players_[turn_seat_].bonuses, 5);
  if (phase_ == Phase::kSteal) return nonzero_lanes(players_[turn_seat_ ^ 1].tokens, 6);
  if (phase_ == Phase::kRoyal) return royals_avail_;
  if (phase_ == Phase::kToken) return kmask_[pend_token_];
  if (phase_ == Phase::kReveal) return deck_[slot_level(reveal_)];
  if (phase_ == Phase::kFill) return nonzero_lanes(bag_, 7);
  if (phase_ == Phase::kFirst) return 3;
  return 0;
}

void State::legal_actions(ActionList& out) const {
  out.clear();
  if (phase_ == Phase::kOver) return;
  if (phase_ != Phase::kMain) {
    int base = phase_base();
    core::for_each_bit(choice_mask(), [&](int i) { out.push(base + i); });
    return;
  }
  MainMoves m = main_moves();
  for (int ty = 0; ty < kNumSegTypes; ++ty)
    core::for_each_bit(m.starts[ty], [&](int c) { out.push(kSeg.id[ty][c]); });
  core::for_each_bit(m.privilege_cells, [&](int c) { out.push(kPrivilegeBase + c); });
  if (m.replenish) out.push(kReplenish);
  core::for_each_bit(m.reserve_targets, [&](int t) {
    core::for_each_bit(m.gold_cells, [&](int g) { out.push(kReserveBase + t * 25 + g); });
  });
  core::for_each_bit(m.buys, [&](int b) { out.push(kBuyBase + b); });
}

bool State::is_legal(Action a) const {
  if (a < 0 || a >= kNumDistinctActions || phase_ == Phase::kOver) return false;
  if (phase_ != Phase::kMain) {
    int off = a - phase_base();
    return off >= 0 && off < 32 && ((choice_mask() >> off) & 1);
  }
  if (a >= kTokenBase) return false;
  MainMoves m = main_moves();
  if (a < kNumTakes) {
    for (int ty = kNumSegTypes - 1; ty >= 0; --ty)
      if (a >= kSeg.base[ty]) {
        int start = kSeg.seg[a].cells[0];
        return (m.starts[ty] >> start) & 1;
      }
  }
  if (a < kReplenish) return (m.privilege_cells >> (a - kPrivilegeBase)) & 1;
  if (a == kReplenish) return m.replenish;
  if (a < kBuyBase) {
    int t = (a - kReserveBase) / 25, g = (a - kReserveBase) % 25;
    return ((m.reserve_targets >> t) & 1) && ((m.gold_cells >> g) & 1);
  }
  return (m.buys >> (a - kBuyBase)) & 1;
}

Action State::random_action(core::Rng& rng) const {
  if (phase_ == Phase::kOver) return -1;
  if (is_chance()) return draw(rng);
  if (phase_ != Phase::kMain) {
    uint32_t mask = choice_mask();
    int k = static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(mask))));
    return phase_base() + core::nth_set_bit32(mask, k);
  }
  MainMoves m = main_moves();
  int n_take[kNumSegTypes];
  int total = 0;
  for (int ty = 0; ty < kNumSegTypes; ++ty) total += n_take[ty] = core::popcount(m.starts[ty]);
  int n_priv = core::popcount(m.privilege_cells);
  int n_gold = core::popcount(m.gold_cells);
  int n_res = core::popcount(m.reserve_targets) * n_gold;
  int n_other = total + n_priv + m.replenish + n_res;
  int r = static_cast<int>(rng.below(static_cast<uint32_t>(n_other + core::popcount(m.buys))));
  if (r >= n_other) return kBuyBase + core::nth_set_bit32(m.buys, r - n_other);
  if (r < total) {  // the type by counting prefix sums below r: no data-dependent exit
    int ty = 0, before = 0, cum = 0;
    for (int t = 0; t < kNumSegTypes - 1; ++t) {
      cum += n_take[t];
      int past = r >= cum;
      ty += past;
      before += past * n_take[t];
    }
    return kSeg.id[ty][core::nth_set_bit32(m.starts[ty], r - before)];
  }
  r -= total;
  if (r < n_priv) return kPrivilegeBase + core::nth_set_bit32(m.privilege_cells, r);
  r -= n_priv;
  if (m.replenish) {
    if (r == 0) return kReplenish;
    --r;
  }
  int t = core::nth_set_bit32(m.reserve_targets, r / n_gold);
  return kReserveBase + t * 25 + core::nth_set_bit32(m.gold_cells, r % n_gold);
}

// ---- Applying actions -------------------------------------------------------------------

template <bool H>
void State::apply_impl(Action a) {
  Player& p = players_[turn_seat_];
  // The main phase first as a plain test: a jump table over phases mispredicts often.
  if (phase_ == Phase::kMain) {
      if (a < kNumTakes) {
        // The whole segment at once from the kind masks: a loop over its random length
        // would mispredict. Takes hold gems and pearls only.
        const Segment& s = kSeg.seg[a];
        const uint32_t seg = s.mask;
        // 3 of one colour or both pearls: one privilege for the opponent.
        const bool gift = (core::popcount(kmask_[kPearl] & seg) == 2) | ((s.len == 3) & ((kmask_[cell_[s.cells[0]]] & seg) == seg));
        if constexpr (H)
          for (int k = 0; k < s.len; ++k) mix_hash<H>(key_cell(s.cells[k], cell_[s.cells[k]]));
        uint64_t gained = 0;
        for (int k = 0; k <= kPearl; ++k) {
          gained += core::swar::unit(k) * static_cast<uint64_t>(core::popcount(kmask_[k] & seg));
          kmask_[k] &= ~seg;
        }
        p.tokens += gained;
        for (uint8_t c : s.cells) cell_[c] = kEmpty;
        if (gift) gain_privilege(turn_seat_ ^ 1);
        mandatory_done_ = true;
      } else if (a < kReplenish) {
        --p.privileges;
        take_cell<H>(turn_seat_, a - kPrivilegeBase);
      } else if (a == kReplenish) {
        replenished_ = true;
        fills_ = static_cast<uint8_t>(core::swar::sum(bag_));
        gain_privilege(turn_seat_ ^ 1);
      } else if (a < kBuyBase) {
        int t = (a - kReserveBase) / 25;
        take_cell<H>(turn_seat_, (a - kReserveBase) % 25);
        if (t < kNumSlots) {
          add_reserved<H>(turn_seat_, pyramid_[t], false);
          set_pyramid<H>(t, kNoCard);
          refill_slot(t);
        } else {
          reveal_ = static_cast<uint8_t>(t);  // 12 + level: the deck's top card, blind
        }
        mandatory_done_ = true;
      } else {
        int b = a - kBuyBase, card;
        if (b < kNumSlots) {
          card = pyramid_[b];
          set_pyramid<H>(b, kNoCard);
          refill_slot(b);
        } else {
          card = p.reserved[b - kNumSlots];
          remove_reserved<H>(turn_seat_, b - kNumSlots);
        }
        // Gems and pearls pay first; gold covers the rest. Spent tokens go to the bag.
        uint64_t need = sat_sub(kCardTab.cost[card], p.bonuses);
        uint64_t shortfall = sat_sub(need, p.tokens & kGemPearlLanes);
        uint64_t pay = need - shortfall + core::swar::unit(kGold) * static_cast<uint64_t>(core::swar::sum(shortfall));
        p.tokens -= pay;
        bag_ += pay;
        add_card<H>(turn_seat_, card);
        mandatory_done_ = true;
      }
  } else {
    switch (phase_) {
    case Phase::kJoker:
      join_joker<H>(turn_seat_, pend_joker_, a - kJokerBase);
      pend_joker_ = kNoCard;
      break;
    case Phase::kToken:
      take_cell<H>(turn_seat_, a - kTokenBase);
      pend_token_ = kNoCard;
      break;
    case Phase::kSteal:
      players_[turn_seat_ ^ 1].tokens -= core::swar::unit(a - kStealBase);
      p.tokens += core::swar::unit(a - kStealBase);
      --pend_steal_;
      break;
    case Phase::kRoyal: {
      int r = a - kRoyalBase;
      royals_avail_ = static_cast<uint8_t>(royals_avail_ & ~(1u << r));
      p.royals = static_cast<uint8_t>(p.royals | (1u << r));
      mix_hash<H>(key_royal(turn_seat_, r));
      p.points = static_cast<uint8_t>(p.points + kRoyals[r].points);
      if (kRoyals[r].abilities & tables::kAbility_again) again_ = true;
      if (kRoyals[r].abilities & tables::kAbility_privilege) gain_privilege(turn_seat_);
      if (kRoyals[r].abilities & tables::kAbility_steal) ++pend_steal_;
      --pend_royal_;
      break;
    }
    case Phase::kDiscard:
      p.tokens -= core::swar::unit(a - kDiscardBase);
      bag_ += core::swar::unit(a - kDiscardBase);
      break;
    default:  // chance: the deal advances whatever outcome the caller chose
      deal_.next();
      apply_chance<H>(a);
      break;
    }
  }
  resolve<H>();
}

void State::apply(Action a) { apply_impl<true>(a); }

void State::apply_unhashed(Action a) {
  hash_.stale = true;  // first, so the call below is a tail call
  apply_impl<false>(a);
}

// The position reader builds states with these.
template void State::place<true>(int, int);
template void State::set_pyramid<true>(int, int);
template void State::own_card<true>(int, int);
template void State::join_joker<true>(int, int, int);
template void State::resolve<true>();

void State::apply_checked(Action a) {
  if (!is_legal(a)) core::refuse_illegal(*this, a, kNumDistinctActions);
  apply(a);
}

void State::returns(double* out) const {
  out[0] = out[1] = 0.0;
  if (winner_ >= 0) out[winner_] = 1.0;
}

// ---- Hashing ---------------------------------------------------------------------------

namespace {
uint64_t status_word(const Config& c, uint64_t flags, const Player* pl) {
  uint64_t w = flags;
  w = w * 16 + pl[0].privileges;
  w = w * 16 + pl[1].privileges;
  w = w * 8 + pl[0].reserved_blind;
  w = w * 8 + pl[1].reserved_blind;
  uint64_t config = static_cast<uint64_t>(c.points_to_win) | static_cast<uint64_t>(c.crowns_to_win) << 8 |
                 static_cast<uint64_t>(c.colour_points_to_win) << 16 |
                 static_cast<uint64_t>(c.privileges) << 24 | static_cast<uint64_t>(c.first_player + 1) << 32;
  return core::word_key(kSaltStatus, w) ^ core::word_key(kSaltConfig, config);
}
}  // namespace

uint64_t State::hash() const {
  // Packed words are mixed here (O(1)); the many-part components are kept incrementally.
  uint64_t flags = static_cast<uint64_t>(phase_) | uint64_t{turn_seat_} << 4 | uint64_t{setup_} << 5 |
                   uint64_t{replenished_} << 6 | uint64_t{again_} << 7 | uint64_t{mandatory_done_} << 8 |
                   uint64_t{fills_} << 9 | uint64_t{reveal_} << 14 | uint64_t{pend_joker_} << 22 |
                   uint64_t{pend_token_} << 30 | uint64_t{pend_steal_} << 38 |
                   uint64_t{pend_royal_} << 41 | uint64_t{royals_avail_} << 44 |
                   static_cast<uint64_t>(winner_ + 1) << 48;
  return (hash_.stale ? incremental_part() : hash_.value) ^ core::word_key(kSaltTokens0, players_[0].tokens) ^ core::word_key(kSaltTokens1, players_[1].tokens) ^
         core::word_key(kSaltBag, bag_) ^ status_word(config_, flags, players_);
}

uint64_t State::incremental_part() const {
  uint64_t h = 0;
  for (int c = 0; c < kNumCells; ++c)
    if (cell_[c] != kEmpty) h ^= key_cell(c, cell_[c]);
  for (int slot = 0; slot < kNumSlots; ++slot)
    if (pyramid_[slot] != kNoCard) h ^= key_pyramid(slot, pyramid_[slot]);
  for (int seat = 0; seat < 2; ++seat) {
    const Player& p = players_[seat];
    for (int i = 0; i < p.num_reserved; ++i) h ^= key_reserve(seat, i, p.reserved[i]);
    for (int card = 0; card < kNumCards; ++card)
      if (p.owns(card)) h ^= key_owned(seat, card);
    for (int r = 0; r < kNumRoyals; ++r)
      if ((p.royals >> r) & 1) h ^= key_royal(seat, r);
  }
  for (int j = 0; j < kNumJokers; ++j)
    if (joker_colour_[j] != kEmpty) h ^= key_joker(j, joker_colour_[j]);
  return h;
}

uint64_t State::compute_hash() const {
  State s = *this;
  s.hash_ = {incremental_part(), false};
  return s.hash();
}

// ---- Hidden information -----------------------------------------------------------------

const core::CardCatalogue& shown_cards() {
  static constexpr auto kShown = [] {
    std::array<core::ShownCard, kNumCards> out{};
    for (int c = 0; c < kNumCards; ++c)
      out[static_cast<size_t>(c)] = {kCards[c].bonus, static_cast<uint8_t>(kCards[c].level - 1), kCards[c].points,
                                     kCards[c].crowns, static_cast<uint8_t>(kCards[c].bonus_count > 1 ? kCards[c].bonus_count - 1 : 0)};
    return out;
  }();
  static constexpr core::CardCatalogue kCatalogue{kShown.data(), kNumCards, kBonusNone + 1};
  return kCatalogue;
}

bool State::has_sampled_cards() const {
  return (players_[0].sampled_lo | players_[1].sampled_lo | players_[0].sampled_hi | players_[1].sampled_hi) != 0;
}

bool State::resample_bought(uint32_t unseen[3], core::Rng& rng, const uint64_t* excluded) {
  core::CardSet pool{};
  for (int l = 0; l < 3; ++l)
    core::for_each_bit(unseen[l], [&](int b) { core::add_card(pool, kLevelFirst[l] + b); });
  // One summary per seat and kind, the jokers per colour they joined: slot seat * 11 +
  // colour (0-4), 5 + the colour a joker joined, 10 colourless; then the used slots packed.
  constexpr int kSlots = 11;
  core::BoughtSummary summaries[core::kMaxSummaries];
  core::CardSet cards[core::kMaxSummaries];
  int joined[core::kMaxSummaries];
  for (int k = 0; k < 2 * kSlots; ++k) {
    const int slot = k % kSlots;
    summaries[k] = {static_cast<uint8_t>(k / kSlots),
                    static_cast<uint8_t>(slot < 5 ? slot : slot < 10 ? kBonusJoker : kBonusNone), 0, 0, {0, 0, 0}};
    cards[k] = {};
    joined[k] = slot >= 5 && slot < 10 ? slot - 5 : -1;
  }
  for (int seat = 0; seat < 2; ++seat) {
    const Player& p = players_[seat];
    const auto add = [&](int card) {
      const int bonus = kCards[card].bonus;
      core::BoughtSummary& sum =
          summaries[seat * kSlots + (bonus < 5 ? bonus : bonus == kBonusJoker ? 5 + joker_colour(card) : 10)];
      const core::ShownCard& c = shown_cards().cards[card];
      ++sum.count, ++sum.levels[c.level];
      sum.points = static_cast<uint8_t>(sum.points + c.points);
      sum.crowns = static_cast<uint8_t>(sum.crowns + c.crowns);
      sum.extra = static_cast<uint8_t>(sum.extra + c.extra);
      core::add_card(cards[&sum - summaries], card);
      core::add_card(pool, card);
    };
    core::for_each_bit(p.sampled_lo, add);
    core::for_each_bit(uint64_t{p.sampled_hi}, [&](int b) { add(64 + b); });
  }
  int n = 0;
  for (int k = 0; k < 2 * kSlots; ++k)
    if (summaries[k].count) summaries[n] = summaries[k], cards[n] = cards[k], joined[n] = joined[k], ++n;
  if (!core::redraw_bought(shown_cards(), summaries, n, pool, rng, excluded, cards)) return false;
  for (Player& p : players_) {
    for (int card = 0; card < kNumCards; ++card)
      if (p.sampled(card) && kCardTab.joker_index[card] != kNoCard) joker_colour_[kCardTab.joker_index[card]] = kEmpty;
    p.owned_lo &= ~p.sampled_lo, p.owned_hi = static_cast<uint8_t>(p.owned_hi & ~p.sampled_hi);
    p.sampled_lo = 0, p.sampled_hi = 0;
  }
  for (int k = 0; k < n; ++k) {
    Player& p = players_[summaries[k].seat];
    p.owned_lo |= cards[k][0], p.sampled_lo |= cards[k][0];
    p.owned_hi = static_cast<uint8_t>(p.owned_hi | cards[k][1]), p.sampled_hi = static_cast<uint8_t>(p.sampled_hi | cards[k][1]);
    if (joined[k] >= 0)
      for (int card = 0; card < kNumCards; ++card)
        if (core::card_in(cards[k], card)) joker_colour_[kCardTab.joker_index[card]] = static_cast<uint8_t>(joined[k]);
  }
  for (int l = 0; l < 3; ++l) {
    unseen[l] = 0;
    for (int card = kLevelFirst[l]; card < kLevelFirst[l + 1]; ++card)
      if (core::card_in(pool, card)) unseen[l] |= 1u << (card - kLevelFirst[l]);
  }
  hash_.stale = true;
  return true;
}

bool State::release_sampled_card(int card, core::Rng& rng, const uint64_t* keep_out) {
  if (card < 0 || card >= kNumCards || !(players_[0].sampled(card) || players_[1].sampled(card))) return false;
  core::CardSet excluded{}, back{};  // back: excluded cards now in a deck or a sample, which end in the decks
  if (keep_out) excluded = {keep_out[0], keep_out[1]};
  core::add_card(excluded, card);
  uint32_t decks[3];  // the blind reserves stay: only the decks and the samples change
  for (int c = 0; c < kNumCards; ++c) {
    const bool in_deck = (deck_[level_of(c)] >> (c - kLevelFirst[level_of(c)])) & 1;
    if (core::card_in(excluded, c) && (in_deck || players_[0].sampled(c) || players_[1].sampled(c))) core::add_card(back, c);
  }
  for (int l = 0; l < 3; ++l) decks[l] = deck_[l];
  const State before = *this;
  if (!resample_bought(decks, rng, excluded.data())) {
    *this = before;
    return false;
  }
  for (int c = 0; c < kNumCards; ++c)
    if (core::card_in(back, c)) decks[level_of(c)] |= 1u << (c - kLevelFirst[level_of(c)]);
  for (int l = 0; l < 3; ++l) deck_[l] = decks[l];
  hash_ = {incremental_part(), false};
  return true;
}

void State::determinize(int observer, core::Rng& rng) {
  deal_.s = rng.next();  // deck and bag order: unknown to everyone
  int opp = observer ^ 1;
  Player& p = players_[opp];
  if (has_sampled_cards()) {
    // The bought cards known by their summaries come from every card the observer cannot
    // see (the decks, the opponent's blind reserves, the samples); the blind reserves are
    // then dealt from what they leave.
    uint32_t unseen[3] = {deck_[0], deck_[1], deck_[2]};
    for (int i = 0; i < p.num_reserved; ++i)
      if ((p.reserved_blind >> i) & 1) unseen[level_of(p.reserved[i])] |= 1u << (p.reserved[i] - kLevelFirst[level_of(p.reserved[i])]);
    resample_bought(unseen, rng);
    for (int i = 0; i < p.num_reserved; ++i) {
      if (!((p.reserved_blind >> i) & 1)) continue;
      const int level = level_of(p.reserved[i]);
      const int pick = core::nth_set_bit(unseen[level], static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(unseen[level])))));
      unseen[level] &= ~(1u << pick);
      p.reserved[i] = static_cast<uint8_t>(kLevelFirst[level] + pick);
    }
    for (int l = 0; l < 3; ++l) deck_[l] = unseen[l];
    hash_ = {incremental_part(), false};
    return;
  }
  // Cards the opponent reserved blind are, to the observer, any unseen card of that level.
  for (int i = 0; i < p.num_reserved; ++i) {
    if (!((p.reserved_blind >> i) & 1)) continue;
    int card = p.reserved[i], level = level_of(card);
    uint32_t pool = deck_[level] | (1u << (card - kLevelFirst[level]));
    int pick = core::nth_set_bit(pool, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(pool)))));
    deck_[level] = pool & ~(1u << pick);
    mix_hash<true>(key_reserve(opp, i, card));
    p.reserved[i] = static_cast<uint8_t>(kLevelFirst[level] + pick);
    mix_hash<true>(key_reserve(opp, i, p.reserved[i]));
  }
}

}  // namespace duel
