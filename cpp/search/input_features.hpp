// Input features a network may read beside the observation tensor (docs/network-format.md,
// "features"): derived from the observation alone, so the trainer computes the same ones
// from self-play shards (_core.input_features) and the public observation stays as it is.
// The search knows no game: each game declares its sets beside its observation
// (Game::input_features(), e.g. cpp/splendor/input_features.cpp) and a program registers
// the games it links (the Python module from bindings/games.hpp, a C++ driver by hand).
#pragma once
#include <span>
#include <string_view>
#include <vector>

namespace search {

struct InputFeatures {
  std::string_view name, game, help;
  int observation_size;  // the game's observation tensor
  int per_seat;          // floats per seat; a network for up to P players reads P * per_seat
  int max_seats;
  // Writes players * per_seat floats: seats relative to the observer, 0 .. players-1.
  void (*compute)(const float* observation, int players, float* out);
};

// Adds a game's sets. Registering the same set again changes nothing; another set under
// a name already taken throws std::logic_error (two games cannot share a name).
void register_input_features(std::span<const InputFeatures> sets);
template <class G>
void register_game_input_features() {
  if constexpr (requires { G::input_features(); }) register_input_features(G::input_features());
}

std::vector<InputFeatures> input_feature_sets();  // every registered set, in registration order
const InputFeatures* input_features_named(std::string_view name);  // nullptr: none of that name

}  // namespace search
