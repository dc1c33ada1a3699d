// Views whose bought cards are given as the table shows them (Splendor per colour: cards
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

// ---- Splendor Duel ------------------------------------------------------------------

#include "core/json.hpp"
#include "duel/state.hpp"

namespace {

// A Duel view with `seat`'s bought cards written as the table shows them: per colour the
// coloured cards (cards, bonuses, points, crowns), the jokers per colour they joined, the
// colourless cards.
std::string duel_table_view(const duel::State& s, int observer, int seat) {
  nlohmann::json view = nlohmann::json::parse(s.observation_json(observer));
  nlohmann::json& player = view["players"][static_cast<size_t>(seat)];
  nlohmann::json bought = nlohmann::json::object();
  const char* colours[5] = {"white", "blue", "green", "red", "black"};
  for (const nlohmann::json& entry : player["cards"]) {
    const int card = (entry.is_object() ? entry["card"].get<int>() : entry.get<int>()) - 1;
    const duel::CardRow& r = duel::tables::kCards[card];
    nlohmann::json& shown = r.bonus == duel::kBonusJoker ? bought["jokers"][colours[s.joker_colour(card)]]
                            : r.bonus == duel::kBonusNone ? bought["none"]
                                                          : bought[colours[r.bonus]];
    const auto add = [&](const char* key, int n) { shown[key] = (shown.contains(key) ? shown[key].get<int>() : 0) + n; };
    add("cards", 1);
    add("points", r.points);
    if (r.bonus != duel::kBonusNone) add("crowns", r.crowns);
    if (r.bonus < 5) add("bonuses", r.bonus_count);
  }
  player["cards"] = nlohmann::json::array();
  player["bought"] = bought;
  view.erase("decks");
  return view.dump();
}

// Per seat: owned cards of each kind (jokers by the colour they joined), bonuses, points,
// crowns and colour points: what every sample must keep.
std::vector<int> duel_shown(const duel::State& s, int seat) {
  std::vector<int> out;
  const duel::Player& p = s.player(seat);
  for (int k = 0; k < 12; ++k) {
    int n = 0;
    for (int card = 0; card < duel::kNumCards; ++card) {
      const int bonus = duel::tables::kCards[card].bonus;
      n += p.owns(card) && (k < 7 ? bonus == k && bonus != duel::kBonusJoker : bonus == duel::kBonusJoker && s.joker_colour(card) == k - 7);
    }
    out.push_back(n);
  }
  for (int k = 0; k < 5; ++k) out.push_back(static_cast<int>(core::swar::lane(p.bonuses, k))), out.push_back(p.colour_points[k]);
  out.push_back(p.points), out.push_back(p.crowns);
  return out;
}

// A mid-game Duel position (not at a chance node) where seat 1 owns a joker.
duel::State duel_mid_game(uint64_t seed) {
  for (uint64_t deal = seed;; ++deal) {
    duel::State s = duel::State::initial(duel::Config{}, deal);
    core::Rng rng(deal);
    for (int ply = 0; ply < 400 && !s.is_terminal(); ++ply) {
      s.apply(s.random_action(rng));
      bool joker = false;
      for (int card = 0; card < duel::kNumCards; ++card)
        joker = joker || (s.player(1).owns(card) && s.joker_colour(card) >= 0);
      if (joker && s.phase() == duel::Phase::kMain && s.player(1).num_reserved > 0) return s;
    }
  }
}

}  // namespace

TEST_CASE("duel: samples of a view written as the table shows it keep it, the tensor and the invariants") {
  const duel::State game = duel_mid_game(1);
  const int observer = 0;
  const duel::State read = duel::State::from_observation(duel::Config{}, duel_table_view(game, observer, 1), 7);
  CHECK(read.has_sampled_cards());
  CHECK(read.invariant_problems().empty());
  CHECK(duel_shown(read, 1) == duel_shown(game, 1));
  const std::string view = read.observation_json(observer);
  std::vector<float> tensor(duel::kObservationSize), after(duel::kObservationSize), original(duel::kObservationSize);
  read.observation_tensor(observer, tensor.data());
  game.observation_tensor(observer, original.data());
  CHECK(tensor == original);
  // Written back as a view and read again: the same view; the full state (the drawn cards
  // apart) reads back equal, also one legal action on, as the fuzz targets require.
  CHECK(duel::State::from_observation(duel::Config{}, view, 3).observation_json(observer) == view);
  CHECK(duel::State::from_json(duel::Config{}, read.to_json()) == read);
  CHECK(duel::State::from_observation(duel::Config{}, read.observation_json(1), 3).observation_json(1) == read.observation_json(1));
  duel::ActionList legal;
  read.legal_actions(legal);
  for (int i = 0; i < legal.size(); ++i) {
    duel::State next = read;
    next.apply(legal[i]);
    CHECK(duel::State::from_json(duel::Config{}, next.to_json()) == next);
  }
  core::Rng rng(11);
  int differ = 0;
  for (int i = 0; i < 300; ++i) {
    duel::State s = read;
    s.determinize(observer, rng);
    CHECK(duel_shown(s, 1) == duel_shown(read, 1));
    CHECK(s.observation_json(observer) == view);
    s.observation_tensor(observer, after.data());
    CHECK(after == tensor);
    CHECK(s.invariant_problems().empty());
    CHECK(s.hash() == s.compute_hash());
    differ += s.player(1).owned_lo != read.player(1).owned_lo || s.player(1).owned_hi != read.player(1).owned_hi;
    for (int ply = 0; ply < 2000 && !s.is_terminal(); ++ply) s.apply(s.random_action(rng));
    CHECK(s.is_terminal());
    CHECK(s.invariant_problems().empty());
  }
  CHECK(differ > 100);  // the identities are drawn again, not kept
}

TEST_CASE("duel: a card revealed at the table leaves the bought-card samples") {
  duel::State s = duel::State::from_observation(duel::Config{}, duel_table_view(duel_mid_game(2), 0, 1), 3);
  core::Rng rng(5);
  int card = -1;
  for (int c = 0; c < duel::kNumCards && card < 0; ++c)
    if (s.player(1).sampled(c) && duel::tables::kCards[c].bonus < 5) card = c;
  REQUIRE(card >= 0);
  const std::vector<int> before = duel_shown(s, 1);
  const int level = duel::tables::kCards[card].level - 1;
  REQUIRE(s.release_sampled_card(card, rng));
  CHECK_FALSE(s.player(1).owns(card));
  CHECK(duel_shown(s, 1) == before);
  CHECK(((s.deck(level) >> (card - duel::kLevelFirst[level])) & 1));
  CHECK(s.invariant_problems().empty());
  CHECK(s.hash() == s.compute_hash());
  CHECK_FALSE(s.release_sampled_card(card, rng));  // no longer a sampled card
}

TEST_CASE("duel: the proof probe stays off while bought cards are samples") {
  // The decks' cards are unknown too then: a forced win over one sample's decks proves nothing.
  for (uint64_t deal = 1;; ++deal) {
    duel::State s = duel::State::initial(duel::Config{}, deal);
    core::Rng rng(deal);
    for (int ply = 0; ply < 40 && !s.is_terminal(); ++ply) s.apply(s.random_action(rng));
    if (s.is_terminal() || s.phase() != duel::Phase::kMain || s.player(1).reserved_blind || !s.player(1).owned_lo) continue;
    const int observer = 0;
    CHECK_FALSE(s.others_hold_unseen(observer));
    CHECK(duel::State::from_observation(duel::Config{}, duel_table_view(s, observer, 1), 1).others_hold_unseen(observer));
    break;
  }
}
