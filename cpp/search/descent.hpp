// One step of the descent through a tree of information sets, written once for both
// parallelism modes (the Access policy of search/parallelism.hpp): among the children
// legal in this sample (each counting one more availability), the best by UCB with the
// availability in place of the parent's visits (SO-ISMCTS); and, where some legal moves
// have no child yet, one of them uniformly at random to expand. Proven children
// (search/solver.hpp, only ever below exact nodes) are never chosen: their result is known.
#pragma once
#include <cstdint>

#include "core/bits.hpp"
#include "core/game.hpp"
#include "core/rng.hpp"
#include "search/solver.hpp"
#include "search/tree.hpp"
#include "search/ucb.hpp"

namespace search {

template <class G>
using ActionBits = core::ActionBits<G::kNumDistinctActions>;

namespace bits {

template <class Bits>
bool test(const Bits& b, int a) {
  return (b[a >> 6] >> (a & 63)) & 1;
}
template <class Bits>
void set(Bits& b, int a) {
  b[a >> 6] |= uint64_t{1} << (a & 63);
}
template <class Bits>
int count(const Bits& b) {
  int n = 0;
  for (uint64_t w : b) n += core::popcount(w);
  return n;
}
// The k-th (0-based, ascending ids) set bit.
template <class Bits>
core::Action nth(const Bits& b, int k) {
  for (int w = 0;; ++w) {
    const int n = core::popcount(b[w]);
    if (k < n) return w * 64 + core::nth_set_bit_dispatch(b[w], k);
    k -= n;
  }
}

}  // namespace bits

// The legal actions as a bitset, from the game's own bitset where it has one.
template <class G>
void legal_bits(const typename G::State& s, ActionBits<G>& out) {
  if constexpr (G::kHas.legal_action_bits) {
    s.legal_action_bits(out);
  } else {
    typename G::ActionList legal;
    s.legal_actions(legal);
    out = {};
    for (core::Action a : legal) bits::set(out, a);
  }
}

// What the scan of a node's children found.
template <class G>
struct ChildScan {
  uint32_t head = 0;       // the child list as this thread read it (expand's reference point)
  uint32_t best = 0;       // the legal unproven child of highest UCB score; 0 = none
  int n_seen = 0;          // legal children
  ActionBits<G> seen{};    // their actions
};

// kExact: the node is exact, so its children may hold proofs (elsewhere none is read).
template <class G, class Access, bool kExact>
ChildScan<G> scan_children(Tree& tree, uint32_t node, const ActionBits<G>& legal, float c) {
  ChildScan<G> scan;
  scan.head = Access::first_child(tree, node);
  float best_score = -1.0f;
  for (uint32_t ci = scan.head; ci; ci = tree[ci].next_sibling) {
    Node& ch = tree[ci];
    if (!bits::test(legal, ch.action)) continue;
    bits::set(scan.seen, ch.action);
    ++scan.n_seen;
    if constexpr (kExact)
      if (solver::proof_of(Access::flags(ch)) != solver::Proof::kUnknown) continue;
    const uint32_t avail = Access::count_avail(ch);
    const uint32_t visits = Access::visits(ch);  // >= 1: a node is created with its first visit
    const float score = Access::value_sum(ch) / static_cast<float>(visits) + ucb::exploration_term(c, avail, visits);
    if (score > best_score) {
      best_score = score;
      scan.best = ci;
    }
  }
  return scan;
}

// One of the `untried` legal actions without a child, uniformly.
template <class G>
core::Action pick_untried(const ActionBits<G>& legal, const ActionBits<G>& seen, int untried, core::Rng& rng) {
  ActionBits<G> fresh;
  for (size_t w = 0; w < fresh.size(); ++w) fresh[w] = legal[w] & ~seen[w];
  return bits::nth(fresh, static_cast<int>(rng.below(static_cast<uint32_t>(untried))));
}

}  // namespace search
