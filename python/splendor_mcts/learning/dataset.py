"""Training data: self-play shard files (``shard-00000.npz`` ...) read and validated.

A shard holds one row per decision (docs/training.md lists the keys): the observation of the
seat to move, the legal mask, the root's visit share per action, the final win shares
rotated so index 0 is the seat to move and (format 2 on) the root's mean return per seat
rotated the same way. Every problem is a ``ValueError`` naming the file.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..search.families import Family, family, game_sizes
from . import shards

FIELDS = ("observation", "legal", "policy", "value", "players", "game_id", "search_value")


@dataclass
class Examples:
    """Training rows: the arrays of the shard format, concatenated over files.
    ``search_value`` is None when a shard of format 1 (without it) is among them."""

    observation: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    players: np.ndarray
    game_id: np.ndarray
    search_value: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.observation.shape[0])

    def take(self, rows: np.ndarray) -> "Examples":
        """The rows at the indices ``rows``."""
        return Examples(*(None if (a := getattr(self, name)) is None else a[rows] for name in FIELDS))


def shard_files(sources: Iterable[str | Path]) -> list[Path]:
    """The shard files named by ``sources``: files as given; a self-play run directory (one
    with ``manifest.json``) by its manifest's shards, each checked to be the file written
    (``shards.Manifest.verified_files``: ``ShardError`` names one that is not); other
    directories by their ``shard-*.npz`` in name order. ``ValueError`` when a source is missing
    or holds none."""
    found: list[Path] = []
    for source in sources:
        path = Path(source)
        manifest = shards.Manifest.load(path) if path.is_dir() else None
        if manifest is not None:
            if not manifest.shards:
                raise ValueError(f"{path}: the self-play run has no finished shard yet")
            found += manifest.verified_files()
        elif path.is_dir():
            shards_found = sorted(path.glob("shard-*.npz"))
            if not shards_found:
                raise ValueError(f"{path}: no shard-*.npz files in this directory")
            found += shards_found
        elif path.is_file():
            found.append(path)
        else:
            raise ValueError(f"{path}: no such shard file or directory")
    if not found:
        raise ValueError("no shard files given")
    return found


def load_examples(sources: Sequence[str | Path], family_name: str) -> tuple[Examples, list[dict[str, object]]]:
    """All rows of the shards ``sources`` name for ``family_name``, validated, and one
    summary per file (path, rows, meta) for the network's training metadata."""
    fam = family(family_name)
    parts: list[Examples] = []
    summaries: list[dict[str, object]] = []
    for path in shard_files(sources):
        examples, meta = read_shard(path, fam)
        parts.append(examples)
        summaries.append({"file": str(path), "rows": len(examples), "meta": meta})

    def joined(name: str) -> np.ndarray | None:
        columns = [getattr(p, name) for p in parts]
        return None if any(c is None for c in columns) else np.concatenate(columns)

    return Examples(*(joined(name) for name in FIELDS)), summaries


def read_shard(path: str | Path, fam: Family) -> tuple[Examples, dict[str, object]]:
    """One shard file's rows and meta, checked against the format (``shards.read_shard``)
    and the family."""
    shard = shards.read_shard(path)
    arrays, meta = shard.arrays, shard.meta
    if meta.get("family") != fam.name:
        raise ValueError(f"{path}: shard holds family {meta.get('family')!r}, not {fam.name}")
    if meta.get("game") != fam.game:
        raise ValueError(f"{path}: shard holds game {meta.get('game')!r}, not {fam.game}")
    observation_size, num_actions = game_sizes(fam.game)
    for key, width in (("observation", observation_size), ("legal", num_actions), ("policy", num_actions)):
        if arrays[key].shape[1] != width:
            raise ValueError(f"{path}: {key} has shape {arrays[key].shape}, expected [{len(arrays[key])}, {width}] "
                             f"for {fam.name}")
    if len(arrays["game_id"]) == 0:
        raise ValueError(f"{path}: shard has no rows")
    players = arrays["players"]
    if (bad := np.flatnonzero(~np.isin(players, fam.players))).size:
        raise ValueError(f"{path}: row {bad[0]}: {players[bad[0]]} players is not family {fam.name}'s "
                         f"{list(fam.players)}")
    return Examples(arrays["observation"], arrays["legal"], arrays["policy"], arrays["value"],
                    players, arrays["game_id"], arrays.get("search_value")), meta


def split_by_game(examples: Examples, validation: float, seed: int) -> tuple[Examples, Examples]:
    """(training, validation) rows, holding out about ``validation`` of the games whole
    (a game's positions are alike: splitting rows would leak them into the check)."""
    if not 0 <= validation < 1:
        raise ValueError(f"the validation share must be in [0, 1), got {validation}")
    games = np.unique(examples.game_id)
    held = int(round(validation * len(games)))
    if validation > 0 and held == 0 and len(games) > 1:
        held = 1
    if held >= len(games):
        raise ValueError(f"cannot hold out {validation:.0%} of {len(games)} game(s) and keep some to train on")
    chosen = np.random.default_rng(seed).choice(games, size=held, replace=False)
    is_held = np.isin(examples.game_id, chosen)
    return examples.take(np.flatnonzero(~is_held)), examples.take(np.flatnonzero(is_held))
