// A search's result from its trees: root statistics merged by action over the threads'
// trees (root parallelism) or read from the one shared tree, with a principal variation
// per move and a confidence bound on each win rate.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/params.hpp"
#include "search/result.hpp"
#include "search/seeds.hpp"
#include "search/tree.hpp"
#include "search/tree_search.hpp"

namespace search {

// Lower bound of the Wilson score interval (95%) for a mean of returns in [0, 1].
inline double wilson_lower(double mean, double n) {
  if (n <= 0) return 0.0;
  constexpr double z = 1.96;
  const double z2n = z * z / n;
  const double centre = mean + z2n / 2;
  const double spread = z * std::sqrt(std::max(mean * (1 - mean), 0.0) / n + z2n / (4 * n));
  return std::clamp((centre - spread) / (1 + z2n), 0.0, mean);  // rounding can leave it a hair above
}

// Principal variations are followed on a sample of the hidden cards drawn from the
// player's view, so they reveal nothing the player does not know; their texts are
// spelled out on the same sample when someone reads them (the Python bindings).
template <class G>
typename G::State pv_sample(const typename G::State& root, int player, const SearchParams& params,
                            uint64_t search_index) {
  typename G::State view = root;
  core::Rng view_rng(thread_seed(params.seed, search_index, -1));
  if (!params.perfect_information) view.determinize(player, view_rng);
  view.set_explicit_chance(false);
  return view;
}

// The move, then the most visited child repeatedly while it is legal in `view`.
template <class G>
void principal_variation(const Tree& tree, uint32_t node, const typename G::State& view, MoveStats& m) {
  typename G::State s = view;
  constexpr int kMaxPv = 24;
  while (node && static_cast<int>(m.pv.size()) < kMaxPv) {
    const core::Action a = tree[node].action;
    if (s.is_terminal() || s.is_chance() || !s.is_legal(a)) break;
    m.pv.push_back(a);
    s.apply(a);
    uint32_t best = 0;
    for (uint32_t c = tree[node].first_child; c; c = tree[c].next_sibling)
      if (!best || tree[c].visits > tree[best].visits) best = c;
    node = best;
  }
}

// Of two proofs of the same move (two threads' trees), the quicker win or the longer
// resistance: each is sound, and the preferred one is what the player is told.
inline uint8_t proven_first(uint8_t kept, uint8_t found) {
  using solver::Proof;
  if (solver::proof_of(kept) == Proof::kUnknown) return found;
  const bool win = solver::proof_of(kept) == Proof::kWin;
  const bool found_better = win ? solver::turns_of(found) < solver::turns_of(kept) : solver::turns_of(found) > solver::turns_of(kept);
  return found_better ? found : kept;
}

// Root children summed by move (or turns by their moves: search/turns.hpp) over the
// threads' trees, with the most visited node to follow for the principal variation.
struct NodeSum {
  uint64_t visits = 0, avail = 0;
  double value = 0;
  int best_tree = -1;
  uint32_t best_node = 0;
  uint64_t best_visits = 0;
  uint8_t proof = 0;  // a proof found in any tree (search/solver.hpp)

  void add(const Tree& tree, int t, uint32_t node) {
    const Node& n = tree[node];
    visits += n.visits;
    avail += n.avail;
    value += n.value_sum;
    if (solver::proof_of(n.flags) != solver::Proof::kUnknown) proof = proven_first(proof, n.flags);
    if (n.visits > best_visits) {
      best_visits = n.visits;
      best_tree = t;
      best_node = node;
    }
  }

  // The statistics of move `action` (no principal variation yet); visits > 0.
  MoveStats stats(core::Action action) const {
    MoveStats m;
    m.action = action;
    m.visits = visits;
    m.avail = avail;
    m.win_rate = value / static_cast<double>(visits);
    m.lcb = wilson_lower(m.win_rate, static_cast<double>(visits));
    m.proof = solver::proof_of(proof);
    if (m.proof != solver::Proof::kUnknown) {  // a known result: no sampling error left
      m.proof_turns = solver::turns_of(proof);
      m.win_rate = m.lcb = m.proof == solver::Proof::kWin ? 1.0 : 0.0;
    }
    return m;
  }
};

// The order of the result's moves and the best move: proven wins first (the quickest
// first), then the unproven moves by visits, then proven losses (the longest
// resistance first).
inline bool better_move(const MoveStats& a, const MoveStats& b) {
  using solver::Proof;
  auto rank = [](const MoveStats& m) { return m.proof == Proof::kWin ? 0 : m.proof == Proof::kUnknown ? 1 : 2; };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  if (a.proof_turns != b.proof_turns) return a.proof == Proof::kWin ? a.proof_turns < b.proof_turns : a.proof_turns > b.proof_turns;
  if (a.visits != b.visits) return a.visits > b.visits;
  if (a.win_rate != b.win_rate) return a.win_rate > b.win_rate;
  return a.action < b.action;
}

// The root is won when a move is, lost when every legal move is proven lost.
template <class G>
void root_proof(SearchResult& r, const typename G::State& root) {
  using solver::Proof;
  if (r.moves.empty()) return;
  const MoveStats& best = r.moves[0];
  typename G::ActionList legal;
  root.legal_actions(legal);
  const bool all_lost = best.proof == Proof::kLoss && r.moves.size() == static_cast<size_t>(legal.size());
  if (best.proof == Proof::kWin || all_lost) {
    r.proof = best.proof;
    r.proof_turns = best.proof_turns;
  }
}

// `search_index` picks the sample the principal variations are spelled out on.
template <class G>
SearchResult collect(const std::vector<TreeSearch<G>>& trees, const typename G::State& root, int player,
                     const SearchParams& params, uint64_t search_index) {
  SearchResult r;
  r.player = player;
  std::vector<NodeSum> acc(static_cast<size_t>(G::kNumDistinctActions));
  std::vector<double> seat(static_cast<size_t>(root.num_players()), 0.0);
  uint64_t seat_iterations = 0;
  for (int t = 0; t < static_cast<int>(trees.size()); ++t) {
    const auto& ts = trees[t];
    r.max_depth = std::max(r.max_depth, ts.max_depth);
    r.memory_full |= ts.memory_full;
    seat_iterations += static_cast<uint64_t>(ts.iterations);
    for (int s = 0; s < root.num_players(); ++s) seat[s] += ts.seat_sum[s];
    if (t > 0 && params.parallelism == Parallelism::kTree) continue;  // one shared tree
    const Tree& tree = ts.own_tree;
    r.root_visits += tree[0].visits;
    r.nodes += tree.size();
    r.bytes += tree.bytes();
    for (uint32_t c = tree[0].first_child; c; c = tree[c].next_sibling)
      acc[static_cast<size_t>(tree[c].action)].add(tree, t, c);
  }
  for (double& v : seat) v = seat_iterations ? v / static_cast<double>(seat_iterations) : 0.0;
  r.seat_values = seat;
  for (const auto& ts : trees) r.iterations += static_cast<uint64_t>(ts.iterations);

  r.search_index = search_index;
  const typename G::State view = pv_sample<G>(root, player, params, search_index);

  for (int a = 0; a < G::kNumDistinctActions; ++a) {
    const NodeSum& x = acc[static_cast<size_t>(a)];
    if (x.visits == 0 || !root.is_legal(a)) continue;
    MoveStats m = x.stats(a);
    principal_variation<G>(trees[x.best_tree].own_tree, x.best_node, view, m);
    r.moves.push_back(std::move(m));
  }
  std::sort(r.moves.begin(), r.moves.end(), better_move);
  if (!r.moves.empty()) r.best_action = r.moves[0].action;
  root_proof<G>(r, root);
  return r;
}

}  // namespace search
