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

  // Fisher-Yates; each 64-bit draw serves two swaps (32-bit multiply-shift
  // reduction; bias below n / 2^32, negligible for the small arrays shuffled here).
  template <typename T>
  void shuffle(T* first, int n) {
    int i = n - 1;
    for (; i > 1; i -= 2) {
      const uint64_t r = next();
      swap(first, i, static_cast<int>(((r & 0xFFFFFFFFu) * static_cast<uint64_t>(i + 1)) >> 32));
      swap(first, i - 1, static_cast<int>(((r >> 32) * static_cast<uint64_t>(i)) >> 32));
    }
    if (i == 1) swap(first, 1, static_cast<int>(below(2)));
  }

 private:
  template <typename T>
  static void swap(T* a, int i, int j) {
    T tmp = a[i];
    a[i] = a[j];
    a[j] = tmp;
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
