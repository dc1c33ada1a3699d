"""Training data: self-play shard files (``shard-00000.npz`` ...) read and validated.

A shard holds one row per decision (docs/training.md lists the keys): the observation of the
seat to move, the legal mask, the root's visit share per action and the final win shares
rotated so index 0 is the seat to move. Every problem is a ``ValueError`` naming the file.
"""
from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .families import VALUE_SIZE, Family, family, game_sizes

ARRAY_KEYS = ("observation", "legal", "policy", "value", "players", "seat", "move_number", "game_id")
DTYPES = {"observation": np.float32, "legal": np.bool_, "policy": np.float32, "value": np.float32,
          "players": np.int8, "seat": np.int8, "move_number": np.int16, "game_id": np.int64}
SUM_TOLERANCE = 1e-3  # float32 visit shares and win shares sum to 1 within rounding


@dataclass
class Examples:
    """Training rows: the arrays of the shard format, concatenated over files."""

    observation: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    players: np.ndarray
    game_id: np.ndarray

    def __len__(self) -> int:
        return int(self.observation.shape[0])

    def take(self, rows: np.ndarray) -> "Examples":
        """The rows at the indices ``rows``."""
        return Examples(self.observation[rows], self.legal[rows], self.policy[rows], self.value[rows],
                        self.players[rows], self.game_id[rows])


def shard_files(sources: Iterable[str | Path]) -> list[Path]:
    """The shard files named by ``sources``: files as given, directories by their
    ``shard-*.npz`` in name order; ``ValueError`` when a source is missing or holds none."""
    found: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            shards = sorted(path.glob("shard-*.npz"))
            if not shards:
                raise ValueError(f"{path}: no shard-*.npz files in this directory")
            found += shards
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
    return Examples(*(np.concatenate([getattr(p, name) for p in parts])
                      for name in ("observation", "legal", "policy", "value", "players", "game_id"))), summaries


def read_shard(path: str | Path, fam: Family) -> tuple[Examples, dict[str, object]]:
    """One shard file's rows and meta, checked against the format and the family."""
    path = Path(path)

    def fail(problem: str) -> ValueError:
        return ValueError(f"{path}: {problem}")

    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {key: npz[key] for key in npz.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise fail(f"not a readable .npz shard: {exc}") from None
    missing = [key for key in (*ARRAY_KEYS, "meta") if key not in arrays]
    if missing:
        raise fail(f"shard lacks {', '.join(missing)}")
    meta = _meta(arrays["meta"], fam, fail)
    for key in ARRAY_KEYS:
        if arrays[key].dtype != DTYPES[key]:
            raise fail(f"{key} must be {np.dtype(DTYPES[key]).name}, got {arrays[key].dtype.name}")
    n = arrays["observation"].shape[0] if arrays["observation"].ndim else -1
    observation_size, num_actions = game_sizes(fam.game)
    widths = {"observation": observation_size, "legal": num_actions, "policy": num_actions, "value": VALUE_SIZE}
    for key in ARRAY_KEYS:
        want = (n, widths[key]) if key in widths else (n,)
        if arrays[key].shape != want:
            raise fail(f"{key} has shape {arrays[key].shape}, expected {want}")
    if n == 0:
        raise fail("shard has no rows")
    _check_rows(arrays, fam, fail)
    return Examples(arrays["observation"], arrays["legal"], arrays["policy"], arrays["value"],
                    arrays["players"], arrays["game_id"]), meta


def _meta(raw: np.ndarray, fam: Family, fail: Callable[[str], ValueError]) -> dict[str, object]:
    try:
        meta = json.loads(str(raw.item())) if raw.ndim == 0 else None
    except (ValueError, TypeError):
        meta = None
    if not isinstance(meta, dict):
        raise fail("meta must be a 0-d string array holding a JSON object")
    if meta.get("format") != 1:
        raise fail(f"shard format {meta.get('format')!r} is not supported (this reader knows 1)")
    if meta.get("family") != fam.name:
        raise fail(f"shard holds family {meta.get('family')!r}, not {fam.name}")
    if meta.get("game") != fam.game:
        raise fail(f"shard holds game {meta.get('game')!r}, not {fam.game}")
    return meta


def _first_bad(bad: np.ndarray) -> int:
    return int(np.flatnonzero(bad)[0])


def _check_rows(arrays: dict[str, np.ndarray], fam: Family, fail: Callable[[str], ValueError]) -> None:
    players, seat = arrays["players"], arrays["seat"]
    if (bad := ~np.isin(players, fam.players)).any():
        raise fail(f"row {_first_bad(bad)}: {players[_first_bad(bad)]} players is not family {fam.name}'s {list(fam.players)}")
    if (bad := (seat < 0) | (seat >= players)).any():
        raise fail(f"row {_first_bad(bad)}: seat {seat[_first_bad(bad)]} is outside 0..players-1")
    if (bad := arrays["move_number"] < 0).any():
        raise fail(f"row {_first_bad(bad)}: move_number is negative")
    for key in ("observation", "policy", "value"):
        if (bad := ~np.isfinite(arrays[key]).all(axis=1)).any():
            raise fail(f"row {_first_bad(bad)}: {key} holds NaN or infinity")
    legal, policy, value = arrays["legal"], arrays["policy"], arrays["value"]
    if (bad := ~legal.any(axis=1)).any():
        raise fail(f"row {_first_bad(bad)}: no legal action")
    if (bad := (policy < 0).any(axis=1)).any():
        raise fail(f"row {_first_bad(bad)}: policy has a negative share")
    if (bad := (np.where(legal, 0.0, policy) != 0).any(axis=1)).any():
        raise fail(f"row {_first_bad(bad)}: policy gives visits to an illegal action")
    if (bad := np.abs(policy.sum(axis=1) - 1) > SUM_TOLERANCE).any():
        raise fail(f"row {_first_bad(bad)}: policy sums to {policy[_first_bad(bad)].sum():.6g}, not 1")
    seats = np.arange(VALUE_SIZE)[None, :] < players[:, None]
    if (bad := (value < 0).any(axis=1) | (np.where(seats, 0.0, value) != 0).any(axis=1)).any():
        raise fail(f"row {_first_bad(bad)}: value must be win shares >= 0 with 0 beyond the player count")
    if (bad := np.abs(value.sum(axis=1) - 1) > SUM_TOLERANCE).any():
        raise fail(f"row {_first_bad(bad)}: value sums to {value[_first_bad(bad)].sum():.6g}, not 1")


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
