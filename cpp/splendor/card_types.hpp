// Row types of the generated component tables (see tools/gen_tables.py).
#pragma once
#include <cstdint>

namespace splendor {

struct CardRow {
  uint8_t level;   // 1..3
  uint8_t bonus;   // colour index: 0 white, 1 blue, 2 green, 3 red, 4 black
  uint8_t points;
  uint8_t cost[5];
};

struct NobleRow {
  uint8_t points;
  uint8_t requirement[5];
};

}  // namespace splendor
