// Splendor Duel as the generic code sees it: types, sizes, name and optional
// capabilities, checked against the State by core::check_game (docs/engine-interface.md).
#pragma once
#include "core/game.hpp"
#include "duel/state.hpp"

namespace duel {

struct Game {
  using State = duel::State;
  using Config = duel::Config;
  using ActionList = duel::ActionList;
  using ChanceList = duel::ChanceList;
  static constexpr const char* kName = "duel";
  static constexpr int kNumDistinctActions = duel::kNumDistinctActions;
  static constexpr int kMaxPlayers = duel::kMaxPlayers;
  static constexpr int kMaxLegalActions = duel::kMaxLegalActions;
  static constexpr int kObservationSize = duel::kObservationSize;
  static constexpr bool kLegalActionBits = false;
  static constexpr bool kDeterminizeLazily = false;
  static constexpr bool kPlayRandom = false;
  static constexpr bool kApplyUnhashed = true;
  static constexpr bool kEvaluate = true;
  static constexpr bool kHeuristicAction = true;
};
static_assert(core::check_game<Game>());

}  // namespace duel
