// Splendor's random-game test: the generic one (core/random_sim.hpp), which checks every
// position against State::invariant_problems (splendor/invariants.cpp: conservation, the
// buy mask and nobles against the tables), with the rollout policy checked against its
// reference; shared by the sanitizer fuzz driver and the Python tests.
#include "splendor/self_check.hpp"

#include <string>

#include "core/random_sim.hpp"
#include "splendor/game.hpp"

namespace splendor {
namespace {

// Splendor's own checks for core::random_sim_test.
struct Checks : core::RuleChecks<Game> {
  // The rollout policy's vectorised target and take against their references.
  void decision(const State& s, const ActionList&, core::Rng& rng, const core::Expect& expect) {
    if (s.phase() != Phase::kMain) return;
    const uint64_t noise = rng.next();
    expect(s.heuristic_target(noise) == s.heuristic_target_reference(noise), "heuristic target matches its reference");
    const uint64_t bits = core::splitmix64(noise);  // any legal set and needed colours, not only this state's
    const auto takes = static_cast<uint32_t>(bits & ((1u << kTakeTwo) - 1)) >> (bits >> 60);
    const auto needed = static_cast<uint32_t>(bits >> 32) & 31;
    expect(State::heuristic_take(takes, needed, noise) == State::heuristic_take_reference(takes, needed, noise),
           "heuristic take matches its reference");
  }
  // A card's text or a notation word, for damaged positions and notation.
  std::string word(core::Rng& rng) {
    static constexpr const char* kWords[] = {"take", "buy", "reserve", "return", "noble", "deck", "gold", "t1",
                                             "r2", "2.3", "white", "red", "1", "12", "", "  ", "card", "x"};
    if (rng.below(2)) return card_text(static_cast<int>(rng.below(kNumCards)));
    return kWords[rng.below(sizeof kWords / sizeof *kWords)];
  }
};

}  // namespace

SelfCheckReport self_check_random_games(const Config& config, int64_t n_games, uint64_t seed) {
  return core::random_sim_test<Game>(config, n_games, seed, Checks{});
}

}  // namespace splendor
