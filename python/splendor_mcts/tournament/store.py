"""The tournament database: SQLite, one transaction per finished game, written by one process.

Tables (schema 4)::

    tournament(key, value)            'schema' = 4, 'fingerprint' = JSON of what defines the
                                      tournament (game spec, agent specs, mode, seed,
                                      max_decisions)
    agents(agent, name, spec)         agent index -> display name and spec
    games(game_id, pairing, deal, rotation, seed, seats, result, termination,
          forfeit_seat, forfeit_reason, num_actions, think_time, decisions, wall_time, record,
          finished_at, adjudication)
                                      seats/result/think_time/decisions are JSON lists per seat;
                                      record is the full game record (splendor_mcts.records):
                                      every action in order, chance outcomes included, and the
                                      seconds of every decision; adjudication says why a game
                                      still going after max_decisions was scored a draw

A game is one row, written in one transaction once the game has ended, so a killed run loses at
most the games that were being played, and re-running the command plays exactly those again.

The file is a trusted store, checked twice:

* on write, by the schema: one row per scheduled game (``UNIQUE (pairing, deal, rotation)``),
  seats distinct agent indexes, one finite result per seat (CHECKs and triggers);
* on read, row by row (:meth:`TournamentStore.scored_games`, :meth:`TournamentStore.records`):
  text that is not UTF-8, JSON that does not parse, a result that is not a number, a row that is
  not the game the schedule puts at its id (a duplicate, ``seats [0, 0]``) is refused with a
  :class:`TournamentDatabaseError` naming the row, never counted.

One tournament at a time writes a file: :meth:`TournamentStore.create_or_resume` takes an
exclusive ``flock`` on it (released by the kernel when the process dies, so a killed run never
leaves a stale lock); a second one gets :class:`DatabaseInUse`. A full disk gives
:class:`DatabaseFull` (the games already committed are intact). A file or folder the process may
not write is opened read-only: export, replay and the report work, and playing the missing games
is refused with :class:`DatabaseReadOnly`.

Schema 1 also had ``moves(game_id, ply, player, action, seconds)``, one row per action: the same
actions and times as the record, stored twice; schema 2 had the schema-3 columns without the
constraints; schema 3 had no ``adjudication`` column (nor the termination ``adjudicated``) and
its fingerprint no ``max_decisions``: its games were played without a cap, and it is read as
having the default one (:data:`~splendor_mcts.games.limits.MAX_DECISIONS`), which no game of
such a file reached in practice. Resuming an older database checks every row, then upgrades it
in one transaction (schema 1: ``decisions`` filled from ``moves``, then ``moves`` dropped);
reading one (export, replay, report) works without changing it.
"""

from __future__ import annotations

import errno
import fcntl
import json
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..games.limits import MAX_DECISIONS
from ..records import TERMINATIONS, GameRecord, replay_problem
from .ratings import ScoredGame
from .schedule import ScheduledGame, make_pairings, scheduled_game

SCHEMA_VERSION = "4"
READABLE_SCHEMAS = ("1", "2", "3", SCHEMA_VERSION)
FINGERPRINT_FORMAT = "splendor-mcts-tournament/1"
STORED_TERMINATIONS = tuple(t for t in TERMINATIONS if t != "unfinished")

_GAMES_TABLE = """
CREATE TABLE {name} (
    game_id INTEGER PRIMARY KEY CHECK (game_id >= 0),
    pairing INTEGER NOT NULL CHECK (typeof(pairing) = 'integer' AND pairing >= 0),
    deal INTEGER NOT NULL CHECK (typeof(deal) = 'integer' AND deal >= 0),
    rotation INTEGER NOT NULL CHECK (typeof(rotation) = 'integer' AND rotation >= 0),
    seed INTEGER NOT NULL CHECK (typeof(seed) = 'integer' AND seed >= 0),
    seats TEXT NOT NULL CHECK (json_valid(seats) AND json_type(seats) = 'array' AND json_array_length(seats) >= 2),
    result TEXT NOT NULL CHECK (json_valid(result) AND json_type(result) = 'array'
                                AND json_array_length(result) = json_array_length(seats)),
    termination TEXT NOT NULL CHECK (termination IN ({terminations})),
    forfeit_seat INTEGER CHECK ((termination = 'forfeit') = (forfeit_seat IS NOT NULL)
                                AND (forfeit_seat IS NULL OR forfeit_seat BETWEEN 0 AND json_array_length(seats) - 1)),
    forfeit_reason TEXT,
    num_actions INTEGER NOT NULL CHECK (num_actions >= 0),
    think_time TEXT NOT NULL CHECK (json_valid(think_time) AND json_array_length(think_time) = json_array_length(seats)),
    decisions TEXT NOT NULL CHECK (json_valid(decisions) AND json_array_length(decisions) = json_array_length(seats)),
    wall_time REAL NOT NULL,
    record TEXT NOT NULL CHECK (json_valid(record)),
    finished_at TEXT NOT NULL,
    adjudication TEXT CHECK ((termination = 'adjudicated') = (adjudication IS NOT NULL)),
    UNIQUE (pairing, deal, rotation)
)"""
# CHECK constraints cannot read json_each (a subquery): element checks are triggers.
_GAMES_TRIGGERS = [
    f"""CREATE TRIGGER games_{when}_check BEFORE {when.upper()} ON games
    WHEN CASE WHEN json_valid(NEW.seats) AND json_valid(NEW.result) THEN
      EXISTS (SELECT 1 FROM json_each(NEW.seats) WHERE type != 'integer' OR value < 0
              OR value >= (SELECT COUNT(*) FROM agents))
      OR (SELECT COUNT(DISTINCT value) FROM json_each(NEW.seats)) != json_array_length(NEW.seats)
      OR EXISTS (SELECT 1 FROM json_each(NEW.result) WHERE type NOT IN ('integer', 'real') OR value < 0 OR value > 1)
      ELSE 1 END
    BEGIN SELECT RAISE(ABORT, 'games: seats must be distinct agent indexes and results numbers in [0, 1] (both JSON lists)'); END"""
    for when in ("insert", "update")
]
_SCHEMA = [
    "CREATE TABLE tournament (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE agents (agent INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec TEXT NOT NULL)",
    _GAMES_TABLE.format(name="games", terminations=", ".join(f"'{t}'" for t in STORED_TERMINATIONS)),
    *_GAMES_TRIGGERS,
]
_TABLES = {"tournament", "agents", "games"}
_BAD_ROWS = " bad rows"  # not a table name: the integrity check found rows breaking a constraint
_OLD_COLUMNS = ("game_id, pairing, deal, rotation, seed, seats, result, termination, forfeit_seat, forfeit_reason,"
                " num_actions, think_time, decisions, wall_time, record, finished_at")  # schemas 2 and 3
_COLUMNS = _OLD_COLUMNS + ", adjudication"
_UPGRADE_HINT = "repair or delete that row (sqlite3 FILE \"DELETE FROM games WHERE game_id = ...\") or use another --db"


class TournamentDatabaseError(ValueError):
    """The database file cannot be used: corrupt, not ours, or made for another tournament."""


class DatabaseInUse(RuntimeError):
    """Another tournament is writing this database right now."""


class DatabaseFull(RuntimeError):
    """The disk (or SQLite's page limit) is full; the games committed so far are intact."""


class DatabaseReadOnly(RuntimeError):
    """The database may be read but not written, and the tournament has games left to play."""


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as a worker returns it: the record plus each seat's thinking totals."""

    game_id: int
    record: GameRecord
    think_time: tuple[float, ...]  # seconds thinking per seat
    decisions: tuple[int, ...]  # decisions (non-chance actions) per seat
    wall_time: float
    record_json: str = ""  # record.to_json() when the worker made it already


@dataclass(frozen=True)
class StoredGame:
    """One checked row of ``games`` (the record text is read separately: it is the bulk)."""

    row: int  # position in game-id order, from 1, as error messages name it
    scheduled: ScheduledGame
    result: tuple[float, ...]
    termination: str
    forfeit_seat: int | None
    forfeit_reason: str | None
    think_time: tuple[float, ...]
    decisions: tuple[int, ...]
    adjudication: str | None = None  # why a game was adjudicated a draw


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    uri = f"file:{path}?mode={'ro' if read_only else 'rw'}"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0)
    conn.text_factory = bytes  # text is decoded row by row, so bad bytes name their row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _use_wal(conn: sqlite3.Connection) -> None:
    """Write-ahead log with synchronous=NORMAL: a committed game survives the process being killed
    (what resuming needs); only a power cut may lose the last commits, never corrupt the file.
    It saves the fsync per game that otherwise dominates the cost of storing a cheap game."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


def _text(value: Any, where: str) -> str:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise TournamentDatabaseError(f"{where} is not valid UTF-8 text") from None
    if isinstance(value, str):
        return value
    raise TournamentDatabaseError(f"{where} is not text (got {type(value).__name__})")


def _json(value: Any, where: str) -> Any:
    text = _text(value, where)
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise TournamentDatabaseError(f"{where} is not valid JSON: {text[:60]!r}") from None


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_full(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "full" in str(exc)


def _is_read_only(exc: sqlite3.Error) -> bool:
    return "readonly" in str(exc) or "read-only" in str(exc)


def _lock(path: Path) -> tuple[int, bool]:
    """Open ``path`` (creating it) and take the tournament lock: (descriptor, writable)."""
    writable = True
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except IsADirectoryError:
        raise TournamentDatabaseError(f"{path} is a directory, not a database file") from None
    except FileNotFoundError:
        raise TournamentDatabaseError(f"cannot create {path}: the folder {path.parent} does not exist") from None
    except PermissionError:
        if not path.exists():
            raise TournamentDatabaseError(
                f"cannot create {path}: the folder {path.parent} is not writable; choose another --db") from None
        writable = False
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            raise TournamentDatabaseError(f"cannot open {path}: {exc.strerror}") from None
    except OSError as exc:
        raise TournamentDatabaseError(f"cannot open or create {path}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            os.close(fd)
            raise DatabaseInUse(f"{path} is in use by another tournament; wait for it to end or use another --db") from None
        # A file system without flock (some network mounts): go on unlocked; SQLite's own locks
        # and the UNIQUE constraint still keep a second writer from storing a game twice.
    if writable and not os.access(path.parent, os.W_OK):
        writable = False  # SQLite needs the folder for its journal
    return fd, writable


def _table_names(conn: sqlite3.Connection, path: Path) -> set[str]:
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        check = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        raise TournamentDatabaseError(f"{path} is not a usable SQLite database ({exc})") from None
    problem = "no answer" if check is None else _text(check[0], f"{path}: the integrity check")
    tables = {_text(r[0], f"{path}: a table name") for r in rows}
    if problem == "ok":
        return tables
    if problem.startswith(("CHECK constraint failed in games", "NULL value in games")) and "games" in tables:
        return tables | {_BAD_ROWS}  # sound file, a bad row: the row checks name it (_check_ours)
    raise TournamentDatabaseError(f"{path} is corrupt (SQLite integrity check: {problem})")


def _open_read_only(path: Path) -> tuple[sqlite3.Connection, set[str]]:
    """A read-only connection and the table names, also in a folder this process may not write."""
    conn = _connect(path, read_only=True)
    try:
        return conn, _table_names(conn, path)
    except TournamentDatabaseError as exc:
        conn.close()
        if "unable to open" not in str(exc) and "readonly" not in str(exc):
            raise
    # A WAL database whose folder we may not write: SQLite cannot make its shared-memory file.
    # Read the file alone, which holds every game unless a killed writer left a log behind.
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise TournamentDatabaseError(
            f"cannot read {path}: its folder is not writable and {wal} holds games not yet merged into it; "
            "run any tournament command on it once where it may be written")
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True, isolation_level=None)
    conn.text_factory = bytes
    return conn, _table_names(conn, path)


def _describe_difference(stored: dict[str, Any], wanted: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(stored) | set(wanted)) if stored.get(k) != wanted.get(k)]
    return "; ".join(f"{k}: database has {stored.get(k)!r}, this run has {wanted.get(k)!r}" for k in keys)


class TournamentStore:
    """Reads and writes one tournament database. Use :meth:`create_or_resume` or :meth:`open_existing`."""

    def __init__(self, conn: sqlite3.Connection, path: Path, lock_fd: int | None = None,
                 read_only: bool = False) -> None:
        self.conn = conn
        self.path = path
        self.read_only = read_only
        self._lock_fd = lock_fd
        self._wal = False  # this store switched the file to WAL, and switches it back on close
        self._checked: list[StoredGame] | None = None  # stored_games() until the next write
        self.schema = SCHEMA_VERSION  # what the file holds; set by _check_ours for an existing file

    @classmethod
    def create_or_resume(
        cls, path: str | Path, fingerprint: dict[str, Any], agents: Sequence[tuple[str, str]]
    ) -> TournamentStore:
        """Open ``path`` for this tournament, creating it if new, and lock it.

        Refuses (TournamentDatabaseError, database untouched) a file that is not a SQLite
        database, is corrupt, holds other tables, holds a different tournament, or has a row that
        is not a game of its schedule; :class:`DatabaseInUse` if another tournament has it open.
        A file this process may not write is opened read-only (:attr:`read_only`).
        """
        path = Path(path)
        fingerprint = {"format": FINGERPRINT_FORMAT, **fingerprint}
        new_file = not path.exists()
        fd, writable = _lock(path)
        try:
            if writable:
                conn = _connect(path)
                tables = _table_names(conn, path)
            else:
                conn, tables = _open_read_only(path)
        except BaseException:
            os.close(fd)
            raise
        store = cls(conn, path, fd, read_only=not writable)
        try:
            if not tables:
                if not writable:
                    raise TournamentDatabaseError(f"cannot create a database in {path}: it is read-only")
                with store._writing("creating the database"):
                    conn.execute("BEGIN IMMEDIATE")
                    for statement in _SCHEMA:
                        conn.execute(statement)
                    conn.execute("INSERT INTO tournament VALUES ('schema', ?)", (SCHEMA_VERSION,))
                    conn.execute("INSERT INTO tournament VALUES ('fingerprint', ?)", (json.dumps(fingerprint),))
                    conn.execute("INSERT INTO tournament VALUES ('created', ?)", (time.strftime("%Y-%m-%dT%H:%M:%S"),))
                    conn.executemany("INSERT INTO agents VALUES (?, ?, ?)",
                                     [(i, name, spec) for i, (name, spec) in enumerate(agents)])
                    conn.execute("COMMIT")
                with store._writing("setting up the write-ahead log"):
                    _use_wal(conn)
                store._wal = True
                new_file = False
                return store
            store._check_ours(tables)
            store.check_tournament(fingerprint)
            if store.schema != SCHEMA_VERSION and writable:
                store.stored_games()  # every row checked before anything is changed
                store._upgrade()
            if writable:
                with store._writing("setting up the write-ahead log"):
                    _use_wal(conn)
                store._wal = True
            return store
        except BaseException:
            store.close()
            if new_file and path.is_file() and path.stat().st_size == 0:
                path.unlink()  # nothing was made: leave no empty file behind
            raise

    @classmethod
    def open_existing(cls, path: str | Path) -> TournamentStore:
        """Open a database for reading (export, replay, report); it must exist and be ours.

        Works on a file and folder this process may not write."""
        path = Path(path)
        if not path.is_file():
            raise TournamentDatabaseError(f"no tournament database at {path}")
        conn, tables = _open_read_only(path)
        store = cls(conn, path, read_only=True)
        try:
            store._check_ours(tables)
        except BaseException:
            conn.close()
            raise
        return store

    def _writing(self, what: str) -> Any:
        return _Writing(self, what)

    def _check_ours(self, tables: set[str]) -> None:
        if not _TABLES <= tables:
            raise TournamentDatabaseError(
                f"{self.path} is not a splendor-mcts tournament database (tables: {', '.join(sorted(tables - {_BAD_ROWS}))})"
            )
        row = self.conn.execute("SELECT value FROM tournament WHERE key = 'schema'").fetchone()
        schema = _text(row[0], f"{self.path}: the schema version") if row else "none"
        if schema not in READABLE_SCHEMAS:
            raise TournamentDatabaseError(
                f"{self.path} has tournament schema {schema!r}; this version reads "
                f"{', '.join(repr(v) for v in READABLE_SCHEMAS)}"
            )
        if schema == "1" and "moves" not in tables:
            raise TournamentDatabaseError(f"{self.path} is corrupt: schema 1 without its moves table")
        self.schema = schema
        if _BAD_ROWS in tables:
            self.stored_games()  # names the first bad row it finds
            raise TournamentDatabaseError(f"{self.path} is corrupt: a row of games breaks the schema's constraints "
                                          "(SQLite integrity check)")

    def _upgrade(self) -> None:
        """Schema 1, 2 or 3 -> 4 in one transaction: the games table rebuilt with its constraints
        and the ``adjudication`` column (schema 1: per-seat decision counts from ``moves`` first,
        then ``moves`` dropped); the fingerprint gets the cap its games were read with."""
        with self._writing(f"upgrading schema {self.schema} to {SCHEMA_VERSION}"):
            conn = self.conn
            conn.execute("BEGIN IMMEDIATE")
            if self.schema == "1":
                counts: dict[int, dict[int, int]] = {}
                for game_id, player, count in conn.execute(
                    "SELECT game_id, player, COUNT(*) FROM moves WHERE player >= 0 GROUP BY game_id, player"
                ):
                    counts.setdefault(game_id, {})[player] = count
                rows = []
                for game_id, seats in conn.execute("SELECT game_id, seats FROM games").fetchall():
                    per_game = counts.get(game_id, {})
                    rows.append((json.dumps([per_game.get(s, 0) for s in range(len(json.loads(seats)))]), game_id))
                conn.execute("ALTER TABLE games ADD COLUMN decisions TEXT NOT NULL DEFAULT '[]'")
                conn.executemany("UPDATE games SET decisions = ? WHERE game_id = ?", rows)
                conn.execute("DROP TABLE moves")
            conn.execute(_GAMES_TABLE.format(name="games_new",
                                             terminations=", ".join(f"'{t}'" for t in STORED_TERMINATIONS)))
            conn.execute(f"INSERT INTO games_new ({_OLD_COLUMNS}) SELECT {_OLD_COLUMNS} FROM games")
            conn.execute("DROP TABLE games")
            conn.execute("ALTER TABLE games_new RENAME TO games")
            for trigger in _GAMES_TRIGGERS:
                conn.execute(trigger)
            conn.execute("UPDATE tournament SET value = ? WHERE key = 'fingerprint'", (json.dumps(self.fingerprint()),))
            conn.execute("UPDATE tournament SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        self.schema = SCHEMA_VERSION
        self._checked = None  # checked as the old schema read them (schema 1: no decisions)

    def fingerprint(self) -> dict[str, Any]:
        row = self.conn.execute("SELECT value FROM tournament WHERE key = 'fingerprint'").fetchone()
        try:
            value = json.loads(_text(row[0], "")) if row else None
        except (json.JSONDecodeError, TournamentDatabaseError):
            value = None
        if not isinstance(value, dict) or not isinstance(value.get("agents"), list):
            raise TournamentDatabaseError(f"{self.path} is corrupt: its tournament fingerprint is unreadable")
        if self.schema in ("1", "2", "3"):  # made before the cap: read with the default one
            value.setdefault("max_decisions", MAX_DECISIONS)
        return value

    def check_tournament(self, fingerprint: dict[str, Any]) -> None:
        """Refuses (TournamentDatabaseError) a database that holds another tournament than the
        one ``fingerprint`` describes (``Tournament.fingerprint``, with or without its format)."""
        wanted = {"format": FINGERPRINT_FORMAT, **fingerprint}
        stored = self.fingerprint()
        if stored != wanted:
            raise TournamentDatabaseError(
                f"{self.path} holds a different tournament ({_describe_difference(stored, wanted)}); "
                "use another --db or remove the file")

    def agents(self) -> list[tuple[str, str]]:
        """(display name, spec) per agent index."""
        return [(_text(n, f"{self.path}: agent {i}'s name"), _text(s, f"{self.path}: agent {i}'s spec"))
                for i, n, s in self.conn.execute("SELECT agent, name, spec FROM agents ORDER BY agent")]

    def finished_ids(self) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT game_id FROM games")}

    def write_game(self, scheduled: ScheduledGame, played: PlayedGame) -> None:
        """Store one finished game (its record holds every action and decision time) in one transaction."""
        record = played.record
        if record.result is None:
            raise ValueError(f"game {scheduled.game_id} has no result; only finished games are stored")
        if self.read_only:
            raise DatabaseReadOnly(f"{self.path} is read-only: cannot store game {scheduled.game_id}")
        forfeit = record.forfeit
        row = (scheduled.game_id, scheduled.pairing, scheduled.deal, scheduled.rotation, scheduled.seed,
               json.dumps(list(scheduled.seats)), json.dumps(list(record.result)), record.termination,
               forfeit.seat if forfeit else None, forfeit.reason if forfeit else None,
               len(record.actions), json.dumps(list(played.think_time)), json.dumps(list(played.decisions)),
               played.wall_time, played.record_json or record.to_json(), time.strftime("%Y-%m-%dT%H:%M:%S"),
               record.meta.get("adjudication", "adjudicated") if record.termination == "adjudicated" else None)
        self._checked = None
        with self._writing(f"storing game {scheduled.game_id}"):
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(f"INSERT INTO games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              row)
            self.conn.execute("COMMIT")

    def _schedule_facts(self) -> tuple[int, int, str]:
        """(number of agents, tournament seed, mode) from the fingerprint: what fixes the schedule."""
        fp = self.fingerprint()
        mode, seed = fp.get("mode"), fp.get("seed")
        if type(seed) is not int or not isinstance(mode, str):
            raise TournamentDatabaseError(f"{self.path} is corrupt: its tournament fingerprint is unreadable")
        return len(fp["agents"]), seed, mode

    def stored_games(self) -> list[StoredGame]:
        """Every row of ``games`` in game-id order, each checked against the schedule.

        A row that is not exactly the game the schedule puts at its id (other pairing, deal,
        rotation, seed or seats: a duplicate, a made-up row) or whose values do not parse is
        refused: TournamentDatabaseError("row N of games (game G): ...")."""
        if self._checked is None:
            self._checked = self._check_rows()
        return self._checked

    def _check_rows(self) -> list[StoredGame]:
        num_agents, seed, mode = self._schedule_facts()
        decisions_column = "decisions" if self.schema != "1" else "'[]'"
        adjudication_column = "adjudication" if self.schema == SCHEMA_VERSION else "NULL"
        out: list[StoredGame] = []
        pairings: list[tuple[int, ...]] | None = None
        num_players = 0
        cursor = self.conn.execute(
            "SELECT game_id, pairing, deal, rotation, seed, seats, result, termination, forfeit_seat, forfeit_reason,"
            f" think_time, {decisions_column}, {adjudication_column} FROM games ORDER BY game_id")
        for n, (game_id, pairing, deal, rotation, row_seed, seats_text, result_text, termination_text, forfeit_seat,
                reason, think_text, decisions_text, adjudication) in enumerate(cursor, start=1):
            where = f"{self.path}: row {n} of games (game {game_id})"
            seats = _json(seats_text, f"{where}: seats")
            if not isinstance(seats, list) or len(seats) < 2 or not all(type(s) is int for s in seats):
                raise TournamentDatabaseError(f"{where}: seats {seats!r} is not a list of agent indexes")
            if num_players == 0:
                num_players = len(seats)
                try:
                    pairings = make_pairings(num_agents, num_players, mode)
                except ValueError as exc:
                    raise TournamentDatabaseError(f"{where}: {exc}") from None
            assert pairings is not None
            if not all(type(v) is int for v in (game_id, pairing, deal, rotation, row_seed)):
                raise TournamentDatabaseError(f"{where}: pairing, deal, rotation and seed must be integers")
            expected = scheduled_game(pairings, num_players, seed, game_id)
            found = ScheduledGame(game_id, pairing, deal, rotation, row_seed, tuple(seats))
            if found != expected:
                raise TournamentDatabaseError(
                    f"{where}: it is not the scheduled game {game_id} (pairing {expected.pairing}, deal "
                    f"{expected.deal}, rotation {expected.rotation}, seats {list(expected.seats)}) but pairing "
                    f"{pairing}, deal {deal}, rotation {rotation}, seats {seats}; it is not counted: {_UPGRADE_HINT}")
            result = _json(result_text, f"{where}: result")
            if (not isinstance(result, list) or len(result) != num_players
                    or not all(_number(x) and 0 <= x <= 1 for x in result)):
                raise TournamentDatabaseError(
                    f"{where}: result {result!r} is not one number in [0, 1] per seat; {_UPGRADE_HINT}")
            termination = _text(termination_text, f"{where}: termination")
            if termination not in STORED_TERMINATIONS:
                raise TournamentDatabaseError(f"{where}: termination {termination!r} is not one of {STORED_TERMINATIONS}")
            if (termination == "forfeit") != (type(forfeit_seat) is int and 0 <= forfeit_seat < num_players):
                raise TournamentDatabaseError(f"{where}: forfeit seat {forfeit_seat!r} does not match termination "
                                              f"{termination!r}")
            if (termination == "adjudicated") != (adjudication is not None):
                raise TournamentDatabaseError(f"{where}: adjudication {adjudication!r} does not match termination "
                                              f"{termination!r}")
            think = _json(think_text, f"{where}: think_time") if self.schema != "1" else [0.0] * num_players
            decisions = _json(decisions_text, f"{where}: decisions") if self.schema != "1" else [0] * num_players
            if (not isinstance(think, list) or len(think) != num_players or not all(_number(x) and x >= 0 for x in think)
                    or not isinstance(decisions, list) or len(decisions) != num_players
                    or not all(type(x) is int and x >= 0 for x in decisions)):
                raise TournamentDatabaseError(f"{where}: think_time/decisions are not one non-negative number per seat")
            out.append(StoredGame(n, found, tuple(float(x) for x in result), termination, forfeit_seat,
                                  None if reason is None else _text(reason, f"{where}: forfeit_reason"),
                                  tuple(float(x) for x in think), tuple(decisions),
                                  None if adjudication is None else _text(adjudication, f"{where}: adjudication")))
        return out

    def scored_games(self) -> list[ScoredGame]:
        """Every stored game as (seats, result), in game-id order (rows checked: :meth:`stored_games`)."""
        return [ScoredGame(g.scheduled.game_id, g.scheduled.pairing, g.scheduled.deal, g.scheduled.seats, g.result)
                for g in self.stored_games()]

    def think_times(self) -> list[tuple[int, float, int]]:
        """(agent, seconds thinking, decisions) summed over stored games."""
        totals: dict[int, list[float]] = {}
        if self.schema == "1":
            games = {g.scheduled.game_id: g.scheduled.seats for g in self.stored_games()}
            rows: Iterator[tuple[int, float, int]] = (
                (games[game_id][player], seconds or 0.0, count)
                for game_id, player, seconds, count in self.conn.execute(
                    "SELECT game_id, player, SUM(seconds), COUNT(*) FROM moves"
                    " WHERE player >= 0 GROUP BY game_id, player"
                )
                if game_id in games and 0 <= player < len(games[game_id])
            )
        else:
            rows = (row for g in self.stored_games() for row in zip(g.scheduled.seats, g.think_time, g.decisions))
        for agent, seconds, count in rows:
            entry = totals.setdefault(agent, [0.0, 0])
            entry[0] += seconds
            entry[1] += count
        return [(a, t, int(c)) for a, (t, c) in sorted(totals.items())]

    def forfeits(self) -> list[tuple[int, int, str]]:
        """(game_id, agent, reason) of every forfeited game."""
        return [(g.scheduled.game_id, g.scheduled.seats[g.forfeit_seat], g.forfeit_reason or "")
                for g in self.stored_games() if g.termination == "forfeit" and g.forfeit_seat is not None]

    def adjudicated(self) -> list[tuple[int, str]]:
        """(game_id, reason) of every game adjudicated a draw at the decision cap."""
        return [(g.scheduled.game_id, g.adjudication or "") for g in self.stored_games() if g.termination == "adjudicated"]

    def _record(self, n: int, game_id: int, text: Any) -> GameRecord:
        where = f"{self.path}: row {n} of games (game {game_id})"
        try:
            return GameRecord.from_json(_text(text, f"{where}: record"))
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, TournamentDatabaseError):
                raise
            raise TournamentDatabaseError(f"{where}: record: {exc}") from None

    def record(self, game_id: int) -> GameRecord:
        rows = {g.scheduled.game_id: g.row for g in self.stored_games()}
        row = self.conn.execute("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            ids = self.finished_ids()
            hint = f"stored ids run from {min(ids)} to {max(ids)}" if ids else "the database holds no games"
            raise ValueError(f"no game {game_id} in {self.path} ({hint})")
        return self._record(rows[game_id], game_id, row[0])

    def records(self) -> Iterator[GameRecord]:
        self.stored_games()  # every row checked before the first record is given out
        for n, (game_id, text) in enumerate(self.conn.execute("SELECT game_id, record FROM games ORDER BY game_id"),
                                            start=1):
            yield self._record(n, game_id, text)

    def result_contradictions(self, load_game: Callable[[str], Any]) -> list[tuple[int, str]]:
        """(game id, problem) of every stored game whose result the games table and its record
        disagree on, or whose record does not replay to its stated result
        (:func:`~splendor_mcts.records.replay_problem`); ``load_game(spec)`` gives the game."""
        results = {g.scheduled.game_id: g.result for g in self.stored_games()}
        games: dict[str, Any] = {}
        out: list[tuple[int, str]] = []
        rows = self.conn.execute("SELECT game_id, record FROM games ORDER BY game_id")
        for n, (game_id, text) in enumerate(rows, start=1):
            try:
                record = self._record(n, game_id, text)
            except TournamentDatabaseError as exc:  # the standings need only the row: the report goes on
                out.append((game_id, f"its record cannot be read to replay: {exc}"))
                continue
            stored = list(results[game_id])
            if record.result is None or [float(x) for x in record.result] != stored:
                out.append((game_id, f"the games table gives result {stored} but its record {record.result}"))
                continue
            if record.game not in games:
                games[record.game] = load_game(record.game)
            problem = replay_problem(record, games[record.game])
            if problem is not None:
                out.append((game_id, problem))
        return out

    def close(self) -> None:
        if self._wal:
            try:  # leave a self-contained file (no -wal/-shm needed), readable from read-only places
                self.conn.execute("PRAGMA journal_mode = DELETE")
            except sqlite3.Error:
                pass  # busy or full: the log stays and the next writer merges it
        self.conn.close()
        if self._lock_fd is not None:  # after the connection: closing a descriptor drops SQLite's locks
            os.close(self._lock_fd)
            self._lock_fd = None


class _Writing:
    """Turns SQLite's write failures into errors that say what happened and that nothing is lost."""

    def __init__(self, store: TournamentStore, what: str) -> None:
        self.store = store
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        if exc is None:
            return False
        if self.store.conn.in_transaction:
            try:
                self.store.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        if not isinstance(exc, sqlite3.Error):
            return False
        path = self.store.path
        if _is_full(exc):
            raise DatabaseFull(
                f"{path}: the disk is full while {self.what} ({exc}); every game stored before is intact: "
                "free some space and run the same command again to resume") from None
        if _is_read_only(exc):
            raise DatabaseReadOnly(f"{path} is read-only ({exc}) while {self.what}; nothing was changed") from None
        if isinstance(exc, sqlite3.IntegrityError):
            raise TournamentDatabaseError(f"{path}: refused while {self.what}: {exc}") from None
        raise TournamentDatabaseError(f"{path}: {self.what} failed: {exc}") from None
