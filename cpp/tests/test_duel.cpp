// Splendor Duel rules, one or more checks per rule of the Duel rules, named after it.
// doctest cases, run by ctest (test_duel -tc="name" runs one).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/game_loops.hpp"
#include "duel/state.hpp"

using namespace duel;
using core::Action;

namespace {

// Token vector: white blue green red black pearl gold.
uint64_t tok(int w, int u, int g, int r, int k, int p = 0, int gold = 0) {
  const int n[7] = {w, u, g, r, k, p, gold};
  uint64_t t = 0;
  for (int i = 0; i < 7; ++i) t += core::swar::unit(i) * static_cast<uint64_t>(n[i]);
  return t;
}

// Board from 25 symbols in row order (spaces ignored): W U G R K, P pearl, * gold, . empty.
void board(State& s, const char* rows) {
  int c = 0;
  for (const char* p = rows; *p; ++p) {
    const char* sym = std::strchr("WUGRKP*.", *p);
    if (!sym || *p == ' ' || *p == '\0') continue;
    s.set_cell(c++, static_cast<int>(sym - "WUGRKP*."));
  }
  if (c != 25) std::fprintf(stderr, "bad test board (%d cells)\n", c);
}

// An empty position: setup done, seat 0 to move, board empty, all tokens in the bag.
State blank(Config cfg = Config{}) { return State::empty(cfg); }

Action act(State& s, const char* text) {
  Action a = s.string_to_action(text);
  s.apply_checked(a);
  return a;
}
bool legal(const State& s, const char* text) { return s.is_legal(s.string_to_action(text)); }
std::vector<Action> legal_list(const State& s) {
  ActionList l;
  s.legal_actions(l);
  return {l.begin(), l.end()};
}
int tokens(const State& s, int seat, int kind) { return core::swar::lane(s.player(seat).tokens, kind); }
int card(int id) { return id - 1; }  // CSV row number -> engine index

}  // namespace

// ---- Components / setup -----------------------------------------------------------------

TEST_CASE("components_coloured_cards_map_onto_themselves_under_colour_rotation") {
  // white->blue->green->red->black->white, costs rotated alike: a check on cards.csv.
  int coloured = 0;
  for (int i = 0; i < kNumCards; ++i) {
    const CardRow& a = tables::kCards[i];
    if (a.bonus >= 5) continue;
    ++coloured;
    int matches = 0;
    for (int j = 0; j < kNumCards; ++j) {
      const CardRow& b = tables::kCards[j];
      bool same = b.bonus == (a.bonus + 1) % 5 && b.level == a.level && b.points == a.points &&
                  b.crowns == a.crowns && b.abilities == a.abilities && b.bonus_count == a.bonus_count &&
                  b.cost[5] == a.cost[5];
      for (int k = 0; k < 5; ++k) same = same && b.cost[(k + 1) % 5] == a.cost[k];
      matches += same;
    }
    CHECK(matches == 1);
  }
  CHECK(coloured == 55);
}

TEST_CASE("setup_pyramid_board_bag_and_second_player_privilege") {
  bool first_seen[2] = {false, false};
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    State s = State::initial(Config{}, seed);
    CHECK(s.phase() == Phase::kMain);
    for (int slot = 0; slot < kNumSlots; ++slot)
      CHECK((s.pyramid(slot) != kNoCard && tables::kCards[s.pyramid(slot)].level == slot_level(slot) + 1));
    CHECK((core::popcount(s.deck(0)) == 25 && core::popcount(s.deck(1)) == 20 && core::popcount(s.deck(2)) == 10));
    int on_board = 0;
    for (int c = 0; c < 25; ++c) on_board += s.cell(c) != kEmpty;
    CHECK((on_board == 25 && s.bag() == 0));
    CHECK((core::popcount(s.kind_mask(kGold)) == 3 && core::popcount(s.kind_mask(kPearl)) == 2));
    int first = s.current_player();
    first_seen[first] = true;
    CHECK((s.player(first).privileges == 0 && s.player(first ^ 1).privileges == 1));
  }
  CHECK((first_seen[0] && first_seen[1]));  // chosen at random
  Config cfg;
  cfg.first_player = 1;
  CHECK(State::initial(cfg, 5).current_player() == 1);
}

TEST_CASE("setup_board_filled_along_the_spiral") {
  State s = State::initial(Config{}, 3, true);
  int reveals = 0;
  while (s.phase() == Phase::kReveal) s.apply(s.dealt_outcome()), ++reveals;
  CHECK(reveals == 12);
  for (int i = 0; i < 25; ++i) {
    CHECK(s.phase() == Phase::kFill);
    CHECK(s.cell(tables::kSpiral[i]) == kEmpty);
    s.apply(s.dealt_outcome());
    CHECK(s.cell(tables::kSpiral[i]) != kEmpty);
  }
  CHECK(s.phase() == Phase::kFirst);
  s.apply(kFirstBase + 1);
  CHECK((s.current_player() == 1 && s.player(0).privileges == 1));
}

// ---- Take tokens ---------------------------------------------------------------------------

TEST_CASE("take_one_two_or_three_in_a_straight_line") {
  auto count_takes = [](const char* rows) {
    State t = blank();
    board(t, rows);
    int takes = 0;
    for (Action a : legal_list(t)) takes += a < kNumTakes;
    return takes;
  };
  CHECK(count_takes("WUGRK ..... ..... ..... .....") == 5 + 4 + 3);
  // A 3x3 block: 9 singles, 20 pairs (6 rows, 6 columns, 8 diagonal), 8 triples.
  CHECK(count_takes("WUG.. RKW.. UGR.. ..... .....") == 9 + 20 + 8);
  State s = blank();
  board(s, "WUGRK UGRKW GRKWU RKWUG PP***");
  CHECK(s.bag() == 0);
  CHECK(legal(s, "take c3"));
  CHECK(legal(s, "take a1 b1 c1"));
  CHECK(legal(s, "take a1 a2 a3"));
  CHECK(legal(s, "take a1 b2 c3"));
  CHECK(legal(s, "take e1 d2 c3"));
  CHECK(legal(s, "take c3 b2"));  // any order names the same cells
  CHECK_THROWS_AS(s.string_to_action("take a1 c1"), core::InvalidInput);
  CHECK_THROWS_AS(s.string_to_action("take a1 b1 c1 d1"), core::InvalidInput);
  CHECK_THROWS_AS(s.string_to_action("take a1 b2 c2"), core::InvalidInput);
  act(s, "take a1 b1 c1");
  CHECK((tokens(s, 0, kWhite) == 1 && tokens(s, 0, kBlue) == 1 && tokens(s, 0, kGreen) == 1));
  CHECK((s.cell(0) == kEmpty && s.current_player() == 1));
}

TEST_CASE("take_line_broken_by_gold_is_illegal") {
  State s = blank();
  board(s, "W*G.. ..... ..... ..... .....");
  CHECK(!legal(s, "take a1 b1 c1"));
  CHECK(!legal(s, "take a1 b1"));
  CHECK((legal(s, "take a1") && legal(s, "take c1")));
}

TEST_CASE("take_line_broken_by_gap_is_illegal") {
  State s = blank();
  board(s, "W.G.. ..... R.... ..... R....");
  CHECK(!legal(s, "take a1 b1 c1"));
  CHECK(!legal(s, "take a1 a2 a3"));
  CHECK((legal(s, "take a1") && legal(s, "take a3")));
}

TEST_CASE("take_never_takes_gold") {
  State s = blank();
  board(s, "*.... ..... ..... ..... ....W");
  CHECK(!legal(s, "take a1"));
  CHECK(!legal(s, "privilege a1"));
  CHECK(legal(s, "take e5"));
}

TEST_CASE("take_three_of_one_colour_gives_opponent_a_privilege") {
  State s = blank();
  board(s, "RRRGG ..... ..... ..... .....");
  act(s, "take a1 b1 c1");
  CHECK((s.player(1).privileges == 1 && s.player(0).privileges == 0));
  State t = blank();
  board(t, "RRGGG ..... ..... ..... .....");
  act(t, "take a1 b1 c1");
  CHECK(t.player(1).privileges == 0);
}

TEST_CASE("take_two_pearls_gives_opponent_a_privilege") {
  State s = blank();
  board(s, "PP... ..... ..... ..... .....");
  act(s, "take a1 b1");
  CHECK(s.player(1).privileges == 1);
  State t = blank();
  board(t, "PPW.. ..... ..... ..... .....");
  act(t, "take a1 b1 c1");
  CHECK(t.player(1).privileges == 1);  // at most one per take
  State u = blank();
  board(u, "PW... ..... ..... ..... .....");
  act(u, "take a1 b1");
  CHECK(u.player(1).privileges == 0);
}

// ---- Privileges -----------------------------------------------------------------------------

TEST_CASE("privilege_gain_takes_from_opponent_when_supply_empty") {
  State s = blank();
  board(s, "RRR.. ..... ..... ..... .....");
  s.set_privileges(0, 2);
  s.set_privileges(1, 1);
  act(s, "take a1 b1 c1");
  CHECK((s.player(1).privileges == 2 && s.player(0).privileges == 1));
}

TEST_CASE("privilege_gain_when_holding_all_does_nothing") {
  State s = blank();
  board(s, "RRR.. ..... ..... ..... .....");
  s.set_privileges(1, 3);
  act(s, "take a1 b1 c1");
  CHECK((s.player(1).privileges == 3 && s.player(0).privileges == 0));
}

TEST_CASE("privilege_count_is_a_variant") {
  Config cfg;
  cfg.privileges = 1;
  State s = State::initial(cfg, 9);
  CHECK((s.privilege_supply() == 0 && s.player(s.current_player() ^ 1).privileges == 1));
  cfg.privileges = 7;
  CHECK_THROWS_AS(cfg.validate(), core::InvalidInput);
}

TEST_CASE("privilege_spend_takes_one_gem_or_pearl_and_never_triggers_the_take_rule") {
  State s = blank();
  board(s, "PP*.. ..... ..... ..... ....R");
  s.set_privileges(0, 3);
  CHECK(!legal(s, "privilege c1"));  // never gold
  act(s, "privilege a1");
  act(s, "privilege b1");
  CHECK((tokens(s, 0, kPearl) == 2 && s.player(0).privileges == 1 && s.player(1).privileges == 0));
  CHECK(s.current_player() == 0);  // optional: the mandatory action is still to come
  act(s, "take e5");
  CHECK((s.current_player() == 1 && s.player(1).privileges == 0));
}

TEST_CASE("privilege_not_spent_after_replenish") {
  State s = blank();
  board(s, "RG... ..... ..... ..... .....");
  s.set_privileges(0, 2);
  CHECK(legal(s, "privilege a1"));
  act(s, "replenish");
  CHECK(s.replenished());
  for (Action a : legal_list(s)) CHECK((!(a >= kPrivilegeBase && a < kReplenish) && a != kReplenish));
  CHECK(s.player(1).privileges == 1);  // the replenish gave the opponent one
}

TEST_CASE("privilege_spending_that_leaves_no_mandatory_action_is_refused") {
  // Engine convention: the last gem on board, nothing in the bag but gold, no room to
  // reserve, nothing to buy: spending the privilege would leave no mandatory action.
  auto make = [](int reserved) {
    State s = blank();
    board(s, "..... ..... ..R.. ..... .....");
    s.set_tokens(0, tok(4, 4, 2, 0, 0));
    s.set_tokens(1, tok(0, 0, 2, 3, 4, 2));
    for (int i = 0; i < reserved; ++i) s.give_reserved(0, card(65 + i), false);
    s.set_privileges(0, 1);
    return s;
  };
  State s = make(3);
  CHECK(s.bag() == tok(0, 0, 0, 0, 0, 0, 3));
  CHECK(!legal(s, "privilege c3"));
  CHECK(legal(s, "take c3"));
  State t = make(2);  // after the forced replenish a gold can be taken to reserve
  CHECK(legal(t, "privilege c3"));
}

// ---- Replenish ------------------------------------------------------------------------------

TEST_CASE("replenish_fills_empty_cells_along_the_spiral_and_gives_opponent_a_privilege") {
  State s = blank();
  board(s, "W.... ..... ..... ..... .....");
  s.set_tokens(1, tok(0, 0, 0, 0, 0, 0, 1));
  s.set_explicit_chance(true);
  act(s, "replenish");
  CHECK(s.player(1).privileges == 1);
  CHECK((s.is_chance() && s.phase() == Phase::kFill));
  ChanceList outs;
  s.chance_outcomes(outs);
  double total = 0;
  for (auto o : outs) total += o.probability;
  CHECK((outs.size() == 7 && total > 0.999999 && total < 1.000001));
  CHECK((outs[0].action == kFillBase + kWhite && outs[0].probability == 3.0 / 23));
  for (int i = 0; i < 23; ++i) {
    int cell = -1;
    for (int k = 0; k < 25 && cell < 0; ++k)
      if (s.cell(tables::kSpiral[k]) == kEmpty) cell = tables::kSpiral[k];
    s.apply(s.dealt_outcome());
    CHECK(s.cell(cell) != kEmpty);
  }
  CHECK((s.bag() == 0 && s.current_player() == 0 && !s.is_legal(kReplenish)));
  CHECK((s.cell(tables::kSpiral[24]) == kEmpty && s.cell(0) == kWhite));
}

TEST_CASE("replenish_needs_a_non_empty_bag") {
  State s = State::initial(Config{}, 4);
  CHECK((s.bag() == 0 && !s.is_legal(kReplenish)));
}

TEST_CASE("forced_replenish_when_no_mandatory_action") {
  State s = blank();  // empty board, nothing to buy, no gold to reserve
  std::vector<Action> l = legal_list(s);
  CHECK((l.size() == 1 && l[0] == kReplenish));
  act(s, "replenish");
  CHECK(s.player(1).privileges == 1);
  CHECK((s.current_player() == 0 && !legal_list(s).empty()));
}

// ---- Reserve --------------------------------------------------------------------------------

TEST_CASE("reserve_needs_gold_on_the_board") {
  State s = State::empty(Config{});
  s.set_pyramid_card(0, card(1));
  board(s, "W.... ..... ..... ..... .....");
  for (Action a : legal_list(s)) CHECK((a < kReserveBase || a >= kBuyBase));
  board(s, "W.... ..... ..... ..... ....*");
  CHECK((legal(s, "reserve 1.1 gold e5") && legal(s, "reserve deck2 gold e5")));
}

TEST_CASE("reserve_takes_the_chosen_gold_and_refills_the_slot") {
  State s = blank();
  s.set_pyramid_card(0, card(1));
  board(s, "*W... ..... ..... ..... ....*");
  act(s, "reserve 1.1 gold e5");
  const Player& p = s.player(0);
  CHECK((p.num_reserved == 1 && p.reserved[0] == card(1) && p.reserved_blind == 0));
  CHECK((tokens(s, 0, kGold) == 1 && s.cell(24) == kEmpty && s.cell(0) == kGold));
  CHECK((s.pyramid(0) != kNoCard && s.pyramid(0) != card(1)));
  CHECK(core::popcount(s.deck(0)) == 28);
}

TEST_CASE("reserve_blind_from_a_deck_top_is_hidden") {
  State s = blank();
  board(s, "*.... ..... ..... ..... .....");
  s.set_explicit_chance(true);
  act(s, "reserve deck3 gold a1");
  CHECK(s.phase() == Phase::kReveal);
  ChanceList outs;
  s.chance_outcomes(outs);
  CHECK(outs.size() == 13);
  s.apply(kRevealBase + card(60));
  CHECK((s.player(0).reserved[0] == card(60) && s.player(0).reserved_blind == 1));
  CHECK(s.current_player() == 1);
}

TEST_CASE("reserve_at_most_three_cards") {
  State s = blank();
  board(s, "*.... ..... ..... ..... W....");
  for (int i = 0; i < 3; ++i) s.give_reserved(0, card(1 + i), false);
  for (Action a : legal_list(s)) CHECK((a < kReserveBase || a >= kBuyBase));
}

TEST_CASE("reserve_from_empty_deck_leaves_slot_empty") {
  State s = blank();
  board(s, "*.... ..... ..... ..... .....");
  for (int c = card(55); c <= card(67); ++c) {
    if (c < card(58)) s.set_pyramid_card(9 + c - card(55), c);
    else s.give_card(1, c);
  }
  CHECK((s.deck(2) == 0 && !legal(s, "reserve deck3 gold a1")));
  s.set_explicit_chance(true);
  act(s, "reserve 3.1 gold a1");
  CHECK((!s.is_chance() && s.pyramid(9) == kNoCard));
}

// ---- Buy ------------------------------------------------------------------------------------

TEST_CASE("buy_gold_is_wild_for_gems_and_pearls_and_spent_tokens_go_to_the_bag") {
  State s = blank();
  s.set_pyramid_card(0, card(3));  // white again: 2 blue, 2 green, 1 pearl
  board(s, "W.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 2, 1, 0, 0, 0, 2));
  uint64_t bag = s.bag();
  act(s, "buy 1.1");
  CHECK((s.player(0).owns(card(3)) && s.player(0).tokens == 0));
  CHECK(s.bag() == bag + tok(0, 2, 1, 0, 0, 0, 2));
  CHECK(core::swar::lane(s.player(0).bonuses, kWhite) == 1);
}

TEST_CASE("buy_gems_pay_before_gold") {
  State s = blank();
  s.set_pyramid_card(0, card(2));  // 3 blue
  board(s, "W.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 3, 0, 0, 0, 0, 2));
  act(s, "buy 1.1");
  CHECK((tokens(s, 0, kGold) == 2 && tokens(s, 0, kBlue) == 0));
}

TEST_CASE("buy_bonuses_reduce_cost_never_below_zero") {
  State s = blank();
  s.give_card(0, card(6));   // blue bonus
  s.give_card(0, card(38));  // blue x2
  s.set_pyramid_card(0, card(2));  // 3 blue: covered by 3 blue bonuses
  board(s, "W.... ..... ..... ..... .....");
  CHECK(legal(s, "buy 1.1"));
  act(s, "buy 1.1");
  CHECK((s.player(0).tokens == 0 && s.player(0).owns(card(2))));
}

TEST_CASE("buy_unaffordable_card_is_illegal") {
  State s = blank();
  s.set_pyramid_card(0, card(2));
  board(s, "W.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 1, 0, 0, 0, 0, 1));
  CHECK(!legal(s, "buy 1.1"));
  CHECK_THROWS_AS(s.apply_checked(s.string_to_action("buy 1.1")), core::InvalidInput);
}

TEST_CASE("buy_from_reserve") {
  State s = blank();
  board(s, "W.... ..... ..... ..... .....");
  s.give_reserved(0, card(2), true);
  s.give_reserved(0, card(7), false);
  s.set_tokens(0, tok(0, 0, 3, 0, 0));
  CHECK((!legal(s, "buy r1") && legal(s, "buy r2")));
  act(s, "buy r2");
  CHECK((s.player(0).num_reserved == 1 && s.player(0).reserved[0] == card(2) && s.player(0).reserved_blind == 1));
}

TEST_CASE("joker_cannot_be_bought_without_a_coloured_card") {
  State s = blank();
  s.set_pyramid_card(0, card(26));  // joker: 4 black, 1 pearl
  board(s, "*.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 0, 0, 4, 1));
  CHECK(!legal(s, "buy 1.1"));
  CHECK(legal(s, "reserve 1.1 gold a1"));  // it may still be reserved
  s.give_card(0, card(30));  // a `none` card is not a coloured card
  CHECK(!legal(s, "buy 1.1"));
  s.give_card(0, card(16));  // red
  CHECK(legal(s, "buy 1.1"));
}

// ---- Abilities ------------------------------------------------------------------------------

TEST_CASE("ability_bonus_copy_joins_a_chosen_colour") {
  State s = blank();
  s.give_card(0, card(16));  // red
  s.give_card(0, card(6));   // blue
  s.set_pyramid_card(0, card(26));
  board(s, "W.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 0, 0, 4, 1));
  act(s, "buy 1.1");
  CHECK((s.phase() == Phase::kJoker && s.current_player() == 0));
  std::vector<Action> l = legal_list(s);
  CHECK((l.size() == 2 && l[0] == kJokerBase + kBlue && l[1] == kJokerBase + kRed));
  act(s, "joker red");
  CHECK((core::swar::lane(s.player(0).bonuses, kRed) == 2 && s.player(0).colour_points[kRed] == 1));
  CHECK((s.joker_colour(card(26)) == kRed && s.current_player() == 1));
}

TEST_CASE("ability_again_gives_another_full_turn") {
  State s = blank();
  s.set_pyramid_card(0, card(3));
  board(s, "W.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 2, 2, 0, 0, 1));
  s.set_privileges(0, 1);
  act(s, "buy 1.1");
  CHECK((s.current_player() == 0 && !s.replenished()));
  CHECK(legal(s, "privilege a1"));  // a full turn, optional actions included
  act(s, "take a1");
  CHECK(s.current_player() == 1);
}

TEST_CASE("ability_again_not_played_when_the_turn_wins") {
  auto make = [](bool winning) {
    State s = blank();
    for (int id : {56, 58, 60, 62}) s.give_card(0, card(id));  // 4 points each, red bonus 1
    if (winning) s.give_card(0, card(5));                      // +1 point: 17
    s.set_pyramid_card(9, card(65));                           // joker 3 points, bonus copy + again, 8 red
    board(s, "W.... ..... ..... ..... .....");
    s.set_tokens(0, tok(0, 0, 0, 4, 0, 0, 3));
    act(s, "buy 3.1");
    act(s, "joker red");
    return s;
  };
  State win = make(true);
  CHECK((win.is_terminal() && win.winner() == 0 && win.player(0).points == 20));
  double r[2];
  win.returns(r);
  CHECK((r[0] == 1.0 && r[1] == 0.0));
  State no = make(false);
  CHECK((!no.is_terminal() && no.current_player() == 0));
}

TEST_CASE("ability_token_takes_one_of_the_cards_colour_from_the_board") {
  State s = blank();
  s.set_pyramid_card(0, card(4));  // white, token: 2 red 2 black
  board(s, "W*WRU ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 0, 2, 2));
  act(s, "buy 1.1");
  CHECK(s.phase() == Phase::kToken);
  std::vector<Action> l = legal_list(s);
  CHECK((l.size() == 2 && l[0] == kTokenBase + 0 && l[1] == kTokenBase + 2));
  act(s, "token c1");
  CHECK((tokens(s, 0, kWhite) == 1 && s.cell(2) == kEmpty && s.current_player() == 1));
  State t = blank();  // no token of that colour: ignored
  t.set_pyramid_card(0, card(4));
  board(t, "U*... ..... ..... ..... .....");
  t.set_tokens(0, tok(0, 0, 0, 2, 2));
  act(t, "buy 1.1");
  CHECK(t.current_player() == 1);
}

TEST_CASE("ability_privilege_gains_one") {
  State s = blank();
  s.set_pyramid_card(5, card(33));  // white privilege: 4 white 2 black 1 pearl
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(4, 0, 0, 0, 2, 1));
  act(s, "buy 2.1");
  CHECK(s.player(0).privileges == 1);
}

TEST_CASE("ability_steal_takes_a_gem_or_pearl_never_gold") {
  State s = blank();
  s.set_pyramid_card(5, card(32));  // white steal: 4 blue 3 red
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 4, 0, 3, 0));
  s.set_tokens(1, tok(0, 0, 1, 0, 0, 1, 2));
  act(s, "buy 2.1");
  CHECK(s.phase() == Phase::kSteal);
  std::vector<Action> l = legal_list(s);
  CHECK((l.size() == 2 && l[0] == kStealBase + kGreen && l[1] == kStealBase + kPearl));
  act(s, "steal pearl");
  CHECK((tokens(s, 0, kPearl) == 1 && tokens(s, 1, kPearl) == 0 && s.current_player() == 1));
  State t = blank();  // the opponent holds only gold: ignored
  t.set_pyramid_card(5, card(32));
  board(t, "U.... ..... ..... ..... .....");
  t.set_tokens(0, tok(0, 4, 0, 3, 0));
  t.set_tokens(1, tok(0, 0, 0, 0, 0, 0, 2));
  act(t, "buy 2.1");
  CHECK((t.current_player() == 1 && tokens(t, 1, kGold) == 2));
}

// ---- Crowns and royals ----------------------------------------------------------------------

TEST_CASE("royal_at_third_crown_after_the_cards_own_ability") {
  State s = blank();
  s.give_card(0, card(2));  // white, 1 crown
  s.give_card(0, card(7));  // blue, 1 crown
  s.set_pyramid_card(0, card(27));  // joker, 1 crown: 4 white 1 pearl
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(3, 0, 0, 0, 0, 1));
  s.set_tokens(1, tok(0, 0, 2, 0, 0));
  act(s, "buy 1.1");
  CHECK(s.phase() == Phase::kJoker);  // the card's ability first
  act(s, "joker blue");
  CHECK((s.phase() == Phase::kRoyal && s.player(0).crowns == 3));
  CHECK(legal_list(s).size() == 4);
  act(s, "royal 1");  // 2 points + steal
  CHECK(s.phase() == Phase::kSteal);
  act(s, "steal green");
  CHECK((s.player(0).points == 2 && s.player(0).royals == 1 && s.royals_available() == 0xE));
  CHECK(s.player(0).colour_points[kBlue] == 0);  // royal points count only toward 20
  CHECK(s.current_player() == 1);
}

TEST_CASE("royal_at_sixth_crown_not_at_fourth") {
  State s = blank();
  for (int id : {2, 7, 12, 17, 22}) s.give_card(0, card(id));  // 5 crowns, one card of each colour
  s.give_royal(0, 3);                                          // taken at the 3rd crown
  s.set_pyramid_card(5, card(31));  // white, 2 points, 1 crown: 2 green 2 red 2 black 1 pearl
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 1, 1, 1, 1));
  act(s, "buy 2.1");
  CHECK((s.phase() == Phase::kRoyal && s.player(0).crowns == 6));
  CHECK(legal_list(s).size() == 3);
  act(s, "royal 2");  // 2 points + again
  CHECK((s.current_player() == 0 && s.player(0).points == 7));
  // 3 -> 4 crowns: no royal.
  State t = blank();
  for (int id : {2, 7, 12}) t.give_card(0, card(id));
  t.set_pyramid_card(0, card(17));  // red, 1 crown: 3 black
  board(t, "U.... ..... ..... ..... .....");
  t.set_tokens(0, tok(0, 0, 0, 0, 3));
  act(t, "buy 1.1");
  CHECK((t.player(0).crowns == 4 && t.current_player() == 1));
}

TEST_CASE("royal_privilege_ability") {
  State s = blank();
  s.give_card(0, card(2));
  s.give_card(0, card(7));
  s.set_pyramid_card(0, card(12));
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 0, 3, 0));
  act(s, "buy 1.1");
  act(s, "royal 3");
  CHECK((s.player(0).privileges == 1 && s.current_player() == 1));
}

// ---- End of turn ----------------------------------------------------------------------------

TEST_CASE("discard_down_to_ten_tokens_of_the_players_choice") {
  State s = blank();
  board(s, "RRR.. ..... ..... ..... .....");
  s.set_tokens(0, tok(2, 2, 2, 0, 0, 1, 2));  // 9 + 3 = 12
  act(s, "take a1 b1 c1");
  CHECK((s.phase() == Phase::kDiscard && s.current_player() == 0));
  CHECK((legal(s, "discard gold") && legal(s, "discard pearl") && !legal(s, "discard black")));
  uint64_t bag = s.bag();
  act(s, "discard gold");
  CHECK(s.phase() == Phase::kDiscard);
  act(s, "discard red");
  CHECK((s.player(0).num_tokens() == 10 && s.bag() == bag + tok(0, 0, 0, 1, 0, 0, 1)));
  CHECK(s.current_player() == 1);
}

TEST_CASE("victory_twenty_points") {
  State s = blank();
  for (int id : {56, 58, 60, 62}) s.give_card(0, card(id));  // 16
  s.give_royal(0, 3);                                          // 19
  s.set_pyramid_card(0, card(5));                              // 1 point: 2 green 3 red
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 2, 2, 0));
  act(s, "buy 1.1");
  CHECK((s.is_terminal() && s.winner() == 0 && s.current_player() == core::kTerminalPlayer));
}

TEST_CASE("victory_ten_crowns") {
  State s = blank();
  for (int id : {55, 57, 59, 61}) s.give_card(0, card(id));  // 8 crowns, 12 points
  s.give_card(0, card(2));                                   // 9 crowns
  s.give_royal(0, 0);
  s.give_royal(0, 1);
  s.set_pyramid_card(0, card(7));  // 1 crown: 3 green
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 3, 0, 0));
  act(s, "buy 1.1");
  CHECK((s.is_terminal() && s.winner() == 0 && s.player(0).crowns == 10));
}

TEST_CASE("victory_ten_points_in_one_colour_jokers_count_for_their_colour") {
  auto make = [] {
    State s = blank();
    for (int id : {61, 62, 43}) s.give_card(0, card(id));  // red 3 + 4 + 2 = 9 points
    s.give_card(0, card(1));                              // white, 0 points
    s.give_royal(0, 0), s.give_royal(0, 1);               // 3 crowns already rewarded
    s.set_pyramid_card(0, card(26));                      // joker, 1 point: 4 black 1 pearl
    board(s, "U.... ..... ..... ..... .....");
    s.set_tokens(0, tok(0, 0, 0, 0, 4, 1));
    act(s, "buy 1.1");
    return s;
  };
  State red = make();
  act(red, "joker red");
  CHECK((red.is_terminal() && red.winner() == 0 && red.player(0).colour_points[kRed] == 10));
  State white = make();
  act(white, "joker white");
  CHECK((!white.is_terminal() && white.player(0).colour_points[kWhite] == 1));
}

TEST_CASE("victory_none_cards_count_for_no_colour") {
  State s = blank();
  for (int id : {61, 62, 43}) s.give_card(0, card(id));  // red 9
  s.give_royal(0, 0), s.give_royal(0, 1);
  s.set_pyramid_card(0, card(30));  // none, 3 points: 4 red 1 pearl (red bonus 3)
  board(s, "U.... ..... ..... ..... .....");
  s.set_tokens(0, tok(0, 0, 0, 1, 0, 1));
  uint64_t bonus = s.player(0).bonuses;
  act(s, "buy 1.1");
  CHECK((!s.is_terminal() && s.player(0).colour_points[kRed] == 9 && s.player(0).bonuses == bonus));
}

TEST_CASE("victory_thresholds_are_variants") {
  // Buys card 5 (white, 1 point) or card 2 (white, 1 crown) under a variant.
  auto wins = [](Config cfg, int id) {
    State s = State::empty(cfg);
    s.set_pyramid_card(0, card(id));
    board(s, "U.... ..... ..... ..... .....");
    s.set_tokens(0, id == 5 ? tok(0, 0, 2, 3, 0) : tok(0, 3, 0, 0, 0));
    act(s, "buy 1.1");
    return s.is_terminal();
  };
  Config cfg;
  CHECK((!wins(cfg, 5) && !wins(cfg, 2)));
  cfg.points_to_win = 1;
  CHECK((wins(cfg, 5) && !wins(cfg, 2)));
  cfg = Config{};
  cfg.crowns_to_win = 1;
  CHECK((wins(cfg, 2) && !wins(cfg, 5)));
  cfg = Config{};
  cfg.colour_points_to_win = 1;
  CHECK((wins(cfg, 5) && !wins(cfg, 2)));
}

TEST_CASE("config_validation_names_the_field") {
  Config cfg;
  cfg.points_to_win = 0;
  try {
    cfg.validate();
    CHECK(false);
  } catch (const core::InvalidInput& e) {
    CHECK(std::string(e.what()).find("points_to_win") != std::string::npos);
  }
  cfg = Config{};
  cfg.first_player = 2;
  CHECK_THROWS_AS(State::initial(cfg, 1), core::InvalidInput);
}

// ---- Chance, determinism, notation, perft -----------------------------------------------------

TEST_CASE("chance_explicit_following_the_deal_replays_the_auto_game") {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    State a = State::initial(Config{}, seed, false);
    State b = State::initial(Config{}, seed, true);
    core::Rng ra(seed), rb(seed);
    while (!a.is_terminal()) {
      while (b.is_chance()) {
        ChanceList outs;
        b.chance_outcomes(outs);
        double total = 0;
        for (auto o : outs) total += o.probability;
        CHECK((total > 0.999999 && total < 1.000001));
        b.apply(b.dealt_outcome());
      }
      CHECK(a.hash() == b.hash());
      a.apply(a.random_action(ra));
      b.apply(b.random_action(rb));
    }
    while (b.is_chance()) b.apply(b.dealt_outcome());
    b.set_explicit_chance(false);
    CHECK(a == b);
  }
}

TEST_CASE("determinism_same_seed_same_game") {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    State a = State::initial(Config{}, seed), b = State::initial(Config{}, seed);
    core::Rng ra(7), rb(7);
    while (!a.is_terminal()) {
      a.apply(a.random_action(ra));
      b.apply(b.random_action(rb));
      CHECK(a == b);
    }
  }
}

TEST_CASE("notation_round_trips_every_action") {
  State s = State::initial(Config{}, 1);
  for (Action a = 0; a < kNumDistinctActions; ++a) CHECK(s.string_to_action(s.action_to_string(a)) == a);
  CHECK(s.string_to_action("  TAKE  C3,  c4 ") == s.string_to_action("take c3 c4"));
  CHECK(s.action_to_string(kReplenish) == "replenish");
  CHECK(s.action_to_string(s.string_to_action("take c3 c4 c5")) == "take c3 c4 c5");
  for (const char* bad : {"", "fly", "take", "take z9", "buy 4.1", "buy 1.6", "reserve 1.1", "steal gold",
                          "joker pearl", "royal 5", "discard", "card 0", "card 68", "first 2", "privilege"})
    CHECK_THROWS_AS(s.string_to_action(bad), core::InvalidInput);
}

TEST_CASE("illegal_action_is_refused_and_state_unchanged") {
  State s = State::initial(Config{}, 2);
  State before = s;
  CHECK_THROWS_AS(s.apply_checked(-1), core::InvalidInput);
  CHECK_THROWS_AS(s.apply_checked(kNumDistinctActions), core::InvalidInput);
  CHECK_THROWS_AS(s.apply_checked(kJokerBase), core::InvalidInput);
  CHECK_THROWS_AS(s.apply_checked(kRevealBase), core::InvalidInput);
  CHECK(s == before);
}

TEST_CASE("invariants_over_thousands_of_random_games") {
  // Tokens, cards and privileges conserved and the hash equal to its recomputation after
  // every decision; every game ends (fuzz_duel checks more, including JSON and views).
  const uint32_t kTokens[kNumKinds] = {4, 4, 4, 4, 4, 2, 3};
  long decisions = 0;
  for (uint64_t g = 0; g < 2000; ++g) {
    State s = State::initial(Config{}, 77000 + g, g % 2 == 1);
    core::Rng rng(g);
    int step = 0;
    bool ok = true;
    for (; !s.is_terminal() && step < 3000; ++step) {
      for (int k = 0; k < kNumKinds; ++k) {
        uint32_t n = static_cast<uint32_t>(core::popcount(s.kind_mask(k)) + core::swar::lane(s.bag(), k) +
                                           core::swar::lane(s.player(0).tokens, k) + core::swar::lane(s.player(1).tokens, k));
        ok &= n == kTokens[k];
      }
      int cards = core::popcount(s.deck(0)) + core::popcount(s.deck(1)) + core::popcount(s.deck(2));
      for (int slot = 0; slot < kNumSlots; ++slot) cards += s.pyramid(slot) != kNoCard;
      for (int seat = 0; seat < 2; ++seat)
        cards += s.player(seat).num_reserved + core::popcount(s.player(seat).owned_lo) + core::popcount(s.player(seat).owned_hi);
      ok &= cards == kNumCards;
      ok &= s.privilege_supply() >= 0;
      ok &= s.hash() == s.compute_hash();
      s.apply(s.random_action(rng));
    }
    decisions += step;
    CHECK(ok);
    CHECK(s.is_terminal());
  }
  CHECK(decisions > 2000 * 50);
}

TEST_CASE("perft_golden_counts") {
  struct Golden {
    uint64_t seed;
    bool explicit_chance;  // chance outcomes counted as plies
    int depth;
    uint64_t nodes;
  };
  // From State::initial(Config{}, seed, explicit_chance), setup chance followed to the
  // first decision (docs/actions-duel.md).
  const Golden goldens[] = {
    {1, 0, 1, 153ULL},
    {1, 0, 2, 23588ULL},
    {1, 0, 3, 2770409ULL},
    {2, 0, 1, 159ULL},
    {2, 0, 2, 25147ULL},
    {3, 0, 1, 151ULL},
    {3, 0, 2, 23102ULL},
    {1, 1, 1, 153ULL},
    {1, 1, 2, 17258ULL},
    {1, 1, 3, 1574594ULL},
    {2, 1, 1, 159ULL},
    {2, 1, 2, 18547ULL},
    {3, 1, 1, 151ULL},
    {3, 1, 2, 16862ULL},
  };
  for (const Golden& g : goldens) {
    State s = State::initial(Config{}, g.seed, g.explicit_chance);
    while (s.is_chance()) s.apply(s.dealt_outcome());
    uint64_t n = core::perft<State, ActionList>(s, g.depth);
    if (n != g.nodes)
      std::fprintf(stderr, "perft seed %llu explicit %d depth %d: %llu\n", (unsigned long long)g.seed,
                   g.explicit_chance, g.depth, (unsigned long long)n);
    CHECK(n == g.nodes);
  }
}
