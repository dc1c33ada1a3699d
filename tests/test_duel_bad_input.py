"""Bad input through every public door of Splendor Duel: a clear ValueError naming
the field, move or JSON path; nothing changed; no crash."""
from __future__ import annotations

import json

import pytest

import splendor_mcts as sm
from duel_positions import DuelPosition


@pytest.mark.parametrize("kwargs,field", [
    ({"points_to_win": 0}, "points_to_win"), ({"points_to_win": 41}, "points_to_win"),
    ({"crowns_to_win": 0}, "crowns_to_win"), ({"colour_points_to_win": 99}, "colour_points_to_win"),
    ({"privileges": -1}, "privileges"), ({"privileges": 7}, "privileges"),
    ({"first_player": 2}, "first_player"), ({"first_player": "0"}, "first_player"),
    ({"points_to_win": 1.5}, "points_to_win"), ({"points_to_win": True}, "points_to_win"),
    ({"players": 3}, "players"),
])
def test_bad_variant_names_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        sm.load_game("duel", **kwargs)


def test_bad_variant_in_a_spec_string():
    with pytest.raises(ValueError, match="crowns_to_win"):
        sm.load_game("duel(crowns_to_win=0)")
    assert sm.load_game("duel(first_player=none)").config.first_player is None
    game = sm.load_game("duel(points_to_win=18,first_player=1)")
    assert sm.load_game(game.spec) == game


def test_illegal_action_leaves_the_state_unchanged():
    s = sm.load_game("duel").new_initial_state(seed=1)
    before = s.to_json()
    for bad in (-1, 10**6, s.string_to_action("replenish"), s.string_to_action("joker red"),
                s.string_to_action("card 5")):
        with pytest.raises(ValueError, match="illegal|out of range"):
            s.apply_action(bad)
    assert s.to_json() == before


def test_illegal_action_message_names_the_move_and_the_legal_ones():
    s = sm.load_game("duel").new_initial_state(seed=1)
    with pytest.raises(ValueError, match=r"illegal action \d+ \(replenish\): "):
        s.apply_action(s.string_to_action("replenish"))


@pytest.mark.parametrize("text,hint", [
    ("", "expected one of"), ("fly away", "expected one of"), ("take", "1 to 3 cells"),
    ("take a1 c1", "consecutive"), ("take z9", "not a cell"), ("buy 4.1", "pyramid slot"),
    ("reserve 1.1", "reserve L.S gold CELL"), ("steal gold", "not one of"), ("royal 9", "1-4"),
    ("card 68", "1-67"), ("replenish now", "no argument"),
])
def test_bad_notation_is_explained(text, hint):
    s = sm.load_game("duel").new_initial_state(seed=1)
    with pytest.raises(ValueError, match=hint):
        s.string_to_action(text)


def test_notation_is_case_and_space_tolerant():
    s = sm.load_game("duel").new_initial_state(seed=1)
    assert s.string_to_action("  TAKE c3,C4 ") == s.string_to_action("take c3 c4")
    for a in range(sm.load_game("duel").num_distinct_actions()):
        assert s.string_to_action(s.action_to_string(a)) == a
    with pytest.raises(ValueError, match="out of range"):
        s.action_to_string(-3)


def good() -> dict:
    return DuelPosition().set_board("WUG.. ..... ..... ..... .....").to_dict()


def edit(fn):
    d = good()
    fn(d)
    return json.dumps(d)


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.update(game="splendor"), r"game: this is a position of \"splendor\""),
    (lambda d: d.update(to_move=2), r"to_move: 2 is more than 1"),
    (lambda d: d["players"][0]["tokens"].update(white=9), r"players\[0\].tokens.white: 9 is more than 4"),
    (lambda d: d["players"][1]["tokens"].update(white=4), "hold 5 white tokens but the game has only 4"),
    (lambda d: d["players"][0].update(tokns={}), r"players\[0\]: unknown field \"tokns\" \(did you mean \"tokens\"\?\)"),
    (lambda d: d["pyramid"][0].__setitem__(0, 40), r"pyramid\[0\]\[0\]: card #40 is a level-2 card"),
    (lambda d: d["pyramid"][0].__setitem__(1, d["pyramid"][0][0]), r"pyramid\[0\]\[1\]: card #\d+ is also at pyramid\[0\]\[0\]"),
    (lambda d: d["decks"][0].pop(), "is nowhere"),
    (lambda d: d["decks"].__setitem__(0, 5), "a count is only for a player's view"),
    (lambda d: d["players"][0]["cards"].append(99), "card id 99 does not exist"),
    (lambda d: d.update(board=["WUG..", ".....", "....."]), "expected 5"),
    (lambda d: d.update(board=["WUGX.", ".....", ".....", ".....", "....."]), "'X' is not one of"),
    (lambda d: d["players"][0].update(privileges=4), r"privileges: 4 is more than 3"),
    (lambda d: (d["players"][0].update(privileges=2), d["players"][1].update(privileges=2)), "4 privileges"),
    (lambda d: d["players"][0].update(royals=[1]), "0 crowns earn 0 royal cards"),
    (lambda d: d.update(phase="royal"), r"phase: is \"royal\" but the position is at \"main\""),
    (lambda d: d.update(pending={"steal": 1}), "only after the mandatory action"),
    (lambda d: d.update(phase="over"), "cannot be over"),
    (lambda d: d.update(deal="xyz"), "hex digits"),
    (lambda d: d["players"][0]["cards"].append({"card": 26, "colour": "red"}), "has no red card"),
    (lambda d: d["players"][0]["cards"].append({"card": 1, "colour": "red"}), "not a joker"),
    (lambda d: (d["decks"][0].append(d["pyramid"][0][0]), d["pyramid"][0].__setitem__(0, None)),
     r"pyramid\[0\]\[0\]: empty while the level-1 deck"),
    (lambda d: d.update(variant={"points_to_win": 15}), "load the game with the position's variant"),
    (lambda d: (d["players"][0]["tokens"].update(red=4, black=4, pearl=2, gold=1), d.update(to_move=1)),
     r"players\[0\].tokens: 11 tokens: more than 10 only during the player's own turn"),
])
def test_bad_position_names_the_json_path(mutate, message):
    with pytest.raises(ValueError, match=message):
        sm.load_game("duel").state_from_json(edit(mutate))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"board": 5}', "{\"a\":1,\"a\":2}", "x" * 100, "{" * 500])
def test_bad_json_text_is_refused(text):
    with pytest.raises(ValueError):
        sm.load_game("duel").state_from_json(text)


def test_views_are_refused_as_full_states_and_vice_versa():
    game = sm.load_game("duel")
    s = game.new_initial_state(seed=2)
    with pytest.raises(ValueError, match="a count is only for a player's view"):
        game.state_from_json(s.observation_json(0))
    d = json.loads(s.observation_json(0))
    d["deal"] = "00ff"
    with pytest.raises(ValueError, match="deal: a player's view has no deal"):
        game.state_from_observation(json.dumps(d), seed=1)


def test_bad_seats_and_depths():
    s = sm.load_game("duel").new_initial_state(seed=2)
    for call in (lambda: s.observation_json(2), lambda: s.observation_tensor(-1), lambda: s.determinize(5, 1),
                 lambda: sm.perft(s, -1), lambda: s.evaluate(3)):
        with pytest.raises(ValueError):
            call()
