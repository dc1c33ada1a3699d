// The identities of bought cards a position gave only as the table shows them (per seat
// and kind of card: how many cards, their points, crowns and extra bonuses, the levels
// optional), drawn from the cards a player cannot see, uniformly over the assignments
// every summary allows (docs/search.md, "Summarised bought cards"). Both games use it:
// each describes its cards as a CardCatalogue (what a table shows of each card).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"

namespace core {

using CardSet = std::array<uint64_t, 2>;  // bit per card index (up to 128 cards)

inline bool card_in(const CardSet& set, int card) { return (set[static_cast<size_t>(card >> 6)] >> (card & 63)) & 1; }
inline void add_card(CardSet& set, int card) { set[static_cast<size_t>(card >> 6)] |= uint64_t{1} << (card & 63); }

// What a table shows of one bought card: the stack it goes on (`kind`: a colour, or a
// game's other kinds, as Duel's jokers and colourless cards), its level (0-2), points,
// crowns, and the bonuses it gives beyond one.
struct ShownCard {
  uint8_t kind = 0, level = 0, points = 0, crowns = 0, extra = 0;
};
struct CardCatalogue {
  const ShownCard* cards;
  int count;  // cards in the game (at most 128)
  int kinds;  // at most 32
};

inline constexpr int kMaxSummaries = 32;
inline constexpr int kMostSummarised = 40;  // cards one summary can stand for

struct BoughtSummary {
  uint8_t seat = 0;
  uint8_t kind = 0;
  uint8_t count = 0;
  uint8_t points = 0;
  int8_t levels[3] = {-1, -1, -1};  // cards of each level; -1 in all three: any levels
  uint8_t crowns = 0;
  uint8_t extra = 0;  // bonuses beyond one per card
  bool fixed_levels() const { return levels[0] >= 0; }
};

// The subsets of `pool` that `s` allows (0: none).
uint64_t count_bought(const CardCatalogue& cat, const BoughtSummary& s, const CardSet& pool);

// For every summary a subset of `pool` it allows (each must allow one), no card twice, uniformly over such
// assignments: each kind's summaries are drawn independently and redrawn together
// while two share a card, at most `tries` times. Kinds that failed keep `out` as it
// was (their bit is set in the result); 0: every kind drawn.
unsigned draw_bought(const CardCatalogue& cat, const BoughtSummary* summaries, int n, const CardSet& pool, Rng& rng,
                     int tries, CardSet* out);

// The search's redraw of summaries whose current cards are `cards` (the fallback), all in
// `pool`: with `excluded` (bit per card index, may be null) none of those is drawn and
// false means no draw fitted (then `cards` may be partly changed); without, a kind whose
// draw keeps colliding keeps its cards (docs/search.md says how rare). `pool` is left
// without the cards drawn.
bool redraw_bought(const CardCatalogue& cat, const BoughtSummary* summaries, int n, CardSet& pool, Rng& rng,
                   const uint64_t* excluded, CardSet* cards);

// As draw_bought, with the cards of each level in all summaries together fixed (the levels
// the given decks leave; level 3 is the rest): the levels of each summary are drawn in
// proportion to the assignments they allow, then the cards, all again while two summaries
// of a kind share a card (at most `tries` times). 1: drawn into `out`; 0: no assignment
// has those totals (exact); -1: every try collided.
int draw_bought_with_levels(const CardCatalogue& cat, const BoughtSummary* summaries, int n, const CardSet& pool,
                            const int level_total[3], Rng& rng, int tries, CardSet* out);

// Reading a position: the cards of every summary at once, from `pool` (the cards seen
// nowhere). With the decks given (`deck_counts` non-null), the levels add up to what the
// decks and the `unknown_reserved` blind reserves leave of the `unseen` cards of each
// level. Each summary must allow some subset on its own (the reader checks, naming it);
// what cannot be drawn together throws PathError; `seen_where` says where the cards of
// `pool` are not ("on the table, reserved or listed").
std::vector<CardSet> draw_position_summaries(const CardCatalogue& cat, const std::vector<BoughtSummary>& sums,
                                             const CardSet& pool, const int unseen[3], const int unknown_reserved[3],
                                             const int* deck_counts, const std::string& seen_where, Rng& rng);

}  // namespace core
