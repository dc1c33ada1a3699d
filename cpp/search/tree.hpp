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
#include <cstddef>
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
  uint32_t policy = 0;    // the node's policy cache entry (Tree::policy), 0: none (SearchParams::policy_cache)
};

class Tree {
 public:
  static constexpr int kChunkBits = 14;  // 16384 nodes = 384 KiB per chunk
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;
  static constexpr size_t kChunkBytes = sizeof(Node) * kChunkSize;
  static constexpr size_t kPriorChunkBytes = sizeof(Prior) * kChunkSize;
  static constexpr int kPolicyChunkBits = 12;  // 4096 entries per chunk
  static constexpr uint32_t kPolicyChunkSize = 1u << kPolicyChunkBits;

  Tree() = default;
  Tree(Tree&& o) noexcept { *this = std::move(o); }
  Tree& operator=(Tree&& o) noexcept {
    slots_ = std::move(o.slots_);
    prior_slots_ = std::move(o.prior_slots_);
    priors_ = std::exchange(o.priors_, false);
    n_slots_ = std::exchange(o.n_slots_, 0);
    n_chunks_.store(o.n_chunks_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    size_.store(o.size_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    policy_slots_ = std::move(o.policy_slots_);
    policy_bytes_ = std::exchange(o.policy_bytes_, 0);
    n_policy_slots_ = std::exchange(o.n_policy_slots_, 0);
    n_policy_chunks_.store(o.n_policy_chunks_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    n_policies_.store(o.n_policies_.exchange(0, std::memory_order_relaxed), std::memory_order_relaxed);
    return *this;
  }

  Node& operator[](uint32_t i) { return slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const Node& operator[](uint32_t i) const { return slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  Prior& prior(uint32_t i) { return prior_slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const Prior& prior(uint32_t i) const { return prior_slots_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  // The bytes of entry `i` (> 0, from add_policy) of the policy cache: the game's
  // puct::NodePolicy, policy_bytes() long, made there by the search.
  std::byte* policy(uint32_t i) {
    return policy_slots_[(i - 1) >> kPolicyChunkBits].get() + ((i - 1) & (kPolicyChunkSize - 1)) * policy_bytes_;
  }
  size_t policy_bytes() const { return policy_bytes_; }
  bool has_priors() const { return priors_; }
  // From now on every node has a Prior (those already made get the default), and the
  // policy cache's entries are `policy_bytes` long.
  void enable_priors(size_t policy_bytes) {
    if (priors_) return;
    priors_ = true;
    policy_bytes_ = policy_bytes;
    prior_slots_ = std::make_unique<std::unique_ptr<Prior[]>[]>(n_slots_);
    for (size_t k = 0; k < n_chunks_.load(std::memory_order_relaxed); ++k) prior_slots_[k] = std::make_unique<Prior[]>(kChunkSize);
  }
  uint32_t size() const { return size_.load(std::memory_order_relaxed); }
  size_t chunk_bytes() const { return kChunkBytes + (priors_ ? kPriorChunkBytes : 0); }
  size_t bytes() const {
    return n_chunks_.load(std::memory_order_relaxed) * chunk_bytes() +
           n_policy_chunks_.load(std::memory_order_relaxed) * policy_chunk_bytes();
  }
  size_t policy_chunk_bytes() const { return policy_bytes_ * kPolicyChunkSize; }
  // Bytes after the next chunk is added, so the caller can respect a memory limit.
  // (Relaxed loads: under tree parallelism add_shared checks the limit again.)
  size_t bytes_if_grown() const {
    return size() < n_chunks_.load(std::memory_order_relaxed) * kChunkSize ? bytes() : bytes() + chunk_bytes();
  }

  // Keeps the allocated chunks for the next search.
  void clear() {
    size_.store(0, std::memory_order_relaxed);
    n_policies_.store(0, std::memory_order_relaxed);
    add();
  }

  // Makes room in the chunk tables for the chunks `memory_limit` allows (at most what
  // 32-bit indices reach), so add_shared and add_policy_shared never move them.
  void reserve_for(size_t memory_limit) {
    const size_t chunks = std::min(memory_limit / chunk_bytes() + 1, size_t{1} << (32 - kChunkBits));
    if (chunks > n_slots_) grow_slots(chunks);
    if (!priors_) return;
    const size_t policy_chunks = std::min(memory_limit / policy_chunk_bytes() + 1, size_t{1} << (32 - kPolicyChunkBits));
    if (policy_chunks > n_policy_slots_) grow_policy_slots(policy_chunks);
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

  // A new policy cache entry, or 0 when its chunk would pass `memory_limit`.
  uint32_t add_policy(size_t memory_limit) {
    const uint32_t n = n_policies_.load(std::memory_order_relaxed);
    if (n == n_policy_chunks_.load(std::memory_order_relaxed) * kPolicyChunkSize) {
      if (bytes() + policy_chunk_bytes() > memory_limit) return 0;
      if (n_policy_chunks_.load(std::memory_order_relaxed) == n_policy_slots_)
        grow_policy_slots(n_policy_slots_ ? 2 * n_policy_slots_ : 8);
      new_policy_chunk();
    }
    n_policies_.store(n + 1, std::memory_order_relaxed);
    return n + 1;
  }

  // Tree parallelism: add_policy under the lock, within the chunk slots reserved up front.
  uint32_t add_policy_shared(size_t memory_limit) {
    std::lock_guard<std::mutex> lock(grow_mu_);
    const uint32_t n = n_policies_.load(std::memory_order_relaxed);
    if (n == n_policy_chunks_.load(std::memory_order_relaxed) * kPolicyChunkSize) {
      if (bytes() + policy_chunk_bytes() > memory_limit || n_policy_chunks_.load(std::memory_order_relaxed) == n_policy_slots_)
        return 0;
      new_policy_chunk();
    }
    n_policies_.store(n + 1, std::memory_order_relaxed);
    return n + 1;
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
  // The policy cache: chunks [0, n_policy_chunks_) allocated, entries [1, n_policies_] in use.
  std::unique_ptr<std::unique_ptr<std::byte[]>[]> policy_slots_;
  size_t policy_bytes_ = 0;
  size_t n_policy_slots_ = 0;
  std::atomic<size_t> n_policy_chunks_{0};
  std::atomic<uint32_t> n_policies_{0};
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

  void grow_policy_slots(size_t n) {
    auto grown = std::make_unique<std::unique_ptr<std::byte[]>[]>(n);
    for (size_t i = 0; i < n_policy_slots_; ++i) grown[i] = std::move(policy_slots_[i]);
    policy_slots_ = std::move(grown);
    n_policy_slots_ = n;
  }

  void new_policy_chunk() {
    const size_t k = n_policy_chunks_.load(std::memory_order_relaxed);
    policy_slots_[k] = std::make_unique<std::byte[]>(policy_chunk_bytes());
    n_policy_chunks_.store(k + 1, std::memory_order_relaxed);
  }

  void new_chunk() {
    const size_t k = n_chunks_.load(std::memory_order_relaxed);
    slots_[k] = std::make_unique<Node[]>(kChunkSize);
    if (priors_) prior_slots_[k] = std::make_unique<Prior[]>(kChunkSize);
    n_chunks_.store(k + 1, std::memory_order_relaxed);
  }
};

}  // namespace search
