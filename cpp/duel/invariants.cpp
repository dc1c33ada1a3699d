// Duel's definition of a legal position (State::invariant_problems, core/game.hpp): the
// rule invariants every state play reaches keeps. Every position reader refuses a state
// breaking one (core::playable) and the random-game test checks each position met
// against them (tests/fuzz_duel.cpp).
#include <string>
#include <vector>

#include "core/bits.hpp"
#include "core/invariants.hpp"
#include "duel/state.hpp"

namespace duel {
namespace {

// 25 tokens between board, bag and players; every card in exactly one place;
// privileges within the count; nobody above 10 tokens between turns.
void check_conservation(const State& s, core::InvariantProblems& expect) {
  int tokens[kNumKinds] = {};
  for (int c = 0; c < kNumCells; ++c)
    if (s.cell(c) != kEmpty) ++tokens[s.cell(c)];
  for (int k = 0; k < kNumKinds; ++k) {
    tokens[k] += core::swar::lane(s.bag(), k) + core::swar::lane(s.player(0).tokens, k) + core::swar::lane(s.player(1).tokens, k);
    int mask_count = core::popcount(s.kind_mask(k));
    int cells = 0;
    for (int c = 0; c < kNumCells; ++c) cells += s.cell(c) == k;
    expect(mask_count == cells, "board masks match cells");
  }
  for (int k = 0; k < kNumKinds; ++k)
    expect(tokens[k] == (k < kPearl ? 4 : k == kPearl ? 2 : 3), "25 tokens accounted for");
  int seen[kNumCards] = {};
  for (int slot = 0; slot < kNumSlots; ++slot)
    if (s.pyramid(slot) != kNoCard) ++seen[s.pyramid(slot)];
  for (int l = 0; l < 3; ++l)
    core::for_each_bit(s.deck(l), [&](int i) { ++seen[kLevelFirst[l] + i]; });
  for (int seat = 0; seat < 2; ++seat) {
    const Player& p = s.player(seat);
    for (int i = 0; i < p.num_reserved; ++i) ++seen[p.reserved[i]];
    for (int c = 0; c < kNumCards; ++c) seen[c] += p.owns(c);
    expect(p.num_reserved <= kMaxReserved, "at most 3 reserved");
    expect((p.sampled_lo & ~p.owned_lo) == 0 && (p.sampled_hi & ~p.owned_hi) == 0, "sampled bought cards are bought cards");
  }
  for (int c = 0; c < kNumCards; ++c) expect(seen[c] == 1, "card in exactly one place");
  int priv = s.player(0).privileges + s.player(1).privileges;
  expect(priv <= s.config().privileges && s.privilege_supply() >= 0, "privileges conserved");
  if (!s.in_setup() && s.phase() == Phase::kMain)
    expect(s.player(s.turn_seat() ^ 1).num_tokens() <= kMaxTokensHeld, "opponent holds at most 10");
}

// The vectorised buy mask against a plain recomputation from the card table.
void check_buys(const State& s, core::InvariantProblems& expect) {
  if (s.phase() != Phase::kMain || s.in_setup()) return;
  ActionList legal;
  s.legal_actions(legal);
  const Player& p = s.player(s.turn_seat());
  auto affordable = [&](int card) {
    int shortfall = 0;
    for (int k = 0; k < 6; ++k) {
      int need = tables::kCards[card].cost[k] - (k < 5 ? core::swar::lane(p.bonuses, k) : 0) - core::swar::lane(p.tokens, k);
      shortfall += need > 0 ? need : 0;
    }
    bool joker_ok = tables::kCards[card].bonus != kBonusJoker || p.bonuses != 0;
    return joker_ok && shortfall <= core::swar::lane(p.tokens, kGold);
  };
  for (int b = 0; b < kNumSlots + kMaxReserved; ++b) {
    int card = b < kNumSlots ? s.pyramid(b) : b - kNumSlots < p.num_reserved ? p.reserved[b - kNumSlots] : kNoCard;
    bool want = card != kNoCard && affordable(card);
    expect(legal.contains(kBuyBase + b) == want, "buy mask matches the card table");
  }
}

}  // namespace

std::vector<std::string> State::invariant_problems() const {
  core::InvariantProblems problems;
  check_conservation(*this, problems);
  check_buys(*this, problems);
  return problems.take();
}

}  // namespace duel
