// Leaves valued outside the search, a batch at a time (the Python evaluator hook,
// docs/search.md "Python evaluators"): the search holds up to `batch_size` descents under
// a virtual loss (search/parallelism.hpp, HeldTree), hands their leaves over in one
// LeafBatch, and backs them up when it returns. The search knows nothing of Python: the
// binding fills `evaluate`, which takes the GIL only for its call.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace search {

struct LeafBatch {
  int size = 0;     // leaves in this batch
  int players = 0;
  std::vector<float> observations;  // [size][observation size]: of the seat to move at each leaf
  std::vector<uint8_t> legal;       // [size][distinct actions]: 1 where legal
  // Filled by the hook: values [size][players] as win shares rotated so index 0 is the
  // seat to move (index k the seat k places after it), and, when `has_policy`, policy
  // logits [size][distinct actions] (the same layout as a network's, docs/network-format.md).
  std::vector<float> values;
  std::vector<float> logits;
  bool has_policy = false;
};

inline constexpr int kDefaultBatchSize = 16;
inline constexpr int kMaxBatchSize = 4096;

struct LeafHook {
  // Fills values (and logits) for batch.size leaves; an exception aborts the search.
  std::function<void(LeafBatch&)> evaluate;
  int batch_size = kDefaultBatchSize;  // leaves per call at most, 1..kMaxBatchSize
};

}  // namespace search
