// The random-game test written once for every game (as OpenSpiel's RandomSimTest):
// random_sim_test<G> plays random games of any game declared with a `struct Game`
// (core/game.hpp) and checks at every decision the invariants of core/invariants.hpp and
// those every game shares: the game's own invariants (State::invariant_problems, the
// readers' definition of a legal position) at every position met, chance outcomes, the optional evaluate/heuristic_action,
// notation text, JSON round trips, views rebuilt and determinized to the same view,
// damaged positions refused or read consistently, returns in range, the game ending.
// A game's own test adds only its rule-specific checks through a Checks object derived
// from RuleChecks<G> (splendor/self_check.cpp, tests/fuzz_duel.cpp, tests/test_toy.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/invariants.hpp"
#include "core/rng.hpp"
#include "core/types.hpp"

namespace core {

struct SimReport {
  int64_t games = 0;
  int64_t decisions = 0;
  int64_t failure_count = 0;
  std::vector<std::string> failures;  // the first 20, with game seed and step

  void fail(const char* what, uint64_t seed, int step) {
    ++failure_count;
    if (failures.size() < 20)
      failures.push_back(std::string(what) + " (game seed " + std::to_string(seed) + ", step " + std::to_string(step) +
                         ")");
  }
};

// expect(ok, what) of one game and step (step -1: the final position).
struct Expect {
  SimReport* report;
  uint64_t seed;
  int step;
  void operator()(bool ok, const char* what) const {
    if (!ok) report->fail(what, seed, step);
  }
};

struct SimOptions {
  int views_every = 5;   // JSON, views and damaged positions every this many decisions
  int max_steps = 5000;  // a longer game fails "game ends"
};

// The hooks a game's test may replace (by hiding them in a derived struct); each does
// nothing (or the plain random move) here.
template <class G>
struct RuleChecks {
  using State = typename G::State;
  // Any position met (played, read back, rebuilt from a view, determinized, damaged),
  // beyond State::invariant_problems, which every position is checked against.
  void position(const State&, const Expect&) {}
  // At each decision of the played game, with its legal actions.
  void decision(const State&, const typename G::ActionList&, Rng&, const Expect&) {}
  // Whether `s` has player views to check (a game may have none during its setup).
  bool has_views(const State&) const { return true; }
  // A player's view of `s`, before it is read back.
  void view(const State&, int, const std::string&, const Expect&) {}
  // The move played.
  Action choose(const State& s, Rng& rng) { return s.random_action(rng); }
  // A word of the game (notation or a card's text) for damaged inputs.
  std::string word(Rng& rng) { return std::to_string(rng.below(120)); }
  // The final position.
  void end(const State&, const Expect&) {}
};

namespace sim_detail {

// Any position met: the game's invariants, then the test's own checks.
template <class State, class Checks>
void check_position(const State& s, Checks& checks, const Expect& expect) {
  check_invariants(s, expect);
  checks.position(s, expect);
}

// `text` with 1 to 3 random edits: a junk character, a cut, a number or a game word
// inserted, or the rest dropped.
template <class Checks>
std::string damage(std::string text, Rng& rng, Checks& checks) {
  static constexpr char kJunk[] = "0123456789.-\"{}[],:ntfe ";
  for (int edits = 1 + static_cast<int>(rng.below(3)); edits > 0 && !text.empty(); --edits) {
    const size_t at = rng.below(static_cast<uint32_t>(text.size()));
    switch (rng.below(5)) {
      case 0: text[at] = kJunk[rng.below(sizeof kJunk - 1)]; break;
      case 1: text.erase(at, 1 + rng.below(8)); break;
      case 2: text.insert(at, std::to_string(rng.below(120))); break;
      case 3: text.insert(at, "\"" + checks.word(rng) + "\""); break;
      default: text.resize(at); break;
    }
  }
  return text;
}

// A position read back: consistent hash, playable, and the game's own checks.
template <class G, class Checks>
void check_read(const typename G::State& s, Checks& checks, const Expect& expect) {
  expect(s.hash() == s.compute_hash(), "a position read back has a consistent hash");
  typename G::ActionList legal;
  s.legal_actions(legal);
  expect(s.is_terminal() || !legal.empty(), "a position read back is playable");
  check_position(s, checks, expect);
}

// The full position and a random seat's view: written, read back, rebuilt, determinized;
// then a damaged copy refused with InvalidInput or read into a consistent state.
template <class G, class Checks>
void check_positions(const typename G::State& s, Rng& rng, Checks& checks, const Expect& expect) {
  using State = typename G::State;
  const std::string text = s.to_json();
  try {
    const State back = State::from_json(s.config(), text);
    expect(back == s, "JSON round-trip equals the original");
    expect(back.hash() == s.hash(), "JSON round-trip keeps the hash");
    check_position(back, checks, expect);
  } catch (const InvalidInput&) {
    expect(false, "own JSON is readable");
  }
  std::string damaged = text;
  if (checks.has_views(s)) {
    // One seat's view each time (random), so a long game checks every seat's.
    const int seat = static_cast<int>(rng.below(static_cast<uint32_t>(s.num_players())));
    const std::string view = s.observation_json(seat);
    checks.view(s, seat, view, expect);
    try {
      const State rebuilt = State::from_observation(s.config(), view, rng.next());
      expect(rebuilt.observation_json(seat) == view, "a state rebuilt from a view shows the same view");
      check_read<G>(rebuilt, checks, expect);
    } catch (const InvalidInput&) {
      expect(false, "own view is readable");
    }
    State shuffled = s;
    shuffled.determinize(seat, rng);
    expect(shuffled.observation_json(seat) == view, "determinize keeps the observer's view");
    expect(shuffled.hash() == shuffled.compute_hash(), "determinize keeps the hash consistent");
    std::vector<float> seen(G::kObservationSize), after(G::kObservationSize);
    s.observation_tensor(seat, seen.data());
    shuffled.observation_tensor(seat, after.data());
    expect(seen == after, "determinize keeps the observation tensor");
    check_position(shuffled, checks, expect);
    if (rng.below(2)) damaged = view;
    if constexpr (G::kHas.determinize_lazily) {
      // The search's lazy sample keeps the view and plays a consistent game to the end.
      State lazy = s;
      lazy.determinize_lazily(seat, rng);
      expect(lazy.observation_json(seat) == view, "determinize_lazily keeps the observer's view");
      for (int ply = 0; !lazy.is_terminal() && ply < 5000; ++ply) {
        if (ply % 4 == 0) check_position(lazy, checks, expect);
        core::apply_unhashed<G>(lazy, lazy.random_action(rng));
      }
      check_position(lazy, checks, expect);
      expect(lazy.is_terminal(), "a lazy sample's game ends");
    }
  }
  damaged = damage(damaged, rng, checks);
  try {
    const State odd =
        rng.below(2) ? State::from_json(s.config(), damaged) : State::from_observation(s.config(), damaged, rng.next());
    check_read<G>(odd, checks, expect);
  } catch (const InvalidInput&) {
  }
}

// Chance outcomes are the legal actions, their probabilities sum to one, and the
// state's own deal is one of them.
template <class G>
void check_chance(const typename G::State& s, const typename G::ActionList& legal, const Expect& expect) {
  typename G::ChanceList outcomes;
  s.chance_outcomes(outcomes);
  double total = 0;
  bool dealt_listed = false;
  for (const auto& o : outcomes) {
    total += o.probability;
    dealt_listed = dealt_listed || o.action == s.dealt_outcome();
    expect(legal.contains(o.action), "a chance outcome is a legal action");
  }
  expect(outcomes.size() == legal.size(), "chance outcomes are the legal actions");
  expect(total > 0.999999 && total < 1.000001, "chance probabilities sum to 1");
  expect(dealt_listed, "the dealt outcome is a chance outcome");
}

// Random notation text is read as an action in range or refused with InvalidInput.
template <class G, class Checks>
void check_notation_text(const typename G::State& s, Rng& rng, Checks& checks, const Expect& expect) {
  std::string text;
  for (int i = 0, n = static_cast<int>(rng.below(5)); i < n; ++i) text += checks.word(rng) + (rng.below(3) ? " " : "");
  try {
    const Action a = s.string_to_action(text);
    expect(a >= 0 && a < G::kNumDistinctActions, "parsed action in range");
  } catch (const InvalidInput&) {
  }
}

}  // namespace sim_detail

// One random game of `G` from `seed`, every invariant checked after every action;
// failures go to `report`.
template <class G, class Checks = RuleChecks<G>>
void random_sim_game(const typename G::Config& config, uint64_t seed, bool explicit_chance, SimReport& report,
                     Checks&& checks = {}, const SimOptions& options = {}) {
  using State = typename G::State;
  State s = State::initial(config, seed, explicit_chance);
  Rng rng(seed * 31 + 7);
  typename G::ActionList legal;
  State unhashed = s;  // follows the same moves through apply_unhashed
  for (int step = 0; !s.is_terminal(); ++step) {
    const Expect expect{&report, seed, step};
    if (step >= options.max_steps) return expect(false, "game ends");
    sim_detail::check_position(s, checks, expect);
    check_decision(s, legal, expect);
    for (int i = 1; i < legal.size(); ++i) expect(legal[i - 1] < legal[i], "legal actions ascending");
    if (s.is_chance()) {
      sim_detail::check_chance<G>(s, legal, expect);
    } else {
      if constexpr (G::kHas.evaluate) {
        const double v = s.evaluate(s.current_player());
        expect(v >= 0.0 && v <= 1.0, "evaluate in [0, 1]");
      }
      if constexpr (G::kHas.heuristic_action) expect(legal.contains(s.heuristic_action(rng)), "heuristic_action is legal");
    }
    checks.decision(s, legal, rng, expect);
    if (step % options.views_every == 0) sim_detail::check_positions<G>(s, rng, checks, expect);
    check_refuses_bad_action<G::kNumDistinctActions>(s, rng, expect);
    const State before = s;
    sim_detail::check_notation_text<G>(s, rng, checks, expect);
    expect(s == before, "state unchanged by reading notation");
    const Action a = checks.choose(s, rng);
    State copy = s;
    copy.apply(a);
    check_move<G>(s, unhashed, a, legal, expect);
    expect(copy == s, "a copy plays the same");
    ++report.decisions;
  }
  const Expect expect{&report, seed, -1};
  sim_detail::check_position(s, checks, expect);
  sim_detail::check_positions<G>(s, rng, checks, expect);
  double r[G::kMaxPlayers];
  s.returns(r);
  double sum = 0;
  for (int p = 0; p < s.num_players(); ++p) {
    expect(r[p] >= 0.0 && r[p] <= 1.0, "returns in [0, 1]");
    sum += r[p];
  }
  expect(sum > 0.999 && sum < 1.001, "returns share one win");
  checks.end(s, expect);
  ++report.games;
}

// n random games of `G` (game i from splitmix64(seed + i)), alternately with explicit
// chance so both reveal modes run.
template <class G, class Checks = RuleChecks<G>>
SimReport random_sim_test(const typename G::Config& config, int64_t n_games, uint64_t seed, Checks&& checks = {},
                          const SimOptions& options = {}) {
  config.validate();
  SimReport report;
  for (int64_t g = 0; g < n_games; ++g)
    random_sim_game<G>(config, splitmix64(seed + static_cast<uint64_t>(g)), (g % 2) == 1, report, checks, options);
  return report;
}

}  // namespace core
