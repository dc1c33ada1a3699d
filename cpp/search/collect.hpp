// A search's result from its trees: root statistics merged by action over the threads'
// trees (root parallelism) or read from the one shared tree, with a principal variation
// per move and a 95% interval on each win rate, ordered by the best-move rule
// (search/choice.hpp).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/choice.hpp"
#include "search/params.hpp"
#include "search/result.hpp"
#include "search/seeds.hpp"
#include "search/tree.hpp"
#include "search/tree_search.hpp"

namespace search {

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
    if (n.visits > best_visits || best_tree < 0) {  // (a move the root probe proved may have no visits)
      best_visits = n.visits;
      best_tree = t;
      best_node = node;
    }
  }

  // Adds another sum (the same turn by another order of its moves: search/turns.hpp).
  void merge(const NodeSum& o) {
    visits += o.visits;
    avail += o.avail;
    value += o.value;
    if (solver::proof_of(o.proof) != solver::Proof::kUnknown) proof = proven_first(proof, o.proof);
    if (o.best_tree >= 0 && (o.best_visits > best_visits || best_tree < 0)) {
      best_visits = o.best_visits;
      best_tree = o.best_tree;
      best_node = o.best_node;
    }
  }

  // The statistics of move `action` (no principal variation yet); visits > 0 or proven.
  MoveStats stats(core::Action action) const {
    MoveStats m;
    m.action = action;
    m.visits = visits;
    m.avail = avail;
    m.win_rate = visits ? value / static_cast<double>(visits) : 0.0;
    m.lcb = wilson_lower(m.win_rate, static_cast<double>(visits));
    m.ucb = wilson_upper(m.win_rate, static_cast<double>(visits));
    m.proof = solver::proof_of(proof);
    if (m.proof != solver::Proof::kUnknown) {  // a known result: no sampling error left
      m.proof_turns = solver::turns_of(proof);
      m.win_rate = m.lcb = m.ucb = m.proof == solver::Proof::kWin ? 1.0 : 0.0;
    }
    return m;
  }
};

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
  // The priors shown are the policy at the root itself (a tree's children hold the
  // policy of the sample each was added in).
  std::vector<float> root_prior;
  if (params.net) {
    root_prior.resize(static_cast<size_t>(G::kNumDistinctActions));
    ActionBits<G> legal;
    legal_bits<G>(root, legal);
    puct::priors<G>(*params.net, root, legal, root_prior.data());
  }

  for (int a = 0; a < G::kNumDistinctActions; ++a) {
    const NodeSum& x = acc[static_cast<size_t>(a)];
    if (x.best_tree < 0 || (x.visits == 0 && !x.proof) || !root.is_legal(a)) continue;
    MoveStats m = x.stats(a);
    if (!root_prior.empty()) m.prior = root_prior[static_cast<size_t>(a)];
    principal_variation<G>(trees[x.best_tree].own_tree, x.best_node, view, m);
    r.moves.push_back(std::move(m));
  }
  const uint64_t lcb_visits = lcb_min_visits(params, r.root_visits);
  std::sort(r.moves.begin(), r.moves.end(),
            [lcb_visits](const MoveStats& a, const MoveStats& b) { return better_move(a, b, lcb_visits); });
  if (!r.moves.empty()) r.best_action = r.moves[0].action;
  root_proof<G>(r, root);
  if (seat_iterations == 0 && r.proof == solver::Proof::kWin)  // proven before any iteration (search/probe.hpp)
    for (int s = 0; s < root.num_players(); ++s) r.seat_values[static_cast<size_t>(s)] = s == player ? 1.0 : 0.0;
  return r;
}

}  // namespace search
