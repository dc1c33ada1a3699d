// The search tree: a flat arena of 24-byte nodes in fixed-size chunks (no per-node
// allocation, stable indices, no pointers), children as singly linked sibling lists.
//
// Tree parallelism shares one tree between threads: nodes are then added under a lock
// (add_shared) into chunk slots reserved up front, so the chunk table never moves
// while other threads index it, and published to readers by a release store of the
// parent's first_child. Statistics are then read and written through std::atomic_ref.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "core/types.hpp"

namespace search {

struct Node {
  float value_sum = 0.0f;      // returns of `mover` summed over the visits
  uint32_t visits = 0;
  uint32_t avail = 0;          // times this move was legal when its parent was selected from
  uint32_t first_child = 0;    // 0 = none (index 0 is always the root)
  uint32_t next_sibling = 0;   // 0 = none
  int16_t action = -1;         // move leading here from the parent (ids < 32768)
  uint8_t mover = 0;           // seat that played `action`
  uint8_t flags = 0;           // bit 0: tree parallelism's lock while a thread adds a child here;
                               // the rest: a proven result (search/solver.hpp)
};
static_assert(sizeof(Node) == 24, "nodes must stay small: memory is the tree's budget");

// A node's PUCT prior (search/puct.hpp), kept beside the nodes only when a network gives
// priors (Tree::enable_priors): a search without one pays nothing for them, and Node
// stays 24 bytes (with the prior inside, 28 bytes padded to 28: 17% more memory for every
// search, used by few).
struct Prior {
  float prior = 0.0f;     // the network's prior of the move into this node
  float untried = -1.0f;  // the highest prior among this node's moves without a child, as of the
                          // last expansion here (< 0: no expansion yet)
};

class Tree {
 public:
  static constexpr int kChunkBits = 14;  // 16384 nodes = 384 KiB per chunk
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;
  static constexpr size_t kChunkBytes = sizeof(Node) * kChunkSize;
  static constexpr size_t kPriorChunkBytes = sizeof(Prior) * kChunkSize;

  Tree() = default;
  Tree(Tree&& o) noexcept { *this = std::move(o); }
  Tree& operator=(Tree&& o) noexcept {
    slots_ = std::move(o.slots_);
    prior_slots_ = std::move(o.prior_slots_);
    priors_ = std::exchange(o.priors_, false);
    n_slots_ = std::exchange(o.n_slots_, 0);
    n_chunks_.store(o.n_chunks_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    size_.store(o.size_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  Node& operator[](uint32_t i) { return slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const Node& operator[](uint32_t i) const { return slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  Prior& prior(uint32_t i) { return prior_slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const Prior& prior(uint32_t i) const { return prior_slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  bool has_priors() const { return priors_; }
  // From now on every node has a Prior (those already made get the default).
  void enable_priors() {
    if (priors_) return;
    priors_ = true;
    prior_slots_ = std::make_unique<std::unique_ptr<Prior[]>[]>(n_slots_);
    for (size_t k = 0; k < n_chunks_.load(std::memory_order_relaxed); ++k) prior_slots_[k] = std::make_unique<Prior[]>(kChunkSize);
  }
  uint32_t size() const { return size_.load(std::memory_order_relaxed); }
  size_t chunk_bytes() const { return kChunkBytes + (priors_ ? kPriorChunkBytes : 0); }
  size_t bytes() const { return n_chunks_.load(std::memory_order_relaxed) * chunk_bytes(); }
  // Bytes after the next chunk is added, so the caller can respect a memory limit.
  // (Relaxed loads: under tree parallelism add_shared checks the limit again.)
  size_t bytes_if_grown() const {
    return size() < n_chunks_.load(std::memory_order_relaxed) * kChunkSize ? bytes() : bytes() + chunk_bytes();
  }

  // Keeps the allocated chunks for the next search.
  void clear() {
    size_.store(0, std::memory_order_relaxed);
    add();
  }

  // Makes room in the chunk table for the chunks `memory_limit` allows (at most what
  // 32-bit indices reach), so add_shared never moves the table.
  void reserve_for(size_t memory_limit) {
    const size_t chunks = std::min(memory_limit / chunk_bytes() + 1, size_t{1} << (32 - kChunkBits));
    if (chunks > n_slots_) grow_slots(chunks);
  }

  uint32_t add() {
    const uint32_t n = size();
    if (n == n_chunks_.load(std::memory_order_relaxed) * kChunkSize) {
      if (n_chunks_.load(std::memory_order_relaxed) == n_slots_) grow_slots(n_slots_ ? 2 * n_slots_ : 8);
      new_chunk();
    }
    (*this)[n] = Node{};
    if (priors_) prior(n) = Prior{};
    size_.store(n + 1, std::memory_order_relaxed);
    return n;
  }

  // Prepends a child (sibling lists are in reverse creation order).
  uint32_t add_child(uint32_t parent, core::Action action, int mover) {
    const uint32_t c = add();
    Node& n = (*this)[c];
    n.action = static_cast<int16_t>(action);
    n.mover = static_cast<uint8_t>(mover);
    n.next_sibling = (*this)[parent].first_child;
    (*this)[parent].first_child = c;
    return c;
  }

  // Tree parallelism: a new unlinked node (already counting one visit, its virtual loss)
  // or 0 when growing would pass `memory_limit` or the reserved chunk slots.
  uint32_t add_shared(core::Action action, int mover, size_t memory_limit) {
    std::lock_guard<std::mutex> lock(grow_mu_);
    const uint32_t n = size();
    if (n == n_chunks_.load(std::memory_order_relaxed) * kChunkSize) {
      if (bytes() + chunk_bytes() > memory_limit || n_chunks_.load(std::memory_order_relaxed) == n_slots_) return 0;
      new_chunk();
    }
    Node& node = (*this)[n];
    node = Node{};
    if (priors_) prior(n) = Prior{};
    node.action = static_cast<int16_t>(action);
    node.mover = static_cast<uint8_t>(mover);
    node.visits = 1;
    node.avail = 1;
    size_.store(n + 1, std::memory_order_relaxed);
    return n;
  }

 private:
  std::unique_ptr<std::unique_ptr<Node[]>[]> slots_;  // chunks [0, n_chunks_) allocated
  std::unique_ptr<std::unique_ptr<Prior[]>[]> prior_slots_;  // likewise when priors_
  bool priors_ = false;
  size_t n_slots_ = 0;
  std::atomic<size_t> n_chunks_{0};
  std::atomic<uint32_t> size_{0};
  std::mutex grow_mu_;

  void grow_slots(size_t n) {
    auto grown = std::make_unique<std::unique_ptr<Node[]>[]>(n);
    for (size_t i = 0; i < n_slots_; ++i) grown[i] = std::move(slots_[i]);
    slots_ = std::move(grown);
    if (priors_) {
      auto grown_priors = std::make_unique<std::unique_ptr<Prior[]>[]>(n);
      for (size_t i = 0; i < n_slots_; ++i) grown_priors[i] = std::move(prior_slots_[i]);
      prior_slots_ = std::move(grown_priors);
    }
    n_slots_ = n;
  }

  void new_chunk() {
    const size_t k = n_chunks_.load(std::memory_order_relaxed);
    slots_[k] = std::make_unique<Node[]>(kChunkSize);
    if (priors_) prior_slots_[k] = std::make_unique<Prior[]>(kChunkSize);
    n_chunks_.store(k + 1, std::memory_order_relaxed);
  }
};

}  // namespace search
