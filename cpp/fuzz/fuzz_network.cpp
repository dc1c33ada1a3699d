// libFuzzer target: the .smnet reader (search/network.hpp) may refuse any input with
// core::InvalidInput and nothing else; a network it accepts runs a forward pass (on a
// zero observation) without fault. Any other exception escapes and aborts (a crash).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "search/network.hpp"
#include "splendor/game.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The game's input features, so that a header naming "needs" reaches the checks after the name.
  static const bool registered = (search::register_game_input_features<splendor::Game>(), true);
  (void)registered;
  try {
    const search::Network net =
        search::Network::parse(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.smnet");
    if (net.observation_size() > 4096 || net.num_actions() > 4096) return 0;  // keeps each run quick
    std::vector<float> observation(static_cast<size_t>(net.observation_size()), 0.0f);
    std::vector<float> policy(static_cast<size_t>(net.num_actions()));
    std::vector<float> value(static_cast<size_t>(net.value_size()));
    net.forward(observation.data(), net.players().back(), policy.data(), value.data());
  } catch (const core::InvalidInput&) {
  }
  return 0;
}
