#include "search/input_features.hpp"

#include <array>

#include "splendor/state.hpp"

namespace search {
namespace {
// "needs": docs/training.md, "Input features"; measured in bench/notes/2026-12-03-input-features.md.
constexpr std::array kSets{
    InputFeatures{"needs", "splendor",
                  "for each seat and each card it may buy: gems still needed by colour, their sum, the shortfall "
                  "after tokens and after gold, whether it can buy now; and each noble's missing bonuses",
                  splendor::kObservationSize, splendor::kNeedsPerSeat, splendor::kMaxPlayers, splendor::needs_features},
};
}  // namespace

std::span<const InputFeatures> input_feature_sets() { return kSets; }

const InputFeatures* input_features_named(std::string_view name) {
  for (const InputFeatures& f : kSets)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace search
