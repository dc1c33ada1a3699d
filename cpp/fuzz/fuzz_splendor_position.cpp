// libFuzzer target: splendor's position reader (cpp/fuzz/fuzz_door.hpp).
#include "splendor/game.hpp"
#include "splendor/position.hpp"
#include "fuzz/fuzz_door.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::position<splendor::Game>(data, size, [](const auto& doc, uint64_t seed, bool full) {
    return splendor::read_position(doc, seed, full);
  });
}
