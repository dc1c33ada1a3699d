// Splendor's input feature sets (search/input_features.hpp): registered with the search by
// the programs that link the game (bindings/games.hpp, the C++ drivers).
#include <array>

#include "splendor/game.hpp"

namespace splendor {
namespace {
// "needs": docs/training.md, "Input features"; measured in bench/notes/2026-12-03-input-features.md.
constexpr std::array kSets{
    search::InputFeatures{"needs", "splendor",
                          "for each seat and each card it may buy: gems still needed by colour, their sum, the shortfall "
                          "after tokens and after gold, whether it can buy now; and each noble's missing bonuses",
                          kObservationSize, kNeedsPerSeat, kMaxPlayers, needs_features},
};
}  // namespace

std::span<const search::InputFeatures> Game::input_features() { return kSets; }

}  // namespace splendor
