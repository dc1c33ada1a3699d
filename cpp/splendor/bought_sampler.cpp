// Uniform draws of summarised bought cards (bought_sampler.hpp): a count of the subsets
// of one colour's candidate cards by (cards per level, points), then a walk through the
// candidates taking each with the share of completions that include it.
#include "splendor/bought_sampler.hpp"

#include <vector>

#include "splendor_tables.inc"

namespace splendor {
namespace {

constexpr int kColourCards = 18;  // cards of one bonus colour in the game

// One summary's counting table over its candidate cards: ways[i][r] is the number of
// subsets of candidates i.. that make up exactly the remainder r (cards per level class,
// points), flattened.
struct Table {
  int candidates[kColourCards] = {};
  int m = 0;
  int dims[4] = {1, 1, 1, 1};  // level classes 0-2 (counts + 1), points + 1
  int stride[4] = {};
  int states = 1;
  bool by_level = false;
  std::vector<uint64_t>* ways = nullptr;

  int class_of(int card) const { return by_level ? tables::kCards[card].level - 1 : 0; }
  // The state index of r minus `card`, or -1 if the card does not fit in r.
  int without(int r, int card) const {
    const int cls = class_of(card), pts = tables::kCards[card].points;
    if ((r / stride[cls]) % dims[cls] == 0 || r % dims[3] < pts) return -1;
    return r - stride[cls] - pts * stride[3];
  }
  uint64_t& at(int i, int r) { return (*ways)[static_cast<size_t>(i * states + r)]; }
};

std::vector<uint64_t>& scratch() {
  thread_local std::vector<uint64_t> ways;
  return ways;
}

// Fills the table; returns the state index of the whole summary.
int build(Table& t, const BoughtSummary& s, const CardSet& pool) {
  for (int card = 0; card < kNumCards; ++card)
    if (tables::kCards[card].bonus == s.colour && card_in(pool, card)) t.candidates[t.m++] = card;
  t.by_level = s.fixed_levels();
  for (int l = 0; l < kLevels; ++l) t.dims[l] = t.by_level ? s.levels[l] + 1 : (l == 0 ? s.count + 1 : 1);
  t.dims[3] = s.points + 1;
  t.stride[3] = 1;
  for (int k = 2; k >= 0; --k) t.stride[k] = t.stride[k + 1] * t.dims[k + 1];
  t.states = t.stride[0] * t.dims[0];
  t.ways = &scratch();
  t.ways->assign(static_cast<size_t>((t.m + 1) * t.states), 0);
  t.at(t.m, 0) = 1;
  for (int i = t.m - 1; i >= 0; --i)
    for (int r = 0; r < t.states; ++r) {
      const int rest = t.without(r, t.candidates[i]);
      t.at(i, r) = t.at(i + 1, r) + (rest >= 0 ? t.at(i + 1, rest) : 0);
    }
  return t.states - 1;  // every dimension at its largest: the whole summary
}

}  // namespace

uint64_t count_bought(const BoughtSummary& s, const CardSet& pool) {
  Table t;
  const int whole = build(t, s, pool);
  return t.at(0, whole);
}

unsigned draw_bought(const BoughtSummary* summaries, int n, const CardSet& pool, core::Rng& rng, int tries, CardSet* out) {
  unsigned failed = 0;
  for (int colour = 0; colour < kColours; ++colour) {
    bool drawn = false;
    for (int attempt = 0; attempt < tries && !drawn; ++attempt) {
      CardSet used{};
      drawn = true;
      CardSet fresh[kMaxPlayers * kColours];
      for (int k = 0; k < n && drawn; ++k) {
        if (summaries[k].colour != colour) continue;
        Table t;
        int r = build(t, summaries[k], pool);
        if (t.at(0, r) == 0) return ~0u;  // no subset at all: no attempt can succeed
        fresh[k] = {};
        for (int i = 0; i < t.m; ++i) {
          const int card = t.candidates[i], rest = t.without(r, card);
          if (rest < 0) continue;
          const uint64_t with = t.at(i + 1, rest);
          if (rng.below(static_cast<uint32_t>(t.at(i, r))) < with) {
            add_card(fresh[k], card);
            r = rest;
          }
        }
        drawn = (fresh[k][0] & used[0]) == 0 && (fresh[k][1] & used[1]) == 0;
        used[0] |= fresh[k][0], used[1] |= fresh[k][1];
      }
      if (drawn)
        for (int k = 0; k < n; ++k)
          if (summaries[k].colour == colour) out[k] = fresh[k];
    }
    if (!drawn) failed |= 1u << colour;
  }
  return failed;
}

}  // namespace splendor
