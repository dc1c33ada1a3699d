"""The end of a game and the counts printed, in a player's words: who won with how many
points (cards when they broke a tie), and plurals right. Each check runs the real command."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "300"})


@pytest.mark.parametrize(("game", "seed", "line"), [
    ("splendor", 3, "game over: seat 2 wins with 16 points (seat 1: 3 points)"),
    ("splendor", 12, "game over: seat 2 wins with 15 points, 16 cards (seat 1: 15 points, 17 cards)"),
    ("splendor", 121, "game over: seats 1 and 2 share the win (seat 1: 17 points, 17 cards; seat 2: 17 points, 17 cards)"),
    ("duel", 3, "game over: seat 1 wins with 20 points, 3 crowns (seat 2: 16 points, 9 crowns)"),
], ids=["points", "tie-broken-by-cards", "shared", "duel-crowns"])
def test_play_says_who_won_with_the_points(tmp_path, game, seed, line):
    record = cli("random-game", "--game", game, "--seed", str(seed), "--json")
    assert record.returncode == 0, record.stderr
    path = tmp_path / "game.json"
    path.write_text(record.stdout)
    run = cli("play", "--game", game, "--load", str(path), "--seat", "0", "--seat", "1", stdin="quit\n")
    assert run.returncode == 0, run.stderr
    assert line in run.stdout.splitlines()


def test_review_counts_one_turn_in_the_singular(tmp_path):
    record = json.loads(cli("random-game", "--seed", "3", "--json").stdout)
    cut = 18  # the deal's reveals, then one decision of each seat
    short = {**record, "actions": record["actions"][:cut], "result": None, "termination": "unfinished"}
    path = tmp_path / "short.json"
    path.write_text(json.dumps(short))
    run = cli("review", str(path), "--iterations", "50", "--threads", "1", "--threshold", "0", "--no-progress")
    assert run.returncode == 0, run.stderr
    assert ": 2 turns; mistakes" in run.stdout
    assert "seat 1 (random): 1 mistake in 1 turn, average loss" in run.stdout
    assert "1 turns" not in run.stdout and "1 mistakes" not in run.stdout
