// Row types of the Splendor Duel component tables that tools/gen_tables.py generates
// from data/splendor_duel/*.csv (duel_tables.inc). Field order matches the generator.
#pragma once
#include <cstdint>

namespace duel {

// bonus: 0-4 white blue green red black, 5 joker (bonus copy), 6 none.
// cost: white blue green red black pearl. abilities: bit mask of tables::kAbility_*.
struct CardRow {
  uint8_t level, bonus, bonus_count, points, crowns, abilities;
  uint8_t cost[6];
};

struct RoyalRow {
  uint8_t points, abilities;
};

}  // namespace duel
