// Bit tricks used by move generation: popcount, k-th set bit, iteration.
#pragma once
#include <cstdint>
#if defined(SPLENDOR_MCTS_BMI2)
#include <immintrin.h>
#endif

namespace core {

inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }

// Index of the k-th (0-based) set bit of x; k < popcount(x). PDEP does it in one
// instruction where the build targets BMI2 (SPLENDOR_MCTS_NATIVE); the portable
// loop clears low bits instead.
inline int nth_set_bit(uint64_t x, int k) {
#if defined(SPLENDOR_MCTS_BMI2)
  return __builtin_ctzll(_pdep_u64(uint64_t{1} << k, x));
#else
  for (; k > 0; --k) x &= x - 1;
  return __builtin_ctzll(x);
#endif
}

// Calls f(i) for each set bit i of x, lowest first.
template <typename F>
inline void for_each_bit(uint64_t x, F&& f) {
  while (x) {
    f(__builtin_ctzll(x));
    x &= x - 1;
  }
}

}  // namespace core
