#include "splendor/state.hpp"
#include "splendor/card_lanes.hpp"

#include <algorithm>
#include <cstring>

#include "core/bits.hpp"
#include "core/reasons.hpp"
#include "core/zobrist.hpp"
#include "splendor_tables.inc"

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace splendor {

using core::swar::lane;
using core::swar::unit;

namespace {

constexpr uint64_t kGemLanes = 0x000000FFFFFFFFFFULL;  // lanes 0-4

struct CardInfo {
  uint64_t cost;   // packed cost word
  uint8_t level;   // 0-based
  uint8_t bonus;
  uint8_t points;
};

struct Tables {
  CardInfo cards[kNumCards];
  uint64_t noble_requirement[kNumNobles];
  uint8_t noble_points[kNumNobles];
  TakeDistinct take[25];
  uint64_t take_legal[kTakeFewerRules][32];  // [take_fewer_distinct][colours available] -> action bits
  uint8_t lane_mask[kTableSlots][16];
  int min_noble_cards = 0;  // fewest bonuses any noble asks for
  uint8_t cost_by_colour[kNumCards][kColours];
  uint8_t sorted_decks[kLevels][40];  // every card of each level by id: the decks before shuffling
  int level_base[kLevels] = {};       // first card id of each level (ids of a level are consecutive)

  constexpr Tables()
      : cards(), noble_requirement(), noble_points(), take(), take_legal(), lane_mask(), cost_by_colour(), sorted_decks() {
    int deck_fill[kLevels] = {0, 0, 0};
    for (auto& deck : sorted_decks)
      for (auto& card : deck) card = kNoCard;
    for (int i = 0; i < kNumCards; ++i) {
      const CardRow& row = tables::kCards[i];
      uint64_t cost = 0;
      for (int c = 0; c < kColours; ++c) cost |= uint64_t{row.cost[c]} << (8 * c);
      cards[i] = {cost, static_cast<uint8_t>(row.level - 1), row.bonus, row.points};
      for (int c = 0; c < kColours; ++c) cost_by_colour[i][c] = row.cost[c];
      sorted_decks[row.level - 1][deck_fill[row.level - 1]++] = static_cast<uint8_t>(i);
    }
    for (int n = 0; n < kNumNobles; ++n) {
      uint64_t req = 0;
      for (int c = 0; c < kColours; ++c) req |= uint64_t{tables::kNobles[n].requirement[c]} << (8 * c);
      noble_requirement[n] = req;
      int total = 0;
      for (int c = 0; c < kColours; ++c) total += tables::kNobles[n].requirement[c];
      if (n == 0 || total < min_noble_cards) min_noble_cards = total;
      noble_points[n] = tables::kNobles[n].points;
    }
    // Subsets of size 3, then 2, then 1, each in lexicographic order of colours.
    int next = 0;
    for (int size = 3; size >= 1; --size) {
      for (int subset = 0; subset < 32; ++subset) {
        if (core::popcount(static_cast<unsigned>(subset)) != size) continue;
        // Lexicographic order of the colour lists equals descending order of the
        // bit-reversed mask; collect then sort below.
        take[next++] = {static_cast<uint8_t>(subset), 0};
      }
    }
    for (int i = 0; i < 25; ++i)  // stable selection sort into lexicographic order per size
      for (int j = i + 1; j < 25; ++j) {
        int pi = core::popcount(take[i].colours), pj = core::popcount(take[j].colours);
        if (pi == pj && lex_greater(take[i].colours, take[j].colours)) {
          TakeDistinct t = take[i];
          take[i] = take[j];
          take[j] = t;
        }
      }
    for (int i = 0; i < 25; ++i) {
      uint64_t word = 0;
      for (int c = 0; c < kColours; ++c)
        if ((take[i].colours >> c) & 1) word |= uint64_t{1} << (8 * c);
      take[i].word = word;
    }
    for (int l = 0; l < kLevels; ++l) {
      level_base[l] = sorted_decks[l][0];
      for (int i = 0; i < kDeckCapacity[l]; ++i)
        if (sorted_decks[l][i] != level_base[l] + i) throw "cards.csv must list each level's cards together";
    }
    for (int rule = 0; rule < kTakeFewerRules; ++rule)
      for (int avail = 0; avail < 32; ++avail) {
        const int n = core::popcount(static_cast<unsigned>(avail));
        uint64_t bits = 0;
        for (int i = 0; i < 25; ++i) {
          const int size = core::popcount(take[i].colours);
          const bool inside = (take[i].colours & ~avail) == 0;
          bool allowed = size == 3;
          if (rule == static_cast<int>(TakeFewer::kWhenShort)) allowed = n >= 3 ? size == 3 : size <= n;
          if (rule == static_cast<int>(TakeFewer::kAlways)) allowed = true;
          if (inside && allowed) bits |= uint64_t{1} << i;
        }
        take_legal[rule][avail] = bits;
      }
    for (int s = 0; s < kTableSlots; ++s) lane_mask[s][s] = 0xFF;
  }

  // Compares two colour sets as sorted colour lists.
  static constexpr bool lex_greater(uint8_t a, uint8_t b) {
    for (int c = 0; c < kColours; ++c) {
      const bool ha = (a >> c) & 1, hb = (b >> c) & 1;
      if (ha != hb) return hb;  // the set holding the smaller colour comes first
    }
    return false;
  }
};

constexpr Tables kT{};

// Zobrist tables (salts keep them independent).
enum Salt : uint64_t {
  kSaltTable = 1, kSaltReserved, kSaltOwned, kSaltTableNoble, kSaltOwnedNoble, kSaltMisc, kSaltTokens
};
// Precomputed so a hash update is a load, not a mix. A reserved card's key ignores
// its position in the reserve: the order of reserved cards changes nothing in the game.
struct Keys {
  uint64_t table[kNumCards][kSlotsPerLevel];
  uint64_t reserved[kNumCards][kMaxPlayers][2];
  uint64_t owned[kNumCards][kMaxPlayers];
  uint64_t table_noble[kNumNobles];
  uint64_t owned_noble[kNumNobles][kMaxPlayers];
  constexpr Keys() : table(), reserved(), owned(), table_noble(), owned_noble() {
    for (uint64_t c = 0; c < kNumCards; ++c) {
      for (uint64_t i = 0; i < kSlotsPerLevel; ++i) table[c][i] = core::zobrist_key(kSaltTable, c * 4 + i);
      for (uint64_t p = 0; p < kMaxPlayers; ++p) {
        reserved[c][p][0] = core::zobrist_key(kSaltReserved, c * 8 + p * 2);
        reserved[c][p][1] = core::zobrist_key(kSaltReserved, c * 8 + p * 2 + 1);
        owned[c][p] = core::zobrist_key(kSaltOwned, c * 4 + p);
      }
    }
    for (uint64_t n = 0; n < kNumNobles; ++n) {
      table_noble[n] = core::zobrist_key(kSaltTableNoble, n);
      for (uint64_t p = 0; p < kMaxPlayers; ++p) owned_noble[n][p] = core::zobrist_key(kSaltOwnedNoble, n * 4 + p);
    }
  }
};
constexpr Keys kKeys{};
inline uint64_t table_key(int card, int slot) { return kKeys.table[card][slot % kSlotsPerLevel]; }
inline uint64_t reserved_key(int card, int seat, bool hidden) { return kKeys.reserved[card][seat][hidden]; }
inline uint64_t owned_key(int card, int seat) { return kKeys.owned[card][seat]; }
inline uint64_t table_noble_key(int noble) { return kKeys.table_noble[noble]; }
inline uint64_t owned_noble_key(int noble, int seat) { return kKeys.owned_noble[noble][seat]; }

// Token vectors hash linearly (sum of word * odd key per seat, finalised in hash()),
// so a token change costs one multiply-add instead of two word mixes.
constexpr uint64_t kTokenMultiplier[kMaxPlayers] = {
    core::zobrist_key(kSaltTokens, 0) | 1, core::zobrist_key(kSaltTokens, 1) | 1,
    core::zobrist_key(kSaltTokens, 2) | 1, core::zobrist_key(kSaltTokens, 3) | 1};
inline uint64_t token_multiplier(int seat) { return kTokenMultiplier[seat]; }

// Fields that are almost always zero hash by value, zero contributing nothing, and
// are XORed in and out where they change, keeping apply()'s common path short.
enum RareField : uint64_t { kFieldPasses, kFieldPendingBlind, kFieldInSetup, kFieldExplicit, kFieldNoblesDealt };
inline uint64_t rare_key(RareField field, int value) {
  return value ? core::zobrist_key(kSaltMisc, field * 256 + static_cast<uint64_t>(value)) : 0;
}

struct MiscKeys {
  uint64_t keys[kMaxPlayers * 8];
  constexpr MiscKeys() : keys() {
    for (int i = 0; i < kMaxPlayers * 8; ++i) keys[i] = core::zobrist_key(kSaltMisc + 100, static_cast<uint64_t>(i));
  }
};
constexpr MiscKeys kMiscKeys{};

}  // namespace

const TakeDistinct kTakeDistinctTable[25] = {
    kT.take[0], kT.take[1], kT.take[2], kT.take[3], kT.take[4], kT.take[5], kT.take[6],
    kT.take[7], kT.take[8], kT.take[9], kT.take[10], kT.take[11], kT.take[12], kT.take[13],
    kT.take[14], kT.take[15], kT.take[16], kT.take[17], kT.take[18], kT.take[19], kT.take[20],
    kT.take[21], kT.take[22], kT.take[23], kT.take[24]};

int State::first_card_of_level(int level) { return kT.level_base[level]; }

uint64_t State::card_cost(int card) { return kT.cards[card].cost; }

// ---------------------------------------------------------------- configuration

Config Config::standard(int players) {
  Config c;
  c.players = static_cast<uint8_t>(players);
  c.gem_tokens = players == 2 ? 4 : players == 3 ? 5 : 7;
  c.nobles = static_cast<uint8_t>(players + 1);
  return c;
}

void Config::validate() const {
  auto check = [](bool ok, const char* msg) {
    if (!ok) throw core::InvalidInput(msg);
  };
  check(players >= 2 && players <= kMaxPlayers, "players must be 2, 3 or 4");
  check(points_to_win >= 1 && points_to_win <= 100, "points_to_win must be between 1 and 100");
  check(gem_tokens >= 1 && gem_tokens <= 20, "gem_tokens must be between 1 and 20");
  check(gold_tokens <= 20, "gold_tokens must be between 0 and 20");
  check(nobles <= kNumNobles, "nobles must be between 0 and 10");
  check(token_limit >= 1 && token_limit <= 60, "token_limit must be between 1 and 60");
  check(reserve_limit <= kMaxReserved, "reserve_limit must be between 0 and 3");
  check(take_two_min >= 2 && take_two_min <= 20, "take_two_min must be between 2 and 20");
  check(static_cast<int>(take_fewer_distinct) < kTakeFewerRules, "take_fewer_distinct must be true, false or always");
}

// ---------------------------------------------------------------- setup

State State::initial(const Config& config, uint64_t seed, bool explicit_chance) {
  config.validate();
  State s;
  s.config_ = config;
  s.explicit_chance_ = explicit_chance;
  std::memset(s.table_, kNoCard, sizeof s.table_);
  std::memset(s.lane_cost_, 0, sizeof s.lane_cost_);
  core::Rng rng(core::splitmix64(seed));
  for (int n = 0; n < kNumNobles; ++n) s.noble_order_[n] = static_cast<uint8_t>(n);
  rng.shuffle(s.noble_order_, kNumNobles);
  std::memcpy(s.deck_, kT.sorted_decks, sizeof s.deck_);
  for (int l = 0; l < kLevels; ++l) s.deck_size_[l] = static_cast<uint8_t>(kDeckCapacity[l]);
  for (int l = 0; l < kLevels; ++l) rng.shuffle(s.deck_[l], s.deck_size_[l]);
  for (int l = 0; l < kLevels; ++l) s.deck_bits_[l] = (uint64_t{1} << kDeckCapacity[l]) - 1;  // the whole level
  for (int c = 0; c < kColours; ++c) s.bank_ |= uint64_t{config.gem_tokens} << (8 * c);
  s.bank_ |= uint64_t{config.gold_tokens} << (8 * kGold);
  if (explicit_chance) {
    s.in_setup_ = true;
    s.phase_ = Phase::kChance;
  } else {
    // The same deal the explicit path reveals outcome by outcome with dealt_outcome().
    for (int i = 0; i < config.nobles; ++i) s.table_nobles_ = static_cast<uint16_t>(s.table_nobles_ | (1u << s.noble_order_[i]));
    s.nobles_dealt_ = config.nobles;
    for (int slot = 0; slot < kTableSlots; ++slot) {
      const int level = slot / kSlotsPerLevel;
      if (s.deck_size_[level]) s.place_on_table<true>(slot, s.pop_deck(level));
    }
  }
  s.hash_ = s.compute_key_part();
  s.token_hash_sum_ = s.token_sum();
  return s;
}

// ---------------------------------------------------------------- queries

int State::current_player() const {
  switch (phase_) {
    case Phase::kChance: return core::kChancePlayer;
    case Phase::kOver: return core::kTerminalPlayer;
    default: return turn_seat_;
  }
}

bool State::end_triggered() const {
  for (int p = 0; p < config_.players; ++p)
    if (players_[p].points >= config_.points_to_win) return true;
  return false;
}

uint16_t State::qualifying_nobles(int seat) const { return players_[seat].eligible_nobles & table_nobles_; }

// Bonuses only change when a card is bought, so eligibility is computed then, not at
// every end of turn. Only nobles on the table matter (the only ones that can still come);
// a noble revealed later (explicit-chance setup) refreshes every player.
void State::set_eligible_nobles(int seat) {
  Player& p = players_[seat];
  uint16_t eligible = 0;
  if (p.cards_bought >= kT.min_noble_cards)
    core::for_each_bit(table_nobles_, [&](int n) {
      if (core::swar::sat_sub(kT.noble_requirement[n], p.bonuses) == 0) eligible = static_cast<uint16_t>(eligible | (1u << n));
    });
  p.eligible_nobles = eligible;
}

uint64_t State::legal_main_mask() const {
  const Player& p = players_[turn_seat_];
  uint64_t mask = 0;

  const uint32_t available = core::swar::lanes_at_least(bank_, 1, kColours);
  mask |= kT.take_legal[static_cast<int>(config_.take_fewer_distinct)][available];
  mask |= uint64_t{core::swar::lanes_at_least(bank_, config_.take_two_min, kColours)} << kTakeTwo;

  if (p.num_reserved < config_.reserve_limit) {
    mask |= uint64_t{table_mask_} << kReserveTable;
    for (int l = 0; l < kLevels; ++l)
      if (deck_size_[l]) mask |= uint64_t{1} << (kReserveDeck + l);
  }

  // Buying: shortfall per colour is max(cost - bonus - tokens, 0); gold covers the sum.
  const uint64_t power = p.bonuses + (p.tokens & kGemLanes);
  const int gold = lane(p.tokens, kGold);
  // Lanes 0-11 hold the table cards, lanes 12-14 the player's reserved cards, so one
  // vector computation decides every buy action (ids kBuyTable + lane).
  const uint64_t buyable_lanes = card_lanes(table_mask_, p);
#if defined(__SSE4_1__)
  const __m128i shortfall = lane_shortfall(lane_cost_, p, power);
  const __m128i covered = _mm_cmpeq_epi8(_mm_min_epu8(shortfall, _mm_set1_epi8(static_cast<char>(gold))), shortfall);
  const uint64_t buy = static_cast<uint32_t>(_mm_movemask_epi8(covered)) & buyable_lanes;
#else
  uint64_t buy = 0;
  core::for_each_bit(buyable_lanes, [&](int s) {
    if (core::swar::sum(core::swar::sat_sub(kT.cards[card_in_lane(p, s)].cost, power)) <= gold) buy |= uint64_t{1} << s;
  });
#endif
  mask |= buy << kBuyTable;

  if (mask == 0) mask = uint64_t{1} << kPass;
  return mask;
}

void State::legal_actions(ActionList& out) const {
  out.clear();
  switch (phase_) {
    case Phase::kMain:
      core::for_each_bit(legal_main_mask(), [&](int a) { out.push(a); });
      break;
    case Phase::kReturning:
      for (int k = 0; k < kNumKinds; ++k)
        if (lane(players_[turn_seat_].tokens, k)) out.push(kReturnToken + k);
      break;
    case Phase::kNobleChoice:
      core::for_each_bit(qualifying_nobles(turn_seat_), [&](int n) { out.push(kChooseNoble + n); });
      break;
    case Phase::kChance: {
      ChanceList outcomes;
      chance_outcomes(outcomes);
      // Ascending ids: chance outcomes are listed in ascending order already.
      for (const auto& o : outcomes) out.push(o.action);
      break;
    }
    case Phase::kOver:
      break;
  }
}

void State::legal_action_bits(ActionBits& out) const {
  static_assert(kNumMainActions <= 64, "main actions fill the first word");
  out = {};
  if (phase_ == Phase::kMain) {
    out[0] = legal_main_mask();
    return;
  }
  ActionList list;
  legal_actions(list);
  for (Action a : list) out[a >> 6] |= uint64_t{1} << (a & 63);
}

bool State::is_legal(Action a) const {
  if (a < 0 || a >= kNumDistinctActions) return false;
  switch (phase_) {
    case Phase::kMain:
      return a < kNumMainActions && ((legal_main_mask() >> a) & 1);
    case Phase::kReturning:
      return a >= kReturnToken && a < kReturnToken + kNumKinds && lane(players_[turn_seat_].tokens, a - kReturnToken) > 0;
    case Phase::kNobleChoice:
      return a >= kChooseNoble && a < kChooseNoble + kNumNobles && ((qualifying_nobles(turn_seat_) >> (a - kChooseNoble)) & 1);
    case Phase::kChance: {
      ChanceList outcomes;
      chance_outcomes(outcomes);
      for (const auto& o : outcomes)
        if (o.action == a) return true;
      return false;
    }
    case Phase::kOver:
      return false;
  }
  return false;
}

State::ChanceTarget State::chance_target(int* slot_out) const {
  if (in_setup_ && nobles_dealt_ < config_.nobles) return ChanceTarget::kNoble;
  if (pending_blind_) return ChanceTarget::kBlindReserve;
  for (int s = 0; s < kTableSlots; ++s)
    if (table_[s] == kNoCard && deck_size_[s / kSlotsPerLevel]) {
      *slot_out = s;
      return ChanceTarget::kTableSlot;
    }
  return ChanceTarget::kNone;
}

void State::chance_outcomes(ChanceList& out) const {
  out.clear();
  if (phase_ != Phase::kChance) return;
  int slot = 0;
  const ChanceTarget target = chance_target(&slot);
  if (target == ChanceTarget::kNoble) {
    uint16_t used = table_nobles_;
    const int n_left = kNumNobles - core::popcount(used);
    for (int n = 0; n < kNumNobles; ++n)
      if (!((used >> n) & 1)) out.push({kRevealNoble + n, 1.0 / n_left});
    return;
  }
  const int level = target == ChanceTarget::kBlindReserve ? pending_blind_ - 1 : slot / kSlotsPerLevel;
  const int n = deck_size_[level];
  // Listed by ascending card index, so the list is ordered like legal_actions.
  const int base = kT.level_base[level];
  core::for_each_bit(deck_bits_[level], [&](int b) { out.push({kRevealCard + base + b, 1.0 / n}); });
}

Action State::dealt_outcome() const {
  if (phase_ != Phase::kChance) throw core::InvalidInput("dealt_outcome: the state is not at a chance node");
  int slot = 0;
  const ChanceTarget target = chance_target(&slot);
  if (target == ChanceTarget::kNoble) {
    for (int i = 0; i < kNumNobles; ++i) {
      const int n = noble_order_[i];
      if (!((table_nobles_ >> n) & 1)) return kRevealNoble + n;
    }
  }
  const int level = target == ChanceTarget::kBlindReserve ? pending_blind_ - 1 : slot / kSlotsPerLevel;
  return kRevealCard + deck_[level][deck_size_[level] - 1];
}

Action State::random_chance_outcome(core::Rng& rng) const {
  int slot = 0;
  const ChanceTarget target = chance_target(&slot);
  if (target == ChanceTarget::kNoble) {
    const uint16_t free = static_cast<uint16_t>(~table_nobles_ & ((1u << kNumNobles) - 1));
    return kRevealNoble + core::nth_set_bit(free, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(free)))));
  }
  const int level = target == ChanceTarget::kBlindReserve ? pending_blind_ - 1 : slot / kSlotsPerLevel;
  return kRevealCard + deck_[level][rng.below(deck_size_[level])];
}

Action State::random_action(core::Rng& rng) const {
  switch (phase_) {
    case Phase::kMain: {
      const uint64_t mask = legal_main_mask();
      return core::nth_set_bit_dispatch(mask, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(mask)))));
    }
    case Phase::kReturning: {
      const uint64_t held = core::swar::lanes_at_least(players_[turn_seat_].tokens, 1, kNumKinds);
      return kReturnToken + core::nth_set_bit(held, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(held)))));
    }
    case Phase::kNobleChoice: {
      const uint64_t q = qualifying_nobles(turn_seat_);
      return kChooseNoble + core::nth_set_bit(q, static_cast<int>(rng.below(static_cast<uint32_t>(core::popcount(q)))));
    }
    case Phase::kChance:
      return random_chance_outcome(rng);
    case Phase::kOver:
      break;
  }
  throw core::InvalidInput("the game is over: there is no action to choose");
}

void State::returns(double* out) const {
  const int n = config_.players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (phase_ != Phase::kOver) return;
  int best_points = -1, best_cards = 1 << 30;
  for (int p = 0; p < n; ++p) {
    const Player& pl = players_[p];
    if (pl.points > best_points || (pl.points == best_points && pl.cards_bought < best_cards)) {
      best_points = pl.points;
      best_cards = pl.cards_bought;
    }
  }
  int winners = 0;
  for (int p = 0; p < n; ++p) winners += players_[p].points == best_points && players_[p].cards_bought == best_cards;
  for (int p = 0; p < n; ++p)
    if (players_[p].points == best_points && players_[p].cards_bought == best_cards) out[p] = 1.0 / winners;
}

// ---------------------------------------------------------------- hashing

uint64_t State::misc_key() const { return kMiscKeys.keys[turn_seat_ * 8 + static_cast<uint8_t>(phase_)]; }

uint64_t State::rare_fields_key() const {
  return rare_key(kFieldPasses, passes_) ^ rare_key(kFieldPendingBlind, pending_blind_) ^
         rare_key(kFieldInSetup, in_setup_) ^ rare_key(kFieldExplicit, explicit_chance_) ^
         (in_setup_ ? rare_key(kFieldNoblesDealt, nobles_dealt_) : 0);  // nobles_dealt_ only matters in setup
}

uint64_t State::token_sum() const {
  uint64_t sum = 0;
  for (int p = 0; p < config_.players; ++p) sum += players_[p].tokens * token_multiplier(p);
  return sum;
}

uint64_t State::compute_hash() const { return compute_key_part() ^ core::splitmix64(token_sum()); }

uint64_t State::compute_key_part() const {
  uint64_t h = misc_key() ^ rare_fields_key();
  for (int s = 0; s < kTableSlots; ++s)
    if (table_[s] != kNoCard) h ^= table_key(table_[s], s);
  for (int n = 0; n < kNumNobles; ++n)
    if ((table_nobles_ >> n) & 1) h ^= table_noble_key(n);
  for (int p = 0; p < config_.players; ++p) {
    const Player& pl = players_[p];
    for (int i = 0; i < pl.num_reserved; ++i) h ^= reserved_key(pl.reserved[i], p, (pl.reserved_blind >> i) & 1);
    for (int w = 0; w < 2; ++w) core::for_each_bit(pl.owned[w], [&](int b) { h ^= owned_key(w * 64 + b, p); });
    for (int n = 0; n < kNumNobles; ++n)
      if ((pl.nobles >> n) & 1) h ^= owned_noble_key(n, p);
  }
  return h;
}

// ---------------------------------------------------------------- mutation helpers

template <bool H>
void State::set_tokens(int seat, uint64_t tokens) {
  Player& p = players_[seat];
  if constexpr (H) token_hash_sum_ += (tokens - p.tokens) * token_multiplier(seat);
  bank_ += p.tokens - tokens;  // conservation: what the player gains the bank loses
  p.tokens = tokens;
}

template <bool H>
void State::place_on_table(int slot, int card) {
  table_[slot] = static_cast<uint8_t>(card);
  table_mask_ = static_cast<uint16_t>(table_mask_ | (1u << slot));
  lane_points_[slot] = kT.cards[card].points;
  mix_hash<H>(table_key(card, slot));
#if defined(__SSE4_1__)
  const __m128i put = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kT.lane_mask[slot]));
  for (int c = 0; c < kColours; ++c) {
    __m128i* row = reinterpret_cast<__m128i*>(lane_cost_[c]);
    const __m128i cost = _mm_set1_epi8(static_cast<char>(kT.cost_by_colour[card][c]));
    _mm_store_si128(row, _mm_blendv_epi8(_mm_load_si128(row), cost, put));
  }
#else
  for (int c = 0; c < kColours; ++c) lane_cost_[c][slot] = static_cast<uint8_t>(lane(kT.cards[card].cost, c));
#endif
}

template <bool H>
void State::clear_table_slot(int slot) {
  mix_hash<H>(table_key(table_[slot], slot));
  table_[slot] = kNoCard;
  table_mask_ = static_cast<uint16_t>(table_mask_ & ~(1u << slot));
  // lane_cost_ keeps the stale cost: the slot is masked out by table_mask_ until refilled.
}

template <bool H>
void State::add_reserved(int seat, int card, bool hidden) {
  Player& p = players_[seat];
  const int i = p.num_reserved++;
  p.reserved[i] = static_cast<uint8_t>(card);
  if (hidden) p.reserved_blind = static_cast<uint8_t>(p.reserved_blind | (1u << i));
  mix_hash<H>(reserved_key(card, seat, hidden));
  for (int c = 0; c < kColours; ++c) p.reserved_cost[c] |= static_cast<uint32_t>(lane(kT.cards[card].cost, c)) << (8 * i);
}

template <bool H>
void State::remove_reserved(int seat, int index) {
  Player& p = players_[seat];
  mix_hash<H>(reserved_key(p.reserved[index], seat, (p.reserved_blind >> index) & 1));
  const uint8_t low = static_cast<uint8_t>(p.reserved_blind & ((1u << index) - 1));
  const uint8_t high = static_cast<uint8_t>((p.reserved_blind >> (index + 1)) << index);
  p.reserved_blind = low | high;
  for (int i = index; i + 1 < p.num_reserved; ++i) p.reserved[i] = p.reserved[i + 1];
  p.reserved[--p.num_reserved] = kNoCard;
  const uint32_t below = (1u << (8 * index)) - 1;  // lanes under the removed card stay, those above move down
  for (int c = 0; c < kColours; ++c) {
    const uint32_t lanes = p.reserved_cost[c];
    p.reserved_cost[c] = (lanes & below) | ((lanes >> (8 * (index + 1))) << (8 * index));
  }
}

void State::set_reserved_lanes(int seat) {
  Player& p = players_[seat];
  for (int c = 0; c < kColours; ++c) {
    uint32_t lanes = 0;
    for (int i = 0; i < p.num_reserved; ++i) lanes |= static_cast<uint32_t>(lane(kT.cards[p.reserved[i]].cost, c)) << (8 * i);
    p.reserved_cost[c] = lanes;
  }
}

template <bool H>
void State::take_gold_if_any(int seat) {
  if (lane(bank_, kGold)) set_tokens<H>(seat, players_[seat].tokens + unit(kGold));
}

// Small enough to inline at every reveal; the lazy draw is a call of its own.
inline int State::pop_deck(int level) { return decks_unordered_ ? draw_unordered(level) : pop_deck_top(level); }

inline int State::pop_deck_top(int level) {
  const int card = deck_[level][--deck_size_[level]];
  deck_[level][deck_size_[level]] = kNoCard;
  deck_bits_[level] &= ~(uint64_t{1} << (card - kT.level_base[level]));
  return card;
}

// determinize_lazily: the next card is any of the deck's.
int State::draw_unordered(int level) {
  const int b = core::nth_set_bit_dispatch(deck_bits_[level], static_cast<int>(deck_rng_.below(deck_size_[level]--)));
  deck_bits_[level] &= ~(uint64_t{1} << b);
  return kT.level_base[level] + b;
}

void State::remove_from_deck(int level, int card) {
  uint8_t* deck = deck_[level];
  const int n = deck_size_[level];
  for (int i = n - 1; i >= 0; --i)  // from the top: dealt outcomes are found at once
    if (deck[i] == card) {
      deck[i] = deck[n - 1];
      deck[n - 1] = static_cast<uint8_t>(card);
      break;
    }
  pop_deck_top(level);
}

template <bool H>
void State::buy(int seat, int card) {
  Player& p = players_[seat];
  const CardInfo& info = kT.cards[card];
  // Colour-first payment (engine convention): coloured tokens first, gold for the rest.
  const uint64_t need = core::swar::sat_sub(info.cost, p.bonuses);
  const uint64_t gems = core::swar::min(need, p.tokens & kGemLanes);
  const uint64_t gold = static_cast<uint64_t>(core::swar::sum(need - gems));
  set_tokens<H>(seat, p.tokens - gems - (gold << (8 * kGold)));
  p.bonuses += unit(info.bonus);
  p.points = static_cast<uint8_t>(p.points + info.points);
  ++p.cards_bought;
  p.owned[card >> 6] |= uint64_t{1} << (card & 63);
  mix_hash<H>(owned_key(card, seat));
  set_eligible_nobles(seat);
}

template <bool H>
void State::refill_or_wait(int slot) {
  const int level = slot / kSlotsPerLevel;
  if (explicit_chance_ || deck_size_[level] == 0) return;  // explicit: a chance node fills it
  place_on_table<H>(slot, pop_deck(level));
}

template <bool H>
void State::take_noble(int seat, int noble) {
  Player& p = players_[seat];
  table_nobles_ = static_cast<uint16_t>(table_nobles_ & ~(1u << noble));
  p.nobles = static_cast<uint16_t>(p.nobles | (1u << noble));
  p.points = static_cast<uint8_t>(p.points + kT.noble_points[noble]);
  mix_hash<H>(table_noble_key(noble) ^ owned_noble_key(noble, seat));
  // Keeps eligibility within the table, so states that got here differently compare equal.
  for (int q = 0; q < config_.players; ++q)
    players_[q].eligible_nobles = static_cast<uint16_t>(players_[q].eligible_nobles & ~(1u << noble));
}

// ---------------------------------------------------------------- turn flow

template <bool H>
void State::after_main_action() {
  int slot = 0;
  if ((explicit_chance_ || in_setup_) && chance_target(&slot) != ChanceTarget::kNone) {
    phase_ = Phase::kChance;
    return;
  }
  if (in_setup_) {
    mix_hash<H>(rare_key(kFieldInSetup, 1) ^ rare_key(kFieldNoblesDealt, nobles_dealt_));
    in_setup_ = false;
    phase_ = Phase::kMain;
    turn_seat_ = 0;
    return;
  }
  if (players_[turn_seat_].num_tokens() > config_.token_limit) {
    phase_ = Phase::kReturning;
    return;
  }
  after_returns<H>();
}

template <bool H>
void State::after_returns() {
  const uint16_t nobles = qualifying_nobles(turn_seat_);
  if (nobles & (nobles - 1)) {
    phase_ = Phase::kNobleChoice;
    return;
  }
  if (nobles) take_noble<H>(turn_seat_, core::lowest_bit(nobles));
  end_turn<H>();
}

template <bool H>
void State::end_turn() {
  turn_seat_ = static_cast<uint8_t>(turn_seat_ + 1 == config_.players ? 0 : turn_seat_ + 1);
  // The game ends only at a round's end: by points, or when every player passed in it
  // (passes spanning two rounds do not count, see the rules).
  if (turn_seat_ == 0 && (end_triggered() || passes_ >= config_.players)) {
    phase_ = Phase::kOver;
    return;
  }
  if (turn_seat_ == 0 && passes_ != 0) {
    mix_hash<H>(rare_key(kFieldPasses, passes_) ^ rare_key(kFieldPasses, 0));
    passes_ = 0;
  }
  phase_ = Phase::kMain;
}

template <bool H>
void State::apply_main(Action a) {
  const int seat = turn_seat_;
  Player& p = players_[seat];
  const uint8_t passes = a == kPass ? static_cast<uint8_t>(passes_ + 1) : 0;
  if (passes != passes_) {
    mix_hash<H>(rare_key(kFieldPasses, passes_) ^ rare_key(kFieldPasses, passes));
    passes_ = passes;
  }
  if (a < kTakeTwo) {
    set_tokens<H>(seat, p.tokens + kT.take[a].word);
  } else if (a < kReserveTable) {
    set_tokens<H>(seat, p.tokens + 2 * unit(a - kTakeTwo));
  } else if (a < kReserveDeck) {
    const int slot = a - kReserveTable;
    add_reserved<H>(seat, table_[slot], false);
    clear_table_slot<H>(slot);
    take_gold_if_any<H>(seat);
    refill_or_wait<H>(slot);
  } else if (a < kBuyTable) {
    const int level = a - kReserveDeck;
    if (explicit_chance_) {
      pending_blind_ = static_cast<uint8_t>(level + 1);
      mix_hash<H>(rare_key(kFieldPendingBlind, pending_blind_));
    }
    else
      add_reserved<H>(seat, pop_deck(level), true);
    take_gold_if_any<H>(seat);
  } else if (a < kBuyReserved) {
    const int slot = a - kBuyTable;
    buy<H>(seat, table_[slot]);
    clear_table_slot<H>(slot);
    refill_or_wait<H>(slot);
  } else if (a < kPass) {
    const int index = a - kBuyReserved;
    const int card = p.reserved[index];
    remove_reserved<H>(seat, index);
    buy<H>(seat, card);
  }  // kPass: nothing to do beyond counting it
}

template <bool H>
void State::apply_chance(Action a) {
  int slot = 0;
  const ChanceTarget target = chance_target(&slot);
  if (target == ChanceTarget::kNoble) {
    const int noble = a - kRevealNoble;
    table_nobles_ = static_cast<uint16_t>(table_nobles_ | (1u << noble));
    mix_hash<H>(table_noble_key(noble) ^ rare_key(kFieldNoblesDealt, nobles_dealt_) ^
             rare_key(kFieldNoblesDealt, nobles_dealt_ + 1));
    ++nobles_dealt_;
    for (int p = 0; p < config_.players; ++p) set_eligible_nobles(p);
  } else {
    const int card = a - kRevealCard;
    const int level = kT.cards[card].level;
    remove_from_deck(level, card);
    if (target == ChanceTarget::kBlindReserve) {
      mix_hash<H>(rare_key(kFieldPendingBlind, pending_blind_));
      pending_blind_ = 0;
      add_reserved<H>(turn_seat_, card, true);
    } else {
      place_on_table<H>(slot, card);
    }
  }
  after_main_action<H>();
}

template <bool H>
void State::apply_impl(Action a) {
  if constexpr (H) hash_ ^= misc_key();
  switch (phase_) {
    case Phase::kMain:
      apply_main<H>(a);
      after_main_action<H>();
      break;
    case Phase::kReturning:
      set_tokens<H>(turn_seat_, players_[turn_seat_].tokens - unit(a - kReturnToken));
      if (players_[turn_seat_].num_tokens() <= config_.token_limit) after_returns<H>();
      break;
    case Phase::kNobleChoice:
      take_noble<H>(turn_seat_, a - kChooseNoble);
      end_turn<H>();
      break;
    case Phase::kChance:
      apply_chance<H>(a);
      break;
    case Phase::kOver:
      break;
  }
  if constexpr (H) hash_ ^= misc_key();
}

void State::apply(Action a) { apply_impl<true>(a); }

void State::apply_unhashed(Action a) {
  apply_impl<false>(a);
  hash_stale_ = true;
}

int State::play_random(core::Rng& rng, int max_plies) {
  // random_action and apply_impl inline here: a rollout pays no call per move.
  int plies = 0;
  for (; plies < max_plies && phase_ != Phase::kOver; ++plies) apply_impl<false>(random_action(rng));
  hash_stale_ = true;
  return plies;
}

void State::apply_checked(Action a) {
  if (!is_legal(a)) core::refuse_illegal(*this, a, kNumDistinctActions);
  apply(a);
}

void State::resolve_chance_from_deal() {
  while (phase_ == Phase::kChance) apply(dealt_outcome());
}

template void State::place_on_table<true>(int slot, int card);  // used by the position reader

void State::set_explicit_chance(bool on) {
  hash_ ^= rare_key(kFieldExplicit, explicit_chance_) ^ rare_key(kFieldExplicit, on);
  explicit_chance_ = on;
  if (!on && phase_ == Phase::kChance) resolve_chance_from_deal();
}

// ---------------------------------------------------------------- hidden information

// f(card) for each reserved card of `level` that `observer` cannot see (Self: State or
// const State); returns the seats holding one, a bit each.
template <class Self, class F>
unsigned State::for_each_unseen_reserve(Self& self, int observer, int level, F&& f) {
  unsigned seats = 0;
  for (int p = 0; p < self.config_.players; ++p) {
    if (p == observer || !self.players_[p].reserved_blind) continue;
    auto& pl = self.players_[p];
    for (int i = 0; i < pl.num_reserved; ++i)
      if (((pl.reserved_blind >> i) & 1) && kT.cards[pl.reserved[i]].level == level) {
        f(pl.reserved[i]);
        seats |= 1u << p;
      }
  }
  return seats;
}

// The cards of `level` that `observer` cannot see (the deck and others' blind
// reserves), a bit each from the level's first card: a canonical order, so samples
// depend on the rng and on what the observer sees only (a search cannot peek).
uint64_t State::unseen_cards(int observer, int level) const {
  const int base = kT.level_base[level];  // a level's cards have consecutive ids
  uint64_t unseen = deck_bits_[level];
  for_each_unseen_reserve(*this, observer, level, [&](uint8_t card) { unseen |= uint64_t{1} << (card - base); });
  return unseen;
}

void State::set_deck_bits() {
  for (int level = 0; level < kLevels; ++level) {
    deck_bits_[level] = 0;
    for (int i = 0; i < deck_size_[level]; ++i) deck_bits_[level] |= uint64_t{1} << (deck_[level][i] - kT.level_base[level]);
  }
}

const core::CardCatalogue& shown_cards() {
  static const auto cards = [] {
    std::array<core::ShownCard, kNumCards> out{};
    for (int c = 0; c < kNumCards; ++c)
      out[static_cast<size_t>(c)] = {kT.cards[c].bonus, static_cast<uint8_t>(kT.cards[c].level), kT.cards[c].points, 0, 0};
    return out;
  }();
  static const core::CardCatalogue catalogue{cards.data(), kNumCards, kColours};
  return catalogue;
}

bool State::has_sampled_cards() const {
  uint64_t any = 0;
  for (int p = 0; p < config_.players; ++p) any |= players_[p].sampled[0] | players_[p].sampled[1];
  return any != 0;
}

bool State::resample_bought(uint64_t unseen[kLevels], core::Rng& rng, const uint64_t* excluded) {
  CardSet pool{};
  for (int level = 0; level < kLevels; ++level)
    core::for_each_bit(unseen[level], [&](int b) { core::add_card(pool, kT.level_base[level] + b); });
  BoughtSummary summaries[core::kMaxSummaries];
  CardSet cards[core::kMaxSummaries];
  int n = 0;
  for (int p = 0; p < config_.players; ++p) {
    Player& pl = players_[p];
    for (int colour = 0; colour < kColours; ++colour) {
      BoughtSummary& s = summaries[n];
      s = {static_cast<uint8_t>(p), static_cast<uint8_t>(colour), 0, 0, {0, 0, 0}};
      cards[n] = {};
      for (int w = 0; w < 2; ++w)
        core::for_each_bit(pl.sampled[w], [&](int b) {
          const int card = w * 64 + b;
          if (kT.cards[card].bonus != colour) return;
          ++s.count;
          s.points = static_cast<uint8_t>(s.points + kT.cards[card].points);
          ++s.levels[kT.cards[card].level];
          core::add_card(cards[n], card);
        });
      if (s.count) pool[0] |= cards[n][0], pool[1] |= cards[n][1], ++n;
    }
  }
  if (!core::redraw_bought(shown_cards(), summaries, n, pool, rng, excluded, cards)) return false;
  for (int p = 0; p < config_.players; ++p) {
    Player& pl = players_[p];
    pl.owned[0] &= ~pl.sampled[0], pl.owned[1] &= ~pl.sampled[1];
    pl.sampled[0] = pl.sampled[1] = 0;
  }
  for (int k = 0; k < n; ++k) {
    Player& pl = players_[summaries[k].seat];
    for (int w = 0; w < 2; ++w) {
      pl.owned[w] |= cards[k][static_cast<size_t>(w)];
      pl.sampled[w] |= cards[k][static_cast<size_t>(w)];
    }
  }
  for (int level = 0; level < kLevels; ++level) {
    unseen[level] = 0;
    const int base = kT.level_base[level];
    for (int card = base; card < base + kDeckCapacity[level]; ++card)
      if (core::card_in(pool, card)) unseen[level] |= uint64_t{1} << (card - base);
  }
  return true;
}

bool State::release_sampled_card(int card, core::Rng& rng, const uint64_t* keep_out) {
  if (card < 0 || card >= kNumCards) return false;
  CardSet sampled{};
  for (int p = 0; p < config_.players; ++p) sampled[0] |= players_[p].sampled[0], sampled[1] |= players_[p].sampled[1];
  if (!core::card_in(sampled, card)) return false;
  uint64_t decks[kLevels];  // the blind reserves stay: only the decks and the samples change
  CardSet excluded{}, back{};  // back: excluded cards now in a deck or a sample, which end in the decks
  if (keep_out) excluded = {keep_out[0], keep_out[1]};
  core::add_card(excluded, card);
  for (int level = 0; level < kLevels; ++level) {
    decks[level] = deck_bits_[level];
    core::for_each_bit(decks[level], [&](int b) {
      if (core::card_in(excluded, kT.level_base[level] + b)) core::add_card(back, kT.level_base[level] + b);
    });
  }
  back[0] |= excluded[0] & sampled[0], back[1] |= excluded[1] & sampled[1];
  if (!resample_bought(decks, rng, excluded.data())) return false;
  for (int c = 0; c < kNumCards; ++c)
    if (core::card_in(back, c)) decks[kT.cards[c].level] |= uint64_t{1} << (c - kT.level_base[kT.cards[c].level]);
  for (int l = 0; l < kLevels; ++l) {
    deck_bits_[l] = decks[l];
    if (decks_unordered_) continue;
    int n = 0;
    core::for_each_bit(decks[l], [&](int b) { deck_[l][n++] = static_cast<uint8_t>(kT.level_base[l] + b); });
    rng.shuffle(deck_[l], n);
  }
  hash_ = compute_key_part();
  return true;
}

void State::determinize(int observer, core::Rng& rng) {
  uint64_t unseen[kLevels];
  for (int level = 0; level < kLevels; ++level) unseen[level] = unseen_cards(observer, level);
  if (has_sampled_cards()) resample_bought(unseen, rng);
  for (int level = 0; level < kLevels; ++level) {
    uint8_t pool[40];
    int n = 0;
    const int base = kT.level_base[level];
    core::for_each_bit(unseen[level], [&](int b) { pool[n++] = static_cast<uint8_t>(base + b); });
    rng.shuffle(pool, n);
    int next = 0;
    const unsigned seats = for_each_unseen_reserve(*this, observer, level, [&](uint8_t& card) { card = pool[next++]; });
    core::for_each_bit(seats, [&](int p) { set_reserved_lanes(p); });  // the buy vector holds their costs
    std::memcpy(deck_[level], pool + next, static_cast<size_t>(deck_size_[level]));
  }
  set_deck_bits();
  // Nobles not yet revealed (explicit-chance setup) are unknown too.
  int first_free = 0;
  while (first_free < kNumNobles && ((table_nobles_ >> noble_order_[first_free]) & 1)) ++first_free;
  std::sort(noble_order_ + first_free, noble_order_ + kNumNobles);
  rng.shuffle(noble_order_ + first_free, kNumNobles - first_free);
  // The search copies, determinizes and plays unhashed: recompute only if asked.
  hash_stale_ = true;
}

void State::determinize_lazily(int observer, core::Rng& rng) {
  // Explicit chance deals from the deck's order: only a full sample gives it one.
  if (explicit_chance_) return determinize(observer, rng);
  bool others_hide_cards = false;
  for (int p = 0; p < config_.players; ++p) others_hide_cards |= p != observer && players_[p].reserved_blind;
  const bool sampled = has_sampled_cards();
  if (others_hide_cards || sampled) {
    uint64_t unseen_by_level[kLevels];
    for (int level = 0; level < kLevels; ++level) unseen_by_level[level] = unseen_cards(observer, level);
    if (sampled) resample_bought(unseen_by_level, rng);
    for (int level = 0; level < kLevels; ++level) {
      uint64_t unseen = unseen_by_level[level];
      int n = core::popcount(unseen);
      const int base = kT.level_base[level];
      const unsigned seats = for_each_unseen_reserve(*this, observer, level, [&](uint8_t& card) {
        const int b = core::nth_set_bit_dispatch(unseen, static_cast<int>(rng.below(static_cast<uint32_t>(n--))));
        unseen &= ~(uint64_t{1} << b);
        card = static_cast<uint8_t>(base + b);
      });
      core::for_each_bit(seats, [&](int p) { set_reserved_lanes(p); });
      deck_bits_[level] = unseen;
    }
  }
  // pop_deck draws each card at random from deck_bits_: the same distribution as a
  // shuffle, paid for only by the cards a game reveals. Nobles off the table never
  // come into play.
  decks_unordered_ = true;
  deck_rng_ = core::Rng(rng.next());
  hash_stale_ = true;
}

bool State::operator==(const State& o) const {
  if (!(config_ == o.config_) || phase_ != o.phase_ || turn_seat_ != o.turn_seat_ || passes_ != o.passes_ ||
      pending_blind_ != o.pending_blind_ || explicit_chance_ != o.explicit_chance_ || in_setup_ != o.in_setup_ ||
      nobles_dealt_ != o.nobles_dealt_ || table_nobles_ != o.table_nobles_ || table_mask_ != o.table_mask_ ||
      bank_ != o.bank_ || hash() != o.hash())
    return false;
  if (std::memcmp(table_, o.table_, sizeof table_) != 0 || std::memcmp(deck_size_, o.deck_size_, sizeof deck_size_) != 0 ||
      std::memcmp(noble_order_, o.noble_order_, sizeof noble_order_) != 0)
    return false;
  for (int l = 0; l < kLevels; ++l)
    if (std::memcmp(deck_[l], o.deck_[l], deck_size_[l]) != 0) return false;
  for (int p = 0; p < kMaxPlayers; ++p)
    if (!(players_[p] == o.players_[p])) return false;
  return true;
}

}  // namespace splendor
