// Splendor as the generic code sees it (docs/engine-interface.md): checked against
// the State by core::check_game.
#pragma once
#include <span>

#include "core/game.hpp"
#include "search/input_features.hpp"
#include "splendor/state.hpp"

namespace splendor {

struct Game : core::GameTypes<State, Config, ActionList, ChanceList, kNumDistinctActions, kMaxPlayers, kMaxLegalActions,
                              kObservationSize> {
  static constexpr const char* kName = "splendor";
  static constexpr core::Capabilities kHas{.legal_action_bits = true, .determinize_lazily = true, .play_random = true,
                                           .apply_unhashed = true, .evaluate = true, .heuristic_action = true, .win_probe = true};
  // The feature sets a network of this game may read (input_features.cpp).
  static std::span<const search::InputFeatures> input_features();
};
static_assert(core::check_game<Game>());

}  // namespace splendor
