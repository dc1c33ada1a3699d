"""The tournament database: SQLite, one transaction per finished game, written by one process.

Tables (schema 2)::

    tournament(key, value)            'schema' = 2, 'fingerprint' = JSON of what defines the
                                      tournament (game spec, agent specs, mode, seed)
    agents(agent, name, spec)         agent index -> display name and spec
    games(game_id, pairing, deal, rotation, seed, seats, result, termination,
          forfeit_seat, forfeit_reason, num_actions, think_time, decisions, wall_time, record,
          finished_at)
                                      seats/result/think_time/decisions are JSON lists per seat;
                                      record is the full game record (splendor_mcts.records):
                                      every action in order, chance outcomes included, and the
                                      seconds of every decision

A game is one row, written in one transaction once the game has ended, so a killed run loses at
most the games that were being played, and re-running the command plays exactly those again.

Schema 1 also had ``moves(game_id, ply, player, action, seconds)``, one row per action: the same
actions and times as the record, stored twice. Resuming a schema-1 database upgrades it in one
transaction (``decisions`` filled from ``moves``, then ``moves`` dropped); reading one (export,
replay, report) works without changing it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..records import GameRecord
from .ratings import ScoredGame
from .schedule import ScheduledGame

SCHEMA_VERSION = "2"
READABLE_SCHEMAS = ("1", SCHEMA_VERSION)
FINGERPRINT_FORMAT = "splendor-mcts-tournament/1"

_SCHEMA = """
CREATE TABLE tournament (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE agents (agent INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, spec TEXT NOT NULL);
CREATE TABLE games (
    game_id INTEGER PRIMARY KEY,
    pairing INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    forfeit_seat INTEGER,
    forfeit_reason TEXT,
    num_actions INTEGER NOT NULL,
    think_time TEXT NOT NULL,
    decisions TEXT NOT NULL,
    wall_time REAL NOT NULL,
    record TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
"""
_TABLES = {"tournament", "agents", "games"}


class TournamentDatabaseError(ValueError):
    """The database file cannot be used: corrupt, not ours, or made for another tournament."""


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as a worker returns it: the record plus each seat's thinking totals."""

    game_id: int
    record: GameRecord
    think_time: tuple[float, ...]  # seconds thinking per seat
    decisions: tuple[int, ...]  # decisions (non-chance actions) per seat
    wall_time: float
    record_json: str = ""  # record.to_json() when the worker made it already


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None, timeout=30.0)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _use_wal(conn: sqlite3.Connection) -> None:
    """Write-ahead log with synchronous=NORMAL: a committed game survives the process being killed
    (what resuming needs); only a power cut may lose the last commits, never corrupt the file.
    It saves the fsync per game that otherwise dominates the cost of storing a cheap game."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


def _table_names(conn: sqlite3.Connection, path: Path) -> set[str]:
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        check = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        raise TournamentDatabaseError(f"{path} is not a usable SQLite database ({exc})") from None
    if check is None or check[0] != "ok":
        raise TournamentDatabaseError(f"{path} is corrupt (SQLite integrity check: {check[0] if check else '?'})")
    return {r[0] for r in rows}


def _describe_difference(stored: dict[str, Any], wanted: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(stored) | set(wanted)) if stored.get(k) != wanted.get(k)]
    return "; ".join(f"{k}: database has {stored.get(k)!r}, this run has {wanted.get(k)!r}" for k in keys)


class TournamentStore:
    """Reads and writes one tournament database. Use :meth:`create_or_resume` or :meth:`open_existing`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self.schema = SCHEMA_VERSION  # what the file holds; set by _check_ours for an existing file

    @classmethod
    def create_or_resume(
        cls, path: str | Path, fingerprint: dict[str, Any], agents: Sequence[tuple[str, str]]
    ) -> TournamentStore:
        """Open ``path`` for this tournament, creating it if new.

        Refuses (TournamentDatabaseError, database untouched) a file that is not a SQLite
        database, is corrupt, holds other tables, or holds a different tournament.
        """
        path = Path(path)
        fingerprint = {"format": FINGERPRINT_FORMAT, **fingerprint}
        if path.exists() and path.is_dir():
            raise TournamentDatabaseError(f"{path} is a directory, not a database file")
        conn = _connect(path)
        try:
            tables = _table_names(conn, path)
            if not tables:
                with conn:
                    conn.execute("BEGIN IMMEDIATE")
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute("INSERT INTO tournament VALUES ('schema', ?)", (SCHEMA_VERSION,))
                    conn.execute("INSERT INTO tournament VALUES ('fingerprint', ?)", (json.dumps(fingerprint),))
                    conn.execute("INSERT INTO tournament VALUES ('created', ?)", (time.strftime("%Y-%m-%dT%H:%M:%S"),))
                    conn.executemany("INSERT INTO agents VALUES (?, ?, ?)",
                                     [(i, name, spec) for i, (name, spec) in enumerate(agents)])
                _use_wal(conn)
                return cls(conn, path)
            store = cls(conn, path)
            store._check_ours(tables)
            stored = store.fingerprint()
            if stored != fingerprint:
                raise TournamentDatabaseError(
                    f"{path} holds a different tournament ({_describe_difference(stored, fingerprint)}); "
                    "use another --db or remove the file"
                )
            if store.schema == "1":
                store._upgrade_from_1()
            _use_wal(conn)
            return store
        except BaseException:
            conn.close()
            raise

    @classmethod
    def open_existing(cls, path: str | Path) -> TournamentStore:
        """Open a database for reading (export, replay, report); it must exist and be ours."""
        path = Path(path)
        if not path.is_file():
            raise TournamentDatabaseError(f"no tournament database at {path}")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        store = cls(conn, path)
        try:
            store._check_ours(_table_names(conn, path))
        except BaseException:
            conn.close()
            raise
        return store

    def _check_ours(self, tables: set[str]) -> None:
        if not _TABLES <= tables:
            raise TournamentDatabaseError(
                f"{self.path} is not a splendor-mcts tournament database (tables: {', '.join(sorted(tables))})"
            )
        row = self.conn.execute("SELECT value FROM tournament WHERE key = 'schema'").fetchone()
        if row is None or row[0] not in READABLE_SCHEMAS:
            raise TournamentDatabaseError(
                f"{self.path} has tournament schema {row[0] if row else 'none'!r}; this version reads "
                f"{' and '.join(repr(v) for v in READABLE_SCHEMAS)}"
            )
        if row[0] == "1" and "moves" not in tables:
            raise TournamentDatabaseError(f"{self.path} is corrupt: schema 1 without its moves table")
        self.schema = row[0]

    def _upgrade_from_1(self) -> None:
        """Schema 1 -> 2 in one transaction: per-seat decision counts from ``moves``, then drop it."""
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            counts: dict[int, dict[int, int]] = {}
            for game_id, player, count in self.conn.execute(
                "SELECT game_id, player, COUNT(*) FROM moves WHERE player >= 0 GROUP BY game_id, player"
            ):
                counts.setdefault(game_id, {})[player] = count
            rows = []
            for game_id, seats in self.conn.execute("SELECT game_id, seats FROM games").fetchall():
                per_game = counts.get(game_id, {})
                rows.append((json.dumps([per_game.get(s, 0) for s in range(len(json.loads(seats)))]), game_id))
            self.conn.execute("ALTER TABLE games ADD COLUMN decisions TEXT NOT NULL DEFAULT '[]'")
            self.conn.executemany("UPDATE games SET decisions = ? WHERE game_id = ?", rows)
            self.conn.execute("DROP TABLE moves")
            self.conn.execute("UPDATE tournament SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
        self.schema = SCHEMA_VERSION

    def fingerprint(self) -> dict[str, Any]:
        row = self.conn.execute("SELECT value FROM tournament WHERE key = 'fingerprint'").fetchone()
        try:
            value = json.loads(row[0]) if row else None
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            raise TournamentDatabaseError(f"{self.path} is corrupt: its tournament fingerprint is unreadable")
        return value

    def agents(self) -> list[tuple[str, str]]:
        """(display name, spec) per agent index."""
        return [(n, s) for n, s in self.conn.execute("SELECT name, spec FROM agents ORDER BY agent")]

    def finished_ids(self) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT game_id FROM games")}

    def write_game(self, scheduled: ScheduledGame, played: PlayedGame) -> None:
        """Store one finished game (its record holds every action and decision time) in one transaction."""
        record = played.record
        if record.result is None:
            raise ValueError(f"game {scheduled.game_id} has no result; only finished games are stored")
        forfeit = record.forfeit
        row = (scheduled.game_id, scheduled.pairing, scheduled.deal, scheduled.rotation, scheduled.seed,
               json.dumps(list(scheduled.seats)), json.dumps(list(record.result)), record.termination,
               forfeit.seat if forfeit else None, forfeit.reason if forfeit else None,
               len(record.actions), json.dumps(list(played.think_time)), json.dumps(list(played.decisions)),
               played.wall_time, played.record_json or record.to_json(), time.strftime("%Y-%m-%dT%H:%M:%S"))
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(
                "INSERT INTO games (game_id, pairing, deal, rotation, seed, seats, result, termination, forfeit_seat,"
                " forfeit_reason, num_actions, think_time, decisions, wall_time, record, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )

    def scored_games(self) -> list[ScoredGame]:
        """Every stored game as (seats, result), in game-id order."""
        out = []
        for game_id, pairing, deal, seats, result in self.conn.execute(
            "SELECT game_id, pairing, deal, seats, result FROM games ORDER BY game_id"
        ):
            try:
                out.append(ScoredGame(game_id, pairing, deal, tuple(json.loads(seats)), tuple(json.loads(result))))
            except (json.JSONDecodeError, TypeError):
                raise TournamentDatabaseError(f"{self.path} is corrupt: game {game_id} has unreadable seats/result") from None
        return out

    def think_times(self) -> list[tuple[int, float, int]]:
        """(agent, seconds thinking, decisions) summed over stored games."""
        totals: dict[int, list[float]] = {}
        if self.schema == "1":
            rows: Iterator[tuple[int, float, int]] = (
                (json.loads(seats)[player], seconds or 0.0, count)
                for seats, player, seconds, count in self.conn.execute(
                    "SELECT g.seats, m.player, SUM(m.seconds), COUNT(*) FROM moves m JOIN games g USING (game_id)"
                    " WHERE m.player >= 0 GROUP BY m.game_id, m.player"
                )
            )
        else:
            rows = (
                row
                for seats, think, decisions in self.conn.execute("SELECT seats, think_time, decisions FROM games")
                for row in zip(json.loads(seats), json.loads(think), json.loads(decisions))
            )
        for agent, seconds, count in rows:
            entry = totals.setdefault(agent, [0.0, 0])
            entry[0] += seconds
            entry[1] += count
        return [(a, t, int(c)) for a, (t, c) in sorted(totals.items())]

    def forfeits(self) -> list[tuple[int, int, str]]:
        """(game_id, agent, reason) of every forfeited game."""
        out = []
        for game_id, seats, seat, reason in self.conn.execute(
            "SELECT game_id, seats, forfeit_seat, forfeit_reason FROM games WHERE termination = 'forfeit' ORDER BY game_id"
        ):
            out.append((game_id, json.loads(seats)[seat], reason))
        return out

    def record(self, game_id: int) -> GameRecord:
        row = self.conn.execute("SELECT record FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            ids = self.finished_ids()
            hint = f"stored ids run from {min(ids)} to {max(ids)}" if ids else "the database holds no games"
            raise ValueError(f"no game {game_id} in {self.path} ({hint})")
        return GameRecord.from_json(row[0])

    def records(self) -> Iterator[GameRecord]:
        for (text,) in self.conn.execute("SELECT record FROM games ORDER BY game_id"):
            yield GameRecord.from_json(text)

    def close(self) -> None:
        self.conn.close()
