// Input features a network may read beside the observation tensor (docs/network-format.md,
// "features"): derived from the observation alone, so the trainer computes the same ones
// from self-play shards (_core.input_features) and the public observation stays as it is.
// One line per set in input_features.cpp.
#pragma once
#include <span>
#include <string_view>

namespace search {

struct InputFeatures {
  std::string_view name, game, help;
  int observation_size;  // the game's observation tensor
  int per_seat;          // floats per seat; a network for up to P players reads P * per_seat
  int max_seats;
  // Writes players * per_seat floats: seats relative to the observer, 0 .. players-1.
  void (*compute)(const float* observation, int players, float* out);
};

std::span<const InputFeatures> input_feature_sets();
const InputFeatures* input_features_named(std::string_view name);  // nullptr: none of that name

}  // namespace search
