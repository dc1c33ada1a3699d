// The two parallelism modes as the way one thread reads and writes the tree, so the
// descent (search/descent.hpp) and the backup are written once for both:
//   OwnTree    root parallelism: the thread's own tree, plain accesses; a visit is
//              counted at backup.
//   SharedTree tree parallelism: one tree for all threads, statistics other threads
//              write read and written through relaxed std::atomic_ref, and a virtual
//              loss: each node on the way down counts its visit at once and receives
//              the return at backup, so a pending descent looks like a loss to the
//              other threads and steers them elsewhere.
//   HeldTree   one thread holding several descents before it backs them up (a batch of
//              leaves for an evaluator outside the search, search/leaf_batch.hpp): its
//              own tree with SharedTree's virtual loss, so the held descents spread out.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>

#include "core/types.hpp"
#include "search/solver.hpp"
#include "search/tree.hpp"

namespace search {

struct OwnTree {
  static uint32_t first_child(Tree& tree, uint32_t node) { return tree[node].first_child; }
  // The child was legal once more when its parent was selected from.
  static uint32_t count_avail(Node& n) { return ++n.avail; }
  static uint32_t visits(const Node& n) { return n.visits; }
  static float value_sum(const Node& n) { return n.value_sum; }
  static uint8_t flags(const Node& n) { return n.flags; }
  static void prove(Node& n, uint8_t code) {
    if (!(n.flags & solver::kProofMask)) n.flags |= code;
  }
  static void enter_root(Tree&) {}
  static void enter(Node&) {}
  // A node's visits without the descent now passing through it (PUCT's first-play term,
  // search/puct.hpp; analysis mode's floor, search/choice.hpp): counted at backup here, on
  // entry by the virtual loss of the others, which subtract it so that one thread searches
  // alike in every mode.
  static uint32_t visits_before(const Node& n) { return n.visits; }
  // A new child of `node` (the memory limit was checked before the descent).
  static uint32_t expand(Tree& tree, uint32_t node, uint32_t /*head*/, core::Action a, int mover, size_t /*limit*/) {
    const uint32_t child = tree.add_child(node, a, mover);
    tree[child].avail = 1;
    return child;
  }
  // A new entry of the policy cache (search/puct.hpp), 0 when memory_limit stops it.
  static uint32_t new_policy(Tree& tree, size_t memory_limit) { return tree.add_policy(memory_limit); }
  static void backup(Tree& tree, const uint32_t* path, int depth, const double* values) {
    tree[0].visits++;
    for (int i = 1; i < depth; ++i) {
      Node& n = tree[path[i]];
      n.visits++;
      n.value_sum += static_cast<float>(values[n.mover]);
    }
  }
};

struct HeldTree : OwnTree {
  static void enter_root(Tree& tree) { tree[0].visits++; }
  static void enter(Node& n) { n.visits++; }  // the virtual loss
  static uint32_t visits_before(const Node& n) { return n.visits - 1; }  // counted on entry
  static uint32_t expand(Tree& tree, uint32_t node, uint32_t /*head*/, core::Action a, int mover, size_t /*limit*/) {
    const uint32_t child = tree.add_child(node, a, mover);
    tree[child].avail = 1;
    tree[child].visits = 1;  // held descents read it before this one is backed up
    return child;
  }
  static void backup(Tree& tree, const uint32_t* path, int depth, const double* values) {
    for (int i = 1; i < depth; ++i) tree[path[i]].value_sum += static_cast<float>(values[tree[path[i]].mover]);
  }
};

struct SharedTree {
  // An acquire load (never a plain one, which would race with expand's store), so the
  // children it publishes are seen complete.
  static uint32_t first_child(Tree& tree, uint32_t node) {
    return std::atomic_ref<uint32_t>(tree[node].first_child).load(std::memory_order_acquire);
  }
  // A plain load and store, not a locked increment: every legal child on every descent
  // is touched, and the locked version halved the mid-game speed on 2 threads
  // (bench/notes/2026-12-01-tree-parallelism.md). A lost count only nudges UCB's log term.
  static uint32_t count_avail(Node& n) {
    std::atomic_ref<uint32_t> r(n.avail);
    const uint32_t avail = r.load(std::memory_order_relaxed) + 1;
    r.store(avail, std::memory_order_relaxed);
    return avail;
  }
  static uint32_t visits(Node& n) { return std::atomic_ref<uint32_t>(n.visits).load(std::memory_order_relaxed); }
  static float value_sum(Node& n) { return std::atomic_ref<float>(n.value_sum).load(std::memory_order_relaxed); }
  static uint8_t flags(Node& n) { return std::atomic_ref<uint8_t>(n.flags).load(std::memory_order_relaxed); }
  // The first proof stays (another thread may prove the same node at once).
  static void prove(Node& n, uint8_t code) {
    std::atomic_ref<uint8_t> f(n.flags);
    uint8_t old = f.load(std::memory_order_relaxed);
    while (!(old & solver::kProofMask) && !f.compare_exchange_weak(old, old | code, std::memory_order_relaxed)) {
    }
  }
  static void enter_root(Tree& tree) { enter(tree[0]); }
  static void enter(Node& n) { bump(n.visits); }  // the virtual loss
  static uint32_t visits_before(Node& n) { return visits(n) - 1; }  // counted on entry

  // Adds child `a` to `node`, whose child list began at `head` when this thread scanned
  // it. Another thread may have added `a` since: that child is then taken (with this
  // visit's virtual loss), so a move never gets two nodes. Children are published by
  // the release store of first_child, after they are complete. 0 when the memory
  // limit stops the tree growing.
  static uint32_t expand(Tree& tree, uint32_t node, uint32_t head, core::Action a, int mover, size_t memory_limit) {
    std::atomic_ref<uint8_t> busy(tree[node].flags);  // its lock bit; the other bits hold a proof
    for (int spins = 0; busy.fetch_or(solver::kLockBit, std::memory_order_acquire) & solver::kLockBit;)
      while (busy.load(std::memory_order_relaxed) & solver::kLockBit)
        if (++spins % 64 == 0)
          std::this_thread::yield();  // the holder may have been preempted (more threads than cores)
        else
          cpu_relax();
    std::atomic_ref<uint32_t> first(tree[node].first_child);
    const uint32_t now = first.load(std::memory_order_relaxed);  // only lock holders write it
    uint32_t child = 0;
    for (uint32_t ci = now; ci != head; ci = tree[ci].next_sibling)
      if (tree[ci].action == a) {
        child = ci;
        bump(tree[ci].avail);
        bump(tree[ci].visits);
        break;
      }
    if (!child) {
      child = tree.add_shared(a, mover, memory_limit);
      if (child) {
        tree[child].next_sibling = now;
        first.store(child, std::memory_order_release);
      }
    }
    busy.fetch_and(static_cast<uint8_t>(~solver::kLockBit), std::memory_order_release);
    return child;
  }

  static uint32_t new_policy(Tree& tree, size_t memory_limit) { return tree.add_policy_shared(memory_limit); }

  static void backup(Tree& tree, const uint32_t* path, int depth, const double* values) {
    for (int i = 1; i < depth; ++i) {  // the visits were counted on the way down
      Node& n = tree[path[i]];
      std::atomic_ref<float>(n.value_sum).fetch_add(static_cast<float>(values[n.mover]), std::memory_order_relaxed);
    }
  }

 private:
  // Relaxed: each is a counter read on its own.
  static void bump(uint32_t& x) { std::atomic_ref<uint32_t>(x).fetch_add(1, std::memory_order_relaxed); }

  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
};

}  // namespace search
