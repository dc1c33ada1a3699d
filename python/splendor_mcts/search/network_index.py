"""The index of a networks folder: each family's network and how the search uses it.

A networks folder (the package's ``networks/``, or the one ``$SPLENDOR_MCTS_NETWORKS``
names; docs/network-format.md, "The networks folder") holds :data:`INDEX_FILE` and, for each
family the index lists, its one weight file ``<family>-<hash>.smnet`` (:func:`file_name`:
the first :data:`HASH_LENGTH` hex digits of the file's SHA-256), and nothing else. The index
is the one place for what the search does with each family's network::

    {"format": 1, "networks": {"splendor-2p": {"file": "splendor-2p-1a2b3c4d.smnet",
     "sha256": "1a2b3c4d...", "on": true, "value_mix": 0.5, "puct": null, "players": null,
     "formerly": ["8779cc8b"], "note": "why it is on"}}}

:class:`ShippedNetwork` says what each key means. Where a network came from is not here but
in the provenance folder keyed by the same hash (``bench/networks/<hash>/`` for the package's;
docs/training.md, "Shipping a network").
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..atomic_write import atomic_write
from .families import FAMILIES

INDEX_FILE = "index.json"
FORMAT = 1
SUFFIX = ".smnet"
HASH_LENGTH = 8  # hex digits of the file's SHA-256 that name a network, in its file name and in reports
_SHA256 = re.compile(r"[0-9a-f]{64}")
_SHORT = re.compile(rf"[0-9a-f]{{{HASH_LENGTH}}}")


@dataclass(frozen=True)
class ShippedNetwork:
    """A family's entry in the index: its weight file ``file`` (named :func:`file_name` of
    ``sha256``, the file's SHA-256) and how the search uses it.

    ``on``: the default search uses it (at every door, when no ``network`` is given;
    ``network=none`` turns it off), for the player counts in ``players`` (None: every count
    the family plays). ``value_mix`` and ``puct`` are those it is used with, by default or
    as ``network=shipped``, unless given (``puct`` None: the engine's). ``formerly``: short
    hashes the same weights had under an earlier header (reports that name them still
    search with these weights). ``note``: why the entry is as it is (the measurement).
    """

    file: str
    sha256: str
    on: bool = False
    value_mix: float = 0.5
    puct: float | None = None
    players: tuple[int, ...] | None = None
    formerly: tuple[str, ...] = ()
    note: str = ""

    @property
    def short_hash(self) -> str:
        return self.sha256[:HASH_LENGTH]

    def default_for(self, players: int) -> bool:
        """Whether the default search with ``players`` seats uses the network."""
        return self.on and (self.players is None or players in self.players)

    def to_json(self) -> dict[str, Any]:
        values = asdict(self)
        values["players"] = list(self.players) if self.players is not None else None
        values["formerly"] = list(self.formerly)
        return values


def file_name(family_name: str, sha256: str) -> str:
    """The name of family ``family_name``'s weight file whose SHA-256 is ``sha256``."""
    return f"{family_name}-{sha256[:HASH_LENGTH]}{SUFFIX}"


def read_index(folder: Path) -> dict[str, ShippedNetwork]:
    """The entries of ``folder``'s index by family (in the order of ``families.FAMILIES``);
    none when the folder has no index. ``ValueError`` naming the index and the problem for
    one that is not JSON of this format, an unknown family or key, a value of the wrong
    kind, or a file not named by its hash or not in the folder."""
    path = folder / INDEX_FILE
    try:
        stat = path.stat()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the networks index: {exc.strerror or exc}") from None
    entries = dict(_read(str(path), stat.st_ino, stat.st_mtime_ns, stat.st_size))
    for family_name, entry in entries.items():  # looked at each time: a file can go while its index stays
        if not (folder / entry.file).is_file():
            raise ValueError(f"{path}: {family_name}: its file {entry.file} is not in the folder")
    return entries


@lru_cache(maxsize=8)  # keyed by inode, mtime and size: an index written again (a new file, renamed) is read again
def _read(path: str, inode: int, mtime_ns: int, size: int) -> tuple[tuple[str, ShippedNetwork], ...]:
    index = Path(path)

    def fail(problem: str) -> ValueError:
        return ValueError(f"{index}: {problem}")

    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(f"cannot read the networks index ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("networks"), dict) \
            or set(data) != {"format", "networks"}:
        raise fail(f'not a networks index: write {{"format": {FORMAT}, "networks": {{family: entry}}}}')
    entries = {}
    for family_name, values in data["networks"].items():
        if family_name not in FAMILIES:
            raise fail(f"{family_name!r} is no network family (families: {', '.join(FAMILIES)})")
        entries[family_name] = _entry(values, family_name, lambda problem: fail(f"{family_name}: {problem}"))
    return tuple((name, entries[name]) for name in FAMILIES if name in entries)


_KNOWN = {f.name for f in fields(ShippedNetwork)}


def _entry(values: Any, family_name: str, fail: Any) -> ShippedNetwork:
    """One family's entry, checked; ``fail(problem)`` makes the error."""
    if not isinstance(values, dict):
        raise fail("an entry must be an object")
    if unknown := sorted(set(values) - _KNOWN):
        raise fail(f"unknown key {', '.join(unknown)} (keys: {', '.join(sorted(_KNOWN))})")
    sha = values.get("sha256")
    if not (isinstance(sha, str) and _SHA256.fullmatch(sha)):
        raise fail(f"sha256 must be the file's SHA-256 in 64 lower-case hex digits, got {sha!r}")
    if values.get("file") != file_name(family_name, sha):
        raise fail(f"file must be {file_name(family_name, sha)!r} (the family and its hash), got {values.get('file')!r}")
    if not isinstance(values.get("on", False), bool):
        raise fail(f"on must be true or false, got {values['on']!r}")
    value_mix = values.get("value_mix", 0.5)
    if not _number(value_mix) or not 0 <= value_mix <= 1:
        raise fail(f"value_mix must be a number from 0 to 1, got {value_mix!r}")
    puct = values.get("puct")
    if puct is not None and not (_number(puct) and puct > 0):
        raise fail(f"puct must be a positive number or null, got {puct!r}")
    players = values.get("players")
    counts = FAMILIES[family_name].players
    if players is not None and not (isinstance(players, list) and players and all(p in counts for p in players)):
        raise fail(f"players must be null or a list of the family's player counts {list(counts)}, got {players!r}")
    formerly = values.get("formerly", [])
    if not (isinstance(formerly, list) and all(isinstance(h, str) and _SHORT.fullmatch(h) for h in formerly)):
        raise fail(f"formerly must be a list of {HASH_LENGTH}-digit hashes, got {formerly!r}")
    if not isinstance(values.get("note", ""), str):
        raise fail(f"note must be text, got {values['note']!r}")
    return ShippedNetwork(file=values["file"], sha256=sha, on=values.get("on", False), value_mix=float(value_mix),
                          puct=None if puct is None else float(puct),
                          players=None if players is None else tuple(players), formerly=tuple(formerly),
                          note=values.get("note", ""))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def write_index(folder: Path, entries: dict[str, ShippedNetwork]) -> Path:
    """Write ``entries`` as ``folder``'s index (whole or not at all); ``ValueError``, with
    nothing written, for an entry :func:`read_index` would refuse or whose file is not
    already in the folder."""
    path = folder / INDEX_FILE
    for name, entry in entries.items():  # as a reader will, before anything is written
        def fail(problem: str, name: str = name) -> ValueError:
            return ValueError(f"{path}: {name}: {problem}")
        if name not in FAMILIES:
            raise fail(f"no network family (families: {', '.join(FAMILIES)})")
        _entry(entry.to_json(), name, fail)
        if not (folder / entry.file).is_file():
            raise fail(f"its file {entry.file} is not in the folder")
    data = {"format": FORMAT, "networks": {name: entries[name].to_json() for name in FAMILIES if name in entries}}
    with atomic_write(path) as out:
        out.write((json.dumps(data, indent=1) + "\n").encode())
    return path


def install(folder: Path, family_name: str, data: bytes) -> Path:
    """Make the weight file ``data`` family ``family_name``'s network in the networks folder
    ``folder``: written as :func:`file_name`, its index entry pointed at it, and the family's
    earlier file removed; the file written. The entry's search settings stay (they change
    once the new network is measured; a new family's entry is off), its ``formerly`` and
    ``note``, which spoke of the earlier weights, go."""
    sha = hashlib.sha256(data).hexdigest()
    entries = read_index(folder)
    target = folder / file_name(family_name, sha)
    folder.mkdir(parents=True, exist_ok=True)
    with atomic_write(target) as out:
        out.write(data)
    earlier = entries.get(family_name)
    entries[family_name] = replace(earlier, file=target.name, sha256=sha, formerly=(), note="") if earlier \
        else ShippedNetwork(file=target.name, sha256=sha)
    write_index(folder, entries)
    for stale in folder.glob(f"{family_name}-*{SUFFIX}"):  # the earlier file, or one an interruption left
        if stale.name != target.name and _SHORT.fullmatch(stale.name[len(family_name) + 1:-len(SUFFIX)]):
            stale.unlink()
    return target


__all__ = ["HASH_LENGTH", "INDEX_FILE", "ShippedNetwork", "file_name", "install", "read_index", "write_index"]
