"""No process outlives a tournament: SIGKILL the tournament and its workers (and the resource
tracker, and a Ray the run started) end within seconds."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import sys
    from splendor_mcts.tournament import TournamentConfig, run_tournament
    run_tournament(TournamentConfig(game="highcard", agents=("tournament_fakes:SlowAgent:delay=0.05",
                   "tournament_fakes:RandomAgent"), deals=200, seed=4, db=sys.argv[1], concurrency=2,
                   backend=sys.argv[2], loader="tournament_fakes:load_fake_game"))
""")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(text.rsplit(")", 1)[1].split()[1])
            tree.setdefault(parent, []).append(int(entry))
    return tree


def descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its exit status waits to be collected


def kill_mid_run(tmp_path: Path, backend: str, started: float) -> set[int]:
    """Start a tournament, wait until games are being stored, SIGKILL it alone; its descendants then."""
    db = tmp_path / "t.sqlite"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(db), backend], env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + started
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            try:
                if sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 2:
                    break
            except sqlite3.Error:
                continue
        assert proc.poll() is None, "the run ended before it could be killed"
        workers = descendants(proc.pid)
        assert len(workers) >= 2
    finally:
        proc.send_signal(signal.SIGKILL)  # the parent only: its workers must notice by themselves
        proc.wait()
    return workers


def wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = {p for p in pids if alive(p)}
        if not left:
            return left
        time.sleep(0.1)
    return {p for p in pids if alive(p)}


def test_no_local_worker_survives_a_sigkill_of_the_tournament(tmp_path: Path) -> None:
    workers = kill_mid_run(tmp_path, "local", started=30)
    left = wait_gone(workers, 5)
    for pid in left:
        os.kill(pid, signal.SIGKILL)  # do not leave them to the next test
    assert not left, f"processes left behind: {sorted(left)}"


def test_the_ray_a_tournament_started_dies_with_it(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason='ray is not installed: pip install ".[ray]"')
    workers = kill_mid_run(tmp_path, "ray", started=60)
    left = wait_gone(workers, 15)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"Ray processes left behind: {sorted(left)}"
