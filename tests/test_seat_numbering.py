"""People count seats from 1 in every text output; JSON keeps the 0-based index (docs/hints.md,
"Seat numbering"). Each check runs the real command."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"})


def test_hint_names_the_mover_and_the_principal_variation_from_seat_1(tmp_path):
    view = json.loads((EXAMPLES / "splendor-2p-view.json").read_text())
    assert view["to_move"] == 1 and view["observer"] == 1
    run = cli("hint", str(EXAMPLES / "splendor-2p-view.json"), "--iterations", "400", "--threads", "1")
    assert run.returncode == 0, run.stderr
    assert "seat 2 to move" in run.stdout.splitlines()[0] and "seat 0" not in run.stdout
    rows = [line for line in run.stdout.splitlines() if re.match(r"\d+ │", line)]
    assert rows and all(" │ seat 1: " in row for row in rows)  # the variation goes on with the other seat
    as_json = json.loads(cli("hint", str(EXAMPLES / "splendor-2p-view.json"), "--iterations", "400",
                             "--threads", "1", "--json").stdout)
    assert as_json["toMove"] == 1 and [t["seat"] for t in as_json["turnInfos"][0]["pvTurns"][:2]] == [1, 0]
    view["observer"] = 0  # another seat's view: the note names both seats as people count them
    other = tmp_path / "other.json"
    other.write_text(json.dumps(view))
    run = cli("hint", str(other), "--iterations", "100", "--threads", "1")
    assert run.returncode == 0, run.stderr
    assert "this is seat 1's view but seat 2 is to move; seat 2's hidden reserves were guessed" in run.stderr


def test_play_board_prompts_and_moves_count_seats_from_1():
    run = cli("play", "--iterations", "50", "--threads", "1", "--deal-seed", "5", stdin="take WUG\nquit\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "▶ seat 1 (you)" in out and "seat 2 (mcts:" in out
    assert "seat 1> " in out and "seat 1 plays take WUG" in out and "seat 2 plays " in out
    assert "seat 0" not in out
    run = cli("play", "--seat", "1", "--iterations", "50", "--threads", "1", "--deal-seed", "5", stdin="quit\n")
    assert run.returncode == 0, run.stderr
    assert "seat 2 (you)" in run.stdout and "seat 1 plays " in run.stdout  # --seat is the 0-based index


def test_random_game_numbers_seats_from_1():
    run = cli("random-game", "--game", "splendor(players=3)", "--seed", "4")
    assert run.returncode == 0, run.stderr
    movers = {int(m) for m in re.findall(r"^\s+\d+\. seat (\d+): ", run.stdout, flags=re.M)}
    assert movers == {1, 2, 3}
    assert re.search(r"^(winner: seat [123]|shared win: seats [123](, [123])* and [123])$", run.stdout.splitlines()[-1])
