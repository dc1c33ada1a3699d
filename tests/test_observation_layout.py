"""The observation tensor against its documented layout: docs/observation.md holds exactly
the tables of splendor_mcts.games.observation_layout, and tensors of many random
positions (every player count, every seat's view) decode by that layout to what
``observation_json`` says about the same view."""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import splendor_mcts as sm
from splendor_mcts.envs.pettingzoo_env import OBSERVATION_HIGH
from splendor_mcts.games.observation_layout import decode, layout_games, markdown, size

DOC = Path(__file__).resolve().parents[1] / "docs" / "observation.md"
SPLENDOR_KINDS = ["white", "blue", "green", "red", "black", "gold"]
DUEL_KINDS = ["white", "blue", "green", "red", "black", "pearl", "gold"]
COLOURS = SPLENDOR_KINDS[:5]
BOARD_LETTERS = "WUGRKPY."  # a Duel board cell, in the order of the cell block's one-hot
SPLENDOR_PHASES = ["main", "return_tokens", "choose_noble", "chance", "over"]
DUEL_PHASES = ["main", "joker", "token", "steal", "royal", "discard", "chance", "chance", "chance", "over"]


@pytest.mark.parametrize("game", sorted(layout_games()))
def test_the_doc_shows_the_layout(game: str) -> None:
    text = DOC.read_text()
    assert markdown(game) in text, (
        f"docs/observation.md does not hold the {game} tables of splendor_mcts.games.observation_layout; "
        "print them with python -m splendor_mcts.games.observation_layout and paste them in")
    assert size(game) == sm.load_game(game).observation_tensor_size()


def _positions(spec: str, games: int, seed: int) -> Iterator[Any]:
    """Decision points (and the ends) of random games, a few per game."""
    game = sm.load_game(spec)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(seed=seed * 1000 + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.dealt_outcome())
                continue
            if rng.random() < 0.08:
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def _one_hot(n: int, *indexes: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.float32)
    for i in indexes:
        out[i] += 1
    return out


def _check(tensor: np.ndarray) -> None:
    assert tensor.dtype == np.float32 and np.all(tensor >= 0) and np.all(tensor <= OBSERVATION_HIGH)


def _splendor_card(card: dict[str, Any] | None, level: int, hidden: bool) -> np.ndarray:
    block = np.zeros(16, dtype=np.float32)
    block[0], block[1 + level - 1], block[15] = 1, 1, hidden
    if card is not None:
        block[4:9] = [card["cost"][c] for c in COLOURS]
        block[9 + COLOURS.index(card["bonus"])] = 1
        block[14] = card["points"]
    return block


@pytest.mark.parametrize("players", [2, 3, 4])
def test_splendor_tensors_decode_to_the_view(players: int) -> None:
    game = sm.load_game("splendor", players=players)
    cards = {c["id"]: c for c in game.cards()}
    checked = 0
    for state in _positions(game.spec, games=6, seed=players):
        for observer in range(players):
            tensor = state.observation_tensor(observer)
            _check(tensor)
            d = decode("splendor", tensor)
            view = json.loads(state.observation_json(observer))
            seats = [(observer + r) % players for r in range(players)]
            for r in range(4):
                if r >= players:
                    for key in ("tokens", "bonuses", "points", "cards", "reserved", "nobles"):
                        assert not d[f"players.{key}"][r].any()
                    assert not tensor[258 + 48 * r:258 + 48 * (r + 1)].any()
                    continue
                p = view["players"][seats[r]]
                np.testing.assert_array_equal(d["players.tokens"][r], [p["tokens"][k] for k in SPLENDOR_KINDS])
                np.testing.assert_array_equal(d["players.bonuses"][r], [p["bonuses"][c] for c in COLOURS])
                assert d["players.points"][r] == p["points"] and d["players.cards"][r] == len(p["cards"])
                assert d["players.reserved"][r] == len(p["reserved"]) and d["players.nobles"][r] == len(p["nobles"])
                for i in range(3):
                    unit = 3 * r + i
                    got = np.concatenate([d[f"reserved.{f}"][unit] for f in
                                          ("present", "level", "cost", "bonus", "points", "hidden")])
                    if i >= len(p["reserved"]):
                        assert not got.any()
                        continue
                    entry = p["reserved"][i]
                    card = cards[entry["card"]] if "card" in entry else None
                    level = card["level"] if card else entry["level"]
                    np.testing.assert_array_equal(got, _splendor_card(card, level, entry["blind"]))
            np.testing.assert_array_equal(d["bank"][0], [view["bank"][k] for k in SPLENDOR_KINDS])
            for level, row in enumerate(view["table"]):
                for slot in range(4):
                    unit = 4 * level + slot
                    got = np.concatenate([d[f"table.{f}"][unit] for f in
                                          ("present", "level", "cost", "bonus", "points", "hidden")])
                    card_id = row[slot] if slot < len(row) else None
                    expected = np.zeros(16) if card_id is None else _splendor_card(cards[card_id], level + 1, False)
                    np.testing.assert_array_equal(got, expected)
            np.testing.assert_array_equal(d["nobles"][0], _one_hot(10, *[n - 1 for n in view["nobles"]]))
            np.testing.assert_array_equal(d["decks"][0], view["decks"])
            np.testing.assert_array_equal(d["phase"][0], _one_hot(5, SPLENDOR_PHASES.index(view["phase"])))
            if view["phase"] == "over":
                assert not d["to_move"].any()
            else:
                np.testing.assert_array_equal(d["to_move"][0], _one_hot(4, (view["to_move"] - observer) % players))
            target = view["variant"]["points_to_win"]
            assert d["end_triggered"][0, 0] == any(p["points"] >= target for p in view["players"])
            assert d["passes"][0, 0] == view["passes_this_round"]
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game", ["splendor", "duel"])
def test_a_batch_decodes_as_its_rows_do(game: str) -> None:
    tensors = [state.observation_tensor(0) for state in _positions(game, games=1, seed=3)][:6]
    batch = decode(game, np.stack(tensors))
    for i, tensor in enumerate(tensors):
        for key, value in decode(game, tensor).items():
            np.testing.assert_array_equal(batch[key][i], value)


def test_duel_tensors_decode_to_the_view() -> None:
    game = sm.load_game("duel")
    cards = {c["id"]: c for c in game.cards()}
    checked = 0
    for state in _positions("duel", games=10, seed=7):
        for observer in range(2):
            tensor = state.observation_tensor(observer)
            _check(tensor)
            d = decode("duel", tensor)
            view = json.loads(state.observation_json(observer))
            cells = "".join(view["board"])
            np.testing.assert_array_equal(d["board.token"], np.stack([_one_hot(8, BOARD_LETTERS.index(c)) for c in cells]))
            np.testing.assert_allclose(d["bag"][0], [view["bag"][k] / 4 for k in DUEL_KINDS])
            for r, seat in enumerate((observer, 1 - observer)):
                p = view["players"][seat]
                bonuses = np.zeros(5)
                for entry in p["cards"]:
                    card = cards[entry["card"] if isinstance(entry, dict) else entry]
                    colour = entry.get("colour") if isinstance(entry, dict) else card["bonus"]
                    if colour in COLOURS:
                        bonuses[COLOURS.index(colour)] += card["bonus_count"]
                np.testing.assert_allclose(d["players.tokens"][r], [p["tokens"][k] / 10 for k in DUEL_KINDS])
                np.testing.assert_allclose(d["players.bonuses"][r], bonuses / 5)
                np.testing.assert_allclose(d["players.colour_points"][r], [p["colour_points"][c] / 10 for c in COLOURS])
                np.testing.assert_allclose(d["players.points"][r], p["points"] / 20)
                np.testing.assert_allclose(d["players.crowns"][r], p["crowns"] / 10)
                np.testing.assert_allclose(d["players.privileges"][r], p["privileges"] / 3)
                np.testing.assert_allclose(d["players.reserved"][r], len(p["reserved"]) / 3)
                np.testing.assert_array_equal(d["players.royals"][r], _one_hot(4, *[k - 1 for k in p["royals"]]))
            pyramid = [card for row in view["pyramid"] for card in row]
            for slot in range(12):
                card_id = pyramid[slot] if slot < len(pyramid) else None
                expected = np.zeros(67) if card_id is None else _one_hot(67, card_id - 1)
                np.testing.assert_array_equal(d["pyramid.card"][slot], expected)
            own, other = view["players"][observer]["reserved"], view["players"][1 - observer]["reserved"]
            for i in range(3):
                expected = _one_hot(67, own[i]["card"] - 1) if i < len(own) else np.zeros(67)
                np.testing.assert_array_equal(d["own_reserved.card"][i], expected)
                seen = i < len(other) and not other[i]["blind"]
                expected = _one_hot(67, other[i]["card"] - 1) if seen else np.zeros(67)
                np.testing.assert_array_equal(d["opponent_reserved.card"][i], expected)
            blind = [e["level"] - 1 for e in other if e["blind"]]
            np.testing.assert_array_equal(d["opponent_blind"][0], _one_hot(3, *blind))
            np.testing.assert_allclose(d["decks"][0], np.array(view["decks"]) / 30)
            np.testing.assert_array_equal(d["royals"][0], _one_hot(4, *[k - 1 for k in view["royals"]]))
            phase = d["phase"][0]
            assert phase.sum() == 1 and DUEL_PHASES[int(phase.argmax())] == view["phase"]
            if view["phase"] != "over":
                assert d["observer_to_move"][0, 0] == (view["to_move"] == observer)
            assert d["replenished"][0, 0] == view["replenished"] and d["again"][0, 0] == view["again"]
            checked += 1
    assert checked > 50


def test_decode_refuses_a_tensor_of_the_wrong_size() -> None:
    with pytest.raises(ValueError, match="a duel observation has 1486 floats"):
        decode("duel", np.zeros(474, dtype=np.float32))
    with pytest.raises(ValueError, match="no observation layout for 'nim'"):
        decode("nim", np.zeros(3))
