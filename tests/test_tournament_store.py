"""The tournament database as a trusted store: constraints, rows checked on read, one writer at a
time, a full disk, read-only files and folders. Each case leaves every stored game intact."""

from __future__ import annotations

import ctypes
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournament_fakes import LOADER
from tournament_fakes import RANDOM as R
from tournament_fakes import THRESHOLD as T

from splendor_mcts.cli import main
from splendor_mcts.tournament import DatabaseFull, Tournament, TournamentConfig, TournamentDatabaseError
from splendor_mcts.tournament import TournamentStore, run_tournament
from splendor_mcts.tournament import store as store_module

SCHEMA1 = Path(__file__).parent / "data" / "tournament_schema1.sqlite"


def config(db: Path, **kw) -> TournamentConfig:
    base = dict(game="highcard", agents=(T, R), deals=4, seed=1, db=db, concurrency=1, loader=LOADER)
    base.update(kw)
    return TournamentConfig(**base)


def cli_args(db: Path, *extra: str) -> list[str]:
    return ["tournament", T, R, "--game", "highcard", "--game-loader", LOADER, "--db", str(db),
            "--concurrency", "1", "--no-progress", "--seed", "1", *extra]


def rows(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT * FROM games ORDER BY game_id").fetchall()
    finally:
        conn.close()


def tamper(db: Path, *statements: str) -> None:
    """Change a database behind the tournament's back, as an older version or a hand edit could."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA ignore_check_constraints = ON")
    for trigger in ("games_insert_check", "games_update_check"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for statement in statements:
        conn.execute(statement)
    conn.close()


@pytest.fixture
def played(tmp_path: Path) -> Path:
    db = tmp_path / "t.sqlite"
    run_tournament(config(db))
    return db


COPY_OF_GAME_3 = ("INSERT INTO games (game_id, pairing, deal, rotation, seed, seats, result, termination, forfeit_seat,"
                  " forfeit_reason, num_actions, think_time, decisions, wall_time, record, finished_at)"
                  " SELECT 1000, pairing, deal, rotation, seed, seats, result, termination, forfeit_seat,"
                  " forfeit_reason, num_actions, think_time, decisions, wall_time, record, finished_at"
                  " FROM games WHERE game_id = 3")


@pytest.mark.parametrize("statement, message", [
    (COPY_OF_GAME_3, "UNIQUE constraint failed: games.pairing, games.deal, games.rotation"),
    ("UPDATE games SET seats = '[0, 0]' WHERE game_id = 3", "seats must be distinct agent indexes"),
    ("UPDATE games SET seats = '[0, 7]' WHERE game_id = 3", "seats must be distinct agent indexes"),
    ("UPDATE games SET result = '[\"x\", 1]' WHERE game_id = 3", "results numbers in"),
    ("UPDATE games SET result = '[NaN, 1]' WHERE game_id = 3", "results numbers in"),
    ("UPDATE games SET result = '[1]' WHERE game_id = 3", "CHECK constraint failed"),
    ("UPDATE games SET termination = 'forfeit' WHERE game_id = 3", "CHECK constraint failed"),
])
def test_the_schema_refuses_rows_that_are_not_scheduled_games(played: Path, statement: str, message: str) -> None:
    before = rows(played)
    conn = sqlite3.connect(played)
    with pytest.raises(sqlite3.IntegrityError, match=message):
        conn.execute(statement)
    conn.close()
    assert rows(played) == before


@pytest.mark.parametrize("statement, message", [
    ("UPDATE games SET seats = '[0, 0]' WHERE game_id = 3",
     r"row 4 of games \(game 3\): it is not the scheduled game 3 .* seats \[0, 0\]"),
    ("UPDATE games SET seed = 5 WHERE game_id = 3", r"row 4 of games \(game 3\): it is not the scheduled game 3"),
    ("UPDATE games SET result = '[\"x\", 1]' WHERE game_id = 3",
     r"row 4 of games \(game 3\): result \['x', 1\] is not one number in \[0, 1\] per seat"),
    ("UPDATE games SET result = '[NaN, 1.0]' WHERE game_id = 3",
     r"row 4 of games \(game 3\): result \[nan, 1.0\] is not one number"),
    ("UPDATE games SET result = 'oops' WHERE game_id = 3", r"row 4 of games \(game 3\): result is not valid JSON"),
    ("UPDATE games SET record = '{}' WHERE game_id = 3", r"row 4 of games \(game 3\): record: game record field"),
])
def test_a_tampered_row_is_refused_by_name_and_never_counted(played: Path, statement: str, message: str,
                                                             capsys: pytest.CaptureFixture) -> None:
    tamper(played, statement)
    tampered = rows(played)
    if "record" not in statement:  # the standings do not read the records
        with pytest.raises(TournamentDatabaseError, match=message):
            run_tournament(config(played))
    with pytest.raises(TournamentDatabaseError, match=message):
        list(TournamentStore.open_existing(played).records())  # export
    assert main(["export", "--db", str(played)]) == 2
    assert "row " in capsys.readouterr().err
    assert rows(played) == tampered  # refused, not changed


def test_an_old_database_with_a_duplicate_row_is_refused_before_its_upgrade(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(SCHEMA1, db)
    conn = sqlite3.connect(db)
    conn.execute(COPY_OF_GAME_3.replace("decisions, ", "").replace(", decisions", ""))  # schema 1 has no decisions
    conn.commit()
    conn.close()
    before = db.read_bytes()
    with pytest.raises(TournamentDatabaseError, match=r"row 5 of games \(game 1000\): it is not the scheduled game"):
        run_tournament(config(db, deals=3))
    assert db.read_bytes() == before  # not upgraded, not changed


def test_an_upgraded_database_has_the_constraints(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(SCHEMA1, db)
    run_tournament(config(db, deals=2))
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM tournament WHERE key = 'schema'").fetchone()[0] == "4"
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed"):
        conn.execute(COPY_OF_GAME_3)
    conn.close()


def test_flipped_bytes_that_pass_the_integrity_check_name_their_row(played: Path, capsys: pytest.CaptureFixture) -> None:
    data = bytearray(played.read_bytes())
    at = data.find(b"splendor-mcts-record/1")
    assert at > 0
    data[at + 3] = 0xFF  # not UTF-8; the file's structure is untouched
    played.write_bytes(bytes(data))
    conn = sqlite3.connect(played)
    conn.text_factory = bytes
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == b"ok"
    flipped = [i for i, text in conn.execute("SELECT game_id, record FROM games") if b"\xff" in text]
    conn.close()
    assert len(flipped) == 1
    for command in (["export", "--db", str(played)],
                    ["replay", "--db", str(played), str(flipped[0]), "--game-loader", LOADER]):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert f"of games (game {flipped[0]}): record is not valid UTF-8" in err and "Traceback" not in err
    assert main(cli_args(played, "--deals", "4")) == 0  # the standings do not need the records
    # ... and the report names the game whose record it could not replay
    assert f"game {flipped[0]}: its record cannot be read to replay" in capsys.readouterr().out


def test_a_second_tournament_on_the_same_database_says_so_and_exits_1(played: Path,
                                                                       capsys: pytest.CaptureFixture) -> None:
    before = rows(played)
    first = Tournament(config(played, deals=6)).open_store()  # a tournament running
    try:
        assert main(cli_args(played, "--deals", "6")) == 1
        assert "is in use by another tournament" in capsys.readouterr().err
        assert main(["export", "--db", str(played), "-o", os.devnull]) == 0  # reading is not blocked
    finally:
        first.close()
    assert rows(played) == before
    assert main(cli_args(played, "--deals", "6")) == 0  # the lock goes with its holder


def test_stored_reads_a_database_another_tournament_is_playing(played: Path) -> None:
    before = rows(played)
    running = Tournament(config(played, deals=6))
    first = running.open_store()  # holds the lock, as a run in another process does
    try:
        result = Tournament(config(played, deals=6)).stored()
    finally:
        first.close()
    assert len(result.games) == len(before) == 8 and result.played_now == 0 and result.scheduled == 12
    assert rows(played) == before


def test_stored_refuses_a_missing_database_and_another_tournament_creating_nothing(tmp_path: Path,
                                                                                   played: Path) -> None:
    missing = tmp_path / "none.sqlite"
    with pytest.raises(TournamentDatabaseError, match=f"no tournament database at {missing}"):
        Tournament(config(missing)).stored()
    assert not missing.exists()
    with pytest.raises(TournamentDatabaseError, match="holds a different tournament .*seed: database has 1, this run has 2"):
        Tournament(config(played, seed=2)).stored()


def test_a_full_disk_stops_the_run_with_a_clear_message_and_keeps_every_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "t.sqlite"
    run_tournament(config(db, deals=1))
    connect = store_module._connect

    def small_disk(path: Path, read_only: bool = False) -> sqlite3.Connection:
        conn = connect(path, read_only)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 1}")  # room for a few games, not for 200
        return conn

    monkeypatch.setattr(store_module, "_connect", small_disk)
    with pytest.raises(DatabaseFull, match="disk is full while storing game .* every game stored before is intact"):
        run_tournament(config(db, deals=100))
    assert main(cli_args(db, "--deals", "100")) == 1
    assert "disk is full" in capsys.readouterr().err
    kept = rows(db)
    assert 2 <= len(kept) < 200
    monkeypatch.undo()
    assert run_tournament(config(db, deals=100)).played_now == 200 - len(kept)
    assert rows(db)[: len(kept)] == kept
    clean = tmp_path / "clean.sqlite"
    run_tournament(config(clean, deals=100))
    assert [r[:9] for r in rows(db)] == [r[:9] for r in rows(clean)]


def test_a_full_disk_when_creating_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    connect = store_module._connect

    def no_room(path: Path, read_only: bool = False) -> sqlite3.Connection:
        conn = connect(path, read_only)
        conn.execute("PRAGMA max_page_count = 1")  # not even room for the tables
        return conn

    monkeypatch.setattr(store_module, "_connect", no_room)
    with pytest.raises(DatabaseFull, match="disk is full while creating the database"):
        run_tournament(config(tmp_path / "t.sqlite"))


# Read-only: root writes through chmod, so as root the commands run without that power
# (CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH dropped from the bounding set before exec).
def _obey_file_modes() -> None:
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "cannot drop CAP_DAC_OVERRIDE")


@pytest.fixture
def public_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "ro"
    folder.mkdir()
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    tests = str(Path(__file__).parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tests, *sys.path]))
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], env=env, capture_output=True,
                          text=True, timeout=60, preexec_fn=_obey_file_modes)


@pytest.mark.parametrize("journal", ["delete", "wal"])  # wal: as an older version left its files
def test_a_read_only_database_is_exported_replayed_and_reported(public_dir: Path, journal: str) -> None:
    db = public_dir / "t.sqlite"
    run_tournament(config(db))
    conn = sqlite3.connect(db)
    assert conn.execute(f"PRAGMA journal_mode = {journal}").fetchone()[0] == journal
    conn.close()
    before = db.read_bytes()
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    public_dir.chmod(0o555)
    export = run_cli("export", "--db", str(db))
    assert export.returncode == 0, export.stderr
    assert len(export.stdout.splitlines()) == 8
    replay = run_cli("replay", "--db", str(db), "3", "--game-loader", LOADER)
    assert replay.returncode == 0 and "termination: normal" in replay.stdout, replay.stderr
    report = run_cli(*cli_args(db, "--deals", "4"))
    assert report.returncode == 0 and "games stored: 8 of 8" in report.stdout, report.stderr
    more = run_cli(*cli_args(db, "--deals", "5"))
    assert more.returncode == 1 and "is read-only: 2 of 10 scheduled games remain" in more.stderr
    assert "Traceback" not in more.stderr + report.stderr + replay.stderr + export.stderr
    assert db.read_bytes() == before


def test_creating_a_database_in_a_read_only_folder_says_so(public_dir: Path) -> None:
    public_dir.chmod(0o555)
    done = run_cli(*cli_args(public_dir / "t.sqlite"))
    assert done.returncode == 2
    assert f"cannot create {public_dir / 't.sqlite'}: the folder {public_dir} is not writable" in done.stderr
    assert "Traceback" not in done.stderr and not (public_dir / "t.sqlite").exists()
