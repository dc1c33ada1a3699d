"""A position is accepted only if the game could have reached it (issue 15, item 1).

Each case is a table the readers used to accept although no game reaches it: the setup
flag on a mid-game table, a setup with cards already bought, two cards waiting to be
revealed at once. What is accepted must read back equal and stay valid after every move.
And each rule invariant of the games' one definition of a legal position
(State::invariant_problems) that a position's text can break is refused by name.
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


def _pop_totals(player: dict) -> dict:
    for field in ("points", "bonuses", "crowns", "colour_points"):
        player.pop(field, None)
    return player


def _give_all_tokens(giver: dict, taker: dict) -> None:
    for kind, count in giver["tokens"].items():
        taker["tokens"][kind] = taker["tokens"].get(kind, 0) + count
        giver["tokens"][kind] = 0


def _set(doc: dict, path: tuple, value) -> dict:
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return doc


# Each rule invariant of the games' State::invariant_problems (splendor/invariants.cpp,
# duel/invariants.cpp) that a position's text can break, broken once: refused, named. The
# invariants a reader derives rather than reads (the buy mask, deck sets, board masks) are
# broken by unchecked moves in cpp/tests/test_invariants.cpp, which checks that every reader's
# last check refuses them by name.
SPLENDOR_BREAKS = {
    "a card in two places": (lambda d: _pop_totals(d["players"][0])["cards"].append(d["table"][0][0]), "is also at"),
    "a card nowhere": (lambda d: d["decks"][0].pop(), "is nowhere"),
    "gem tokens not conserved": (lambda d: _set(d, ("bank", "white"), d["bank"]["white"] + 1), "does not add up"),
    "gold not conserved": (lambda d: _set(d, ("bank", "gold"), d["bank"]["gold"] - 1), "does not add up"),
    "more gems held than the game has": (lambda d: _set(d, ("players", 0, "tokens", "white"), 5), "exceeds the 4"),
    "passes from an earlier round": (lambda d: _set(d, ("passes_this_round",), 2), "passes this round, but only"),
    "a noble without its bonuses": (lambda d: _pop_totals(d["players"][0]).update(nobles=[d["nobles"].pop(0)]),
                                    "needs bonuses the player's cards do not give"),
}
DUEL_BREAKS = {
    "a card in two places": (lambda d: _pop_totals(d["players"][0])["cards"].append(d["pyramid"][0][0]), "is also at"),
    "a card nowhere": (lambda d: d["decks"][0].pop(), "is nowhere"),
    "26 tokens": (lambda d: _set(d, ("bag", "white"), d["bag"]["white"] + 1), "does not add up"),
    "privileges beyond the count": (lambda d: _set(d, ("players", 0, "privileges"), 3),
                                    "privileges but the game has"),
    "the opponent above 10 tokens": (lambda d: _give_all_tokens(d["players"][0], d["players"][1]),
                                     "more than 10 only during the player's own turn"),
    "a fourth reserved card": (lambda d: d["players"][0]["reserved"].extend(
        [d["decks"][0].pop(), d["decks"][0].pop()]), "expected 0 to 3 elements, found 4"),
}


@pytest.mark.parametrize("game_name, plies, breaks", [("splendor", 8, SPLENDOR_BREAKS), ("duel", 10, DUEL_BREAKS)])
def test_a_position_breaking_each_rule_invariant_is_refused_by_name(game_name, plies, breaks):
    game, state = _played(game_name, plies)
    for apply_break, needle in breaks.values():
        doc = json.loads(state.to_json())
        apply_break(doc)
        with pytest.raises(ValueError, match=needle):
            game.state_from_json(json.dumps(doc))
