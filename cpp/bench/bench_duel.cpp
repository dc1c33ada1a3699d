// Random complete Splendor Duel games per second in one thread. Usage: bench_duel [N] [SEED]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "bench/args.hpp"
#include "core/game_loops.hpp"
#include "duel/game.hpp"

int main(int argc, char** argv) {
  const long n = argc > 1 ? static_cast<long>(bench::whole("bench_duel", "N", argv[1], 1)) : 100000;
  const uint64_t seed = argc > 2 ? static_cast<uint64_t>(bench::whole("bench_duel", "SEED", argv[2], 0)) : 1;
  const auto start = std::chrono::steady_clock::now();
  const auto result = core::random_playouts<duel::Game::State>(duel::Config{}, n, seed);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double decisions = 0;
  int longest = 0;
  for (int len : result.lengths) decisions += len, longest = len > longest ? len : longest;
  std::printf("duel games=%ld seconds=%.3f games_per_s=%.0f decisions_per_game=%.1f max=%d ns_per_decision=%.1f\n", n,
              secs, static_cast<double>(n) / secs, decisions / static_cast<double>(n), longest, secs * 1e9 / decisions);
  return 0;
}
