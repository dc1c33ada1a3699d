// The UCB score's exploration term, from tables: the descent computes one per legal
// child on every iteration, so a log, a square root and a division each time would
// be a large share of the search's cost.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace search::ucb {

// sqrt(ln(n)), ln(n) and 1/sqrt(n) for the counts UCB reads.
struct Tables {
  static constexpr int kBits = 12;
  static constexpr uint32_t kSize = 1u << kBits;
  float sqrt_ln[kSize];
  float ln[kSize];
  float inv_sqrt[kSize];
  Tables() {
    for (uint32_t i = 0; i < kSize; ++i) {
      ln[i] = i ? std::log(static_cast<float>(i)) : 0.0f;
      sqrt_ln[i] = std::sqrt(ln[i]);
      inv_sqrt[i] = i ? 1.0f / std::sqrt(static_cast<float>(i)) : 0.0f;
    }
  }
};
inline const Tables kTables;

// sqrt(ln(n)); beyond the table from n's leading 12 bits and its power of two (n is
// rounded down by less than 2^-11 of itself: ln(n) is off by less than 5e-4).
inline float sqrt_ln(uint32_t n) {
  if (n < Tables::kSize) return kTables.sqrt_ln[n];
  const int shift = std::bit_width(n) - Tables::kBits;
  return std::sqrt(kTables.ln[n >> shift] + static_cast<float>(shift) * 0.69314718f);
}

// c * sqrt(ln(avail) / visits), visits >= 1.
inline float exploration_term(float c, uint32_t avail, uint32_t visits) {
  const float is = visits < Tables::kSize ? kTables.inv_sqrt[visits] : 1.0f / std::sqrt(static_cast<float>(visits));
  return c * sqrt_ln(avail) * is;
}

}  // namespace search::ucb
