"""One or more tests per rule of the base game's rules, named after the rule."""
from __future__ import annotations

import json

import pytest

import splendor_mcts as sm
from splendor_positions import Position, act, legal_texts, tokens_of, view

COLOURS = ["white", "blue", "green", "red", "black"]


# ---------------------------------------------------------------- components


def test_components_90_cards_40_30_20_by_level():
    cards = sm.load_game("splendor").cards()
    assert len(cards) == 90
    assert [sum(c["level"] == lv for c in cards) for lv in (1, 2, 3)] == [40, 30, 20]
    assert {c["bonus"] for c in cards} == set(COLOURS)
    assert [c["id"] for c in cards] == list(range(1, 91))


def test_components_10_nobles_worth_3():
    nobles = sm.load_game("splendor").nobles()
    assert len(nobles) == 10 and all(n["points"] == 3 for n in nobles)


def test_components_card_table_matches_the_csv():
    import csv
    from pathlib import Path

    rows = list(csv.DictReader((Path(__file__).parents[1] / "data/splendor/cards.csv").read_text().splitlines()))
    for card, row in zip(sm.load_game("splendor").cards(), rows):
        assert card["level"] == int(row["level"]) and card["bonus"] == row["bonus"]
        assert card["points"] == int(row["points"])
        assert card["cost"] == {c: int(row[c]) for c in COLOURS}


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("players,gems", [(2, 4), (3, 5), (4, 7)])
def test_setup_gem_tokens_by_player_count_and_five_gold(players, gems):
    bank = view(sm.load_game("splendor", players=players).new_initial_state(seed=1))["bank"]
    assert bank == {**{c: gems for c in COLOURS}, "gold": 5}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_nobles_revealed_players_plus_one(players):
    for seed in range(5):
        d = view(sm.load_game("splendor", players=players).new_initial_state(seed=seed))
        assert len(d["nobles"]) == players + 1


def test_setup_four_face_up_cards_per_level_from_separate_decks():
    game = sm.load_game("splendor")
    level = {c["id"]: c["level"] for c in game.cards()}
    d = view(game.new_initial_state(seed=3))
    for lv in range(3):
        assert len(d["table"][lv]) == 4 and all(level[c] == lv + 1 for c in d["table"][lv])
        assert all(level[c] == lv + 1 for c in d["decks"][lv])
    assert [len(x) for x in d["decks"]] == [36, 26, 16]


def test_setup_deal_depends_on_seed():
    game = sm.load_game("splendor")
    assert game.new_initial_state(seed=1).to_json() == game.new_initial_state(seed=1).to_json()
    assert game.new_initial_state(seed=1).to_json() != game.new_initial_state(seed=2).to_json()


def test_setup_seat_0_starts():
    for players in (2, 3, 4):
        assert sm.load_game("splendor", players=players).new_initial_state(seed=0).current_player() == 0


# ---------------------------------------------------------------- take 3 distinct


def test_take_three_distinct_colours_never_gold():
    s = Position().state()
    takes = [t for t in legal_texts(s) if t.startswith("take")]
    assert "take WUG" in takes
    assert not any("Y" in t for t in takes)
    with pytest.raises(ValueError, match="gold cannot be taken"):
        s.string_to_action("take WUY")
    act(s, "take WUG")
    assert tokens_of(s, 0) == {"white": 1, "blue": 1, "green": 1, "red": 0, "black": 0, "gold": 0}


def _distinct_takes(state) -> set[str]:
    return {t for t in legal_texts(state) if t.startswith("take") and len(set(t[5:])) == len(t[5:])}


def test_take_three_distinct_exactly_three_when_three_colours_remain():
    s = Position().tokens(1, white=4, blue=4).state()  # green, red, black remain
    assert _distinct_takes(s) == {"take GRK"}


def test_take_fewer_distinct_variant_on_allows_one_to_k_colours():
    s = Position().tokens(1, white=4, blue=4, green=2).tokens(0, green=2).state()  # red, black remain
    assert _distinct_takes(s) == {"take RK", "take R", "take K"}


def test_take_fewer_distinct_variant_off_needs_three_colours():
    s = Position(take_fewer_distinct=False).tokens(1, white=4, blue=4, green=2).tokens(0, green=2).state()
    assert _distinct_takes(s) == set()


def test_take_fewer_distinct_always_allows_one_to_three_colours_while_five_remain():
    """The splendor-tools referee's rule: every set of 1 to 3 colours in the bank, at any time."""
    s = Position(take_fewer_distinct="always").state()
    takes = _distinct_takes(s)
    assert len(takes) == 10 + 10 + 5 and {"take WUG", "take WU", "take RK", "take W", "take K"} <= takes
    assert len(s.legal_actions()) == 25 + 5 + 12 + 3  # then take two, reserve 12 face up and 3 decks
    assert len(Position().state().legal_actions()) == 10 + 5 + 12 + 3  # the published rule, for comparison
    act(s, "take G")
    assert tokens_of(s, 0) == {"white": 0, "blue": 0, "green": 1, "red": 0, "black": 0, "gold": 0}


def test_take_fewer_distinct_always_takes_only_colours_in_the_bank():
    s = Position(take_fewer_distinct="always").tokens(1, white=4, blue=4).state()  # green, red, black remain
    assert _distinct_takes(s) == {"take GRK", "take GR", "take GK", "take RK", "take G", "take R", "take K"}
    assert s.why_illegal(s.string_to_action("take WG")) == "no white left in the bank"


def test_take_of_fewer_colours_while_three_remain_is_illegal_under_the_published_rule_only():
    published, referee = Position().state(), Position(take_fewer_distinct="always").state()
    action = published.string_to_action("take WU")
    assert published.why_illegal(action) == "take three different colours while three or more are in the bank (5 are)"
    assert referee.is_legal(action) and referee.why_illegal(action) == ""


# ---------------------------------------------------------------- take 2 same


def test_take_two_same_colour_only_from_a_pile_of_four():
    s = Position().tokens(1, red=1).state()  # 3 red left, 4 of every other colour
    texts = legal_texts(s)
    assert "take WW" in texts and "take RR" not in texts
    with pytest.raises(ValueError, match="illegal action"):
        s.apply_action(s.string_to_action("take RR"))
    act(s, "take WW")
    assert tokens_of(s, 0)["white"] == 2


# ---------------------------------------------------------------- reserve


def test_reserve_face_up_card_takes_a_gold():
    pos = Position()
    card = pos.table_card(2, 3)
    s = act(pos.state(), "reserve 2.3")
    d = view(s)
    assert d["players"][0]["reserved"] == [{"card": card, "blind": False}]
    assert d["players"][0]["tokens"]["gold"] == 1 and d["bank"]["gold"] == 4


def test_reserve_is_allowed_without_gold_left():
    s = Position().tokens(1, gold=5).state()
    act(s, "reserve 1.1")
    assert tokens_of(s, 0)["gold"] == 0 and len(view(s)["players"][0]["reserved"]) == 1


def test_reserve_blind_from_deck_is_hidden_from_opponents():
    pos = Position()
    top = pos.d["decks"][2][-1]
    s = act(pos.state(), "reserve deck 3")
    assert view(s, 0)["players"][0]["reserved"] == [{"card": top, "blind": True}]
    assert view(s, 1)["players"][0]["reserved"] == [{"level": 3, "blind": True}]


def test_reserve_at_most_three_cards():
    pos = Position()
    for lv in (1, 2, 3):
        pos.reserve(0, pos.table_card(lv, 1))
    s = pos.state()
    assert not any(t.startswith("reserve") for t in legal_texts(s))


def test_reserved_cards_are_never_discarded():
    # No action removes a reserved card except buying it.
    pos = Position().tokens(0, white=3, blue=3, green=3)
    pos.reserve(0, pos.table_card(1, 1))
    s = pos.state()
    for _ in range(10):
        act(s, sorted(t for t in legal_texts(s) if t.startswith("take") or t.startswith("return"))[0])
        if s.current_player() == 0:
            assert len(view(s)["players"][0]["reserved"]) == 1


# ---------------------------------------------------------------- buy


def test_buy_pays_cost_less_bonuses():
    pos = Position()
    target = 8  # level 1 white, 1 point, costs 4 green
    pos.on_table(1, 1, target).give_cards(0, pos.find_card(level=1, bonus="green"), 29)  # 29 is a green card too?
    bonus_green = sum(1 for c in view(pos.state())["players"][0]["cards"] if pos.cards[c]["bonus"] == "green")
    pos.tokens(0, green=4 - bonus_green)
    s = act(pos.state(), "buy 1.1")
    assert tokens_of(s, 0)["green"] == 0
    assert target in view(s)["players"][0]["cards"]


def test_buy_with_gold_as_wild():
    pos = Position().on_table(1, 1, 8).tokens(0, green=2, gold=2)
    s = pos.state()
    assert "buy 1.1" in legal_texts(s)
    act(s, "buy 1.1")
    assert tokens_of(s, 0) == {"white": 0, "blue": 0, "green": 0, "red": 0, "black": 0, "gold": 0}
    assert view(s)["bank"]["gold"] == 5 and view(s)["bank"]["green"] == 4


def test_buy_not_affordable_is_illegal():
    s = Position().on_table(1, 1, 8).tokens(0, green=2, gold=1).state()
    assert "buy 1.1" not in legal_texts(s)


def test_buy_colour_first_payment_engine_convention():
    # 4 green + 2 gold held for a 4-green card: all four greens are spent, no gold.
    s = act(Position().on_table(1, 1, 8).tokens(0, green=4, gold=2).state(), "buy 1.1")
    assert tokens_of(s, 0)["gold"] == 2 and tokens_of(s, 0)["green"] == 0


def test_buy_from_own_reserve_only():
    pos = Position().tokens(0, black=3).tokens(1, black=1)
    pos.reserve(0, 9)  # level 1 blue, costs 3 black
    pos.reserve(1, 10)
    s = pos.state()
    assert "buy reserved 1" in legal_texts(s)
    with pytest.raises(ValueError, match="not on the table or in your reserve"):
        s.string_to_action("buy #10")
    act(s, "buy #9")
    d = view(s)
    assert d["players"][0]["reserved"] == [] and 9 in d["players"][0]["cards"]


def test_buy_spent_tokens_return_to_supply():
    s = act(Position().on_table(1, 1, 6).tokens(0, blue=3).state(), "buy 1.1")  # card 6 costs 3 blue
    assert view(s)["bank"]["blue"] == 4


def test_bought_card_bonus_and_points_belong_to_buyer():
    s = act(Position().on_table(1, 1, 8).tokens(0, green=4).state(), "buy 1.1")
    p = view(s)["players"][0]
    assert p["points"] == 1 and p["bonuses"]["white"] == 1


def test_bonus_reduces_cost_never_below_zero():
    # Two blue bonuses against a card costing 0 blue: no negative cost, nothing refunded.
    pos = Position().on_table(1, 1, 8).give_cards(0, 9, 10).tokens(0, green=4)
    s = act(pos.state(), "buy 1.1")
    assert tokens_of(s, 0) == {"white": 0, "blue": 0, "green": 0, "red": 0, "black": 0, "gold": 0}


# ---------------------------------------------------------------- refill


def test_face_up_card_replaced_by_top_of_its_deck():
    pos = Position().on_table(1, 1, 8).tokens(0, green=4)
    top = pos.d["decks"][0][-1]
    s = act(pos.state(), "buy 1.1")
    assert view(s)["table"][0][0] == top
    assert len(view(s)["decks"][0]) == 35


def test_empty_deck_leaves_the_slot_empty():
    pos = Position(points_to_win=100, gem_tokens=7).on_table(3, 1, 72).tokens(0, black=7)
    pos.empty_deck(3)
    s = act(pos.state(), "buy 3.1")
    assert view(s)["table"][2][0] is None
    assert "reserve deck 3" not in legal_texts(s)


def test_refill_is_a_chance_node_with_explicit_chance():
    pos = Position().on_table(1, 1, 8).tokens(0, green=4).set(explicit_chance=True)
    s = act(pos.state(), "buy 1.1")
    assert s.current_player() == sm.CHANCE and s.is_chance_node()
    outcomes = s.chance_outcomes()
    deck = view(s)["decks"][0]
    assert sorted(s.action_to_string(a) for a, _ in outcomes) == sorted(f"reveal #{c}" for c in deck)
    assert all(p == pytest.approx(1 / len(deck)) for _, p in outcomes)
    chosen = sorted(deck)[0]
    act(s, f"reveal #{chosen}")  # the caller picks the card seen on the real table
    assert view(s)["table"][0][0] == chosen and s.current_player() == 1


def test_blind_reserve_is_a_chance_node_with_explicit_chance():
    s = act(Position().set(explicit_chance=True).state(), "reserve deck 2")
    assert s.current_player() == sm.CHANCE
    card = s.chance_outcomes()[3][0]
    s.apply_action(card)
    assert view(s, 0)["players"][0]["reserved"][0]["card"] == card - 76


def test_explicit_chance_opening_deal_matches_the_seeded_deal():
    game = sm.load_game("splendor", players=3)
    s = game.new_initial_state(seed=9, explicit_chance=True)
    steps = 0
    while s.current_player() == sm.CHANCE:
        s.apply_action(s.dealt_outcome())
        steps += 1
    assert steps == 4 + 12
    auto = game.new_initial_state(seed=9)
    strip = lambda d: {k: v for k, v in d.items() if k != "explicit_chance"}
    assert strip(view(s)) == strip(view(auto))


# ---------------------------------------------------------------- pass


def _blocked_position() -> Position:
    """Bank empty, no gold, both reserves full, nothing affordable: only passing is legal."""
    pos = Position(gem_tokens=1, gold_tokens=0).tokens(0, white=1, blue=1, green=1).tokens(1, red=1, black=1)
    held = [{"white": 1, "blue": 1, "green": 1}, {"red": 1, "black": 1}]

    def affordable(card: int) -> bool:
        return any(all(v <= h.get(c, 0) for c, v in pos.cards[card]["cost"].items()) for h in held)

    used: set[int] = set()
    for seat in (0, 1):
        for lv in (1, 2, 3):
            card = next(c for c, v in pos.cards.items() if v["level"] == lv and not affordable(c) and c not in used)
            used.add(card)
            pos.reserve(seat, card)
    for lv in (1, 2, 3):
        for slot in (1, 2, 3, 4):
            if affordable(pos.table_card(lv, slot)):
                card = next(c for c, v in pos.cards.items()
                            if v["level"] == lv and not affordable(c) and c not in used and c not in sum(pos.d["table"], []))
                pos.on_table(lv, slot, card)
    return pos


def test_pass_only_when_nothing_else_is_legal():
    assert "pass" not in legal_texts(Position().state())
    s = _blocked_position().state()
    assert legal_texts(s) == {"pass"}
    act(s, "pass")
    assert s.current_player() == 1 and not s.is_terminal()


def test_pass_is_illegal_when_another_action_exists():
    s = Position().state()
    with pytest.raises(ValueError, match="illegal action 60"):
        s.apply_action(s.string_to_action("pass"))


def test_every_player_passing_ends_the_game_engine_convention():
    s = _blocked_position().state()
    act(s, "pass")
    assert legal_texts(s) == {"pass"}
    act(s, "pass")
    assert s.is_terminal()
    assert s.returns() == [0.5, 0.5]  # scored as usual: 0 points and 0 cards each


# ---------------------------------------------------------------- end of the turn


def test_token_limit_returns_are_the_players_choice():
    s = Position().tokens(0, white=3, blue=3, green=2).state()  # 8 + take 3 = 11
    act(s, "take WUG")
    assert s.current_player() == 0
    assert legal_texts(s) == {"return W", "return U", "return G"}
    act(s, "return G")  # may return a token just taken
    assert s.current_player() == 1
    assert sum(tokens_of(s, 0).values()) == 10 and tokens_of(s, 0)["green"] == 2


def test_token_limit_returns_one_decision_per_token_down_to_exactly_ten():
    s = Position().tokens(0, white=4, blue=4, gold=1).state()
    act(s, "take GRK")  # 12 tokens
    act(s, "return W")
    assert s.current_player() == 0
    act(s, "return Y")  # gold counts and may be returned
    assert s.current_player() == 1 and sum(tokens_of(s, 0).values()) == 10


def test_noble_visits_at_end_of_turn_when_bonuses_meet_it():
    # Noble 1 needs 4 white + 4 blue.
    pos = Position().nobles(1, 2, 3)
    whites = [c for c, v in pos.cards.items() if v["bonus"] == "white" and v["level"] == 1][:4]
    blues = [c for c, v in pos.cards.items() if v["bonus"] == "blue" and v["level"] == 1][:4]
    pos.give_cards(0, *whites, *blues[:3])
    pos.on_table(1, 1, blues[3])
    pos.tokens(0, **{k: v for k, v in pos.cards[blues[3]]["cost"].items() if v})
    s = act(pos.state(), "buy 1.1")
    d = view(s)
    assert d["players"][0]["nobles"] == [1] and 1 not in d["nobles"]
    assert d["players"][0]["points"] == 3 + sum(pos.cards[c]["points"] for c in d["players"][0]["cards"])


def test_noble_visit_even_without_buying_a_card():
    pos = Position().nobles(1, 2, 3)
    whites = [c for c, v in pos.cards.items() if v["bonus"] == "white" and v["level"] == 1][:4]
    blues = [c for c, v in pos.cards.items() if v["bonus"] == "blue" and v["level"] == 1][:4]
    blacks = [c for c, v in pos.cards.items() if v["bonus"] == "black" and v["level"] == 1][:4]
    # Qualifies for nobles 1 and 2 already (took one earlier): the other comes next turn.
    pos.give_cards(0, *whites, *blues, *blacks)
    pos.d["nobles"] = [2, 3, 4]
    pos.d["players"][0]["nobles"] = [1]
    s = act(pos.state(), "take WUG")
    assert view(s)["players"][0]["nobles"] == [1, 2]


def test_noble_choice_when_several_qualify_is_the_players_decision():
    pos = Position().nobles(1, 2, 3)
    by = lambda colour: [c for c, v in pos.cards.items() if v["bonus"] == colour and v["level"] == 1][:4]
    pos.give_cards(0, *by("white"), *by("blue")[:3], *by("black"))
    blue = by("blue")[3]
    pos.on_table(1, 1, blue).tokens(0, **{k: v for k, v in pos.cards[blue]["cost"].items() if v})
    s = act(pos.state(), "buy 1.1")  # now qualifies for noble 1 (4W 4U) and noble 2 (4W 4K)
    assert s.current_player() == 0 and legal_texts(s) == {"noble 1", "noble 2"}
    act(s, "noble 2")
    d = view(s)
    assert d["players"][0]["nobles"] == [2] and 1 in d["nobles"]  # exactly one per turn
    assert s.current_player() == 1


def test_noble_comes_after_returning_tokens():
    pos = Position().nobles(1, 2, 3)
    by = lambda colour: [c for c, v in pos.cards.items() if v["bonus"] == colour and v["level"] == 1][:4]
    pos.give_cards(0, *by("white"), *by("blue"))
    pos.d["players"][0]["nobles"] = []
    pos.d["nobles"] = [2, 3, 4]
    pos.d["noble_order"] = [2, 3, 4, 1, 5, 6, 7, 8, 9, 10]
    # Noble 1 was never dealt here, so give the seat a fresh qualifying one: noble 2 (4W 4K).
    pos.give_cards(0, *by("black"))
    pos.tokens(0, red=4, green=4)
    s = act(pos.state(), "take WUK")  # 11 tokens
    assert legal_texts(s) == {"return W", "return U", "return G", "return R", "return K"}
    assert view(s)["players"][0]["nobles"] == []
    act(s, "return R")
    assert view(s)["players"][0]["nobles"] == [2]


# ---------------------------------------------------------------- end of the game


def _near_win(points_to_win: int = 15):
    """Seat 0 can buy card 72 (4 points) with 11 points already."""
    pos = Position(points_to_win=points_to_win, gem_tokens=7).on_table(3, 1, 72).tokens(0, black=7)
    level3 = [c for c, v in pos.cards.items() if v["level"] == 3 and c != 72 and v["points"] >= 3]
    pos.give_cards(0, *level3[:3])  # 3 cards of 3-5 points
    return pos


def test_reaching_fifteen_finishes_the_round():
    pos = _near_win()
    assert sum(pos.cards[c]["points"] for c in pos.d["players"][0]["cards"]) < 15
    s = act(pos.state(), "buy 3.1")
    assert view(s)["players"][0]["points"] >= 15
    assert not s.is_terminal() and s.current_player() == 1  # seat 1 still plays
    act(s, "take WUG")
    assert s.is_terminal()
    assert s.returns() == [1.0, 0.0]


def test_last_seat_reaching_fifteen_ends_the_game_at_once():
    pos = Position(players=3, gem_tokens=7).on_table(3, 1, 72).tokens(2, black=7).set(to_move=2)
    level3 = [c for c, v in pos.cards.items() if v["level"] == 3 and c != 72 and v["points"] >= 3]
    pos.give_cards(2, *level3[:3])
    s = act(pos.state(), "buy 3.1")
    assert s.is_terminal() and s.returns() == [0.0, 0.0, 1.0]


def test_points_to_win_variant():
    s = act(_near_win(points_to_win=18).state(), "buy 3.1", "take WUG")
    assert not s.is_terminal()


def test_highest_prestige_wins():
    pos = _near_win()
    pos.give_cards(1, *[c for c, v in pos.cards.items() if v["level"] == 2 and v["points"] == 3][:3])
    s = act(pos.state(), "buy 3.1", "take WUG")
    p = view(s)["players"]
    assert p[0]["points"] > p[1]["points"] and s.returns() == [1.0, 0.0]


def test_tie_break_fewest_purchased_cards_wins():
    pos = Position(gem_tokens=7)
    fours = [c for c, v in pos.cards.items() if v["points"] == 4]
    threes = [c for c, v in pos.cards.items() if v["points"] == 3]
    fives = [c for c, v in pos.cards.items() if v["points"] == 5]
    # Seat 0: 14 points in 4 cards, buys card 8 (1 point, 4 green): 15 points, 5 cards.
    pos.give_cards(0, fours[0], fours[1], threes[0], threes[1]).on_table(1, 1, 8).tokens(0, green=4)
    # Seat 1: 10 points in 2 cards, then buys a 5-point card in the last round: 15 points, 3 cards.
    last = next(c for c in fives[2:] if pos.cards[c]["cost"]["green"] <= 3)
    pos.give_cards(1, fives[0], fives[1]).on_table(3, 1, last)
    pos.tokens(1, **{k: v for k, v in pos.cards[last]["cost"].items() if v})
    s = act(pos.state(), "buy 1.1", "buy 3.1")
    p = view(s)["players"]
    assert s.is_terminal() and p[0]["points"] == p[1]["points"] == 15
    assert (len(p[0]["cards"]), len(p[1]["cards"])) == (5, 3)
    assert s.returns() == [0.0, 1.0]


def test_shared_win_when_points_and_cards_tie():
    pos = Position()
    fours = [c for c, v in pos.cards.items() if v["points"] == 4][:6]
    threes = [c for c, v in pos.cards.items() if v["points"] == 3][:2]
    pos.give_cards(0, *fours[:3], threes[0])  # 15 points, 4 cards each
    pos.give_cards(1, *fours[3:], threes[1])
    s = pos.set(to_move=0, phase="over").state()
    assert s.is_terminal() and s.returns() == [0.5, 0.5]


def test_shared_win_splits_among_the_tied_players_only():
    pos = Position(players=3)
    fours = [c for c, v in pos.cards.items() if v["points"] == 4][:6]
    threes = [c for c, v in pos.cards.items() if v["points"] == 3][:2]
    pos.give_cards(0, *fours[:3], threes[0])
    pos.give_cards(2, *fours[3:], threes[1])
    s = pos.set(to_move=0, phase="over").state()
    assert s.returns() == [0.5, 0.0, 0.5]


# ---------------------------------------------------------------- hidden information


def test_deck_order_is_hidden_from_everyone():
    s = sm.load_game("splendor").new_initial_state(seed=4)
    for seat in (0, 1):
        assert view(s, seat)["decks"] == [36, 26, 16]
        assert "noble_order" not in view(s, seat)


def test_blind_reserve_known_to_its_owner_only():
    s = act(sm.load_game("splendor", players=3).new_initial_state(seed=4), "reserve deck 1")
    assert "card" in view(s, 0)["players"][0]["reserved"][0]
    for seat in (1, 2):
        assert view(s, seat)["players"][0]["reserved"][0] == {"level": 1, "blind": True}


def test_face_up_reserve_is_public():
    s = act(sm.load_game("splendor").new_initial_state(seed=4), "reserve 1.1")
    assert "card" in view(s, 1)["players"][0]["reserved"][0]


def test_state_from_observation_samples_unseen_cards_only():
    game = sm.load_game("splendor")
    s = act(game.new_initial_state(seed=4), "reserve deck 2", "take WUG")
    obs = s.observation_json(1)
    seen = set()
    for seed in range(20):
        sample = game.state_from_observation(obs, seed=seed)
        assert sample.observation_json(1) == obs
        seen.add(view(sample)["players"][0]["reserved"][0]["card"])
    assert len(seen) > 5  # the hidden card varies over samples
    d = view(s)
    visible = set(sum(d["table"], []))
    assert not seen & visible


# ---------------------------------------------------------------- all pass in one round


def _all_pass_position(players: int) -> Position:
    """Nobody can do anything but pass. Seat 1 has just passed and qualifies for two
    nobles, W4U4 and W3U3G3: it chooses one now and takes the other at the end of its
    next turn, a pass. Seat 0 leads by one point until seat 1 takes that second noble."""
    pos = Position(players=players, gem_tokens=1, gold_tokens=0, reserve_limit=0)
    cards = pos.cards

    def pick(n: int, **props: object) -> list[int]:
        found = [c for c, v in cards.items() if all(v[k] == x for k, x in props.items()) and c not in taken]
        taken.update(found[:n])
        return found[:n]

    taken: set[int] = set()
    bonus_cards = pick(4, level=1, points=0, bonus="white") + pick(4, level=1, points=0, bonus="blue") + \
        pick(3, level=1, points=0, bonus="green")
    pos.give_cards(1, *bonus_cards)
    pos.give_cards(0, *pick(1, level=3, points=4, bonus="white"))
    pos.tokens(0, red=1, black=1).tokens(players - 1, white=1, blue=1, green=1)
    for seat in range(1, players - 1):
        pos.tokens(seat)
    pos.nobles(*[1, 6, 4, 5, 8, 9][:players + 1])       # W4U4, W3U3G3, then nobles needing red and black
    pos.set(to_move=1, phase="choose_noble", passes_this_round=1)

    def blocked(card: int) -> bool:
        cost = cards[card]["cost"]
        return cost["red"] >= 2 or cost["black"] >= 2
    for lv in (1, 2, 3):
        for slot in (1, 2, 3, 4):
            if not blocked(pos.table_card(lv, slot)):
                on_table = sum(pos.d["table"], [])
                card = next(c for c, v in cards.items()
                            if v["level"] == lv and blocked(c) and c not in taken and c not in on_table)
                pos.on_table(lv, slot, card)
    return pos


def _points(state) -> list[int]:
    return [p["points"] for p in view(state)["players"]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_pass_ends_the_game_only_when_every_player_passes_in_one_round(players):
    s = _all_pass_position(players).state()
    act(s, "noble 1")                                    # seat 1's pass ends: W4U4
    for _ in range(players - 1):  # the other seats pass: `players` passes in a row, over two rounds
        assert legal_texts(s) == {"pass"}
        act(s, "pass")
    assert not s.is_terminal(), "passes spanning a round boundary do not end the game"
    assert s.current_player() == 1 and _points(s)[:2] == [4, 3]
    act(s, "pass")                                       # the end-of-turn noble check runs on a pass
    assert view(s)["players"][1]["nobles"] == [1, 6] and _points(s)[:2] == [4, 6]
    while not s.is_terminal():
        act(s, "pass")
    assert s.returns()[1] == 1.0                        # seat 1 wins, as the rule gives


def test_passes_spanning_a_round_boundary_are_accepted_and_play_on():
    # An older position counted 3 passes in a row (seats 1, 2 and 0), seat 1 to move.
    pos = _all_pass_position(3).set(phase="main", passes_in_a_row=3)
    del pos.d["passes_this_round"]
    pos.d["players"][1]["nobles"] = [1]
    pos.nobles(6, 4, 5, 8)
    s = pos.state()
    assert not s.is_terminal() and view(s)["passes_this_round"] == 1  # seat 0's, this round's
    act(s, "pass")
    assert not s.is_terminal()
    act(s, "pass")                                       # every seat passed this round
    assert s.is_terminal()


def test_passes_this_round_cannot_exceed_the_turns_taken():
    with pytest.raises(ValueError, match="passes_this_round: 3 passes this round, but only 2 turns were taken"):
        _all_pass_position(3).set(passes_this_round=3).state()
    with pytest.raises(ValueError, match="passes_in_a_row: give passes_this_round or the older passes_in_a_row"):
        _all_pass_position(3).set(passes_in_a_row=1).state()
