"""Synthetic shard files in the self-play shard format, for the learning tests (random but
valid rows: real observation and action sizes, visit shares on legal actions, win shares)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from splendor_mcts.search.families import family, game_sizes


def shard_arrays(family_name: str, games: int, moves: int, seed: int, first_game: int = 0,
                 shard_format: int = 2) -> dict[str, np.ndarray]:
    """Rows of ``games`` games of ``moves`` decisions; ``shard_format`` 1 leaves out ``search_value``."""
    fam = family(family_name)
    observation_size, num_actions = game_sizes(fam.game)
    rng = np.random.default_rng(seed)
    n = games * moves
    players = rng.choice(fam.players, size=games).repeat(moves).astype(np.int8)
    legal = rng.random((n, num_actions)) < 0.1
    legal[np.arange(n), rng.integers(0, num_actions, n)] = True
    visits = np.where(legal, rng.random((n, num_actions)), 0.0)
    value = np.zeros((n, 4), dtype=np.float32)
    value[np.arange(n), rng.integers(0, players)] = 1.0
    observation = rng.integers(0, 5, size=(n, observation_size)).astype(np.float32)
    searched = np.where(np.arange(4)[None, :] < players[:, None], rng.random((n, 4)) + 0.01, 0.0)
    search_value = (searched / searched.sum(axis=1, keepdims=True)).astype(np.float32)
    return {"observation": observation, "legal": legal,
            "policy": (visits / visits.sum(axis=1, keepdims=True)).astype(np.float32), "value": value,
            "search_value": search_value if shard_format >= 2 else None,
            "players": players, "seat": (np.arange(n) % players).astype(np.int8),
            "move_number": np.tile(np.arange(moves), games).astype(np.int16),
            "game_id": (first_game + np.arange(games)).repeat(moves).astype(np.int64),
            "meta": np.array(json.dumps({"format": shard_format, "game": fam.game, "variant": {}, "family": fam.name,
                                         "search": "mcts:iterations=10", "seed": seed, "version": "test"}))}


def write_shard(path: Path, family_name: str = "splendor-2p", games: int = 4, moves: int = 8, seed: int = 0,
                first_game: int = 0, shard_format: int = 2, **changes: np.ndarray) -> Path:
    """A valid shard, with ``changes`` replacing arrays (``None`` removes one)."""
    arrays = {**shard_arrays(family_name, games, moves, seed, first_game, shard_format), **changes}
    np.savez_compressed(path, **{key: value for key, value in arrays.items() if value is not None})
    return path
