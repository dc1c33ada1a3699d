"""Invariants over random games per player count.

The per-action checks run in C++ (core::random_sim_test with splendor/self_check.cpp's
rule checks, the same code as the sanitizer fuzz driver, which plays thousands of games in
CI, under ASan + UBSan and optimised); a smaller Python-level pass checks the same
properties through the public API.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import splendor_mcts as sm


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_over_random_games(players):
    game = sm.load_game("splendor", players=players)
    report = sm._core.splendor_self_check(game.rules, 40, 20261130 + players)
    assert report["failures"] == [] and report["failure_count"] == 0
    assert report["games"] == 40
    assert report["decisions"] > 40 * 60  # real games, not stubs


@pytest.mark.parametrize("take_fewer_distinct", [False, "always"])
def test_invariants_hold_in_variants(take_fewer_distinct):
    game = sm.load_game("splendor", players=3, take_fewer_distinct=take_fewer_distinct, token_limit=7, reserve_limit=1,
                        points_to_win=9)
    report = sm._core.splendor_self_check(game.rules, 60, 5)
    assert report["failures"] == [] and report["games"] == 60


def _cards_everywhere(d: dict) -> list[int]:
    cards = [c for row in d["table"] for c in row if c is not None] + [c for deck in d["decks"] for c in deck]
    for p in d["players"]:
        cards += p["cards"] + [r["card"] for r in p["reserved"]]
    return cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_public_api_invariants_over_random_games(players):
    game = sm.load_game("splendor", players=players)
    rng = np.random.default_rng(players)
    for g in range(10):
        s = game.new_initial_state(seed=g, explicit_chance=bool(g % 2))
        steps = 0
        while not s.is_terminal():
            d = json.loads(s.to_json())
            assert sorted(_cards_everywhere(d)) == list(range(1, 91))  # cards conserved
            for colour in ("white", "blue", "green", "red", "black", "gold"):
                total = d["bank"][colour] + sum(p["tokens"][colour] for p in d["players"])
                assert total == (5 if colour == "gold" else {2: 4, 3: 5, 4: 7}[players])
            assert game.state_from_json(s.to_json()).hash() == s.hash()  # hash == recomputation
            c = s.clone()
            assert c == s and c.to_json() == s.to_json()
            if steps % 10 == 0:
                for seat in range(players):
                    v = json.loads(s.observation_json(seat))
                    assert all(isinstance(n, int) for n in v["decks"])  # no deck order
                    for other, p in enumerate(v["players"]):
                        for r in p["reserved"]:
                            assert ("card" in r) == (other == seat or not r["blind"])
            legal = s.legal_actions()
            mask = s.legal_actions_mask()
            assert mask.dtype == bool and list(np.flatnonzero(mask)) == legal
            s.apply_action(int(rng.choice(legal)))
            steps += 1
            assert steps < 3000
        r = s.returns()
        assert sum(r) == pytest.approx(1.0) and all(x in (0.0, 1.0) or 0 < x < 1 for x in r)
        winners = [i for i, x in enumerate(r) if x > 0]
        pts = [p["points"] for p in json.loads(s.to_json())["players"]]
        assert all(pts[w] == max(pts) for w in winners)


def test_random_playouts_terminate_with_one_win_shared():
    game = sm.load_game("splendor", players=3)
    res = sm.random_playouts(game, 2000, seed=3)
    assert res.returns.shape == (2000, 3) and len(res) == 2000
    assert np.allclose(res.returns.sum(axis=1), 1.0)
    assert res.lengths.min() > 20
    # Reproducible and independent of batching: game i depends on (seed, i) only.
    again = sm.random_playouts(game, 10, seed=3)
    assert np.array_equal(again.returns, res.returns[:10]) and np.array_equal(again.lengths, res.lengths[:10])
