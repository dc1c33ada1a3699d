// PUCT selection with a network's policy as priors (AlphaZero; Silver et al. 2018), fitted
// to the information-set tree of search/descent.hpp, which grows one child at a time:
//   - a legal child scores Q + c * prior * sqrt(availability) / (1 + visits), its
//     availability (times it was legal when its parent was selected from) in place of
//     the parent's visits, as UCB does here;
//   - the moves without a child compete as one: the best of them by prior, scored with
//     the mean Q of the legal children (first-play urgency) and no visits. Its prior is
//     the node's Prior::untried, recorded at the last expansion here (the legal moves
//     of another sample may differ: it is an estimate, refreshed at each expansion);
//   - expanding evaluates the policy at the node (one forward pass), adds the untried
//     move of highest prior with that prior, and records the next highest; with the
//     policy cache (below) a node's later expansions mostly reuse its first one's.
// A search without a network never includes this file's code (tree_search.hpp).
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/bits.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"
#include "search/descent.hpp"
#include "search/network.hpp"
#include "search/solver.hpp"
#include "search/tree.hpp"

namespace search::puct {

// Priors are written by the thread that adds a node and read by all: under tree
// parallelism through relaxed atomics (like the statistics), a stale read only nudges
// one score.
inline float load(float& x) { return std::atomic_ref<float>(x).load(std::memory_order_relaxed); }
inline void store(float& x, float v) { std::atomic_ref<float>(x).store(v, std::memory_order_relaxed); }

template <class G>
struct Scan : ChildScan<G> {
  float best_score = -1.0f;
  double legal_value = 0.0;   // over the legal children: value sums and visits (first-play urgency)
  double legal_visits = 0.0;
};

template <class G, class Access, bool kExact>
Scan<G> scan_children(Tree& tree, uint32_t node, const ActionBits<G>& legal, float c) {
  Scan<G> scan;
  scan.head = Access::first_child(tree, node);
  for (uint32_t ci = scan.head; ci; ci = tree[ci].next_sibling) {
    Node& ch = tree[ci];
    if (!bits::test(legal, ch.action)) continue;
    bits::set(scan.seen, ch.action);
    ++scan.n_seen;
    const uint32_t avail = Access::count_avail(ch);
    const uint32_t visits = Access::visits(ch);  // >= 1: a node is created with its first visit
    const float value = Access::value_sum(ch);
    scan.legal_value += value;
    scan.legal_visits += visits;
    if constexpr (kExact)
      if (solver::proof_of(Access::flags(ch)) != solver::Proof::kUnknown) continue;
    const float score = value / static_cast<float>(visits) +
                        c * load(tree.prior(ci).prior) * std::sqrt(static_cast<float>(avail)) /
                            (1.0f + static_cast<float>(visits));
    if (score > scan.best_score) {
      scan.best_score = score;
      scan.best = ci;
    }
  }
  return scan;
}

// Whether the best untried move beats the best legal child (there is an untried one).
template <class G, class Access>
bool expand_first(Tree& tree, uint32_t node, const Scan<G>& scan, float c) {
  const float untried = load(tree.prior(node).untried);
  if (scan.best == 0 || untried < 0.0f || scan.legal_visits == 0.0) return true;
  const float fpu = static_cast<float>(scan.legal_value / scan.legal_visits);
  const float avail = static_cast<float>(Access::visits_before(tree[node])) + 1.0f;  // counting this descent
  return fpu + c * untried * std::sqrt(avail) > scan.best_score;
}

// Calls f(a) for each set bit a of `b`, ascending.
template <class Bits, class F>
void for_each_bit(const Bits& b, F&& f) {
  for (size_t w = 0; w < b.size(); ++w)
    for (uint64_t m = b[w]; m; m &= m - 1) f(static_cast<int>(w * 64) + core::lowest_bit(m));
}

// Softmax of policy logits over the legal moves only: e[j] = exp(logit - max) for the
// j-th legal move (ascending ids), and their sum, summed in that order.
template <class G>
float legal_exps(const float* logits, const ActionBits<G>& legal, float* e) {
  float top = -INFINITY;
  for_each_bit(legal, [&](int a) { top = std::max(top, logits[a]); });
  float sum = 0.0f;
  int j = 0;
  for_each_bit(legal, [&](int a) { sum += e[j++] = std::exp(logits[a] - top); });
  return sum;
}

// prior[a] for every legal a: the softmax of the logits over the legal moves.
template <class G>
void priors_from_logits(const float* logits, const ActionBits<G>& legal, float* prior) {
  float e[G::kNumDistinctActions];
  const float sum = legal_exps<G>(logits, legal, e);
  int j = 0;
  for_each_bit(legal, [&](int a) { prior[a] = e[j++] / sum; });
}

// The policy logits of the network at `s` (the observation of the player to move).
template <class G>
void policy_logits(const Network& net, const typename G::State& s, float* logits) {
  float observation[G::kObservationSize];
  s.observation_tensor(s.current_player(), observation);
  net.forward(observation, s.num_players(), logits, nullptr);
}

// The network's policy at `s` over its legal moves.
template <class G>
void priors(const Network& net, const typename G::State& s, const ActionBits<G>& legal, float* prior) {
  float logits[G::kNumDistinctActions];
  policy_logits<G>(net, s, logits);
  priors_from_logits<G>(logits, legal, prior);
}

// The untried legal move of highest prior (lowest id among equals) and its prior, from
// the policy logits at the node, and the next highest prior (the node's next
// Prior::untried; 0 if no other move is untried). Only the legal moves are visited.
template <class G>
core::Action choose_untried(const float* logits, const ActionBits<G>& legal, const ActionBits<G>& seen,
                            float& chosen_prior, float& next_prior) {
  float e[G::kNumDistinctActions];
  const float sum = legal_exps<G>(logits, legal, e);
  core::Action best = -1;
  float first = -1.0f, second = 0.0f;
  int j = 0;
  for_each_bit(legal, [&](int a) {
    const float p = e[j++] / sum;
    if (bits::test(seen, a)) return;
    if (p > first) {
      second = std::max(second, first);
      first = p;
      best = a;
    } else {
      second = std::max(second, p);
    }
  });
  chosen_prior = first;
  next_prior = second;
  return best;
}

// ---- The policy cache (SearchParams::policy_cache) -------------------------------------
// Each expansion above runs the policy at the node again, in its own sample, though the
// node has had it before (the tree adds one child at a time). With the cache, the
// expansion that runs it keeps the node's legal moves and its best untried ones by prior
// (NodePolicy); later expansions take the first of those legal in their sample and without
// a child, with the prior it had, and the next one's prior as Prior::untried. The network
// runs again, and a fresh entry from that sample replaces the old, when the entry cannot
// tell: a legal move without a child here was not legal when it was made (a card revealed
// in this sample; without this rule the cache lost 25 Elo at 1,000 iterations in
// Splendor: bench/notes/2026-12-02-policy-cache.md), or it has no such move left, or no
// next one while other moves are untried. Where every sample shows the node alike (perfect
// information) the choices and priors are exactly the recomputation's; elsewhere they are
// the policy of the sample that made the entry, as a child's prior already is that of the
// sample that made the child.

// A node's entry in the tree's policy cache (Tree::policy: made once the node is expanded).
template <class G>
struct NodePolicy {
  static constexpr int kMoves = 8;
  ActionBits<G> legal;     // the moves legal when it was made
  float prior[kMoves];     // its first `size` moves without a child then, by prior from the highest
  int16_t action[kMoves];  // (the lowest id first among equals)
  uint8_t size = 0;
};

template <class G>
NodePolicy<G>& policy_entry_at(Tree& tree, uint32_t i) {
  static_assert(std::is_trivially_copyable_v<NodePolicy<G>>, "entries are copied as bytes (search/reuse.hpp)");
  return *reinterpret_cast<NodePolicy<G>*>(tree.policy(i));
}

// An entry is written whole, then its index published (release) to the threads that read it
// (acquire); it is never written again (a refresh publishes a new one).
inline uint32_t load_policy(uint32_t& x) { return std::atomic_ref<uint32_t>(x).load(std::memory_order_acquire); }
inline void publish_policy(uint32_t& x, uint32_t v) { std::atomic_ref<uint32_t>(x).store(v, std::memory_order_release); }

// The entry of the logits at a node: its legal moves, and those without a child (not in
// `seen`) by prior as choose_untried computes it, the first NodePolicy::kMoves of them.
template <class G>
void policy_entry(const float* logits, const ActionBits<G>& legal, const ActionBits<G>& seen, NodePolicy<G>& out) {
  constexpr int kMoves = NodePolicy<G>::kMoves;
  out.legal = legal;
  float e[G::kNumDistinctActions];
  const float sum = legal_exps<G>(logits, legal, e);
  int j = 0, n = 0;
  for_each_bit(legal, [&](int a) {  // ascending ids: an equal prior goes after, as the lower id is first
    const float p = e[j++] / sum;
    if (bits::test(seen, a) || (n == kMoves && !(p > out.prior[kMoves - 1]))) return;
    int i = n < kMoves ? n++ : kMoves - 1;
    for (; i > 0 && out.prior[i - 1] < p; --i) {
      out.prior[i] = out.prior[i - 1];
      out.action[i] = out.action[i - 1];
    }
    out.prior[i] = p;
    out.action[i] = static_cast<int16_t>(a);
  });
  out.size = static_cast<uint8_t>(n);
}

// From an entry: the first of its moves legal here and without a child, its prior, and the
// next such move's prior (0 when `untried`, the legal moves without a child here, is 1);
// -1 when the entry cannot tell them.
template <class G>
core::Action choose_cached(const NodePolicy<G>& entry, const ActionBits<G>& legal, const ActionBits<G>& seen,
                           int untried, float& chosen_prior, float& next_prior) {
  for (size_t w = 0; w < legal.size(); ++w)
    if (legal[w] & ~seen[w] & ~entry.legal[w]) return -1;  // an untried move it never ranked
  core::Action best = -1;
  for (int i = 0; i < entry.size; ++i) {
    const int a = entry.action[i];
    if (!bits::test(legal, a) || bits::test(seen, a)) continue;
    if (best >= 0) {
      next_prior = entry.prior[i];
      return best;
    }
    best = a;
    chosen_prior = entry.prior[i];
  }
  if (best < 0 || untried > 1) return -1;
  next_prior = 0.0f;
  return best;
}

// choose_untried through the node's entry, made (or replaced) from `logits()` at `node` when
// it cannot tell; the entry is kept while memory_limit allows.
template <class G, class Access, class Logits>
core::Action choose_cached_or_run(Tree& tree, uint32_t node, Logits&& logits, const ActionBits<G>& legal,
                                  const ActionBits<G>& seen, int untried, size_t memory_limit, float& chosen_prior,
                                  float& next_prior) {
  uint32_t& index = tree.prior(node).policy;
  if (const uint32_t at = load_policy(index)) {
    const core::Action a = choose_cached<G>(policy_entry_at<G>(tree, at), legal, seen, untried, chosen_prior, next_prior);
    if (a >= 0) return a;
  }
  NodePolicy<G> entry;
  policy_entry<G>(logits(), legal, seen, entry);
  if (const uint32_t at = Access::new_policy(tree, memory_limit)) {
    policy_entry_at<G>(tree, at) = entry;
    publish_policy(index, at);
  }
  return choose_cached<G>(entry, legal, seen, untried, chosen_prior, next_prior);  // made here: it tells
}

}  // namespace search::puct
