// Invariant checks written once for every game behind the engine interface
// (docs/engine-interface.md), used by the generic random-game test (core/random_sim.hpp).
// Rule-specific checks (conservation, buy masks) stay with each game. `expect(ok, what)`
// records a failure; the caller binds the game seed and step it reports.
#pragma once
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace core {

// Collects what a game's State::invariant_problems finds: check(ok, what) records `what`
// once, however many cards or seats break it.
class InvariantProblems {
 public:
  void operator()(bool ok, const char* what) {
    if (!ok && std::find(problems_.begin(), problems_.end(), what) == problems_.end()) problems_.emplace_back(what);
  }
  std::vector<std::string> take() { return std::move(problems_); }

 private:
  std::vector<std::string> problems_;
};

// The game's own invariants (State::invariant_problems, the readers' definition of a
// legal position), each broken one recorded.
template <typename State, typename Expect>
void check_invariants(const State& s, Expect&& expect) {
  for (const std::string& problem : s.invariant_problems()) expect(false, problem.c_str());
}

// At a decision: the incremental hash equals a recomputation, and the legal-action
// list (left in `legal` for the caller) is non-empty and agrees with is_legal.
template <typename State, typename ActionList, typename Expect>
void check_decision(const State& s, ActionList& legal, Expect&& expect) {
  expect(s.hash() == s.compute_hash(), "incremental hash equals recomputation");
  s.legal_actions(legal);
  expect(!legal.empty(), "a non-terminal state has a legal action");
  for (Action a : legal) expect(s.is_legal(a) && s.why_illegal(a).empty(), "legal_actions agree with is_legal and why_illegal");
}

// A random id (out of range ones included) that is not legal has a reason and is refused
// with InvalidInput, leaving the state unchanged. Draws one number from `rng`.
template <int kNumDistinctActions, typename State, typename Expect>
void check_refuses_bad_action(State& s, Rng& rng, Expect&& expect) {
  const State before = s;
  const Action bad = static_cast<Action>(rng.below(kNumDistinctActions + 20)) - 10;
  if (s.is_legal(bad)) return;
  expect(!s.why_illegal(bad).empty(), "an illegal action has a reason");
  try {
    s.apply_checked(bad);
    expect(false, "illegal action refused");
  } catch (const InvalidInput&) {
  }
  expect(s == before, "state unchanged after a refused action");
}

// Plays the chosen move `a` on `s` and on `unhashed` (the same game followed through
// apply_unhashed): the move is legal, its notation round-trips, and both reach the same
// state with the same hash (an unhashed state recomputes it).
template <class G, typename State, typename ActionList, typename Expect>
void check_move(State& s, State& unhashed, Action a, const ActionList& legal, Expect&& expect) {
  expect(legal.contains(a), "random_action is legal");
  expect(s.string_to_action(s.action_to_string(a)) == a, "notation round-trips");
  s.apply(a);
  apply_unhashed<G>(unhashed, a);
  expect(unhashed == s && unhashed.hash() == s.hash(), "apply_unhashed reaches the same state (hash recomputed)");
}

}  // namespace core
