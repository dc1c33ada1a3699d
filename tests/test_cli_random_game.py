"""The quick start's main command, through the real entry point."""
from __future__ import annotations

import subprocess
import sys


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], capture_output=True, text=True, timeout=120)


def test_random_game_prints_a_complete_game():
    out = _run("random-game", "--seed", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("splendor(players=2")
    assert lines[1].startswith("   1. seat 0: ")
    assert lines[-1].startswith(("winner: seat", "shared win"))
    assert _run("random-game", "--seed", "3").stdout == out.stdout  # same seed, same game


def test_random_game_of_duel_prints_a_complete_game():
    out = _run("random-game", "--game", "duel", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-2].startswith("seat 0: ") and "crowns" in out.stdout.splitlines()[-2]
    assert out.stdout.splitlines()[-1].startswith("winner: seat")


def test_random_game_rejects_a_bad_variant():
    out = _run("random-game", "--game", "splendor(players=7)")
    assert out.returncode == 2 and "players" in out.stderr


def test_output_into_a_closed_pipe_stops_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "random-game", "--seed", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err
