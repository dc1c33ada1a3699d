// The identities of bought cards a position gave only as the table shows them (per seat
// and colour: how many cards and how many points, the levels optional), drawn from the
// cards a player cannot see, uniformly over the assignments every summary allows
// (docs/search.md, "Summarised bought cards").
#pragma once
#include <array>
#include <cstdint>

#include "core/rng.hpp"
#include "splendor/state.hpp"

namespace splendor {

using CardSet = std::array<uint64_t, 2>;  // bit per card index

struct BoughtSummary {
  uint8_t seat = 0;
  uint8_t colour = 0;
  uint8_t count = 0;
  uint8_t points = 0;
  int8_t levels[kLevels] = {-1, -1, -1};  // cards of each level; -1 in all three: any levels
  bool fixed_levels() const { return levels[0] >= 0; }
};

inline bool card_in(const CardSet& set, int card) { return (set[static_cast<size_t>(card >> 6)] >> (card & 63)) & 1; }
inline void add_card(CardSet& set, int card) { set[static_cast<size_t>(card >> 6)] |= uint64_t{1} << (card & 63); }

// The subsets of `pool` that `s` allows (0: none).
uint64_t count_bought(const BoughtSummary& s, const CardSet& pool);

// For every summary a subset of `pool` it allows (each must allow one), no card twice, uniformly over such
// assignments: each colour's summaries are drawn independently and redrawn together
// while two share a card, at most `tries` times. Colours that failed keep `out` as it
// was (their bit is set in the result); 0: every colour drawn.
unsigned draw_bought(const BoughtSummary* summaries, int n, const CardSet& pool, core::Rng& rng, int tries, CardSet* out);

// As draw_bought, with the cards of each level in all summaries together fixed (the levels
// the given decks leave; level 3 is the rest): the levels of each summary are drawn in
// proportion to the assignments they allow, then the cards, all again while two summaries
// of a colour share a card (at most `tries` times). 1: drawn into `out`; 0: no assignment
// has those totals (exact); -1: every try collided.
int draw_bought_with_levels(const BoughtSummary* summaries, int n, const CardSet& pool, const int level_total[kLevels],
                            core::Rng& rng, int tries, CardSet* out);

}  // namespace splendor
