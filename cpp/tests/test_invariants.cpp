// Every game's State::invariant_problems (core/game.hpp) names what a corrupted state breaks,
// and core::playable, the last check of every position reader, refuses that state naming it;
// a state play reaches breaks none. States are corrupted the way a rules bug would: an
// unchecked illegal move, or an edit no rule allows.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/position.hpp"
#include "duel/state.hpp"
#include "splendor/state.hpp"
#include "tests/toy/nim.hpp"

namespace {

bool names(const std::vector<std::string>& problems, const std::string& what) {
  for (const std::string& p : problems)
    if (p == what) return true;
  return false;
}

// core::playable's refusal of `s`, "" if it accepts it.
template <typename State>
std::string refusal(const State& s) {
  try {
    core::playable(s);
  } catch (const core::InvalidInput& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("splendor: a buy nobody can pay breaks token conservation and is refused by name") {
  splendor::State s = splendor::State::initial(splendor::Config::standard(2), 1, false);
  CHECK(s.invariant_problems().empty());
  CHECK(refusal(s).empty());
  s.apply(splendor::kBuyTable);  // unchecked, and nobody holds a token yet
  const std::vector<std::string> problems = s.invariant_problems();
  REQUIRE(!problems.empty());
  const std::string why = refusal(s);
  for (const std::string& p : problems) CHECK(why.find("\"" + p + "\"") != std::string::npos);
  CHECK_THROWS_AS(splendor::State::from_json(s.config(), s.to_json()), core::InvalidInput);
}

TEST_CASE("duel: privileges beyond the variant's count break conservation and are refused by name") {
  duel::State s = duel::State::empty(duel::Config{});
  CHECK(s.invariant_problems().empty());
  s.set_privileges(0, s.config().privileges + 1);
  CHECK(names(s.invariant_problems(), "privileges conserved"));
  CHECK(refusal(s).find("\"privileges conserved\"") != std::string::npos);
  CHECK_THROWS_AS(duel::State::from_json(s.config(), s.to_json()), core::InvalidInput);
}

TEST_CASE("duel: an eleventh token with the opponent between turns is refused by name") {
  duel::State s = duel::State::empty(duel::Config{});
  s.set_tokens(1, core::swar::unit(duel::kWhite) * 4 + core::swar::unit(duel::kBlue) * 4 + core::swar::unit(duel::kGreen) * 3);
  CHECK(names(s.invariant_problems(), "opponent holds at most 10"));
  CHECK(refusal(s).find("\"opponent holds at most 10\"") != std::string::npos);
}

TEST_CASE("nim: a heap taken below zero breaks the heap's range and is refused by name") {
  nim::State s = nim::State::initial(nim::Config{.stones = 5, .max_take = 3}, 0, false);
  CHECK(s.invariant_problems().empty());
  s.apply(4);  // unchecked: takes 5, more than max_take
  s.apply(4);  // and 5 more from an empty heap
  CHECK(names(s.invariant_problems(), "the heap is within the variant's stones"));
  CHECK(refusal(s).find("\"the heap is within the variant's stones\"") != std::string::npos);
}
