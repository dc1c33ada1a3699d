"""bench/strength.py keeps its games in --db, resumes them, and --report reads them without playing."""
from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "strength.py"


def strength(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--a", "mcts:iterations=20", "--b", "mcts:iterations=20,solver=false",
                           "--seed", "3", *args], capture_output=True, text=True, timeout=300)


def test_report_reads_the_stored_games_and_plays_none(tmp_path):
    db = str(tmp_path / "s.sqlite")
    played = strength("--games", "2", "--db", db)
    assert played.returncode == 0, played.stderr
    assert "games=2 " in played.stdout and "Elo difference" in played.stdout
    report = strength("--games", "4", "--db", db, "--report")
    assert report.returncode == 0, report.stderr
    assert "games=2 " in report.stdout and "games stored: 2 of 4 scheduled   played by this run: 0" in report.stdout
    resumed = strength("--games", "4", "--db", db)
    assert "games=4 " in resumed.stdout and "played by this run: 2 " in resumed.stdout


def test_report_needs_a_database(tmp_path):
    run = strength("--report", "--db", str(tmp_path / "missing.sqlite"))
    assert run.returncode == 2 and "--report needs --db naming an existing tournament database" in run.stderr


def test_report_reads_a_database_another_run_is_playing(tmp_path):
    """--report while another run holds the database (its lock): the games stored so far."""
    db = tmp_path / "busy.sqlite"
    assert strength("--games", "2", "--db", str(db)).returncode == 0
    fd = os.open(db, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the lock a running tournament holds
        run = strength("--games", "4", "--db", str(db), "--report")
        resumed = strength("--games", "4", "--db", str(db))  # a second writer is still refused
    finally:
        os.close(fd)
    assert run.returncode == 0, run.stderr
    assert "games=2 " in run.stdout and "played by this run: 0" in run.stdout
    assert resumed.returncode == 2 and "is in use by another tournament" in resumed.stderr
    assert "Traceback" not in resumed.stderr
