"""Splendor Duel position entry from a player's view: readable cards, unknown reserves,
every problem reported with its JSON path (API, the hint command, the analysis protocol)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import splendor_mcts as sm
from position_entry_helpers import (assert_only_a_view_reads, assert_reported, assert_reported_at_once, hint_refusal,
                                    problems_of, run_cli, set_at)
from splendor_mcts.games.positions import read_position

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "duel-view.json"
GAME = sm.load_game("duel")


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


def test_every_duel_card_has_a_unique_readable_description_that_reads_back():
    cards = GAME.cards()
    assert len(cards) == 67
    texts = [c["text"] for c in cards]
    assert len(set(texts)) == 67
    for card in cards:
        assert GAME.card_from_text(card["text"]) == card["id"]
        # The description shows what is printed on the card.
        words = card["text"].split()
        assert words[0] == card["bonus"]
        assert f"{card['points']}pt" in words
        assert (f"{card['crowns']}cr" in words) == (card["crowns"] > 0)
        assert ("x2" in words) == (card["bonus_count"] == 2)
        for ability in card["abilities"]:
            assert ability in words or (ability == "bonus_copy" and card["bonus"] == "joker")
        assert ("P" in words[-1]) == (card["cost"]["pearl"] > 0)


def by_fields(**fields) -> int:
    """The id of the only card with these fields (so the expectations are not typed ids)."""
    matches = [c["id"] for c in GAME.cards() if all(c[k] == v for k, v in fields.items())]
    assert len(matches) == 1, matches
    return matches[0]


@pytest.mark.parametrize("text, fields", [
    ("red 2pt 1cr W2U2G2P1", dict(bonus="red", points=2, crowns=1, level=2)),
    ("R 2pt 1cr 2W 2U 2G 1P", dict(bonus="red", points=2, crowns=1, level=2)),
    ("red, 2pts, 1crown, W2, U2, G2, P1", dict(bonus="red", points=2, crowns=1, level=2)),
    ("white x2 1pt U5G2", dict(bonus="white", bonus_count=2)),
    ("white 1pt U5G2", dict(bonus="white", bonus_count=2)),            # x2 may be left out
    ("joker 3pt again R8", dict(bonus="joker", points=3)),
    ("joker 3pt bonus_copy+again R8", dict(bonus="joker", points=3)),  # the implied ability may be written
    ("none 6pt W8", dict(bonus="none", points=6)),
    ("blue 0pt 1cr G3", dict(bonus="blue", crowns=1, level=1)),
    ("blue 1cr G3", dict(bonus="blue", crowns=1, level=1)),             # 0 points may be left out
])
def test_duel_card_descriptions_accept_the_ways_people_write_them(text, fields):
    assert GAME.card_from_text(text) == by_fields(**fields)


@pytest.mark.parametrize("text, expected", [
    ("white 1pt U5G3", 'no card is "white 1pt U5G3" (closest: "white x2 1pt U5G2"'),
    ("blue x2 1pt U5G2", '(closest: "white x2 1pt U5G2"'),
    ("red 2pt W2U2G2P1", '(closest: "red 2pt 1cr W2U2G2P1"'),       # the crown left out
    ("purple 1pt W1", 'unknown bonus colour "purple" (one of white, blue, green, red, black, joker, none)'),
    ("white 0pt 1cr 1cr U3", "the crowns are given twice"),
    ("red 2pt 1cr W2U2G2X1", 'cannot read the cost "w2u2g2x1"'),
    ("red", "is not a card"),
])
def test_bad_duel_card_descriptions_say_what_is_wrong(text, expected):
    with pytest.raises(ValueError) as info:
        GAME.card_from_text(text)
    assert expected in str(info.value)


def test_the_example_is_a_mid_game_view_with_an_unknown_reserve():
    data = example()
    position = read_position(EXAMPLE.read_text())
    assert position.game.name == "duel" and position.observer == data["observer"]
    assert position.state.current_player() == data["to_move"]
    opponent = data["players"][1 - data["observer"]]
    assert any("level" in r and "card" not in r for r in opponent["reserved"])
    assert any(p["privileges"] for p in data["players"])
    assert any("." in row for row in data["board"]) and any(c != "." for row in data["board"] for c in row)
    assert any(isinstance(c, str) for row in data["pyramid"] for c in row)  # cards by description
    # The state shows the same view back (cards by id instead of text).
    again = json.loads(position.state.observation_json(data["observer"]))
    assert again["decks"] == data["decks"] and again["board"] == data["board"]
    assert again["pyramid"] == [[c if isinstance(c, int) else GAME.card_from_text(c) for c in row]
                                for row in data["pyramid"]]


def test_the_unknown_cards_are_drawn_differently_with_different_seeds():
    text = EXAMPLE.read_text()
    a = read_position(text, seed=1).state
    b = read_position(text, seed=2).state
    observer = example()["observer"]
    assert a.observation_json(observer) == b.observation_json(observer)
    assert a.to_json() != b.to_json()


def _joker_without_its_colour(d):
    """Seat 0's joker #28 joins black, and seat 0 keeps only its white cards."""
    cards = {c["id"]: c for c in GAME.cards()}
    white = [c for c in d["players"][0]["cards"] if isinstance(c, int) and cards[c]["bonus"] == "white"]
    d["players"][0]["cards"] = white + [{"card": 28, "colour": "black"}]


ERROR_CLASSES = {
    "too many tokens of a kind": (set_at(["players", 1, "tokens", "pearl"], 3), "players[1].tokens.pearl: 3 is more than 2"),
    "negative count": (set_at(["players", 0, "tokens", "blue"], -1), "players[0].tokens.blue: -1 is less than 0"),
    "wrong type": (set_at(["to_move"], "one"), "to_move: expected an integer, found a string"),
    "seat out of range": (set_at(["to_move"], 2), "to_move: 2 is more than 1"),
    "unknown field with suggestion": (set_at(["players", 0, "privilegs"], 1),
                                      'players[0]: unknown field "privilegs" (did you mean "privileges"?)'),
    "unknown card id": (set_at(["pyramid", 0, 0], 68), "pyramid[0][0]: card id 68 does not exist (ids are 1 to 67)"),
    "unknown card description": (set_at(["pyramid", 0, 0], "red 0pt W9"), 'pyramid[0][0]: no card is "red 0pt W9"'),
    "card of the wrong level": (set_at(["pyramid", 1, 0], "blue 0pt 1cr G3"), "is a level-1 card, not level 2"),
    "card in two places": (set_at(["pyramid", 0, 1], "green 0pt 1cr R3"), "is also at"),
    "bad board symbol": (set_at(["board", 2], "UWxG."), "board[2]: cell c3: 'x' is not one of W U G R K P Y ."),
    "missing field": (lambda d: d.pop("pyramid"), '(root): missing field "pyramid"'),
    "bag does not add up": (set_at(["bag", "gold"], 3), "bag.gold: 3 does not add up"),
    "privileges do not add up": (set_at(["privilege_supply"], 2), "privilege_supply: does not add up"),
    "points do not match": (set_at(["players", 0, "points"], 9), "players[0].points: 9 does not match"),
    "royals do not match the crowns": (set_at(["players", 0, "royals"], []), "players[0]: 3 crowns earn 1 royal cards"),
    "joker of no colour": (set_at(["players", 0, "cards", 7], {"card": 28, "colour": "purple"}),
                           'players[0].cards[7].colour: "purple" is not one of white, blue, green, red, black'),
    "joker of a colour not owned": (_joker_without_its_colour,
                                    "players[0].cards[2].colour: the joker joins a card of its colour, and the player "
                                    "has no black card"),
    "deck count does not match": (set_at(["decks", 0], 13), "decks[0]: "),
    "phase that is not the position's": (set_at(["phase"], "royal"), 'phase: is "royal" but the position is at "main"'),
    "variant out of range": (set_at(["variant", "crowns_to_win"], 0), "variant: crowns_to_win: 0 is outside 1..20"),
    "variant of the base game": (set_at(["variant", "players"], 3), 'variant: unknown field "players"'),
    "blind reserve without level": (set_at(["players", 1, "reserved", 0], {"blind": True}),
                                    'players[1].reserved[0]: missing field "level"'),
    "face-up reserve without card": (set_at(["players", 1, "reserved", 0], {"level": 2, "blind": False}),
                                     "players[1].reserved[0]: a card reserved face up must name its card"),
}


@pytest.mark.parametrize("name", sorted(ERROR_CLASSES))
def test_each_duel_validation_error_class_names_its_path(name):
    assert_reported(example(), *ERROR_CLASSES[name])


INDEPENDENT = ("too many tokens of a kind", "negative count", "seat out of range", "unknown field with suggestion",
               "unknown card description", "bad board symbol")


def test_every_independent_duel_problem_is_reported_at_once():
    assert_reported_at_once(example(), [ERROR_CLASSES[name] for name in INDEPENDENT])


def test_a_bad_position_leaves_nothing_half_read():
    """The same reader refuses the same text the same way every time (no state kept between reads)."""
    data = example()
    ERROR_CLASSES["card in two places"][0](data)
    first = problems_of(data)
    assert problems_of(data) == first
    read_position(EXAMPLE.read_text())  # and a good one still reads


def test_full_duel_state_refuses_unknown_cards_but_a_view_accepts_them():
    assert_only_a_view_reads(GAME, EXAMPLE.read_text())


def test_hint_cli_lists_every_duel_problem_with_exit_code_3(tmp_path):
    data = example()
    data["players"][1]["tokens"]["pearl"] = 3
    data["pyramid"][0][0] = "red 0pt W9"
    problems = hint_refusal(tmp_path, data)
    assert "players[1].tokens.pearl: 3 is more than 2" in problems
    assert 'pyramid[0][0]: no card is "red 0pt W9"' in problems


def test_analysis_protocol_answers_a_bad_duel_position_with_its_field():
    data = example()
    data["players"][0]["tokens"]["white"] = 9
    queries = [json.dumps({"id": "bad", "position": data}),
               json.dumps({"id": "v", "action": "query_version"})]
    run = run_cli("analyze", stdin="\n".join(queries) + "\n")
    assert run.returncode == 0, run.stderr
    answers = {r["id"]: r for r in map(json.loads, run.stdout.splitlines())}
    assert answers["bad"]["field"] == "position.players[0].tokens.white"
    assert "9 is more than 4" in answers["bad"]["error"]
    assert answers["v"]["version"] == 1


def test_gold_is_y_on_the_board_and_the_old_star_is_still_read():
    """Gold is Y in positions as on play's board and in Splendor; a file written with * reads the same."""
    view = example()
    assert any("Y" in row for row in view["board"])
    old = {**view, "board": [row.replace("Y", "*") for row in view["board"]]}
    new_state = read_position(json.dumps(view)).state
    old_state = read_position(json.dumps(old)).state
    assert old_state.observation_json(view["to_move"]) == new_state.observation_json(view["to_move"])
    assert json.loads(new_state.observation_json(view["to_move"]))["board"] == view["board"]
