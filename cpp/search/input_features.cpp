#include "search/input_features.hpp"

#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>

namespace search {
namespace {
// A deque keeps the address of every set that input_features_named gave out.
struct Registry {
  std::mutex lock;
  std::deque<InputFeatures> sets;
};

Registry& registry() {
  static Registry r;
  return r;
}

bool same(const InputFeatures& a, const InputFeatures& b) {
  return a.name == b.name && a.game == b.game && a.observation_size == b.observation_size &&
         a.per_seat == b.per_seat && a.max_seats == b.max_seats && a.compute == b.compute;
}
}  // namespace

void register_input_features(std::span<const InputFeatures> sets) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> hold(r.lock);
  for (const InputFeatures& set : sets) {
    const InputFeatures* taken = nullptr;
    for (const InputFeatures& f : r.sets)
      if (f.name == set.name) taken = &f;
    if (!taken) {
      r.sets.push_back(set);
    } else if (!same(*taken, set)) {
      throw std::logic_error("input features '" + std::string(set.name) + "' of the game '" + std::string(set.game) +
                             "': the name is taken by the game '" + std::string(taken->game) + "'");
    }
  }
}

std::vector<InputFeatures> input_feature_sets() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> hold(r.lock);
  return {r.sets.begin(), r.sets.end()};
}

const InputFeatures* input_features_named(std::string_view name) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> hold(r.lock);
  for (const InputFeatures& f : r.sets)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace search
