"""Fast loops in C++: random playouts and perft."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _core
from ..seeds import check_seed
from .game import Game


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


def perft(state: object, depth: int) -> int:
    """Number of leaf decisions ``depth`` plies below ``state`` (chance outcomes count)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    return int(_core.perft(state, depth))
