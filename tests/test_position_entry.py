"""Position entry from a player's view: readable cards, unknown reserves, every problem
reported with its JSON path (API and CLI)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import splendor_mcts as sm
from position_entry_helpers import (assert_only_a_view_reads, assert_reported, assert_reported_at_once, hint_refusal,
                                    run_cli, set_at)
from splendor_mcts.games.positions import PositionError, read_position

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VIEWS = sorted(EXAMPLES.glob("splendor-*p-view.json"))


def example(name: str = "splendor-2p-view.json") -> dict:
    return json.loads((EXAMPLES / name).read_text())


def test_every_card_has_a_unique_readable_description_that_reads_back():
    cards = sm.load_game("splendor").cards()
    texts = [c["text"] for c in cards]
    assert len(set(texts)) == 90
    game = sm.load_game("splendor")
    for card in cards:
        assert game.card_from_text(card["text"]) == card["id"]


@pytest.mark.parametrize("text, card_id", [
    ("green 1pt W2U3K2", 53), ("G 1pt w2 u3 k2", 53), ("green 1pts 2W 3U 2K", 53),
    ("white U1G1R1K1", 2), ("W 0pt 1U 1G 1R 1K", 2), ("green, 1pt, W2, U3, K2", 53),
])
def test_card_descriptions_accept_the_ways_people_write_them(text, card_id):
    assert sm.load_game("splendor").card_from_text(text) == card_id


@pytest.mark.parametrize("text, expected", [
    ("green 1pt W2U9", 'no card is "green 1pt W2U9" (closest:'),
    ("purple 1pt W1", 'unknown bonus colour "purple"'),
    ("green 1pt", "the cost is missing"),
    ("green 1pt X2", 'cannot read the cost "x2"'),
    ("green 1pt W2W1", "colour W appears twice"),
    ("green 1pt W", "needs a count"),
    ("green", "is not a card"),
])
def test_bad_card_descriptions_say_what_is_wrong(text, expected):
    with pytest.raises(ValueError, match=None) as info:
        sm.load_game("splendor").card_from_text(text)
    assert expected in str(info.value)


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_examples_read_as_views_with_unknown_reserves(path):
    data = json.loads(path.read_text())
    position = read_position(path.read_text())
    assert position.game.num_players() == len(data["players"])
    assert position.state.current_player() == data["to_move"]
    assert any("level" in r for p in data["players"] for r in p["reserved"]), "example shows a blind reserve"
    # The state built from the view shows the same view (cards by id instead of text).
    again = json.loads(position.state.observation_json(data["observer"]))
    assert again["decks"] == data["decks"]
    assert again["players"][0]["reserved"][0].keys() == data["players"][0]["reserved"][0].keys()


def test_hidden_cards_are_drawn_differently_with_different_seeds():
    text = (EXAMPLES / "splendor-2p-view.json").read_text()
    a = read_position(text, seed=1).state
    b = read_position(text, seed=2).state
    assert a.observation_json(1) == b.observation_json(1)
    assert a.to_json() != b.to_json()


def test_variant_may_be_left_out_and_players_counted():
    data = example("splendor-3p-view.json")
    del data["variant"]
    assert read_position(json.dumps(data)).game.num_players() == 3


# One damaged position per class of problem: (edit, expected message).
ERROR_CLASSES = {
    "too many tokens of a colour": (set_at(["players", 1, "tokens", "red"], 8),
                                    "players[1].tokens.red: 8 exceeds the 4 in the game"),
    "negative count": (set_at(["players", 0, "tokens", "blue"], -1), "players[0].tokens.blue: -1 is less than 0"),
    "wrong type": (set_at(["to_move"], "one"), "to_move: expected an integer, found a string"),
    "seat out of range": (set_at(["to_move"], 2), "to_move: 2 is more than 1"),
    "unknown field with suggestion": (set_at(["players", 0, "tokns"], {}),
                                      'players[0]: unknown field "tokns" (did you mean "tokens"?)'),
    "unknown card id": (set_at(["table", 0, 0], 91), "table[0][0]: card id 91 does not exist (ids are 1 to 90)"),
    "unknown card description": (set_at(["table", 0, 0], "red 0pt W9"), 'table[0][0]: no card is "red 0pt W9"'),
    "card of the wrong level": (set_at(["table", 1, 0], "red 0pt U2G1"), "table[1][0]: card #"),
    "card in two places": (set_at(["table", 0, 1], "black 0pt G3"), "is also at"),
    "missing field": (lambda d: d.pop("table"), '(root): missing field "table"'),
    "bank does not add up": (set_at(["bank", "gold"], 4), "bank.gold: 4 does not add up"),
    "points do not match": (set_at(["players", 0, "points"], 9), "players[0].points: 9 does not match"),
    "deck count does not match": (set_at(["decks", 0], 12), "decks[0]: "),
    "unknown phase": (set_at(["phase"], "lunch"), 'phase: unknown phase "lunch"'),
    "variant out of range": (set_at(["variant", "players"], 7), "variant: players must be 2, 3 or 4"),
    "variant of another game size": (set_at(["variant", "gem_tokens"], 7), "does not add up: the game has 7"),
    "unknown game": (set_at(["game"], "chess"), "game: unknown game 'chess'"),
    "blind reserve without level": (set_at(["players", 0, "reserved", 0], {"blind": True}),
                                    'players[0].reserved[0]: missing field "level"'),
    "face-up reserve without card": (set_at(["players", 0, "reserved", 0], {"level": 3, "blind": False}),
                                     "players[0].reserved[0]: a card reserved face up must name its card"),
}


@pytest.mark.parametrize("name", sorted(ERROR_CLASSES))
def test_each_validation_error_class_names_its_path(name):
    assert_reported(example(), *ERROR_CLASSES[name])


def test_every_independent_problem_is_reported_at_once():
    assert_reported_at_once(example(), [ERROR_CLASSES[name] for name in (
        "too many tokens of a colour", "negative count", "seat out of range",
        "unknown field with suggestion", "unknown card description")])


def test_json_syntax_errors_give_line_and_column():
    with pytest.raises(PositionError, match=r"line 2, column \d+"):
        read_position('{"game": "splendor",\n "to_move": 0,,}')


def test_full_state_refuses_unknown_cards_but_a_view_accepts_them():
    assert_only_a_view_reads(sm.load_game("splendor"), (EXAMPLES / "splendor-2p-view.json").read_text())


def test_cli_reports_every_problem_with_exit_code_3(tmp_path):
    data = example()
    data["players"][1]["tokens"]["red"] = 8
    data["table"][0][0] = "red 0pt W9"
    problems = hint_refusal(tmp_path, data)
    assert "players[1].tokens.red: 8 exceeds the 4 in the game" in problems
    assert 'table[0][0]: no card is "red 0pt W9"' in problems


def test_cli_reads_stdin_and_reports_bad_json_with_exit_code_3():
    run = run_cli("hint", "-", stdin="{not json")
    assert run.returncode == 3
    assert "line 1, column 3: syntax error while parsing object key" in run.stderr


def test_cli_missing_file_and_bad_options_exit_2(tmp_path):
    run = run_cli("hint", str(tmp_path / "none.json"))
    assert run.returncode == 2 and "cannot read" in run.stderr
    run = run_cli("hint", str(VIEWS[0]), "--top", "0")
    assert run.returncode == 2 and "--top must be a whole number from 1 to 2147483647, got 0" in run.stderr


def test_finished_game_has_nothing_to_hint_exit_4(tmp_path):
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=4)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1] if state.legal_actions()[-1] != 60 else state.legal_actions()[0])
    path = tmp_path / "over.json"
    path.write_text(state.observation_json(0))
    run = run_cli("hint", str(path))
    assert run.returncode == 4, run.stderr
    assert "the game is over" in run.stderr


def test_problems_come_back_with_their_paths_apart():
    data = example()
    data["players"][1]["tokens"]["red"] = 8
    data["to_move"] = "one"
    with pytest.raises(PositionError) as info:
        read_position(json.dumps(data))
    problems = info.value.problems
    assert {"path": "players[1].tokens.red", "message": "8 exceeds the 4 in the game"} in problems
    assert {"path": "to_move", "message": "expected an integer, found a string"} in problems
    assert str(info.value).splitlines() == [f"{p['path']}: {p['message']}" for p in problems]


@pytest.mark.parametrize("text, expected", [
    ('{"game": "splendor", "game": "duel"}', 'line 1, column 22: duplicate key "game"'),
    ("[" * 100_000, "line 1, column 129: nesting deeper than 128 levels"),
    ('{"to_move": 0} x', "line 1, column 16: syntax error"),
    ('{"to_move": 1e400}', "line 1, column 17: number overflow"),
    ('{"game": "splendor\x00"}', "line 1, column 19: unexpected byte 0x00"),
    (b'{"game": "\xff"}', "(root): the position is not UTF-8 text"),
])
def test_malformed_json_is_refused_saying_where(text, expected):
    with pytest.raises(PositionError) as info:
        read_position(text)
    assert expected in str(info.value)
    assert len(info.value.problems) == 1


def test_read_position_takes_game_variant_and_observer_from_the_text():
    data = example("splendor-3p-view.json")
    position = read_position(json.dumps(data))
    assert position.game.spec == sm.load_game("splendor", players=3).spec
    assert position.observer == data["observer"]
    full = position.state.to_json()
    assert read_position(full).observer is None
    assert read_position(full).state == position.state


def test_a_position_holding_a_lone_surrogate_is_refused_by_name():
    with pytest.raises(PositionError, match=r"\(root\): the position is not valid text"):
        read_position('{"game": "\udcff"}')
