"""A position is accepted only if the game could have reached it (issue 15, item 1).

Each case is a table the readers used to accept although no game reaches it: the setup
flag on a mid-game table, a setup with cards already bought, two cards waiting to be
revealed at once. What is accepted must read back equal and stay valid after every move.
"""
from __future__ import annotations

import json
import random

import pytest

import splendor_mcts as sm


def _played(game_name: str, plies: int, seed: int = 5, **variant) -> tuple:
    game = sm.load_game(game_name, **variant)
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    rng = random.Random(seed)
    while plies > 0 or state.is_chance_node():
        plies -= not state.is_chance_node()
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def _refused(game, doc: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        game.state_from_json(json.dumps(doc))


def test_setup_flag_on_a_mid_game_table_is_refused():
    game, state = _played("splendor", 6)
    doc = json.loads(state.to_json())
    doc["setup"] = True
    _refused(game, doc, "nobody has taken a turn")


def test_a_setup_with_bought_cards_is_refused():
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=2, explicit_chance=True)
    doc = json.loads(state.to_json())
    level1 = doc["decks"][0]
    doc["players"][0]["cards"] = level1[:20]
    doc["decks"][0] = level1[20:]
    for field in ("points", "bonuses"):
        doc["players"][0].pop(field)
    _refused(game, doc, "nobody has taken a turn")


def test_duel_setup_with_a_held_privilege_is_refused():
    game = sm.load_game("duel")
    state = game.new_initial_state(seed=2, explicit_chance=True)
    doc = json.loads(state.to_json())
    assert doc.get("setup") is True
    doc["players"][1]["privileges"] = 1
    doc.pop("privilege_supply", None)
    _refused(game, doc, "nobody has taken a turn")


def test_two_empty_table_slots_outside_the_setup_are_refused():
    game, state = _played("splendor", 8)
    doc = json.loads(state.to_json())
    row = doc["table"][0]
    filled = [i for i, c in enumerate(row) if c is not None]
    for i in filled[:2]:  # both cards back under the deck: two slots wait for a card
        doc["decks"][0].insert(0, row[i])
        row[i] = None
    doc["phase"] = "chance"
    _refused(game, doc, "wait to be revealed")


def test_a_setup_with_nothing_left_to_reveal_is_refused():
    game, state = _played("splendor", 0)
    doc = json.loads(state.to_json())
    doc["setup"] = True
    doc["phase"] = "main"
    _refused(game, doc, "setup")


@pytest.mark.parametrize("game_name,variant", [("splendor", {"players": 2}), ("splendor", {"players": 4}), ("duel", {})])
def test_accepted_mutations_read_back_equal_and_stay_valid(game_name, variant):
    """The fuzz idea in small: change one field of real positions to another plausible value;
    whatever is accepted round-trips, and so does every position one legal move on."""
    rng = random.Random(11)
    accepted = 0
    for seed in range(6):
        game, state = _played(game_name, 3 + 7 * seed, seed=seed, **variant)
        base = json.loads(state.to_json())
        for _ in range(40):
            doc = json.loads(json.dumps(base))
            key = rng.choice([k for k in doc if k not in ("game", "variant")])
            doc[key] = rng.choice([True, False, 0, 1, 2, 3, None, "chance", "main", [], {}, base[key]])
            try:
                read = game.state_from_json(json.dumps(doc))
            except ValueError:
                continue
            accepted += 1
            assert game.state_from_json(read.to_json()).to_json() == read.to_json()
            for action in ([] if read.is_terminal() else read.legal_actions()):
                after = read.clone()
                after.apply_action(action)
                assert game.state_from_json(after.to_json()).to_json() == after.to_json()
    assert accepted > 0
