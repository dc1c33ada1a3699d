"""Invariants of Splendor Duel over many random games: tokens, privileges and cards
conserved, hash == recomputation (checked in C++ by fuzz_duel), clone and JSON
round-trips, views hiding what they must, games ending; perft goldens."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import splendor_mcts as sm
from search_helpers import policy_wins_against_random

TOKENS = {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "pearl": 2, "gold": 3}
SYMBOL = {"W": "white", "U": "blue", "G": "green", "R": "red", "K": "black", "P": "pearl", "Y": "gold"}


def check_position(d: dict, privileges: int = 3) -> None:
    counts = dict(d["bag"])
    for row in d["board"]:
        for ch in row:
            if ch != ".":
                counts[SYMBOL[ch]] += 1
    for p in d["players"]:
        for k, v in p["tokens"].items():
            counts[k] += v
    assert counts == TOKENS
    assert sum(p["privileges"] for p in d["players"]) + d["privilege_supply"] == privileges
    seen = [c for row in d["pyramid"] for c in row if c is not None]
    for deck in d["decks"]:
        seen += deck if isinstance(deck, list) else []
    for p in d["players"]:
        seen += [c if isinstance(c, int) else c["card"] for c in p["cards"]]
        seen += [r["card"] for r in p["reserved"] if "card" in r]
    assert len(seen) == len(set(seen))
    if all(isinstance(deck, list) for deck in d["decks"]):
        assert sorted(seen) == list(range(1, 68))


@pytest.mark.parametrize("explicit", [False, True])
def test_invariants_every_step_of_random_games(explicit):
    game = sm.load_game("duel")
    rng = random.Random(5)
    for g in range(25):
        s = game.new_initial_state(seed=1000 + g, explicit_chance=explicit)
        steps = 0
        while not s.is_terminal():
            steps += 1
            assert steps < 3000
            d = json.loads(s.to_json())
            check_position(d)
            back = game.state_from_json(s.to_json())
            assert back == s and back.hash() == s.hash()
            c = s.clone()
            assert c == s and c.hash() == s.hash()
            if steps % 7 == 0 and s.current_player() != sm.CHANCE:
                seat = rng.randrange(2)
                view = s.observation_json(seat)
                assert '"deal"' not in view
                hidden = s.clone()
                hidden.determinize(seat, rng.randrange(2**63))
                assert hidden.observation_json(seat) == view
                guess = game.state_from_observation(view, seed=rng.randrange(2**63))
                assert guess.observation_json(seat) == view
                check_position(json.loads(guess.to_json()))
            mask = s.legal_actions_mask()
            legal = s.legal_actions()
            assert mask.dtype == np.bool_ and mask.sum() == len(legal) and all(mask[a] for a in legal)
            if s.current_player() == sm.CHANCE:
                outcomes = s.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                a = s.dealt_outcome()
            else:
                obs = s.observation_tensor(s.current_player())
                assert obs.shape == (game.observation_tensor_size(),) and obs.dtype == np.float32
                a = rng.choice(legal)
            before = s.hash()
            s.apply_action(a)
            assert c.hash() == before  # the clone is independent
        r = s.returns()
        assert sorted(r) == [0.0, 1.0]
        check_position(json.loads(s.to_json()))


def test_invariants_thousands_of_random_games_end_with_one_winner():
    game = sm.load_game("duel")
    res = sm.random_playouts(game, 5000, seed=3)
    assert res.returns.shape == (5000, 2)
    assert np.all(res.returns.sum(axis=1) == 1.0)
    assert res.lengths.min() > 20 and res.lengths.max() < 2000
    again = sm.random_playouts(game, 5000, seed=3)
    assert np.array_equal(res.lengths, again.lengths)  # deterministic


def test_invariants_variants_terminate():
    for spec in ["duel(points_to_win=40,crowns_to_win=20,colour_points_to_win=20)", "duel(privileges=0)",
                 "duel(privileges=6,first_player=1)"]:
        res = sm.random_playouts(sm.load_game(spec), 500, seed=1)
        assert np.all(res.returns.sum(axis=1) == 1.0)


def test_invariants_pickle_round_trip():
    import pickle

    s = sm.load_game("duel", points_to_win=18).new_initial_state(seed=4)
    s.apply_action(s.legal_actions()[3])
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.hash() == s.hash()


@pytest.mark.parametrize("seed,explicit,depth,nodes", [
    (1, False, 1, 153), (1, False, 2, 23588), (1, False, 3, 2770409),
    (2, False, 1, 159), (2, False, 2, 25147), (3, False, 2, 23102),
    (1, True, 2, 17258), (1, True, 3, 1574594), (2, True, 2, 18547),
])
def test_perft_golden(seed, explicit, depth, nodes):
    s = sm.load_game("duel").new_initial_state(seed=seed, explicit_chance=explicit)
    while s.current_player() == sm.CHANCE:
        s.apply_action(s.dealt_outcome())
    assert sm.perft(s, depth) == nodes


def test_heuristic_and_evaluate():
    def check(state: object) -> None:
        assert 0.0 <= state.evaluate(0) <= 1.0

    assert policy_wins_against_random(sm.load_game("duel"), 40, check) >= 30  # the policy beats random moves


def test_docs_position_example_is_a_valid_view():
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs/position-format.md").read_text().split("## Splendor Duel")[1]
    block = re.search(r"```json\n(.*?)```", text, re.S).group(1)
    s = sm.load_game("duel").state_from_observation(block, seed=5)
    assert json.loads(s.observation_json(1)) == json.loads(block)
