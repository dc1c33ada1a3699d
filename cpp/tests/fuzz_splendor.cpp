// Random Splendor games for a few seconds, checking every invariant after every
// action (splendor/self_check.cpp). Built with ASan+UBSan in CI (.ci/run).
// Usage: fuzz_splendor [seconds] [seed] [games]: stops after `seconds` or, when given,
// once `games` are played (split evenly between the player counts), whichever is first.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "splendor/self_check.hpp"

using namespace splendor;

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  const uint64_t base_seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const long max_games = argc > 3 ? std::atol(argv[3]) : 0;  // 0: no limit
  long games = 0;
  int failures = 0;
  // Readable card descriptions name each card, and only that card.
  for (int card = 0; card < kNumCards; ++card)
    if (card_from_text(card_text(card)) != card) {
      std::fprintf(stderr, "FAIL: card text of #%d does not read back\n", card + 1);
      ++failures;
    }
  for (int players = 2; players <= 4; ++players) {
    const auto start = std::chrono::steady_clock::now();
    const long games_before = games;
    const long quota = max_games * (players - 1) / 3 - max_games * (players - 2) / 3;  // the thirds sum to max_games
    for (uint64_t g = 0;; ++g) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (elapsed > seconds / 3) break;
      if (max_games > 0 && games - games_before >= quota) break;
      Config config = Config::standard(players);
      // Every take rule: the published one on half the games, never and always on a quarter each.
      config.take_fewer_distinct = g % 4 == 3 ? splendor::TakeFewer::kNever
                                   : g % 4 == 2 ? splendor::TakeFewer::kAlways
                                                : splendor::TakeFewer::kWhenShort;
      const SelfCheckReport r = self_check_random_games(config, 2, base_seed * 1000003 + g);
      for (const std::string& f : r.failures) std::fprintf(stderr, "FAIL: %s\n", f.c_str());
      failures += static_cast<int>(r.failure_count);
      games += r.games;
    }
  }
  std::printf("fuzz_splendor: %ld games, %d failures\n", games, failures);
  std::printf("%ld passed, %d failed\n", games - (failures ? 1 : 0), failures ? 1 : 0);
  return failures ? 1 : 0;
}
