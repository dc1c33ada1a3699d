// The random stream of each search thread and agent move: derived from the user's seed,
// the search's (or move's) index and the thread, so repeated searches and threads
// never share a stream and a seed replays the same games.
#pragma once
#include <cstdint>

#include "core/rng.hpp"

namespace search {

inline uint64_t thread_seed(uint64_t seed, uint64_t search_index, int thread) {
  return core::splitmix64(core::splitmix64(seed ^ (search_index * 0x9e3779b97f4a7c15ULL)) + static_cast<uint64_t>(thread));
}

}  // namespace search
