"""Self-play shards: the training examples of a self-play run (issue 16's shard format).

One shard is one ``np.savez_compressed`` file (``shard-00000.npz`` ...) holding one row per
decision of the games in it (chance nodes excluded), all arrays of equal length ``n``:

==============  ===========================  ==================================================
key             dtype, shape                 what
==============  ===========================  ==================================================
observation     float32 [n, observation]     ``observation_tensor(seat)`` of the seat to move
legal           bool [n, actions]            its legal actions
policy          float32 [n, actions]         the search root's visit share per action (rows
                                             sum to 1, zero off ``legal``)
value           float32 [n, 4]               the final result as win shares per seat, rotated
                                             so index 0 is the seat to move (0 past the players)
search_value    float32 [n, 4]               the search root's mean return per seat, as win
                                             shares rotated the same way (format 2 on)
players         int8 [n]                     player count
seat            int8 [n]                     seat to move
move_number     int16 [n]                    decision index in its game, from 0
game_id         int64 [n]                    the game (its deal seed: unique within a run)
meta            0-d str                      JSON: format, game, variant, family, search, seed,
                                             version
==============  ===========================  ==================================================

Format 1 shards (written before ``search_value``) are still read; they have every column
but that one.

A run directory holds the shards and ``manifest.json``: the run's settings and, per
finished shard, its file, rows and games. Files are written to a temporary name and
renamed, so a killed run leaves only whole shards and a manifest that names them.
"""
from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic_write import atomic_write
from .families import VALUE_SIZE

FORMAT = 2             # the shards written now
READABLE_FORMATS = (1, 2)
MANIFEST_FORMAT = 1    # the manifest's own layout, unchanged by the shards' format 2
MANIFEST = "manifest.json"
SUM_TOLERANCE = 1e-3  # float32 visit shares and win shares sum to 1 within rounding

# key -> (dtype, number of columns: None for one value per row, a name for a game size)
COLUMNS: dict[str, tuple[type, str | int | None]] = {
    "observation": (np.float32, "observation_size"),
    "legal": (np.bool_, "num_actions"),
    "policy": (np.float32, "num_actions"),
    "value": (np.float32, VALUE_SIZE),
    "search_value": (np.float32, VALUE_SIZE),
    "players": (np.int8, None),
    "seat": (np.int8, None),
    "move_number": (np.int16, None),
    "game_id": (np.int64, None),
}
META_KEYS = ("format", "game", "variant", "family", "search", "seed", "version")
SINCE_FORMAT = {"search_value": 2}  # columns a shard of an older format lacks


def columns_of(format_number: int) -> list[str]:
    """The keys a shard of ``format_number`` holds, in :data:`COLUMNS` order."""
    return [key for key in COLUMNS if SINCE_FORMAT.get(key, 1) <= format_number]


def shares_of(keys: Sequence[str]) -> list[str]:
    """The columns of win shares (each row >= 0, 0 past the players, summing to 1) among ``keys``."""
    return [key for key in ("value", "search_value") if key in keys]


class ShardError(ValueError):
    """A shard or manifest that does not hold what the format says; the message names the file."""


def shard_name(number: int) -> str:
    """The file name of shard ``number``: ``shard-00000.npz``."""
    return f"shard-{number:05d}.npz"


@dataclass
class Shard:
    """The rows of one shard (arrays keyed as :data:`COLUMNS`) and its ``meta``."""

    arrays: dict[str, np.ndarray]
    meta: dict[str, Any]

    @property
    def rows(self) -> int:
        return int(len(self.arrays["game_id"]))

    def games(self) -> list[int]:
        """The game ids in this shard, in the order their rows come."""
        ids = self.arrays["game_id"]
        return [int(g) for g in dict.fromkeys(ids.tolist())]


def concatenate(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The rows of several games (or shards) as one set of arrays, in the order given: the
    columns every part has (shards of format 1 among them: no ``search_value``)."""
    if not parts:
        raise ValueError("nothing to concatenate: no rows")
    return {key: np.concatenate([np.asarray(p[key]) for p in parts]) for key in COLUMNS
            if all(key in p for p in parts)}


def check_arrays(arrays: Mapping[str, np.ndarray], sizes: Mapping[str, int] | None = None,
                 where: str = "shard", format_number: int = FORMAT) -> None:
    """Raise :class:`ShardError` naming ``where``, the key and the first bad row unless
    ``arrays`` keep shard format ``format_number`` (the one check for writers and readers alike).

    ``sizes`` may give ``observation_size`` and ``num_actions`` to check the columns against.
    """
    keys = columns_of(format_number)
    missing = [key for key in keys if key not in arrays]
    if missing:
        raise ShardError(f"{where}: missing arrays {', '.join(missing)}")
    n = len(arrays["game_id"])
    for key in keys:
        dtype, width = COLUMNS[key]
        a = arrays[key]
        if a.dtype != np.dtype(dtype):
            raise ShardError(f"{where}: {key} has dtype {a.dtype}, expected {np.dtype(dtype)}")
        if len(a) != n:
            raise ShardError(f"{where}: {key} has {len(a)} rows, game_id has {n}")
        if width is None:
            if a.ndim != 1:
                raise ShardError(f"{where}: {key} must be one value per row, has shape {a.shape}")
            continue
        expected = width if isinstance(width, int) else (sizes or {}).get(width)
        if a.ndim != 2 or (expected is not None and a.shape[1] != expected):
            raise ShardError(f"{where}: {key} has shape {a.shape}, expected [{n}, {expected or 'columns'}]")
    if arrays["legal"].shape[1] != arrays["policy"].shape[1]:
        raise ShardError(f"{where}: legal and policy have different action counts")
    _check_rows(arrays, keys, where)


def _check_rows(arrays: Mapping[str, np.ndarray], keys: Sequence[str], where: str) -> None:
    # only the format's columns, whose shapes check_arrays has checked (a stray one is ignored)
    def first(bad: np.ndarray) -> int | None:
        rows = np.flatnonzero(bad)
        return int(rows[0]) if len(rows) else None

    def require(bad: np.ndarray, problem: Callable[[int], str]) -> None:
        if (row := first(bad)) is not None:
            raise ShardError(f"{where}: row {row}: {problem(row)}")

    players, seat = arrays["players"], arrays["seat"]
    legal, policy = arrays["legal"], arrays["policy"]
    require((players < 1) | (players > VALUE_SIZE), lambda r: f"{players[r]} players is not 1..{VALUE_SIZE}")
    require((seat < 0) | (seat >= players), lambda r: f"seat {seat[r]} is outside 0..players-1")
    require(arrays["move_number"] < 0, lambda r: "move_number is negative")
    for key in ("observation", "policy", *shares_of(keys)):
        require(~np.isfinite(arrays[key]).all(axis=1), lambda r, key=key: f"{key} holds NaN or infinity")
    require(~legal.any(axis=1), lambda r: "no legal action")
    require((policy < 0).any(axis=1), lambda r: "policy has a negative share")
    require((np.where(legal, 0.0, policy) != 0).any(axis=1), lambda r: "policy gives a share to an action that is not legal")
    require(np.abs(policy.sum(axis=1) - 1) > SUM_TOLERANCE, lambda r: f"policy sums to {policy[r].sum():.6g}, not 1")
    seats = np.arange(VALUE_SIZE)[None, :] < players[:, None]
    for key in shares_of(keys):
        value = arrays[key]
        require((value < 0).any(axis=1) | (np.where(seats, 0.0, value) != 0).any(axis=1),
                lambda r, key=key: f"{key} must be win shares >= 0 with 0 beyond the player count")
        require(np.abs(value.sum(axis=1) - 1) > SUM_TOLERANCE,
                lambda r, key=key, value=value: f"{key} sums to {value[r].sum():.6g}, not 1")


def write_shard(path: str | os.PathLike[str], arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
    """Write one shard (checked first), atomically: to a temporary name, then renamed."""
    target = Path(path)
    check_arrays(arrays, where=str(target))  # the current format: every column
    missing = [key for key in META_KEYS if key not in meta]
    if missing:
        raise ShardError(f"{target}: meta misses {', '.join(missing)}")
    with atomic_write(target) as out:
        np.savez_compressed(out, meta=np.array(json.dumps(dict(meta), sort_keys=True)),
                            **{key: np.asarray(arrays[key]) for key in COLUMNS})


def read_shard(path: str | os.PathLike[str], sizes: Mapping[str, int] | None = None) -> Shard:
    """Read and check one shard; :class:`ShardError` names the file and the problem."""
    where = str(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files if key != "meta"}
            meta_text = str(data["meta"]) if "meta" in data.files else None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ShardError(f"{where}: not a readable shard ({exc})") from None
    if meta_text is None:
        raise ShardError(f"{where}: no meta")
    try:
        meta = json.loads(meta_text)
    except json.JSONDecodeError as exc:
        raise ShardError(f"{where}: meta is not JSON ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") not in READABLE_FORMATS:
        raise ShardError(f"{where}: meta format {meta.get('format') if isinstance(meta, dict) else meta!r}, "
                         f"this version reads formats {', '.join(map(str, READABLE_FORMATS))}")
    check_arrays(arrays, sizes, where, meta["format"])
    return Shard(arrays, meta)


def read_run(directory: str | os.PathLike[str]) -> Shard:
    """Every finished shard of a run directory (its manifest's order) as one :class:`Shard`."""
    manifest = Manifest.load(directory)
    if manifest is None:
        raise ShardError(f"{directory}: no {MANIFEST}: not a self-play run directory")
    shards = [read_shard(Path(directory) / entry["file"]) for entry in manifest.shards]
    if not shards:
        raise ShardError(f"{directory}: the run has no finished shard yet")
    return Shard(concatenate([s.arrays for s in shards]), shards[0].meta)


@dataclass
class Manifest:
    """``manifest.json`` of a run: its settings and its finished shards.

    ``shards`` entries: ``{"file", "rows", "games": [game ids], "indexes": [game indexes]}``.
    """

    directory: Path
    settings: dict[str, Any]
    shards: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> Manifest | None:
        """The run's manifest, or None when the directory has none."""
        path = Path(directory) / MANIFEST
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text())
            settings, shards = data["settings"], data["shards"]
            if data.get("format") != MANIFEST_FORMAT or not isinstance(settings, dict) or not isinstance(shards, list):
                raise KeyError("format")
            for entry in shards:
                [entry[k] for k in ("file", "rows", "games", "indexes")]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ShardError(f"{path}: not a self-play manifest of format {MANIFEST_FORMAT} ({exc})") from None
        return cls(Path(directory), settings, shards)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Refuse to continue a run with other settings: ValueError names each setting that differs."""
        changed = [key for key in sorted(set(self.settings) | set(settings))
                   if self.settings.get(key) != settings.get(key)]
        if changed:
            details = "; ".join(f"{key}: the run has {self.settings.get(key)!r}, given {settings.get(key)!r}"
                                for key in changed)
            raise ValueError(f"{self.directory} holds a run with other settings ({details}); "
                             "use the run's settings to continue it, or another directory")

    def done_indexes(self) -> set[int]:
        """Indexes (in the run) of the games already in a finished shard."""
        return {int(i) for entry in self.shards for i in entry["indexes"]}

    @property
    def rows(self) -> int:
        return sum(int(entry["rows"]) for entry in self.shards)

    @property
    def games(self) -> int:
        return sum(len(entry["games"]) for entry in self.shards)

    def next_file(self) -> str:
        return shard_name(len(self.shards))

    def add(self, file: str, rows: int, games: Iterable[int], indexes: Iterable[int]) -> None:
        """Record a shard just written and save the manifest."""
        self.shards.append({"file": file, "rows": int(rows), "games": [int(g) for g in games],
                            "indexes": [int(i) for i in indexes]})
        self.save()

    def save(self) -> None:
        """Write the manifest atomically (temporary file, then renamed)."""
        data = {"format": MANIFEST_FORMAT, "settings": self.settings, "games": self.games, "rows": self.rows,
                "shards": self.shards}
        with atomic_write(self.directory / MANIFEST) as out:
            out.write((json.dumps(data, indent=1) + "\n").encode())


__all__ = ["COLUMNS", "FORMAT", "MANIFEST", "MANIFEST_FORMAT", "META_KEYS", "READABLE_FORMATS", "Manifest", "Shard",
           "ShardError", "VALUE_SIZE", "check_arrays", "columns_of", "concatenate", "read_run", "read_shard",
           "shard_name", "shares_of", "write_shard"]
