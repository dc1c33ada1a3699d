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
finished shard, its file, rows, games and the file's SHA-256. Files are written to a temporary
name and renamed, so a killed run leaves only whole shards and a manifest that names them.
The manifest is checked as it is loaded (every entry a plain shard name in the run folder,
no file or game twice) and every shard against its entry before it is read or trusted
(:func:`entry_problem`), so a shard changed, lost or swapped since it was written is named,
never read as the run's.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic_write import atomic_write
from ..search.families import VALUE_SIZE

FORMAT = 2             # the shards written now
READABLE_FORMATS = (1, 2)
MANIFEST_FORMAT = 1    # the manifest's own layout, unchanged by the shards' format 2
MANIFEST = "manifest.json"
SUM_TOLERANCE = 1e-3  # float32 visit shares and win shares sum to 1 within rounding
SHARD_FILE = re.compile(r"shard-[0-9]{5,}\.npz")  # what shard_name writes: the only names an entry may hold
DIGEST = "sha256"      # the manifest entry's key for the shard file's SHA-256 (hex)
REJECTED = "rejected"  # a run's folder for the files a resume found bad: kept for a look, never read
ENTRY_KEYS = ("file", "rows", "games", "indexes")  # every entry's; DIGEST is missing only in runs from before it
# the shard meta that must be the run's own (its settings' names for them): "version" and "format" may differ
RUN_META = {"variant": "game", "search": "search", "seed": "seed"}

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
        # opened here: numpy leaves its own handle open when a damaged zip fails to load
        with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as data:
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
    """Every finished shard of a run directory (its manifest's order) as one :class:`Shard`,
    each checked against its manifest entry first (:func:`verified_files`)."""
    manifest = Manifest.load(directory)
    if manifest is None:
        raise ShardError(f"{directory}: no {MANIFEST}: not a self-play run directory")
    shards = [read_shard(path) for path in manifest.verified_files()]
    if not shards:
        raise ShardError(f"{directory}: the run has no finished shard yet")
    return Shard(concatenate([s.arrays for s in shards]), shards[0].meta)


def set_aside(folder: Path, name: str) -> Path | None:
    """Move ``folder/name`` (a file, a link or a folder) into ``folder/rejected/`` under a name
    not taken there, and return where; None when nothing is at that name."""
    source = folder / name
    if not source.exists() and not source.is_symlink():
        return None
    (folder / REJECTED).mkdir(exist_ok=True)
    target, number = folder / REJECTED / name, 0
    while target.exists() or target.is_symlink():
        number += 1
        target = folder / REJECTED / f"{name}.{number}"
    source.rename(target)
    return target


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    with open(path, "rb") as data:
        return hashlib.file_digest(data, "sha256").hexdigest()


def entry_problem(directory: Path, entry: Mapping[str, Any], settings: Mapping[str, Any]) -> str | None:
    """What is wrong with a manifest entry's shard in run ``directory`` (None: it is the file
    written): missing, a link out of the run, another file than the one whose SHA-256 the entry
    holds (told apart as unreadable, another run's, other rows or games where it can be), or,
    for an entry without a digest (a run from before them), a shard that does not read back
    as the entry and the run's ``settings`` say. Nothing outside ``directory`` is read."""
    path = directory / entry["file"]
    if path.is_symlink() and path.resolve().parent != directory.resolve():
        return f"is a link to {os.readlink(path)}, outside the run"
    if not path.exists():
        return "is missing"
    if not path.is_file():
        return "is not a file"
    recorded = entry.get(DIGEST)
    try:
        actual = file_sha256(path) if recorded is not None else None
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if recorded is not None and actual == recorded:
        return None
    why = _content_problem(path, entry, settings)
    if why is not None or recorded is None:
        return why
    return f"is not the file written: its SHA-256 is {actual}, the manifest's {recorded}"


def _content_problem(path: Path, entry: Mapping[str, Any], settings: Mapping[str, Any]) -> str | None:
    # what a shard's own content says against its entry (None: nothing it can tell)
    try:
        shard = read_shard(path)
    except ShardError as exc:
        return f"is damaged: {str(exc).removeprefix(f'{path}: ')}"
    foreign = [f"{key} {shard.meta.get(key)!r}, not {settings.get(name)!r}" for key, name in RUN_META.items()
               if name in settings and shard.meta.get(key) != settings[name]]
    if foreign:
        return f"holds another run's games ({'; '.join(foreign)})"
    if shard.games() != list(entry["games"]):  # first: another shard of the run has other rows too
        return f"holds games {shard.games()}, the manifest says {list(entry['games'])}"
    if shard.rows != entry["rows"]:
        return f"holds {shard.rows} rows, the manifest says {entry['rows']}"
    return None


def _entry_error(entry: Any) -> str | None:
    # the first thing wrong with one entry's form, None when it has the form a manifest entry has
    if not isinstance(entry, dict):
        return f"is {type(entry).__name__}, not an object"
    missing = [key for key in ENTRY_KEYS if key not in entry]
    if missing:
        return f"misses {', '.join(missing)}"
    file, rows, games, indexes = (entry[key] for key in ENTRY_KEYS)
    if not isinstance(file, str) or not SHARD_FILE.fullmatch(file):
        return f"file {file!r} is not a shard file name in the run folder (shard-NNNNN.npz)"

    def whole(value: Any, least: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= least

    if not whole(rows, 1):
        return f"rows {rows!r} is not a whole number >= 1"
    if not isinstance(games, list) or not games or not all(whole(g, -2**63) for g in games):
        return "games is not a list of game ids"
    if not isinstance(indexes, list) or len(indexes) != len(games) or not all(whole(i, 0) for i in indexes):
        return f"indexes is not a list of {len(games)} game indexes >= 0"
    digest = entry.get(DIGEST)
    if digest is not None and not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest)):
        return f"{DIGEST} {digest!r} is not a SHA-256 in hex"
    return None


def check_entries(path: Path, shards: Sequence[Any]) -> None:
    """Raise :class:`ShardError` naming manifest ``path`` and the entry unless every shard entry
    has its keys and types, names a plain shard file in the run folder, and no file, game index
    or game id is in two entries."""
    seen: dict[tuple[str, Any], int] = {}
    for number, entry in enumerate(shards):
        problem = _entry_error(entry)
        if problem is None:
            for kind, values in (("file", [entry["file"]]), ("game index", entry["indexes"]),
                                 ("game id", entry["games"])):
                twice = next((v for v in values if (kind, v) in seen), None)
                if twice is not None:
                    problem = f"{kind} {twice!r} is also in entry {seen[(kind, twice)]}"
                    break
                seen.update({(kind, v): number for v in values})
        if problem is not None:
            named = entry.get("file") if isinstance(entry, dict) else None
            raise ShardError(f"{path}: shard entry {number}{f' ({named!r})' if isinstance(named, str) else ''} "
                             f"{problem}")


@dataclass
class Manifest:
    """``manifest.json`` of a run: its settings and its finished shards.

    ``shards`` entries: ``{"file", "rows", "games": [game ids], "indexes": [game indexes],
    "sha256": the file's digest}`` (``sha256`` is missing only in runs written before it).
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
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ShardError(f"{path}: not a self-play manifest of format {MANIFEST_FORMAT} ({exc!r})") from None
        check_entries(path, shards)
        return cls(Path(directory), settings, shards)

    def verified_files(self) -> list[Path]:
        """The shard files in manifest order, each first checked to be the file its entry names
        (:func:`entry_problem`); :class:`ShardError` names the first that is not, and how."""
        for entry in self.shards:
            problem = entry_problem(self.directory, entry, self.settings)
            if problem is not None:
                raise ShardError(f"{self.directory / entry['file']}: {problem} "
                                 f"(shard entry of {self.directory / MANIFEST})")
        return [self.directory / entry["file"] for entry in self.shards]

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
        """The first shard name no entry holds (a shard dropped by a resume frees its name)."""
        taken = {entry["file"] for entry in self.shards}
        return next(shard_name(n) for n in range(len(self.shards) + 1) if shard_name(n) not in taken)

    def add(self, file: str, rows: int, games: Iterable[int], indexes: Iterable[int]) -> None:
        """Record a shard just written (with its file's SHA-256) and save the manifest."""
        self.shards.append({"file": file, "rows": int(rows), "games": [int(g) for g in games],
                            "indexes": [int(i) for i in indexes], DIGEST: file_sha256(self.directory / file)})
        self.save()

    def save(self) -> None:
        """Write the manifest atomically (temporary file, then renamed)."""
        data = {"format": MANIFEST_FORMAT, "settings": self.settings, "games": self.games, "rows": self.rows,
                "shards": self.shards}
        with atomic_write(self.directory / MANIFEST) as out:
            out.write((json.dumps(data, indent=1) + "\n").encode())


__all__ = ["COLUMNS", "DIGEST", "FORMAT", "MANIFEST", "MANIFEST_FORMAT", "META_KEYS", "READABLE_FORMATS", "REJECTED",
           "Manifest",
           "Shard", "ShardError", "VALUE_SIZE", "check_arrays", "check_entries", "columns_of", "concatenate",
           "entry_problem", "file_sha256", "read_run", "read_shard", "set_aside", "shard_name", "shares_of",
           "write_shard"]
