// Invariant self-check over random games; see self_check.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "splendor/state.hpp"

namespace splendor {

struct SelfCheckReport {
  int64_t games = 0;
  int64_t decisions = 0;
  int64_t failure_count = 0;
  std::vector<std::string> failures;  // the first 20, with game seed and step
};

// Plays n random games (alternately with explicit chance) checking after every
// action: card and token conservation, hash == recomputation, legal move lists,
// refusal of illegal actions with the state unchanged, notation round-trips, JSON
// round-trips, player views (rebuilt views and determinization keep them), damaged
// JSON refused or read consistently, termination and returns summing to one.
SelfCheckReport self_check_random_games(const Config& config, int64_t n_games, uint64_t seed);

}  // namespace splendor
