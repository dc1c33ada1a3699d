// Bit tricks used by move generation: popcount, k-th set bit, iteration.
#pragma once
#include <concepts>
#include <cstdint>
#if defined(SPLENDOR_MCTS_BMI2)
#include <immintrin.h>
#endif

namespace core {

// The popcnt instruction where the build targets it (x86-64-v2 and up), else a
// branch-free bit trick: the libgcc fallback of __builtin_popcount is a call. Masks of
// up to 32 bits take the 32-bit form (no widening move before the popcnt).
template <std::unsigned_integral T>
constexpr int popcount(T x) {
  if constexpr (sizeof(T) <= 4) {
#if defined(__POPCNT__)
    return __builtin_popcount(x);
#else
    uint32_t v = x;
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    return static_cast<int>((v * 0x01010101u) >> 24);
#endif
  } else {
#if defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    return popcount(static_cast<uint32_t>(x)) + popcount(static_cast<uint32_t>(x >> 32));
#endif
  }
}
inline int lowest_bit(uint64_t x) { return __builtin_ctzll(x); }

// Index of the k-th (0-based) set bit of x; k < popcount(x). PDEP does it in one
// instruction where the build targets BMI2 (SPLENDOR_MCTS_NATIVE); the portable
// version finds the byte by prefix sums and the bit in it by a table.
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
  const int byte = popcount(~above_k & kHigh);  // bytes whose prefix is <= k
  const int before = static_cast<int>(((prefix << 8) >> (8 * byte)) & 0xFF);
  return 8 * byte + detail::kSelectInByte.pos[(x >> (8 * byte)) & 0xFF][k - before];
#endif
}

// nth_set_bit of a 32-bit mask (board cells, card decks): with popcnt one instruction,
// two popcounts halve the search down to a byte, fewer instructions than the prefix
// sums. Masks, not ?:, which compilers may turn into branches that a random k mispredicts.
inline int nth_set_bit32(uint32_t x, int k) {
#if defined(__POPCNT__) && !defined(SPLENDOR_MCTS_BMI2)
  int n = __builtin_popcount(x & 0xFFFF);
  int ge = (n - 1 - k) >> 31;  // -1 when k >= n
  int shift = ge & 16;
  k -= ge & n;
  x >>= shift;
  n = __builtin_popcount(x & 0xFF);
  ge = (n - 1 - k) >> 31;
  shift += ge & 8;
  k -= ge & n;
  return shift + detail::kSelectInByte.pos[(x >> (ge & 8)) & 0xFF][k];
#else
  return nth_set_bit(x, k);
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
