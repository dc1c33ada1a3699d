// The games the search is instantiated for: each entry only names a game's types
// and sizes (docs/engine-interface.md); the search code itself knows no game.
#pragma once
#include "splendor/state.hpp"

namespace search {

struct SplendorGame {
  using State = splendor::State;
  using ActionList = splendor::ActionList;
  static constexpr int kNumDistinctActions = splendor::kNumDistinctActions;
  static constexpr int kMaxPlayers = splendor::kMaxPlayers;
  static constexpr int kObservationSize = splendor::kObservationSize;
  static constexpr const char* kName = "splendor";
};

}  // namespace search
