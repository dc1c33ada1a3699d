// Splendor's rule-specific checks (card and token conservation, the buy mask and nobles
// against the tables, the rollout policy against its reference) run by the generic
// random-game test (core/random_sim.hpp); shared by the sanitizer fuzz driver and the
// Python tests.
#include "splendor/self_check.hpp"

#include <string>

#include "core/bits.hpp"
#include "core/random_sim.hpp"
#include "splendor/game.hpp"
#include "splendor_tables.inc"

namespace splendor {
namespace {

// Every card is in exactly one place; tokens add up to the supply.
void check_conservation(const State& s, const core::Expect& expect) {
  int seen[kNumCards] = {};
  for (int slot = 0; slot < kTableSlots; ++slot)
    if (s.table_card(slot) != kNoCard) ++seen[s.table_card(slot)];
  for (int l = 0; l < kLevels; ++l) {
    const int base = State::first_card_of_level(l);
    expect(core::popcount(s.deck_set(l)) == s.deck_size(l), "deck set holds the deck's size");
    core::for_each_bit(s.deck_set(l), [&](int b) { ++seen[base + b]; });
    if (s.decks_unordered()) continue;  // a lazy sample's decks are the sets only
    uint64_t listed = 0;
    for (int i = 0; i < s.deck_size(l); ++i) listed |= uint64_t{1} << (s.deck_card(l, i) - base);
    expect(listed == s.deck_set(l), "deck set matches the deck");
  }
  int tokens[kNumKinds] = {};
  for (int k = 0; k < kNumKinds; ++k) tokens[k] = core::swar::lane(s.bank(), k);
  for (int p = 0; p < s.num_players(); ++p) {
    const Player& pl = s.player(p);
    for (int i = 0; i < pl.num_reserved; ++i) ++seen[pl.reserved[i]];
    for (int c = 0; c < kNumCards; ++c) seen[c] += pl.owns(c);
    for (int k = 0; k < kNumKinds; ++k) tokens[k] += core::swar::lane(pl.tokens, k);
  }
  const bool pending_blind = s.pending_blind_level() >= 0;
  for (int c = 0; c < kNumCards; ++c) expect(seen[c] == 1 || (pending_blind && seen[c] == 0), "card conserved");
  for (int k = 0; k < kColours; ++k) expect(tokens[k] == s.config().gem_tokens, "gem tokens conserved");
  expect(tokens[kGold] == s.config().gold_tokens, "gold conserved");
}

// The vectorised buy mask against a plain recomputation from the card table.
void check_buy_mask(const State& s, const core::Expect& expect) {
  for (int seat = 0; seat < s.num_players(); ++seat) {
    uint16_t want = 0;
    for (int n = 0; n < kNumNobles; ++n) {
      bool meets = ((s.table_nobles() >> n) & 1) != 0;
      for (int c = 0; c < kColours; ++c)
        meets = meets && core::swar::lane(s.player(seat).bonuses, c) >= tables::kNobles[n].requirement[c];
      if (meets) want = static_cast<uint16_t>(want | (1u << n));
    }
    expect(s.qualifying_nobles(seat) == want, "qualifying nobles match the noble table");
  }
  if (s.phase() != Phase::kMain) return;
  const Player& p = s.player(s.turn_seat());
  const uint64_t mask = s.legal_main_mask();
  auto affordable = [&](int card) {
    int short_total = 0;
    for (int c = 0; c < kColours; ++c) {
      const int need = tables::kCards[card].cost[c] - core::swar::lane(p.bonuses, c) - core::swar::lane(p.tokens, c);
      short_total += need > 0 ? need : 0;
    }
    return short_total <= core::swar::lane(p.tokens, kGold);
  };
  for (int slot = 0; slot < kTableSlots; ++slot) {
    const bool want = s.table_card(slot) != kNoCard && affordable(s.table_card(slot));
    expect(((mask >> (kBuyTable + slot)) & 1) == want, "buy mask matches the card table (table)");
  }
  for (int i = 0; i < kMaxReserved; ++i) {
    const bool want = i < p.num_reserved && affordable(p.reserved[i]);
    expect(((mask >> (kBuyReserved + i)) & 1) == want, "buy mask matches the card table (reserve)");
  }
}

// Splendor's own checks for core::random_sim_test.
struct Checks : core::RuleChecks<Game> {
  void position(const State& s, const core::Expect& expect) {
    check_conservation(s, expect);
    check_buy_mask(s, expect);
    expect(s.passes_this_round() <= (s.is_terminal() ? s.num_players() : s.turn_seat() + 1), "passes counted within the round only");
  }
  // The rollout policy's vectorised target and take against their references.
  void decision(const State& s, const ActionList&, core::Rng& rng, const core::Expect& expect) {
    if (s.phase() != Phase::kMain) return;
    const uint64_t noise = rng.next();
    expect(s.heuristic_target(noise) == s.heuristic_target_reference(noise), "heuristic target matches its reference");
    const uint64_t bits = core::splitmix64(noise);  // any legal set and needed colours, not only this state's
    const auto takes = static_cast<uint32_t>(bits & ((1u << kTakeTwo) - 1)) >> (bits >> 60);
    const auto needed = static_cast<uint32_t>(bits >> 32) & 31;
    expect(State::heuristic_take(takes, needed, noise) == State::heuristic_take_reference(takes, needed, noise),
           "heuristic take matches its reference");
  }
  // A card's text or a notation word, for damaged positions and notation.
  std::string word(core::Rng& rng) {
    static constexpr const char* kWords[] = {"take", "buy", "reserve", "return", "noble", "deck", "gold", "t1",
                                             "r2", "2.3", "white", "red", "1", "12", "", "  ", "card", "x"};
    if (rng.below(2)) return card_text(static_cast<int>(rng.below(kNumCards)));
    return kWords[rng.below(sizeof kWords / sizeof *kWords)];
  }
};

}  // namespace

SelfCheckReport self_check_random_games(const Config& config, int64_t n_games, uint64_t seed) {
  return core::random_sim_test<Game>(config, n_games, seed, Checks{});
}

}  // namespace splendor
