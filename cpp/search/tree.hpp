// The search tree: a flat arena of 24-byte nodes in fixed-size chunks (no per-node
// allocation, stable indices, no pointers), children as singly linked sibling lists.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

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
  uint8_t unused = 0;
};
static_assert(sizeof(Node) == 24, "nodes must stay small: memory is the tree's budget");

class Tree {
 public:
  static constexpr int kChunkBits = 14;  // 16384 nodes = 384 KiB per chunk
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;
  static constexpr size_t kChunkBytes = sizeof(Node) * kChunkSize;

  Node& operator[](uint32_t i) { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  const Node& operator[](uint32_t i) const { return chunks_[i >> kChunkBits][i & (kChunkSize - 1)]; }
  uint32_t size() const { return size_; }
  size_t bytes() const { return chunks_.size() * kChunkBytes; }
  // Bytes after the next chunk is added, so the caller can respect a memory limit.
  size_t bytes_if_grown() const { return size_ < chunks_.size() * kChunkSize ? bytes() : bytes() + kChunkBytes; }

  // Keeps the allocated chunks for the next search.
  void clear() {
    size_ = 0;
    add();
  }

  uint32_t add() {
    if (size_ == chunks_.size() * kChunkSize) chunks_.push_back(std::make_unique<Node[]>(kChunkSize));
    (*this)[size_] = Node{};
    return size_++;
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

 private:
  std::vector<std::unique_ptr<Node[]>> chunks_;
  uint32_t size_ = 0;
};

}  // namespace search
