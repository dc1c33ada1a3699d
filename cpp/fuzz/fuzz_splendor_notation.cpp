// libFuzzer target: splendor's notation parser (cpp/fuzz/fuzz_door.hpp).
#include "splendor/game.hpp"
#include "fuzz/fuzz_door.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return fuzz::notation<splendor::Game>(data, size); }
