// Uniform draws of summarised bought cards (bought_sampler.hpp): a count of the subsets
// of one kind's candidate cards by (cards per level, points, crowns, extra bonuses), then a
// walk through the candidates taking each with the share of completions that include it.
#include "core/bought_sampler.hpp"

#include <algorithm>

#include "core/problems.hpp"

namespace core {
namespace {

constexpr int kMostCandidates = 32;  // cards of one kind in a game
constexpr int kDims = 6;             // level classes 0-2, points, crowns, extra bonuses
constexpr int kPoints = 3, kCrowns = 4, kExtra = 5;

// One summary's counting table over its candidate cards: ways[i][r] is the number of
// subsets of candidates i.. that make up exactly the remainder r (one digit per
// dimension), flattened.
struct Table {
  const CardCatalogue* cat = nullptr;
  int candidates[kMostCandidates] = {};
  int m = 0;
  int dims[kDims] = {1, 1, 1, 1, 1, 1};
  int stride[kDims] = {};
  int states = 1;
  bool by_level = false;
  std::vector<uint64_t>* ways = nullptr;

  int digit(int r, int d) const { return (r / stride[d]) % dims[d]; }
  // The state index of r minus `card`, or -1 if the card does not fit in r.
  int without(int r, int card) const {
    const ShownCard& c = cat->cards[card];
    const int cls = by_level ? c.level : 0;
    if (digit(r, cls) == 0 || digit(r, kPoints) < c.points || digit(r, kCrowns) < c.crowns || digit(r, kExtra) < c.extra)
      return -1;
    return r - stride[cls] - c.points * stride[kPoints] - c.crowns * stride[kCrowns] - c.extra * stride[kExtra];
  }
  uint64_t& at(int i, int r) { return (*ways)[static_cast<size_t>(i * states + r)]; }
};

std::vector<uint64_t>& scratch() {
  thread_local std::vector<uint64_t> ways;
  return ways;
}

// Fills the table; returns the state index of the whole summary.
int build(Table& t, const CardCatalogue& cat, const BoughtSummary& s, const CardSet& pool) {
  t.cat = &cat;
  int per_level[3] = {0, 0, 0}, most[kDims] = {0, 0, 0, 0, 0, 0};
  for (int card = 0; card < cat.count; ++card)
    if (cat.cards[card].kind == s.kind && card_in(pool, card) && t.m < kMostCandidates) {
      const ShownCard& c = cat.cards[card];
      t.candidates[t.m++] = card;
      ++per_level[c.level];
      most[kPoints] += c.points, most[kCrowns] += c.crowns, most[kExtra] += c.extra;
    }
  // Beyond what the candidates could make up there is nothing to count (and the table
  // stays small).
  bool possible = s.count <= t.m && s.points <= most[kPoints] && s.crowns <= most[kCrowns] && s.extra <= most[kExtra];
  for (int l = 0; l < 3 && s.fixed_levels(); ++l) possible = possible && s.levels[l] <= per_level[l];
  if (!possible) {
    t.ways = &scratch();
    t.ways->assign(static_cast<size_t>(t.m + 1), 0);  // one state, no way
    return 0;
  }
  t.by_level = s.fixed_levels();
  for (int l = 0; l < 3; ++l) t.dims[l] = t.by_level ? s.levels[l] + 1 : (l == 0 ? s.count + 1 : 1);
  t.dims[kPoints] = s.points + 1, t.dims[kCrowns] = s.crowns + 1, t.dims[kExtra] = s.extra + 1;
  t.stride[kDims - 1] = 1;
  for (int k = kDims - 2; k >= 0; --k) t.stride[k] = t.stride[k + 1] * t.dims[k + 1];
  t.states = t.stride[0] * t.dims[0];
  t.ways = &scratch();
  t.ways->assign(static_cast<size_t>((t.m + 1) * t.states), 0);
  t.at(t.m, 0) = 1;
  // The states in index order, their digits kept by a mixed-radix counter over the
  // dimensions that vary (no division in this, the sampler's hottest loop).
  int active[kDims], n_active = 0;
  for (int d = 0; d < kDims; ++d)
    if (t.dims[d] > 1) active[n_active++] = d;
  for (int i = t.m - 1; i >= 0; --i) {
    const ShownCard& c = cat.cards[t.candidates[i]];
    const int cls = t.by_level ? c.level : 0;
    const int delta = t.stride[cls] + c.points * t.stride[kPoints] + c.crowns * t.stride[kCrowns] + c.extra * t.stride[kExtra];
    int digit[kDims] = {0, 0, 0, 0, 0, 0};
    for (int r = 0; r < t.states; ++r) {
      const bool fits = digit[cls] > 0 && digit[kPoints] >= c.points && digit[kCrowns] >= c.crowns && digit[kExtra] >= c.extra;
      t.at(i, r) = t.at(i + 1, r) + (fits ? t.at(i + 1, r - delta) : 0);
      for (int a = n_active - 1; a >= 0 && ++digit[active[a]] == t.dims[active[a]]; --a) digit[active[a]] = 0;
    }
  }
  return t.states - 1;  // every dimension at its largest: the whole summary
}

// Draws one subset the summary allows into `out`; false if it allows none.
bool draw_one(const CardCatalogue& cat, const BoughtSummary& s, const CardSet& pool, Rng& rng, CardSet& out) {
  Table t;
  int r = build(t, cat, s, pool);
  out = {};
  if (t.at(0, r) == 0) return false;
  for (int i = 0; i < t.m; ++i) {
    const int card = t.candidates[i], rest = t.without(r, card);
    if (rest < 0) continue;
    if (rng.below(static_cast<uint32_t>(t.at(i, r))) < t.at(i + 1, rest)) {
      add_card(out, card);
      r = rest;
    }
  }
  return true;
}

bool disjoint_within_kinds(const CardCatalogue& cat, const BoughtSummary* summaries, int n, const CardSet* drawn) {
  for (int kind = 0; kind < cat.kinds; ++kind) {
    CardSet used{};
    for (int k = 0; k < n; ++k) {
      if (summaries[k].kind != kind) continue;
      if ((drawn[k][0] & used[0]) || (drawn[k][1] & used[1])) return false;
      used[0] |= drawn[k][0], used[1] |= drawn[k][1];
    }
  }
  return true;
}

}  // namespace

uint64_t count_bought(const CardCatalogue& cat, const BoughtSummary& s, const CardSet& pool) {
  Table t;
  const int whole = build(t, cat, s, pool);
  return t.at(0, whole);
}

unsigned draw_bought(const CardCatalogue& cat, const BoughtSummary* summaries, int n, const CardSet& pool, Rng& rng,
                     int tries, CardSet* out) {
  unsigned failed = 0;
  for (int kind = 0; kind < cat.kinds; ++kind) {
    bool drawn = false;
    CardSet fresh[kMaxSummaries];
    for (int attempt = 0; attempt < tries && !drawn; ++attempt) {
      CardSet used{};
      drawn = true;
      for (int k = 0; k < n && drawn; ++k) {
        if (summaries[k].kind != kind) continue;
        if (!draw_one(cat, summaries[k], pool, rng, fresh[k])) {  // no subset at all: no try can do better
          drawn = false, attempt = tries;
          break;
        }
        drawn = (fresh[k][0] & used[0]) == 0 && (fresh[k][1] & used[1]) == 0;
        used[0] |= fresh[k][0], used[1] |= fresh[k][1];
      }
    }
    if (!drawn) {
      failed |= 1u << kind;
      continue;
    }
    for (int k = 0; k < n; ++k)
      if (summaries[k].kind == kind) out[k] = fresh[k];
  }
  return failed;
}

bool redraw_bought(const CardCatalogue& cat, const BoughtSummary* summaries, int n, CardSet& pool, Rng& rng,
                   const uint64_t* excluded, CardSet* cards) {
  if (excluded) {
    pool[0] &= ~excluded[0], pool[1] &= ~excluded[1];
    if (draw_bought(cat, summaries, n, pool, rng, 10000, cards) != 0) return false;
  } else {
    draw_bought(cat, summaries, n, pool, rng, 64, cards);
  }
  for (int k = 0; k < n; ++k) pool[0] &= ~cards[k][0], pool[1] &= ~cards[k][1];
  return true;
}

int draw_bought_with_levels(const CardCatalogue& cat, const BoughtSummary* summaries, int n, const CardSet& pool,
                            const int level_total[3], Rng& rng, int tries, CardSet* out) {
  // ways[k][a][b]: subsets summary k allows with a level-1 and b level-2 cards (the rest level 3).
  constexpr int kMax = kMostSummarised + 1;
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
        w(k, a, b) = static_cast<double>(count_bought(cat, split, pool));
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
      draw_one(cat, split, pool, rng, drawn[static_cast<size_t>(k)]);  // chosen among splits that allow some
      x -= a, y -= b;
    }
    if (!disjoint_within_kinds(cat, summaries, n, drawn.data())) continue;
    for (int k = 0; k < n; ++k) out[k] = drawn[static_cast<size_t>(k)];
    return 1;
  }
  return -1;
}

std::vector<CardSet> draw_position_summaries(const CardCatalogue& cat, const std::vector<BoughtSummary>& sums,
                                             const CardSet& pool, const int unseen[3], const int unknown_reserved[3],
                                             const int* deck_counts, const std::string& seen_where, Rng& rng) {
  int wanted = 0;
  for (const BoughtSummary& s : sums) wanted += s.count;
  // The level totals the given decks leave to the summarised cards.
  int level_total[3] = {-1, -1, -1};
  if (deck_counts) {
    int sum = 0;
    for (int l = 0; l < 3; ++l) sum += level_total[l] = unseen[l] - unknown_reserved[l] - std::max(deck_counts[l], 0);
    for (int l = 0; l < 3; ++l)
      if (level_total[l] < 0 || sum != wanted)
        throw PathError("decks", "the decks, the blind reserves and the " + std::to_string(wanted) +
                                     " bought cards given by colour do not add up to the " +
                                     std::to_string(unseen[0] + unseen[1] + unseen[2]) + " cards not " + seen_where +
                                     " (level " + std::to_string(l + 1) + ": " + std::to_string(unseen[l]) + ")");
  }
  std::vector<CardSet> drawn(sums.size());
  const int n = static_cast<int>(sums.size());
  // With the decks given, the levels are drawn to add up to what the decks leave (exact);
  // kinds whose summaries share a card are drawn again: both keep the draw uniform.
  constexpr int kTries = 10000;
  const int drew = deck_counts ? draw_bought_with_levels(cat, sums.data(), n, pool, level_total, rng, kTries, drawn.data())
                               : (draw_bought(cat, sums.data(), n, pool, rng, kTries, drawn.data()) == 0 ? 1 : -1);
  if (drew == 1) return drawn;
  if (drew == 0)
    throw PathError("decks", "no draw of the bought cards given by colour leaves these deck counts: their levels "
                             "cannot add up to the " + std::to_string(level_total[0]) + ", " +
                             std::to_string(level_total[1]) + " and " + std::to_string(level_total[2]) +
                             " level-1, 2 and 3 cards the decks leave");
  throw PathError("players", "the bought cards given by colour cannot all be drawn at once: two players' "
                             "summaries of a colour keep needing the same cards (no draw in " +
                             std::to_string(kTries) + " tries)");
}

}  // namespace core
