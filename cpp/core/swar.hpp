// Byte-lane arithmetic on packed 64-bit words ("SIMD within a register").
// Token counts, bonuses and card costs are packed one colour per byte so a whole
// vector is read and written with one 64-bit operation: no byte writes followed by
// wide reads (store-forwarding stalls), and affordability is a handful of ALU ops.
// Every lane must stay below 128.
#pragma once
#include <cstdint>

namespace core::swar {

inline constexpr uint64_t kHigh = 0x8080808080808080ULL;
inline constexpr uint64_t kOnes = 0x0101010101010101ULL;

// Per lane max(a - b, 0).
inline constexpr uint64_t sat_sub(uint64_t a, uint64_t b) {
  uint64_t t = (a | kHigh) - (b & ~kHigh);
  uint64_t ge = (t & kHigh) >> 7;  // 1 in lanes where a >= b
  return t & ~kHigh & (ge * 0xFF);
}

// Per lane min(a, b).
inline constexpr uint64_t min(uint64_t a, uint64_t b) { return a - sat_sub(a, b); }

// Sum of all lanes (the total must stay below 256).
inline constexpr int sum(uint64_t x) { return static_cast<int>((x * kOnes) >> 56); }

// 1 in each lane of x that is not 0.
inline constexpr uint64_t nonzero_lanes(uint64_t x) { return (((x | kHigh) - kOnes) & kHigh) >> 7; }

inline constexpr int lane(uint64_t x, int i) { return static_cast<int>((x >> (8 * i)) & 0xFF); }
inline constexpr uint64_t unit(int i) { return uint64_t{1} << (8 * i); }

// Bit i set when lane i of x is >= threshold, for the low `lanes` lanes.
inline constexpr uint32_t lanes_at_least(uint64_t x, int threshold, int lanes) {
  const uint64_t t = (x | kHigh) - (kOnes * static_cast<uint64_t>(threshold));
  // Gathers the high bit of each lane into one byte: lane i's bit lands at 56 + i,
  // and no two partial products share a bit position, so nothing carries.
  const uint64_t gathered = (((t & kHigh) >> 7) * 0x0102040810204080ULL) >> 56;
  return static_cast<uint32_t>(gathered) & ((1u << lanes) - 1);
}

}  // namespace core::swar
