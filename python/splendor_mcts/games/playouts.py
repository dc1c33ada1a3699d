"""Fast loops in C++: random playouts, perft and its per-move divide."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..seeds import check_seed
from .game import Game
from .registry import entry_of_state


@dataclass(frozen=True)
class PlayoutResults:
    """Per-game results of ``random_playouts``: ``returns[g, seat]`` and ``lengths[g]``
    (decisions per game, chance outcomes included)."""

    returns: np.ndarray
    lengths: np.ndarray

    def __len__(self) -> int:
        return len(self.lengths)


def random_playouts(game: Game, n_games: int, seed: int = 0) -> PlayoutResults:
    """Play ``n_games`` uniformly random complete games in C++ (GIL released).

    Game ``i`` is dealt from ``seed`` and ``i`` only, so results are reproducible.
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative integer, got {n_games!r}")
    returns, lengths = game.entry.random_playouts(game.rules, n_games, check_seed(seed))
    return PlayoutResults(returns=returns, lengths=lengths)


def _check_depth(depth: int, least: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < least:
        raise ValueError(f"depth must be an integer >= {least}, got {depth!r}")
    return depth


def perft(state: object, depth: int) -> int:
    """Number of leaf decisions ``depth`` plies below ``state`` (chance outcomes count)."""
    return int(entry_of_state(state).engine.perft(state, _check_depth(depth, 0)))


def perft_divide(state: object, depth: int) -> dict[str, int]:
    """Stockfish's perft "divide": each root move's text mapped to the perft count
    ``depth - 1`` plies below it, in ``legal_actions`` order. The counts sum to
    ``perft(state, depth)``; comparing two engines' listings finds the move they disagree on."""
    return dict(entry_of_state(state).engine.perft_divide(state, _check_depth(depth, 1)))


def divided(state: Any, depth: int, on_move: Callable[[int, int], None]) -> dict[str, int]:
    """:func:`perft_divide` one root move at a time, ``on_move(index, total)`` before each: the
    same counts, in the same order, with progress between them (``splendor-mcts perft``)."""
    if depth < 1 or state.is_terminal():
        return {}
    actions = state.legal_actions()
    counts: dict[str, int] = {}
    for index, action in enumerate(actions):
        on_move(index, len(actions))
        child = state.clone()
        child.apply_action(action)
        counts[state.action_to_string(action)] = perft(child, depth - 1)
    return counts
