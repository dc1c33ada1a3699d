"""The colour letters are explained where people read them: one legend line under the hint's
table and on play's board (Splendor's gold is ``Y`` in both). Each check runs the real command."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SPLENDOR = "W white  U blue  G green  R red  K black  Y gold"
DUEL = "W white  U blue  G green  R red  K black  P pearl  Y gold"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})


@pytest.mark.parametrize(("view", "legend"), [("splendor-2p-view.json", SPLENDOR), ("duel-view.json", DUEL)])
@pytest.mark.parametrize("decisions", [[], ["--decisions"]], ids=["turns", "decisions"])
def test_hint_explains_the_letters_under_its_table(view, legend, decisions):
    run = cli("hint", str(EXAMPLES / view), "--iterations", "300", "--threads", "1", *decisions)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == legend
    as_json = cli("hint", str(EXAMPLES / view), "--iterations", "300", "--threads", "1", "--json")
    assert legend not in as_json.stdout and json.loads(as_json.stdout)["toMove"] >= 0


def test_play_board_explains_the_letters_and_shows_gold_as_y():
    run = cli("play", "--iterations", "30", "--threads", "1", "--deal-seed", "5", stdin="quit\n")
    assert run.returncode == 0, run.stderr
    bank = next(line for line in run.stdout.splitlines() if line.startswith("bank "))
    assert " Y5 " in bank and bank.endswith(SPLENDOR)
    duel = cli("play", "--game", "duel", "--iterations", "30", "--threads", "1", "--deal-seed", "5", stdin="quit\n")
    assert duel.returncode == 0, duel.stderr
    assert DUEL in duel.stdout
