"""Golden perft counts on fixed seeds (chance outcomes count as plies)."""
from __future__ import annotations

import pytest

import splendor_mcts as sm


def _walk(players: int, seed: int, moves: int, explicit: bool = False):
    """A deterministic mid-game position: move k plays legal[(7k + 3) % n]."""
    s = sm.load_game("splendor", players=players).new_initial_state(seed=seed, explicit_chance=explicit)
    for k in range(moves):
        legal = s.legal_actions()
        s.apply_action(legal[(k * 7 + 3) % len(legal)])
    return s


def test_perft_opening_depth_one_by_hand():
    # 10 three-colour takes + 5 doubles + 12 table reserves + 3 blind reserves; nothing affordable.
    assert sm.perft(sm.load_game("splendor").new_initial_state(seed=1), 1) == 30


@pytest.mark.parametrize(
    "players,seed,counts",
    [
        (2, 1, [30, 865, 24190, 659505, 17681819]),
        (2, 5, [30, 865, 24190, 659505, 17787254]),
        (3, 2, [30, 895, 26380, 765705, 21850030]),
        (4, 3, [30, 900, 26995, 808875]),
    ],
)
def test_perft_golden_openings(players, seed, counts):
    s = sm.load_game("splendor", players=players).new_initial_state(seed=seed)
    assert [sm.perft(s, d) for d in range(1, len(counts) + 1)] == counts


def test_perft_golden_explicit_chance_opening_deal():
    # 3 players: 4 nobles from 10 (10*9*8*7 orders), then 40 cards for the first slot.
    s = sm.load_game("splendor", players=3).new_initial_state(seed=7, explicit_chance=True)
    assert [sm.perft(s, d) for d in range(1, 6)] == [10, 90, 720, 5040, 201600]


@pytest.mark.parametrize(
    "args,counts",
    [
        ((2, 1, 40), [5, 33, 114, 868]),
        ((3, 2, 60), [3, 9, 54, 200]),
        ((4, 3, 80), [4, 20, 67, 223]),
        ((2, 4, 40, True), [6, 34, 76, 453]),
    ],
)
def test_perft_golden_midgame(args, counts):
    s = _walk(*args)
    assert [sm.perft(s, d) for d in range(1, 5)] == counts


def test_perft_depth_zero_and_bad_depth():
    s = sm.load_game("splendor").new_initial_state(seed=1)
    assert sm.perft(s, 0) == 1
    with pytest.raises(ValueError, match="depth"):
        sm.perft(s, -1)
