"""One or more tests per rule of the Duel rules, named after the rule (through the Python API).

Card ids are cards.csv rows: 2 white 1 crown (3 blue), 3 white again (2 blue 2 green 1 pearl),
4 white token (2 red 2 black), 5 white 1 point (2 green 3 red), 7 blue 1 crown (3 green),
12 green 1 crown (3 red), 16 red, 26 joker 1 point (4 black 1 pearl), 27 joker 1 crown
(4 white 1 pearl), 30 none 3 points (4 red 1 pearl), 32 white steal (4 blue 3 red),
33 white privilege (4 white 2 black 1 pearl), 65 joker 3 points bonus copy + again (8 red).
"""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

import splendor_mcts as sm
from duel_positions import DuelPosition, act, is_legal, legal_texts, tokens_of, view

COLOURS = ["white", "blue", "green", "red", "black"]
EMPTY = "....." * 5


# ---------------------------------------------------------------- components


def test_components_67_cards_4_royals_25_tokens():
    game = sm.load_game("duel")
    cards = game.cards()
    assert [sum(c["level"] == lv for c in cards) for lv in (1, 2, 3)] == [30, 24, 13]
    assert sum(c["bonus"] == "joker" for c in cards) == 9 and sum(c["bonus"] == "none" for c in cards) == 3
    assert len(game.royals()) == 4
    d = view(game.new_initial_state(seed=1))
    on_board = "".join(d["board"])
    assert {s: on_board.count(s) for s in "WUGRKPY"} == {"W": 4, "U": 4, "G": 4, "R": 4, "K": 4, "P": 2, "Y": 3}


def test_components_card_table_matches_the_csv():
    rows = list(csv.DictReader((Path(__file__).parents[1] / "data/splendor_duel/cards.csv").read_text().splitlines()))
    for card, row in zip(sm.load_game("duel").cards(), rows):
        assert card["level"] == int(row["level"]) and card["bonus"] == row["bonus"]
        assert card["points"] == int(row["points"]) and card["crowns"] == int(row["crowns"])
        assert card["cost"] == {k: int(row[k]) for k in COLOURS + ["pearl"]}
        assert set(card["abilities"]) == (set() if row["ability"] == "none" else set(row["ability"].split("+")))


def test_components_coloured_cards_map_onto_themselves_under_colour_rotation():
    def key(c, shift):
        return (c["level"], COLOURS[(COLOURS.index(c["bonus"]) + shift) % 5], c["bonus_count"], c["points"],
                c["crowns"], tuple(c["abilities"]), c["cost"]["pearl"],
                tuple(c["cost"][COLOURS[(i - shift) % 5]] for i in range(5)))

    coloured = [c for c in sm.load_game("duel").cards() if c["bonus"] in COLOURS]
    assert len(coloured) == 55
    assert sorted(key(c, 1) for c in coloured) == sorted(key(c, 0) for c in coloured)


# ---------------------------------------------------------------- setup


def test_setup_pyramid_of_3_4_5_and_the_second_player_starts_with_a_privilege():
    firsts = set()
    for seed in range(12):
        s = sm.load_game("duel").new_initial_state(seed=seed)
        d = view(s)
        assert [len(r) for r in d["pyramid"]] == [5, 4, 3] and all(c for r in d["pyramid"] for c in r)
        first = s.current_player()
        firsts.add(first)
        assert d["players"][first]["privileges"] == 0 and d["players"][1 - first]["privileges"] == 1
    assert firsts == {0, 1}


def test_setup_first_player_variant():
    s = sm.load_game("duel", first_player=1).new_initial_state(seed=3)
    assert s.current_player() == 1


def test_setup_explicit_chance_deals_cards_then_fills_the_spiral():
    s = sm.load_game("duel").new_initial_state(seed=5, explicit_chance=True)
    texts = []
    while s.current_player() == sm.CHANCE:
        outcomes = s.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        texts.append(s.action_to_string(s.dealt_outcome()))
        s.apply_action(s.dealt_outcome())
    assert [t.split()[0] for t in texts] == ["card"] * 12 + ["fill"] * 25 + ["first"]
    auto = sm.load_game("duel").new_initial_state(seed=5)
    assert s.to_json().replace('"explicit_chance":true', '"explicit_chance":false') == auto.to_json()


# ---------------------------------------------------------------- take tokens


def test_take_up_to_three_on_a_line_in_eight_directions():
    s = DuelPosition().set_board("WUG.. RKW.. UGR.. ..... .....").state()
    takes = [t for t in legal_texts(s) if t.startswith("take")]
    assert len(takes) == 9 + 20 + 8  # 3x3 block: singles, pairs, triples
    assert "take a1 b2 c3" in takes and "take c1 b2 a3" in takes
    act(s, "take a1 b1 c1")
    assert tokens_of(s, 0) == {"white": 1, "blue": 1, "green": 1} and s.current_player() == 1


def test_take_line_broken_by_gold_is_illegal():
    s = DuelPosition().set_board("W*G.. ..... ..... ..... .....").state()
    assert not is_legal(s, "take a1 b1 c1") and not is_legal(s, "take a1 b1")
    with pytest.raises(ValueError):
        act(s, "take a1 b1 c1")


def test_take_line_broken_by_a_gap_is_illegal():
    s = DuelPosition().set_board("W.G.. ..... ..... ..... .....").state()
    assert not is_legal(s, "take a1 b1 c1")
    with pytest.raises(ValueError, match="consecutive"):
        s.string_to_action("take a1 c1")


def test_take_never_gold():
    s = DuelPosition().set_board("*.... ..... ..... ..... ....R").state()
    assert not is_legal(s, "take a1") and is_legal(s, "take e5")


def test_take_three_same_colour_gives_the_opponent_a_privilege():
    s = act(DuelPosition().set_board("RRR.. ..... ..... ..... .....").state(), "take a1 b1 c1")
    assert view(s)["players"][1]["privileges"] == 1


def test_take_two_pearls_give_the_opponent_a_privilege():
    s = act(DuelPosition().set_board("PPW.. ..... ..... ..... .....").state(), "take a1 b1 c1")
    assert view(s)["players"][1]["privileges"] == 1
    s = act(DuelPosition().set_board("PW... ..... ..... ..... .....").state(), "take a1 b1")
    assert view(s)["players"][1]["privileges"] == 0


# ---------------------------------------------------------------- privileges


def test_privilege_spend_takes_a_gem_or_pearl_never_gold_and_the_turn_goes_on():
    p = DuelPosition().set_board("P*... ..... ..... ..... ....R")
    p.players[0]["privileges"] = 2
    s = p.state()
    assert not is_legal(s, "privilege b1")
    act(s, "privilege a1")
    assert tokens_of(s, 0) == {"pearl": 1} and s.current_player() == 0
    assert view(s)["privilege_supply"] == 2


def test_privilege_not_spent_after_replenish():
    p = DuelPosition().set_board("RG... ..... ..... ..... .....")
    p.players[0]["privileges"] = 1
    s = p.state()
    assert is_legal(s, "privilege a1")
    act(s, "replenish")
    assert not any(t.startswith("privilege") or t == "replenish" for t in legal_texts(s))


def test_privilege_taken_from_the_opponent_when_the_supply_is_empty():
    p = DuelPosition().set_board("RRR.. ..... ..... ..... .....")
    p.players[0]["privileges"], p.players[1]["privileges"] = 2, 1
    s = act(p.state(), "take a1 b1 c1")
    d = view(s)
    assert d["players"][1]["privileges"] == 2 and d["players"][0]["privileges"] == 1


def test_privilege_gain_with_all_of_them_does_nothing():
    p = DuelPosition().set_board("RRR.. ..... ..... ..... .....")
    p.players[1]["privileges"] = 3
    d = view(act(p.state(), "take a1 b1 c1"))
    assert d["players"][1]["privileges"] == 3


def test_privilege_count_variant():
    s = sm.load_game("duel", privileges=1).new_initial_state(seed=2)
    assert view(s)["privilege_supply"] == 0


def test_privilege_engine_convention_no_spending_into_a_dead_end():
    def position(reserved):
        p = DuelPosition().set_board("..... ..... ..R.. ..... .....")
        # Mid-turn after a first privilege: the mover may hold 11; the rest is gold in the bag.
        p.tokens(0, white=4, blue=4, green=2, black=1).tokens(1, green=2, red=3, black=3, pearl=2)
        for cid in (65, 66, 67)[:reserved]:
            p.reserve(0, cid)
        for level, ids in ((1, (4, 5, 8, 12, 13)), (2, (31, 32, 33, 35)), (3, (55, 56, 57))):
            for i, cid in enumerate(ids, start=1):
                p.slot(level, i, cid)  # none affordable
        p.players[0]["privileges"] = 1
        return p.state()

    assert not is_legal(position(3), "privilege c3")  # only gold left after: nothing to do
    assert is_legal(position(2), "privilege c3")  # the replenish brings gold to reserve with


# ---------------------------------------------------------------- replenish


def test_replenish_fills_the_spiral_and_gives_the_opponent_a_privilege():
    s = DuelPosition().set_board("W.... ..... ..... ..... .....").tokens(1, gold=1).state()
    act(s, "replenish")
    d = view(s)
    assert d["players"][1]["privileges"] == 1
    assert d["board"][4][4] == "." and sum(r.count(".") for r in d["board"]) == 1  # spiral ends at e5
    assert d["bag"] == {k: 0 for k in d["bag"]}


def test_replenish_probabilities_are_the_bag_counts():
    s = DuelPosition().set_board("W.... ..... ..... ..... .....").state()
    s.set_explicit_chance(True)
    act(s, "replenish")
    assert s.current_player() == sm.CHANCE
    probs = {s.action_to_string(a): p for a, p in s.chance_outcomes()}
    assert probs["fill white"] == pytest.approx(3 / 24) and probs["fill gold"] == pytest.approx(3 / 24)
    s.apply_action(s.string_to_action("fill gold"))
    assert view(s)["board"][2][2] == "Y"  # the spiral starts at the centre


def test_replenish_forced_when_no_mandatory_action():
    s = DuelPosition().state()  # empty board, nothing affordable, no gold to reserve with
    assert legal_texts(s) == ["replenish"]
    act(s, "replenish")
    assert view(s)["players"][1]["privileges"] == 1 and s.current_player() == 0


def test_replenish_not_with_an_empty_bag():
    s = sm.load_game("duel").new_initial_state(seed=1)
    assert "replenish" not in legal_texts(s)


# ---------------------------------------------------------------- reserve


def test_reserve_only_with_gold_on_the_board():
    s = DuelPosition().set_board("W.... ..... ..... ..... .....").state()
    assert not any(t.startswith("reserve") for t in legal_texts(s))
    s = DuelPosition().set_board("W.... ..... ..... ..... ....*").slot(1, 1, 2).state()
    act(s, "reserve 1.1 gold e5")
    d = view(s)
    assert d["players"][0]["reserved"] == [{"card": 2, "blind": False}]
    assert d["players"][0]["tokens"]["gold"] == 1 and d["pyramid"][0][0] not in (None, 2)


def test_reserve_blind_from_a_deck_is_hidden_from_the_opponent():
    s = act(DuelPosition().set_board("*.... ..... ..... ..... .....").state(), "reserve deck3 gold a1")
    mine, theirs = view(s, 0)["players"][0]["reserved"][0], view(s, 1)["players"][0]["reserved"][0]
    assert mine["blind"] and "card" in mine
    assert theirs == {"level": 3, "blind": True}


def test_reserve_at_most_three():
    p = DuelPosition().set_board("*.... ..... ..... ..... W....")
    for cid in (2, 3, 4):
        p.reserve(0, cid)
    assert not any(t.startswith("reserve") for t in legal_texts(p.state()))


# ---------------------------------------------------------------- buy


def test_buy_gold_is_wild_for_gems_and_pearls_spent_tokens_go_to_the_bag():
    s = DuelPosition().set_board("W.... ..... ..... ..... .....").slot(1, 1, 3).tokens(0, blue=2, green=1, gold=2).state()
    act(s, "buy 1.1")
    d = view(s)
    assert d["players"][0]["cards"] == [3] and tokens_of(s, 0) == {}
    assert d["bag"]["blue"] == 4 and d["bag"]["green"] == 4 and d["bag"]["gold"] == 3


def test_buy_gems_and_pearls_pay_before_gold():
    s = DuelPosition().set_board("W.... ..... ..... ..... .....").slot(1, 1, 2).tokens(0, blue=3, gold=2).state()
    act(s, "buy 1.1")
    assert tokens_of(s, 0) == {"gold": 2}


def test_buy_bonuses_reduce_the_cost_never_below_zero():
    p = DuelPosition().set_board("W.... ..... ..... ..... .....").give(0, 6, 38).slot(1, 1, 2)
    s = act(p.state(), "buy 1.1")
    assert 2 in view(s)["players"][0]["cards"]


def test_buy_a_joker_needs_a_coloured_card():
    p = DuelPosition().set_board("*.... ..... ..... ..... .....").slot(1, 1, 26).tokens(0, black=4, pearl=1)
    s = p.state()
    assert not is_legal(s, "buy 1.1") and is_legal(s, "reserve 1.1 gold a1")
    assert not is_legal(p.give(0, 30).state(), "buy 1.1")  # a card of no colour is no help
    assert is_legal(p.give(0, 16).state(), "buy 1.1")


def test_buy_from_the_reserve():
    p = DuelPosition().set_board("W.... ..... ..... ..... .....").reserve(0, 2).reserve(0, 7).tokens(0, green=3)
    s = p.state()
    assert not is_legal(s, "buy r1")
    act(s, "buy r2")
    assert view(s)["players"][0]["reserved"] == [{"card": 2, "blind": False}]


# ---------------------------------------------------------------- abilities


def test_ability_again_takes_another_full_turn():
    p = DuelPosition().set_board("W.... ..... ..... ..... .....").slot(1, 1, 3).tokens(0, blue=2, green=2, pearl=1)
    p.players[0]["privileges"] = 1
    s = act(p.state(), "buy 1.1")
    assert s.current_player() == 0 and is_legal(s, "privilege a1")


def test_ability_again_not_played_when_the_turn_wins():
    def play(extra_point):
        p = DuelPosition().set_board("W.... ..... ..... ..... .....").give(0, 56, 58, 60, 62).slot(3, 1, 65)
        if extra_point:
            p.give(0, 5)
        s = act(p.tokens(0, red=4, gold=3).state(), "buy 3.1", "joker red")
        return s

    won = play(True)
    assert won.is_terminal() and won.returns() == [1.0, 0.0]
    assert not play(False).is_terminal() and play(False).current_player() == 0


def test_ability_bonus_copy_joker_colour_choice():
    p = DuelPosition().set_board("W.... ..... ..... ..... .....").give(0, 16, 6).slot(1, 1, 26)
    s = act(p.tokens(0, black=4, pearl=1).state(), "buy 1.1")
    assert legal_texts(s) == ["joker blue", "joker red"]
    act(s, "joker red")
    assert {"card": 26, "colour": "red"} in view(s)["players"][0]["cards"]
    assert view(s)["players"][0]["colour_points"]["red"] == 1


def test_ability_token_takes_one_of_the_cards_colour():
    p = DuelPosition().set_board("W*WRU ..... ..... ..... .....").slot(1, 1, 4).tokens(0, red=2, black=2)
    s = act(p.state(), "buy 1.1")
    assert legal_texts(s) == ["token a1", "token c1"]
    act(s, "token c1")
    assert tokens_of(s, 0) == {"white": 1}
    p = DuelPosition().set_board("U*... ..... ..... ..... .....").slot(1, 1, 4).tokens(0, red=2, black=2)
    assert act(p.state(), "buy 1.1").current_player() == 1  # none of that colour: ignored


def test_ability_privilege_gains_one():
    p = DuelPosition().set_board("U.... ..... ..... ..... .....").slot(2, 1, 33).tokens(0, white=4, black=2, pearl=1)
    assert view(act(p.state(), "buy 2.1"))["players"][0]["privileges"] == 1


def test_ability_steal_a_gem_or_pearl_never_gold():
    p = DuelPosition().set_board("W.... ..... ..... ..... .....").slot(2, 1, 32).tokens(0, blue=4, red=3)
    s = act(p.tokens(1, green=1, pearl=1, gold=2).state(), "buy 2.1")
    assert legal_texts(s) == ["steal green", "steal pearl"]
    act(s, "steal pearl")
    assert tokens_of(s, 0) == {"pearl": 1} and tokens_of(s, 1) == {"green": 1, "gold": 2}
    p = DuelPosition().set_board("W.... ..... ..... ..... .....").slot(2, 1, 32).tokens(0, blue=4, red=3)
    assert act(p.tokens(1, gold=2).state(), "buy 2.1").current_player() == 1


# ---------------------------------------------------------------- crowns and royals


def test_royal_at_the_third_crown_after_the_cards_own_ability():
    p = DuelPosition().set_board("U.... ..... ..... ..... .....").give(0, 2, 7).slot(1, 1, 27)
    s = act(p.tokens(0, white=3, pearl=1).tokens(1, green=2).state(), "buy 1.1")
    assert view(s)["phase"] == "joker"
    act(s, "joker blue")
    assert view(s)["phase"] == "royal" and len(legal_texts(s)) == 4
    act(s, "royal 1", "steal green")  # 2 points and steal
    d = view(s)["players"][0]
    assert d["royals"] == [1] and d["points"] == 2 and d["colour_points"]["blue"] == 0


def test_royal_at_the_sixth_crown():
    p = DuelPosition().set_board("U.... ..... ..... ..... .....").give(0, 2, 7, 12, 17, 22).slot(2, 1, 31)
    p.players[0]["royals"] = [4]
    s = act(p.tokens(0, green=1, red=1, black=1, pearl=1).state(), "buy 2.1")
    assert view(s)["phase"] == "royal" and legal_texts(s) == ["royal 1", "royal 2", "royal 3"]
    act(s, "royal 2")  # again
    assert s.current_player() == 0


# ---------------------------------------------------------------- end of turn


def test_discard_down_to_ten_of_the_players_choice():
    p = DuelPosition().set_board("RRR.. ..... ..... ..... .....").tokens(0, white=2, blue=2, green=2, pearl=1, gold=2)
    s = act(p.state(), "take a1 b1 c1")
    assert view(s)["phase"] == "discard" and "discard gold" in legal_texts(s)
    act(s, "discard gold", "discard red")
    assert sum(tokens_of(s, 0).values()) == 10 and s.current_player() == 1


def test_victory_twenty_points():
    # 16 points on 4-point cards + 3 on a card of no colour; then a 1-point card.
    p = DuelPosition().set_board("U.... ..... ..... ..... .....").give(0, 56, 58, 60, 62, 30).slot(1, 1, 5)
    s = act(p.tokens(0, green=2, red=2).state(), "buy 1.1")
    assert s.is_terminal() and s.returns() == [1.0, 0.0] and s.current_player() == sm.TERMINAL


def test_victory_ten_crowns():
    p = DuelPosition().set_board("U.... ..... ..... ..... .....").give(0, 55, 57, 59, 61, 2).slot(1, 1, 7)
    p.players[0]["royals"] = [1, 2]
    s = act(p.tokens(0, green=3).state(), "buy 1.1")
    assert s.is_terminal() and view(s)["players"][0]["crowns"] == 10


def test_victory_ten_points_in_one_colour_joker_counts_for_its_colour():
    def play(colour):
        p = DuelPosition().set_board("U.... ..... ..... ..... .....").give(0, 61, 62, 43, 1).slot(1, 1, 26)
        p.players[0]["royals"] = [1]  # 3 crowns
        return act(p.tokens(0, black=4, pearl=1).state(), "buy 1.1", f"joker {colour}")

    assert play("red").is_terminal()
    assert not play("white").is_terminal()


def test_victory_none_cards_count_for_no_colour():
    p = DuelPosition().set_board("U.... ..... ..... ..... .....").give(0, 61, 62, 43).slot(1, 1, 30)
    p.players[0]["royals"] = [1]
    s = act(p.tokens(0, red=1, pearl=1).state(), "buy 1.1")
    assert not s.is_terminal() and view(s)["players"][0]["colour_points"]["red"] == 9


@pytest.mark.parametrize("field,card,wins", [("points_to_win", 5, True), ("crowns_to_win", 2, True),
                                             ("colour_points_to_win", 5, True), ("points_to_win", 2, False)])
def test_victory_thresholds_are_variants(field, card, wins):
    p = DuelPosition(**{field: 1}).set_board("U.... ..... ..... ..... .....").slot(1, 1, card)
    p.tokens(0, **({"green": 2, "red": 3} if card == 5 else {"blue": 3}))
    assert act(p.state(), "buy 1.1").is_terminal() == wins


# ---------------------------------------------------------------- hidden information


def test_hidden_information_views_hide_deck_order_and_blind_reserves():
    s = act(DuelPosition().set_board("*.... ..... ..... ..... ....W").state(), "reserve deck2 gold a1")
    opp = view(s, 1)
    assert "deal" not in opp and all(isinstance(n, int) for n in opp["decks"])
    assert opp["players"][0]["reserved"] == [{"level": 2, "blind": True}]
    other = s.clone()
    other.determinize(1, 99)
    assert other.observation_json(1) == s.observation_json(1)
