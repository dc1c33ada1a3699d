// Splendor's definition of a legal position (State::invariant_problems, core/game.hpp):
// the rule invariants every state play reaches keeps. Every position reader refuses a
// state breaking one (core::playable) and the random-game test checks each position met
// against them (splendor/self_check.cpp).
#include <string>
#include <vector>

#include "core/bits.hpp"
#include "core/invariants.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace splendor {
namespace {

// Every card is in exactly one place; tokens add up to the supply.
void check_conservation(const State& s, core::InvariantProblems& expect) {
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
    for (int w = 0; w < 2; ++w) expect((pl.sampled[w] & ~pl.owned[w]) == 0, "sampled bought cards are bought cards");
    for (int k = 0; k < kNumKinds; ++k) tokens[k] += core::swar::lane(pl.tokens, k);
  }
  const bool pending_blind = s.pending_blind_level() >= 0;
  for (int c = 0; c < kNumCards; ++c) expect(seen[c] == 1 || (pending_blind && seen[c] == 0), "card conserved");
  for (int k = 0; k < kColours; ++k) expect(tokens[k] == s.config().gem_tokens, "gem tokens conserved");
  expect(tokens[kGold] == s.config().gold_tokens, "gold conserved");
}

// The vectorised buy mask against a plain recomputation from the card table.
void check_buy_mask(const State& s, core::InvariantProblems& expect) {
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

}  // namespace

std::vector<std::string> State::invariant_problems() const {
  core::InvariantProblems problems;
  check_conservation(*this, problems);
  check_buy_mask(*this, problems);
  problems(passes_this_round() <= (is_terminal() ? num_players() : turn_seat() + 1), "passes counted within the round only");
  return problems.take();
}

}  // namespace splendor
