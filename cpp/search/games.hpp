// The games the search is instantiated for: each entry only names a game's types
// and sizes (docs/engine-interface.md); the search code itself knows no game.
#pragma once
#include "duel/state.hpp"
#include "splendor/state.hpp"

namespace search {

template <class S, class L, int Actions, int Players, int Observation>
struct GameTraits {
  using State = S;
  using ActionList = L;
  static constexpr int kNumDistinctActions = Actions;
  static constexpr int kMaxPlayers = Players;
  static constexpr int kObservationSize = Observation;
};

using SplendorGame = GameTraits<splendor::State, splendor::ActionList, splendor::kNumDistinctActions,
                                splendor::kMaxPlayers, splendor::kObservationSize>;
using DuelGame =
    GameTraits<duel::State, duel::ActionList, duel::kNumDistinctActions, duel::kMaxPlayers, duel::kObservationSize>;

}  // namespace search
