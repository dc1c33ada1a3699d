// Inside the Splendor engine (state.cpp's buy test, policy.cpp's rollout policy): the
// player's candidate cards as byte lanes, table slots 0-11 and reserve 12-14, so one
// vector computation covers all of them.
#pragma once
#include <cstdint>

#include "splendor/state.hpp"
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

namespace splendor {

// The lanes holding a card: occupied table slots and the player's reserved cards.
inline uint32_t card_lanes(uint16_t table_mask, const Player& p) {
  return table_mask | (((1u << p.num_reserved) - 1) << kTableSlots);
}

#if defined(__SSE4_1__)
// Per lane, the tokens a card still lacks beyond `power` (bonuses + gem tokens), summed
// over colours with saturation, before gold. `lane_cost` holds the table cards' costs by
// colour; lane 12-14 costs come from the player's reserved_cost.
inline __m128i lane_shortfall(const uint8_t (*lane_cost)[16], const Player& p, uint64_t power) {
  __m128i shortfall = _mm_setzero_si128();
  const __m128i power_lanes = _mm_cvtsi64_si128(static_cast<long long>(power));
  for (int c = 0; c < kColours; ++c) {
    const __m128i table_cost = _mm_load_si128(reinterpret_cast<const __m128i*>(lane_cost[c]));
    const __m128i cost = _mm_insert_epi32(table_cost, static_cast<int>(p.reserved_cost[c]), 3);
    const __m128i have = _mm_shuffle_epi8(power_lanes, _mm_set1_epi8(static_cast<char>(c)));  // lane c everywhere
    shortfall = _mm_adds_epu8(shortfall, _mm_subs_epu8(cost, have));
  }
  return shortfall;
}
#endif

}  // namespace splendor
