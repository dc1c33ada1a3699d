// libFuzzer target: duel's position reader (cpp/fuzz/fuzz_door.hpp).
#include "duel/game.hpp"
#include "duel/position.hpp"
#include "fuzz/fuzz_door.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::position<duel::Game>(data, size, [](const auto& doc, uint64_t seed, bool full) {
    return duel::read_position(doc, seed, full);
  });
}
