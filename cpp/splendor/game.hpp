// Splendor as the generic code sees it: types, sizes, name and optional capabilities,
// checked against the State by core::check_game (docs/engine-interface.md).
#pragma once
#include "core/game.hpp"
#include "splendor/state.hpp"

namespace splendor {

struct Game {
  using State = splendor::State;
  using Config = splendor::Config;
  using ActionList = splendor::ActionList;
  using ChanceList = splendor::ChanceList;
  static constexpr const char* kName = "splendor";
  static constexpr int kNumDistinctActions = splendor::kNumDistinctActions;
  static constexpr int kMaxPlayers = splendor::kMaxPlayers;
  static constexpr int kMaxLegalActions = splendor::kMaxLegalActions;
  static constexpr int kObservationSize = splendor::kObservationSize;
  static constexpr bool kLegalActionBits = true;
  static constexpr bool kDeterminizeLazily = true;
  static constexpr bool kPlayRandom = true;
  static constexpr bool kApplyUnhashed = true;
  static constexpr bool kEvaluate = true;
  static constexpr bool kHeuristicAction = true;
};
static_assert(core::check_game<Game>());

}  // namespace splendor
