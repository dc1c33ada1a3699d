// Fast deterministic random numbers for playouts, shuffles and search.
#pragma once
#include <cstdint>

namespace core {

// wyrand: one multiply-xor per draw, passes BigCrush; state is a single word so
// states that embed an Rng stay small and trivially copyable.
struct Rng {
  uint64_t s = 0;

  Rng() = default;
  explicit Rng(uint64_t seed) : s(seed) {}

  uint64_t next() {
    s += 0xa0761d6478bd642fULL;
    __uint128_t t = static_cast<__uint128_t>(s) * (s ^ 0xe7037ed1a0b428dbULL);
    return static_cast<uint64_t>(t >> 64) ^ static_cast<uint64_t>(t);
  }

  // Uniform in [0, n) by Lemire's multiply-shift; the bias for n < 2^16 is below 2^-48.
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>((static_cast<__uint128_t>(next()) * n) >> 64);
  }

  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  template <typename T>
  void shuffle(T* first, int n) {
    for (int i = n - 1; i > 0; --i) {
      int j = static_cast<int>(below(static_cast<uint32_t>(i + 1)));
      T tmp = first[i];
      first[i] = first[j];
      first[j] = tmp;
    }
  }
};

// Derives independent seeds (for deals, threads, determinizations) from one seed.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace core
