// Uniform draws of summarised bought cards (bought_sampler.hpp): a count of the subsets
// of one colour's candidate cards by (cards per level, points), then a walk through the
// candidates taking each with the share of completions that include it.
#include "splendor/bought_sampler.hpp"

#include <algorithm>
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
  int per_level[kLevels] = {0, 0, 0};
  for (int card = 0; card < kNumCards; ++card)
    if (tables::kCards[card].bonus == s.colour && card_in(pool, card)) {
      t.candidates[t.m++] = card;
      ++per_level[tables::kCards[card].level - 1];
    }
  // Beyond what the candidates could make up there is nothing to count (and the table
  // stays small: at most 9 x 7 x 5 level counts by 91 points).
  bool possible = s.count <= t.m && s.points <= 5 * s.count;
  for (int l = 0; l < kLevels && s.fixed_levels(); ++l) possible = possible && s.levels[l] <= per_level[l];
  if (!possible) {
    t.ways = &scratch();
    t.ways->assign(static_cast<size_t>(t.m + 1), 0);  // one state, no way
    return 0;
  }
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

// Draws one subset the summary allows (at least one must exist).
CardSet draw_one(const BoughtSummary& s, const CardSet& pool, core::Rng& rng) {
  Table t;
  int r = build(t, s, pool);
  CardSet out{};
  for (int i = 0; i < t.m; ++i) {
    const int card = t.candidates[i], rest = t.without(r, card);
    if (rest < 0) continue;
    if (rng.below(static_cast<uint32_t>(t.at(i, r))) < t.at(i + 1, rest)) {
      add_card(out, card);
      r = rest;
    }
  }
  return out;
}

bool disjoint_within_colours(const BoughtSummary* summaries, int n, const CardSet* drawn) {
  for (int colour = 0; colour < kColours; ++colour) {
    CardSet used{};
    for (int k = 0; k < n; ++k) {
      if (summaries[k].colour != colour) continue;
      if ((drawn[k][0] & used[0]) || (drawn[k][1] & used[1])) return false;
      used[0] |= drawn[k][0], used[1] |= drawn[k][1];
    }
  }
  return true;
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
    CardSet fresh[kMaxPlayers * kColours];
    for (int attempt = 0; attempt < tries && !drawn; ++attempt) {
      CardSet used{};
      drawn = true;
      for (int k = 0; k < n && drawn; ++k) {
        if (summaries[k].colour != colour) continue;
        fresh[k] = draw_one(summaries[k], pool, rng);
        drawn = (fresh[k][0] & used[0]) == 0 && (fresh[k][1] & used[1]) == 0;
        used[0] |= fresh[k][0], used[1] |= fresh[k][1];
      }
    }
    if (!drawn) {
      failed |= 1u << colour;
      continue;
    }
    for (int k = 0; k < n; ++k)
      if (summaries[k].colour == colour) out[k] = fresh[k];
  }
  return failed;
}

int draw_bought_with_levels(const BoughtSummary* summaries, int n, const CardSet& pool, const int level_total[kLevels],
                            core::Rng& rng, int tries, CardSet* out) {
  // ways[k][a][b]: subsets summary k allows with a level-1 and b level-2 cards (the rest level 3).
  constexpr int kMax = 41;
  std::vector<double> ways(static_cast<size_t>(n) * kMax * kMax, 0.0);
  const auto w = [&](int k, int a, int b) -> double& { return ways[(static_cast<size_t>(k) * kMax + a) * kMax + b]; };
  for (int k = 0; k < n; ++k) {
    const BoughtSummary& s = summaries[k];
    for (int a = 0; a <= s.count && a < kMax; ++a)
      for (int b = 0; a + b <= s.count && b < kMax; ++b) {
        const int c = s.count - a - b;
        if (s.fixed_levels() && (a != s.levels[0] || b != s.levels[1] || c != s.levels[2])) continue;
        BoughtSummary split = s;
        split.levels[0] = static_cast<int8_t>(a), split.levels[1] = static_cast<int8_t>(b), split.levels[2] = static_cast<int8_t>(c);
        w(k, a, b) = static_cast<double>(count_bought(split, pool));
      }
  }
  // rest[k][x][y]: ways for summaries k.. to take x level-1 and y level-2 cards in all.
  const int t0 = level_total[0], t1 = level_total[1];
  if (t0 < 0 || t1 < 0 || t0 >= kMax || t1 >= kMax) return 0;
  std::vector<double> rest(static_cast<size_t>(n + 1) * kMax * kMax, 0.0);
  const auto r = [&](int k, int x, int y) -> double& { return rest[(static_cast<size_t>(k) * kMax + x) * kMax + y]; };
  r(n, 0, 0) = 1;
  for (int k = n - 1; k >= 0; --k)
    for (int x = 0; x <= t0; ++x)
      for (int y = 0; y <= t1; ++y)
        for (int a = 0; a <= std::min(x, int{summaries[k].count}); ++a)
          for (int b = 0; b <= y && a + b <= summaries[k].count; ++b) r(k, x, y) += w(k, a, b) * r(k + 1, x - a, y - b);
  if (r(0, t0, t1) <= 0) return 0;
  // Summary k's split, in proportion to its subsets times the ways the others complete the totals.
  const auto choose = [&](int k, int x, int y, int& a, int& b) {
    double pick = rng.uniform() * r(k, x, y);
    for (int ca = 0; ca <= std::min(x, int{summaries[k].count}); ++ca)
      for (int cb = 0; cb <= y && ca + cb <= summaries[k].count; ++cb) {
        const double share = w(k, ca, cb) * r(k + 1, x - ca, y - cb);
        if (share <= 0) continue;
        a = ca, b = cb;
        if ((pick -= share) < 0) return;
      }
  };
  std::vector<CardSet> drawn(static_cast<size_t>(n));
  for (int attempt = 0; attempt < tries; ++attempt) {
    int x = t0, y = t1;
    for (int k = 0; k < n; ++k) {
      int a = 0, b = 0;
      choose(k, x, y, a, b);
      BoughtSummary split = summaries[k];
      split.levels[0] = static_cast<int8_t>(a), split.levels[1] = static_cast<int8_t>(b);
      split.levels[2] = static_cast<int8_t>(split.count - a - b);
      drawn[static_cast<size_t>(k)] = draw_one(split, pool, rng);
      x -= a, y -= b;
    }
    if (!disjoint_within_colours(summaries, n, drawn.data())) continue;
    for (int k = 0; k < n; ++k) out[k] = drawn[static_cast<size_t>(k)];
    return 1;
  }
  return -1;
}

}  // namespace splendor
