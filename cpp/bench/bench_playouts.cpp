// Random complete Splendor games per second in one thread.
// Usage: bench_playouts splendor [PLAYERS] [N] [SEED]   (Splendor Duel: bench_duel)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench/args.hpp"
#include "core/game_loops.hpp"
#include "splendor/game.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "splendor") != 0) {
    std::fprintf(stderr, "usage: bench_playouts splendor [PLAYERS] [N] [SEED]%s\n",
                 argc >= 2 && std::strcmp(argv[1], "duel") == 0 ? "  (Splendor Duel: bench_duel [N] [SEED])" : "");
    return 2;
  }
  const int players = argc > 2 ? static_cast<int>(bench::whole("bench_playouts", "PLAYERS", argv[2], 1)) : 2;
  const long n = argc > 3 ? static_cast<long>(bench::whole("bench_playouts", "N", argv[3], 1)) : 200000;
  const uint64_t seed = argc > 4 ? static_cast<uint64_t>(bench::whole("bench_playouts", "SEED", argv[4], 0)) : 1;
  splendor::Config config;
  try {
    config = splendor::Config::standard(players);
    config.validate();
  } catch (const core::InvalidInput& e) {
    std::fprintf(stderr, "bench_playouts: %s\n", e.what());
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto result = core::random_playouts<splendor::Game::State>(config, n, seed);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double decisions = 0;
  for (int len : result.lengths) decisions += len;
  std::printf("splendor players=%d games=%ld seconds=%.3f games_per_s=%.0f decisions_per_game=%.1f ns_per_decision=%.1f\n",
              players, n, secs, static_cast<double>(n) / secs, decisions / static_cast<double>(n), secs * 1e9 / decisions);
  return 0;
}
