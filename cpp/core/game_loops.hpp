// Loops written once for every game: perft and random playouts.
#pragma once
#include <limits>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/game.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace core {

// Number of leaf decisions `depth` plies below `state`, chance outcomes counted as
// plies. Terminal states count as one leaf.
template <typename State, typename ActionList>
uint64_t perft(const State& state, int depth) {
  if (depth == 0 || state.is_terminal()) return 1;
  ActionList actions;
  state.legal_actions(actions);
  if (depth == 1) return static_cast<uint64_t>(actions.size());
  uint64_t total = 0;
  for (Action a : actions) {
    State child = state;
    child.apply(a);
    total += perft<State, ActionList>(child, depth - 1);
  }
  return total;
}

// Stockfish's "divide": for each root move in legal_actions order, the perft count of
// depth - 1 plies below it (so the counts sum to perft(state, depth)). Empty at depth 0
// or at a terminal state.
template <typename State, typename ActionList>
std::vector<std::pair<Action, uint64_t>> perft_divide(const State& state, int depth) {
  std::vector<std::pair<Action, uint64_t>> counts;
  if (depth == 0 || state.is_terminal()) return counts;
  ActionList actions;
  state.legal_actions(actions);
  for (Action a : actions) {
    State child = state;
    child.apply(a);
    counts.emplace_back(a, perft<State, ActionList>(child, depth - 1));
  }
  return counts;
}

struct PlayoutResult {
  std::vector<double> returns;   // n_games * num_players, row-major
  std::vector<int32_t> lengths;  // decisions (chance included) per game
};

// Plays n complete games with uniformly random moves. Game i is dealt from
// splitmix64(seed + i) so results do not depend on how games are split across calls.
template <typename State, typename Config>
PlayoutResult random_playouts(const Config& config, int64_t n_games, uint64_t seed) {
  PlayoutResult result;
  const State probe = State::initial(config, 0, false);
  const int players = probe.num_players();
  result.returns.resize(static_cast<size_t>(n_games) * players);
  result.lengths.resize(static_cast<size_t>(n_games));
  for (int64_t g = 0; g < n_games; ++g) {
    const uint64_t game_seed = splitmix64(seed + static_cast<uint64_t>(g));
    State state = State::initial(config, game_seed, false);
    Rng rng(splitmix64(game_seed ^ 0x5eedULL));
    int32_t length = 0;
    if constexpr (HasPlayRandom<State>) {  // named capabilities: each game's declaration checks them
      length = state.play_random(rng, std::numeric_limits<int>::max());  // the game's own loop, unhashed
    } else {
      for (; !state.is_terminal(); ++length) {
        const Action a = state.random_action(rng);
        if constexpr (HasApplyUnhashed<State>)
          state.apply_unhashed(a);  // nobody reads the hash of a playout
        else
          state.apply(a);
      }
    }
    state.returns(&result.returns[static_cast<size_t>(g) * players]);
    result.lengths[static_cast<size_t>(g)] = length;
  }
  return result;
}

}  // namespace core
