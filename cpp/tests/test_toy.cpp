// The test-only game Nim (tests/toy/nim.hpp) through the generic code: the random-game
// test, the search with each evaluator, positions read by their own variant.
#include <doctest/doctest.h>

#include <string>

#include "core/random_sim.hpp"
#include "search/mcts.hpp"
#include "tests/toy/nim.hpp"

namespace {

void require_clean(const core::SimReport& report) {
  for (const std::string& f : report.failures) MESSAGE(f);
  CHECK(report.failure_count == 0);
}

}  // namespace

TEST_CASE("nim: random games keep every invariant") {
  for (const nim::Config config : {nim::Config{}, nim::Config{.stones = 1, .max_take = 1}, nim::Config{.stones = 100, .max_take = 5}}) {
    const core::SimReport report = core::random_sim_test<nim::Game>(config, 40, 7);
    CHECK(report.games == 40);
    CHECK(report.decisions >= 40);
    require_clean(report);
  }
}

TEST_CASE("nim: the search finds the winning take with every evaluator") {
  // 10 stones, take 1 to 3: taking 2 leaves a multiple of 4, lost for the opponent.
  const nim::State s = nim::State::initial(nim::Config{.stones = 10, .max_take = 3}, 0, false);
  for (const char* evaluator : {"random", "heuristic", "evaluate"}) {
    search::SearchParams p;
    p.iterations = 3000;
    p.seed = 1;
    p.evaluator = evaluator;
    search::MCTS<nim::Game> mcts(p);
    const search::SearchResult r = mcts.search(s);
    CAPTURE(evaluator);
    CHECK(r.best_action == 1);
    CHECK(r.root_visits == 3000);
  }
}

TEST_CASE("nim: a position names its variant and bad text is refused by path") {
  const core::json::Value doc = core::json::parse(R"({"game": "nim", "variant": {"stones": 7}, "to_move": 1, "stones": 4})");
  const auto position = nim::read_position(doc, 0, true);
  CHECK(position.variant == nim::Config{.stones = 7, .max_take = 3});
  CHECK(position.state.stones() == 4);
  CHECK(position.state.current_player() == 1);
  CHECK(position.observer == -1);
  try {
    nim::State::from_json(nim::Config{}, R"({"game": "nim", "to_move": 2, "stones": 99})");
    FAIL("a bad position was read");
  } catch (const core::InvalidPosition& e) {
    CHECK(std::string(e.what()) == "to_move: 2 is more than 1\nstones: 99 is more than 15");
  }
  nim::State s = position.state;
  CHECK(s.string_to_action("take 2") == 1);
  CHECK_THROWS_AS(s.string_to_action("take 9"), core::InvalidInput);
  CHECK_THROWS_AS(s.apply_checked(3), core::InvalidInput);  // 4 of 4 stones, but at most 3
}
