// A policy-value network (an MLP) read from the `.smnet` weight format
// (docs/network-format.md) and evaluated with vector loops (dense() in network.cpp): no allocation per call, no
// dependency. A Network is read once and shared read-only (shared_ptr<const Network>)
// between the search threads; forward() is const and keeps its scratch on the stack.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "search/input_features.hpp"

namespace search {

class Network {
 public:
  // Widths beyond this are refused by the reader: forward() keeps two layers of this
  // many floats on the stack (32 KiB) and a list of nonzero inputs (32 KiB), so it
  // never allocates.
  static constexpr int kMaxWidth = 4096;
  static constexpr int kMaxTrunkLayers = 16;
  static constexpr int kMaxValueSize = 16;
  static constexpr std::string_view kMagic{"SMNET\0\0\1", 8};

  struct Layer {
    std::string name;
    int in = 0, out = 0;
    size_t weights = 0;  // offset of W transposed [in][out rounded up to 8] in params_, then b (as wide)
  };

  // Reads and checks a file: core::InvalidInput "network file 'PATH': problem" for
  // anything the format refuses (docs/network-format.md, "What a reader refuses").
  static std::shared_ptr<const Network> load(const std::string& path);
  // The same checks on the bytes of a file; `name` names it in messages.
  static Network parse(std::string_view bytes, const std::string& name);

  // InvalidInput unless the network was trained for this game, its sizes and `players`.
  void check_game(std::string_view game, int observation_size, int num_actions) const;
  void check_players(int players) const;

  // One observation of a game of `players` seats (it chooses which seats' input features
  // are computed; a network without features ignores it) -> policy logits [num_actions]
  // (nullptr: not computed, the largest layer skipped) and value logits [value_size]
  // (nullptr: not computed), with the best kernel this CPU runs.
  void forward(const float* observation, int players, float* policy_logits, float* value_logits) const;

  // The kernels of the dense layers: portable (SSE at the x86-64-v2 build), and AVX2 +
  // FMA on CPUs that have them, chosen at run time. Both sum in the same order; FMA
  // rounds once per multiply-add, so their outputs differ in the last bits.
  enum class Kernel { kPortable, kAvx2 };
  static Kernel best_kernel();
  static bool supports(Kernel kernel);
  static const char* kernel_name(Kernel kernel);  // "portable", "avx2"
  // The kernel of that name ("best": best_kernel()); InvalidInput for an unknown name or
  // one this CPU cannot run.
  static Kernel kernel_named(std::string_view name);
  static std::vector<Kernel> supported_kernels();  // the portable one first
  // forward() with a given kernel (one this CPU supports).
  void forward(Kernel kernel, const float* observation, int players, float* policy_logits, float* value_logits) const;

  // Win shares per seat from value logits: softmax over the first `players` entries,
  // rotated back so seat `to_move` gets index 0 (docs/network-format.md, "Forward").
  static void value_shares(const float* value_logits, int players, int to_move, double* values);

  const std::string& name() const { return name_; }
  const std::string& family() const { return family_; }
  const std::string& game() const { return game_; }
  const std::vector<int>& players() const { return players_; }
  int observation_size() const { return observation_size_; }
  // The input features read beside the observation (nullptr: none), for how many seats,
  // and the first layer's width: the observation, then those features.
  const InputFeatures* features() const { return features_; }
  int feature_seats() const { return feature_seats_; }
  int input_size() const { return observation_size_ + (features_ ? feature_seats_ * features_->per_seat : 0); }
  int num_actions() const { return num_actions_; }
  int value_size() const { return value_size_; }
  const std::vector<Layer>& layers() const { return layers_; }  // trunk..., policy, value

 private:
  std::string name_, family_, game_;
  std::vector<int> players_;
  int observation_size_ = 0, num_actions_ = 0, value_size_ = 0;
  int n_trunk_ = 0;
  const InputFeatures* features_ = nullptr;
  int feature_seats_ = 0;
  std::vector<Layer> layers_;
  std::vector<float> params_;
};

}  // namespace search
