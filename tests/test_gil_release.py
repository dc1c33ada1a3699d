"""Calls that release the GIL work on their own copy of the state: another Python thread
changing the same state meanwhile can neither crash them nor tear their counts."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import splendor_mcts as sm


def _line(game: Any, plies: int) -> list[int]:
    """A fixed line of play from a fixed deal (to the end, or `plies` moves)."""
    state = game.new_initial_state(seed=5)
    moves: list[int] = []
    while len(moves) < plies and not state.is_terminal():
        legal = state.legal_actions()
        moves.append(legal[(7 * len(moves)) % len(legal)])
        state.apply_action(moves[-1])
    return moves


def _race(spec: str, call: Callable[[Any, int], Any]) -> None:
    """``call(state, 2)`` over and over while another thread plays a line on the same
    state; every answer must be that of some position on the line."""
    game = sm.load_game(spec)
    moves = _line(game, 150)
    walk = game.new_initial_state(seed=5)
    expected = {repr(call(walk, 2))}
    for move in moves:
        walk.apply_action(move)
        expected.add(repr(call(walk, 2)))

    shared = game.new_initial_state(seed=5)
    done = threading.Event()

    def play_line() -> None:
        for move in moves:
            shared.apply_action(move)
            time.sleep(0.0002)  # let the counting thread in between moves
        done.set()

    worker = threading.Thread(target=play_line)
    answers = []
    worker.start()
    while not done.is_set():
        answers.append(repr(call(shared, 2)))
    worker.join()
    assert answers and set(answers) <= expected


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_perft_counts_its_own_copy_of_the_state(spec):
    _race(spec, sm.perft)


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_perft_divide_counts_its_own_copy_of_the_state(spec):
    _race(spec, sm.perft_divide)
