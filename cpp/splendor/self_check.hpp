// Invariant self-check over random games; see self_check.cpp.
#pragma once
#include <cstdint>

#include "core/random_sim.hpp"
#include "splendor/state.hpp"

namespace splendor {

using SelfCheckReport = core::SimReport;

// Plays n random games (alternately with explicit chance) through
// core::random_sim_test, checking after every action the invariants every game shares
// (hash == recomputation, legal move lists, refusal of illegal actions with the state
// unchanged, notation and JSON round-trips, player views, damaged JSON refused or read
// consistently, termination, returns) and Splendor's own: card and token conservation,
// the buy mask and qualifying nobles against the tables, the rollout policy against
// its reference.
SelfCheckReport self_check_random_games(const Config& config, int64_t n_games, uint64_t seed);

}  // namespace splendor
