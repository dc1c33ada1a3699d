// The best-move rule, written once: it orders the result's moves (the first is the best
// move, so the table a person reads and the move played agree) and, in analysis mode,
// picks the root moves whose share of the visits the descent keeps up (docs/search.md,
// "Best move"):
//   1. proven wins first, the quickest first; proven losses last, the longest first;
//   2. the unproven moves with at least kAnalysisShare of the root's visits (analysis
//      mode only; without it no move qualifies) by their lower 95% bound, highest first:
//      the most visited move unless a move with a reasonable count is surely better;
//   3. the others by visits, then mean, then action id (the order of play, unchanged).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/types.hpp"
#include "search/params.hpp"
#include "search/solver.hpp"
#include "search/tree.hpp"

namespace search {

// The Wilson score interval (95%) for a mean of returns in [0, 1] over n samples:
// `sign` -1 for its lower bound, +1 for its upper bound.
inline double wilson_bound(double mean, double n, double sign) {
  constexpr double z = 1.96;
  const double z2n = z * z / n;
  const double centre = mean + z2n / 2;
  const double spread = z * std::sqrt(std::max(mean * (1 - mean), 0.0) / n + z2n / (4 * n));
  return (centre + sign * spread) / (1 + z2n);
}
inline double wilson_lower(double mean, double n) {
  if (n <= 0) return 0.0;
  return std::clamp(wilson_bound(mean, n, -1.0), 0.0, mean);  // rounding can leave it a hair beyond the mean
}
inline double wilson_upper(double mean, double n) {
  if (n <= 0) return 1.0;
  return std::clamp(wilson_bound(mean, n, 1.0), mean, 1.0);
}

// The visits from which a move's lower bound ranks it (rule step 2): kAnalysisShare of
// the root's visits in analysis mode, else never.
inline uint64_t lcb_min_visits(const SearchParams& p, uint64_t root_visits) {
  if (p.analysis_moves == 0) return std::numeric_limits<uint64_t>::max();
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(kAnalysisShare * static_cast<double>(root_visits))));
}

// True when `a` comes before `b` (M: MoveStats, or RootMove below). `lcb_visits`: from
// lcb_min_visits.
template <class M>
bool better_move(const M& a, const M& b, uint64_t lcb_visits) {
  using solver::Proof;
  auto rank = [](const M& m) { return m.proof == Proof::kWin ? 0 : m.proof == Proof::kUnknown ? 1 : 2; };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  if (a.proof_turns != b.proof_turns) return a.proof == Proof::kWin ? a.proof_turns < b.proof_turns : a.proof_turns > b.proof_turns;
  const bool a_bound = a.visits >= lcb_visits, b_bound = b.visits >= lcb_visits;
  if (a_bound != b_bound) return a_bound;
  if (a_bound && a.lcb != b.lcb) return a.lcb > b.lcb;
  if (a.visits != b.visits) return a.visits > b.visits;
  if (a.win_rate != b.win_rate) return a.win_rate > b.win_rate;
  return a.action < b.action;
}

// A root child as the rule reads it while the search runs (proven ones are left out).
struct RootMove {
  solver::Proof proof = solver::Proof::kUnknown;
  int proof_turns = 0;
  uint64_t visits = 0;
  double win_rate = 0.0;
  double lcb = 0.0;
  core::Action action = -1;
  uint32_t node = 0;
};

// Analysis mode's floor: of the k unproven root children first in the rule's order, the
// one with the fewest visits if it is below kAnalysisShare of the root's visits k
// iterations ahead (so all k can be served in turn before any falls below the share);
// else 0 and UCB chooses. Read from the tree the descent uses; only the root's children
// (all legal: the root is exact), once per iteration.
template <class Access>
uint32_t starved_root_child(Tree& tree, int k) {
  const uint64_t root_visits = Access::visits_before(tree[0]);  // the iterations its children received
  SearchParams on;
  on.analysis_moves = k;
  const uint64_t lcb_visits = lcb_min_visits(on, root_visits);
  RootMove top[kMaxAnalysisMoves];
  int n = 0;
  for (uint32_t c = Access::first_child(tree, 0); c; c = tree[c].next_sibling) {
    Node& ch = tree[c];
    if (solver::proof_of(Access::flags(ch)) != solver::Proof::kUnknown) continue;
    RootMove m;
    m.visits = Access::visits(ch);
    if (m.visits == 0) continue;
    if (n == k && m.visits < lcb_visits && m.visits < top[k - 1].visits) continue;  // cannot pass the k-th
    m.win_rate = static_cast<double>(Access::value_sum(ch)) / static_cast<double>(m.visits);
    if (m.visits >= lcb_visits) m.lcb = wilson_lower(m.win_rate, static_cast<double>(m.visits));  // else unread
    m.action = ch.action;
    m.node = c;
    if (n == k && !better_move(m, top[k - 1], lcb_visits)) continue;
    int i = n < k ? n++ : k - 1;  // insertion into the k first so far; the last drops out
    for (; i > 0 && better_move(m, top[i - 1], lcb_visits); --i) top[i] = top[i - 1];
    top[i] = m;
  }
  const double wanted = kAnalysisShare * static_cast<double>(root_visits + static_cast<uint64_t>(k));
  uint32_t starved = 0;
  uint64_t fewest = std::numeric_limits<uint64_t>::max();
  for (int i = 0; i < n; ++i)
    if (static_cast<double>(top[i].visits) < wanted && top[i].visits < fewest) {
      fewest = top[i].visits;
      starved = top[i].node;
    }
  return starved;
}

}  // namespace search
