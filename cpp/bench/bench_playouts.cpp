// Random complete games per second in one thread. Usage: bench_playouts GAME PLAYERS N [SEED]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/game_loops.hpp"
#include "splendor/state.hpp"

int main(int argc, char** argv) {
  const int players = argc > 2 ? std::atoi(argv[2]) : 2;
  const long n = argc > 3 ? std::atol(argv[3]) : 200000;
  const uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  const auto start = std::chrono::steady_clock::now();
  const auto result = core::random_playouts<splendor::State>(splendor::Config::standard(players), n, seed);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double decisions = 0;
  for (int len : result.lengths) decisions += len;
  std::printf("splendor players=%d games=%ld seconds=%.3f games_per_s=%.0f decisions_per_game=%.1f ns_per_decision=%.1f\n",
              players, n, secs, static_cast<double>(n) / secs, decisions / static_cast<double>(n), secs * 1e9 / decisions);
  return 0;
}
