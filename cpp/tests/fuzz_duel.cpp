// Random Splendor Duel games for a few seconds through the generic random-game test
// (core/random_sim.hpp), which checks every position against State::invariant_problems
// (duel/invariants.cpp: token, card and privilege conservation, the buy mask against the
// card table), with Duel's own checks: determinized positions, views without the deal.
// Built with ASan+UBSan in CI (.ci/run). Usage: fuzz_duel [seconds] [seed] [games]: stops
// after `seconds` or, when given, once `games` are played, whichever is first.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/random_sim.hpp"
#include "duel/game.hpp"

using namespace duel;
using core::Action;

namespace {

// Duel's own checks for core::random_sim_test.
struct Checks : core::RuleChecks<Game> {
  bool heuristic = false;  // play the rollout policy's moves instead of random ones

  void decision(const State& s, const ActionList&, core::Rng& rng, const core::Expect& expect) {
    if (s.is_chance()) return;
    // Determinizing for either seat keeps the position consistent.
    State d = s;
    d.determinize(static_cast<int>(rng.below(2)), rng);
    core::check_invariants(d, expect);
    expect(d.hash() == d.compute_hash(), "hash after determinize");
  }
  bool has_views(const State& s) const { return !s.in_setup(); }
  void view(const State&, int, const std::string& view, const core::Expect& expect) {
    expect(view.find("\"deal\"") == std::string::npos, "a view has no deal");
  }
  core::Action choose(const State& s, core::Rng& rng) { return heuristic ? s.heuristic_action(rng) : s.random_action(rng); }
  std::string word(core::Rng& rng) {
    static constexpr const char* kWords[] = {"take", "buy", "reserve", "gold", "privilege", "royal", "joker", "steal",
                                             "discard", "a1", "e5", "c3", "2.3", "deck2", "r1", "red", "pearl", "9",
                                             "z", "", "1.5", "card", "fill", "first", "replenish", "  ", "0", "67"};
    return kWords[rng.below(sizeof kWords / sizeof *kWords)];
  }
  void end(const State& s, const core::Expect& expect) {
    double r[2];
    s.returns(r);
    expect(r[0] + r[1] == 1.0 && (r[0] == 1.0 || r[1] == 1.0), "one winner");
  }
};

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  const uint64_t base_seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const long long max_games = argc > 3 ? std::atoll(argv[3]) : 0;  // 0: no limit
  core::SimReport report;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t g = 0;; ++g) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > seconds || (max_games > 0 && report.games >= max_games)) break;
    core::Rng vr(base_seed * 1000003 + g);
    Config cfg;
    if (g % 4 == 3) {  // variants
      cfg.points_to_win = static_cast<int16_t>(5 + vr.below(30));
      cfg.crowns_to_win = static_cast<int16_t>(3 + vr.below(12));
      cfg.colour_points_to_win = static_cast<int16_t>(3 + vr.below(12));
      cfg.privileges = static_cast<int16_t>(vr.below(7));
      cfg.first_player = static_cast<int16_t>(static_cast<int>(vr.below(3)) - 1);
    }
    Checks checks;
    checks.heuristic = (g % 8) == 5;
    const core::SimOptions options{.views_every = (g % 4) == 0 ? 5 : 40};
    core::random_sim_game<Game>(cfg, base_seed * 1000003 + g, (g % 2) == 1, report, checks, options);
  }
  for (const std::string& f : report.failures) std::fprintf(stderr, "FAIL: %s\n", f.c_str());
  std::printf("fuzz_duel: %lld games, %lld failures\n", static_cast<long long>(report.games),
              static_cast<long long>(report.failure_count));
  return report.failure_count ? 1 : 0;
}
