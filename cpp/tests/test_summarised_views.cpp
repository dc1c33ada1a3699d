// Splendor views whose bought cards are given as the table shows them (per colour: cards
// and points): every sample the search draws (determinize, determinize_lazily) keeps the
// summaries, the view and the observation tensor, breaks no invariant, and plays to the end.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/rng.hpp"
#include "splendor/state.hpp"
#include "splendor_tables.inc"

namespace {

// Seat 2's view of a 3-player game: seats 0 and 1 bought cards by colour only.
const char* kView = R"({
  "to_move": 2,
  "nobles": ["W4U4", "W4K4", "R4K4", 7],
  "table": [["red 0pt U2G1", "white 0pt W3U1K1", "blue 0pt W1G1R2K1", "red 0pt W1U1G1K1"],
            ["green 1pt W3G2R3", "white 1pt W2U3R3", "blue 1pt U2G3K3", "red 2pt K5"],
            ["green 5pt U7G3", "black 5pt R7K3", "black 4pt R7", "blue 4pt W6U3K3"]],
  "players": [
    {"tokens": {"blue": 3}, "bought": {"blue": 2, "green": {"cards": 2, "points": 3}, "black": 2},
     "reserved": [{"level": 2, "blind": true}, "green 3pt G6"], "points": 3},
    {"tokens": {"white": 1, "blue": 1, "red": 1, "black": 3},
     "bought": {"white": 1, "blue": 1, "red": {"cards": 3, "points": 3}}, "reserved": ["black 2pt W5"], "points": 3},
    {"tokens": {"blue": 1, "green": 1}, "cards": ["white 0pt U2K2", "blue 0pt K3", "blue 1pt R4"]}
  ]})";

splendor::Config three_players() { return splendor::Config::standard(3); }

// Cards, points and bonuses per colour of a seat's bought cards.
std::vector<int> summary(const splendor::State& s, int seat) {
  std::vector<int> out(10, 0);
  for (int card = 0; card < splendor::kNumCards; ++card)
    if (s.player(seat).owns(card)) {
      ++out[static_cast<size_t>(splendor::tables::kCards[card].bonus)];
      out[static_cast<size_t>(5 + splendor::tables::kCards[card].bonus)] += splendor::tables::kCards[card].points;
    }
  return out;
}

}  // namespace

TEST_CASE("splendor: samples of a summarised view keep every summary, the view and the tensor") {
  const splendor::State read = splendor::State::from_observation(three_players(), kView, 7);
  CHECK(read.has_sampled_cards());
  CHECK(read.invariant_problems().empty());
  const std::string view = read.observation_json(2);
  std::vector<float> tensor(splendor::kObservationSize), after(splendor::kObservationSize);
  read.observation_tensor(2, tensor.data());
  core::Rng rng(11);
  int differ = 0;
  for (int i = 0; i < 300; ++i) {
    splendor::State s = read;
    if (i % 2) s.determinize(2, rng); else s.determinize_lazily(2, rng);
    for (int seat = 0; seat < 3; ++seat) CHECK(summary(s, seat) == summary(read, seat));
    CHECK(s.observation_json(2) == view);
    s.observation_tensor(2, after.data());
    CHECK(after == tensor);
    CHECK(s.invariant_problems().empty());
    differ += s.player(0).owned[0] != read.player(0).owned[0] || s.player(0).owned[1] != read.player(0).owned[1];
    s.play_random(rng, 4000);
    CHECK(s.is_terminal());
    if (i % 2 == 0) CHECK(s.invariant_problems().empty());
  }
  CHECK(differ > 100);  // the identities are drawn again, not kept
}

TEST_CASE("splendor: a card revealed at the table leaves the bought-card samples") {
  splendor::State s = splendor::State::from_observation(three_players(), kView, 3);
  core::Rng rng(5);
  int card = -1;
  for (int c = 0; c < splendor::kNumCards && card < 0; ++c)
    if ((s.player(1).sampled[c >> 6] >> (c & 63)) & 1) card = c;
  REQUIRE(card >= 0);
  const std::vector<int> before = summary(s, 1);
  CHECK(s.release_sampled_card(card, rng));
  CHECK_FALSE(s.player(1).owns(card));
  CHECK(summary(s, 1) == before);
  CHECK(((s.deck_set(splendor::tables::kCards[card].level - 1) >>
          (card - splendor::State::first_card_of_level(splendor::tables::kCards[card].level - 1))) & 1));
  CHECK(s.invariant_problems().empty());
  CHECK(s.hash() == s.compute_hash());
  CHECK_FALSE(s.release_sampled_card(card, rng));  // no longer a sampled card
}
