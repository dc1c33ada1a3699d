// Splendor Duel as the generic code sees it (docs/engine-interface.md): checked
// against the State by core::check_game.
#pragma once
#include "core/game.hpp"
#include "duel/state.hpp"

namespace duel {

struct Game : core::GameTypes<State, Config, ActionList, ChanceList, kNumDistinctActions, kMaxPlayers, kMaxLegalActions,
                              kObservationSize> {
  static constexpr const char* kName = "duel";
  static constexpr core::Capabilities kHas{.apply_unhashed = true, .evaluate = true, .heuristic_action = true,
                                           .win_probe = true};
};
static_assert(core::check_game<Game>());

}  // namespace duel
