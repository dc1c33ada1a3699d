// libFuzzer target: duel's notation parser (cpp/fuzz/fuzz_door.hpp).
#include "duel/game.hpp"
#include "fuzz/fuzz_door.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return fuzz::notation<duel::Game>(data, size); }
