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
namespace detail {
// kSelectInByte[b][k]: position of the k-th set bit of byte b.
struct SelectInByte {
  uint8_t pos[256][8];
  constexpr SelectInByte() : pos() {
    for (int b = 0; b < 256; ++b) {
      int k = 0;
      for (int i = 0; i < 8; ++i)
        if ((b >> i) & 1) pos[b][k++] = static_cast<uint8_t>(i);
    }
  }
};
inline constexpr SelectInByte kSelectInByte{};
}  // namespace detail

inline int nth_set_bit(uint64_t x, int k) {
#if defined(SPLENDOR_MCTS_BMI2)
  return __builtin_ctzll(_pdep_u64(uint64_t{1} << k, x));
#else
  // Byte popcounts and their prefix sums (one multiply) locate the byte holding the
  // k-th bit without a loop; a table finds the bit inside it.
  uint64_t c = x - ((x >> 1) & 0x5555555555555555ULL);
  c = (c & 0x3333333333333333ULL) + ((c >> 2) & 0x3333333333333333ULL);
  c = (c + (c >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  const uint64_t prefix = c * 0x0101010101010101ULL;  // byte i: set bits in bytes 0..i
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  const uint64_t above_k = ((prefix | kHigh) - 0x0101010101010101ULL * static_cast<uint64_t>(k + 1)) & kHigh;
  const int byte = __builtin_popcountll(~above_k & kHigh);  // bytes whose prefix is <= k
  const int before = static_cast<int>(((prefix << 8) >> (8 * byte)) & 0xFF);
  return 8 * byte + detail::kSelectInByte.pos[(x >> (8 * byte)) & 0xFF][k - before];
#endif
}

// Portable builds on x86-64 still use PDEP where the CPU has it and runs it fast: the
// choice is made once at start-up. AMD before Zen 3 (and the 15h family) implements PDEP
// in microcode, tens to hundreds of cycles, slower than the table select above.
#if defined(__x86_64__) && !defined(SPLENDOR_MCTS_BMI2) && defined(__GNUC__)
__attribute__((target("bmi2"))) inline int nth_set_bit_pdep(uint64_t x, int k) {
  return __builtin_ctzll(__builtin_ia32_pdep_di(uint64_t{1} << k, x));
}
inline const bool kFastPdep = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam15h") && !__builtin_cpu_is("znver1") &&
         !__builtin_cpu_is("znver2");
}();
// nth_set_bit, through PDEP when kFastPdep: for the hottest call sites (random move picks).
inline int nth_set_bit_dispatch(uint64_t x, int k) { return kFastPdep ? nth_set_bit_pdep(x, k) : nth_set_bit(x, k); }
#else
inline int nth_set_bit_dispatch(uint64_t x, int k) { return nth_set_bit(x, k); }
#endif

// Calls f(i) for each set bit i of x, lowest first.
template <typename F>
inline void for_each_bit(uint64_t x, F&& f) {
  while (x) {
    f(__builtin_ctzll(x));
    x &= x - 1;
  }
}

}  // namespace core
