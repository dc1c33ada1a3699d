// Baseline agents for comparison and tournaments: uniform random and greedy (one ply
// over State::evaluate). Written once for every game.
#pragma once
#include "core/rng.hpp"
#include "core/types.hpp"

namespace search {

// A uniformly random legal move (a sampled outcome at a chance node).
template <class G>
core::Action random_agent_action(const typename G::State& state, core::Rng& rng) {
  if (state.is_terminal()) throw core::InvalidInput("the game is over: there is no move to choose");
  return state.random_action(rng);
}

// The move whose resulting position evaluate() likes best for the mover, ties broken
// at random. Moves are tried on a copy whose hidden cards are resampled from the
// mover's view, so a reveal caused by the move cannot leak the true deck.
template <class G>
core::Action greedy_agent_action(const typename G::State& state, core::Rng& rng) {
  using State = typename G::State;
  if (state.is_terminal()) throw core::InvalidInput("the game is over: there is no move to choose");
  if (state.is_chance()) return state.random_action(rng);
  const int player = state.current_player();
  State view = state;
  view.determinize(player, rng);
  view.set_explicit_chance(false);
  typename G::ActionList legal;
  view.legal_actions(legal);
  core::Action best = legal[0];
  double best_value = -1.0;
  int ties = 0;
  for (core::Action a : legal) {
    State next = view;
    next.apply(a);
    const double v = next.evaluate(player);
    if (v > best_value + 1e-12) {
      best_value = v;
      best = a;
      ties = 1;
    } else if (v > best_value - 1e-12 && rng.below(static_cast<uint32_t>(++ties)) == 0) {
      best = a;  // reservoir sampling over equal values
    }
  }
  return best;
}

}  // namespace search
