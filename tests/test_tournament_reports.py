"""Reports people read, through the real command: Elo at the extremes, the resumed progress bar,
how to resume after Ctrl-C, places and head to head for 3-4 players, --json, the ratings chart."""
from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from terminal_helpers import Terminal
from tournament_fakes import LOADER, RANDOM, THRESHOLD

from splendor_mcts.tournament.elo import Pentanomial, WinLossDraw, perfect_score_bound
from splendor_mcts.tournament.places import seat_places
from splendor_mcts.tournament.ratings import RatingRow, RatingTable

GAME = ("--game", "highcard", "--game-loader", LOADER)
FAKE = (*GAME, "--concurrency", "1")


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "splendor_mcts.cli", *args]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))  # the fakes are importable in the command
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("wld, text", [
    ((100, 0, 0), "> +570 (no losses, 95%)"),
    ((0, 50, 0), "< -446 (no wins, 95%)"),
    ((0, 0, 10), "0.0 (every result the same: no error estimate)"),
    ((1, 1, 0), "0.0 (too few games for a 95% interval)"),
    ((3, 0, 2), "240.8, 95% above +60 (too few losses for an upper bound)"),
    ((2, 30, 0), "-470.4, 95% below -306 (too few wins for a lower bound)"),
    ((12, 5, 3), "127.0 +/- 162.9"),  # as cutechess prints it
    ((0, 0, 0), "none yet (no games)"),
])
def test_elo_text_is_finite_and_explained(wld, text):
    assert str(WinLossDraw(*wld).elo()) == text


def test_perfect_score_bound_is_the_exact_95_percent_bound():
    # Zero losses in n games: the score's exact 95% interval starts at 0.025 ** (1 / n).
    assert perfect_score_bound(100) == pytest.approx(-400 * math.log10(1 / 0.025 ** 0.01 - 1))
    assert str(Pentanomial((0, 0, 0, 0, 50)).elo()) == f"> +{perfect_score_bound(50):.0f} (no losses, 95%)"


def test_a_lopsided_match_prints_no_inf_or_nan(tmp_path):
    out = run("tournament", THRESHOLD, "tournament_fakes:IllegalAgent", *FAKE, "--deals", "3", "--no-progress",
              "--db", str(tmp_path / "t.sqlite"))
    assert out.returncode == 0, out.stderr
    assert "Elo difference: > +" in out.stdout and "(no losses, 95%)" in out.stdout
    assert "inf" not in out.stdout and "nan" not in out.stdout
    data = json.loads(run("tournament", THRESHOLD, "tournament_fakes:IllegalAgent", *FAKE, "--deals", "3",
                          "--no-progress", "--db", str(tmp_path / "t.sqlite"), "--json").stdout)
    match = data["matches"][0]
    assert (match["wins"], match["losses"]) == (6, 0)
    assert match["elo"]["elo"] is None and match["elo"]["text"].startswith("> +")
    assert data["stored"] == 6 and data["playedNow"] == 0 and data["places"] is None


@pytest.mark.parametrize(("sent", "concurrency"), [(signal.SIGINT, "1"), (signal.SIGTERM, "2")],
                         ids=["ctrl-c", "kill-with-workers"])
def test_interrupted_run_says_how_to_resume(tmp_path, sent, concurrency):
    db = tmp_path / "t.sqlite"
    args = ["tournament", "tournament_fakes:SlowAgent:delay=0.02", RANDOM, *GAME, "--deals", "200",
            "--db", str(db), "--no-progress", "--concurrency", concurrency]
    proc = subprocess.Popen(command(*args), stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.1)
        try:
            if sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 3:
                break
        except sqlite3.Error:
            continue
    proc.send_signal(sent)  # SIGINT: what Ctrl-C sends; SIGTERM: what `kill` sends
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "leaked" not in err and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("splendor-mcts tournament: interrupted; ") and " of 400 games are stored in " in last
    assert last.endswith(": run the same command to resume")


def test_resumed_progress_bar_counts_the_stored_games(tmp_path):
    db = str(tmp_path / "t.sqlite")
    assert run("tournament", THRESHOLD, RANDOM, *FAKE, "--deals", "2", "--db", db, "--no-progress").returncode == 0
    term = Terminal("tournament", THRESHOLD, RANDOM, *FAKE, "--deals", "5", "--db", db,
                    env={"PYTHONPATH": os.pathsep.join(sys.path)})
    assert term.wait(timeout=120) == 0
    assert "10/10" in term.output and "games stored: 10 of 10" in term.output
    assert "6/6" not in term.output  # not this run's games alone


def test_three_player_report_has_places_and_head_to_head(tmp_path):
    args = ["tournament", "random", "greedy", "mcts:iterations=30,threads=1", "--players", "3", "--deals", "2",
            "--concurrency", "1", "--no-progress", "--db", str(tmp_path / "t.sqlite")]
    out = run(*args)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Places (by result, then points at the end" in text and "1st    2nd    3rd   Games   Mean" in text
    assert "Head to head: " in text
    data = json.loads(run(*args, "--json").stdout)
    agents = data["places"]["agents"]
    assert [a["name"] for a in agents] == ["random", "greedy", "mcts:iterations=30,threads=1"]
    assert all(a["games"] == 6 == sum(a["places"]) for a in agents)
    # Every game has a first place; places are shared only on equal results and points.
    assert sum(a["places"][0] for a in agents) >= 6
    h2h = data["places"]["headToHead"]
    for a in range(3):
        for b in range(3):
            if a != b:
                assert h2h["together"][a][b] == 6
                assert h2h["ahead"][a][b] + h2h["ahead"][b][a] == pytest.approx(6)
    section = text.split("Places (")[1].split("Head to head")[0]
    shown = {line.split()[1]: [int(x) for x in line.split()[2:5]] for line in section.splitlines()[2:] if line.strip()}
    assert shown == {a["name"]: a["places"] for a in agents}  # the text shows the same counts


def test_places_of_one_game():
    assert seat_places([1.0, 0.0, 0.0], [15, 9, 12]) == [1, 3, 2]
    assert seat_places([0.5, 0.5, 0.0, 0.0], [15, 15, 7, 7]) == [1, 1, 3, 3]
    assert seat_places([0.0, 1.0, 0.0], None) == [2, 1, 2]  # no points known: losers share a place


def test_ratings_chart_fits_its_title_and_plackett_luce_is_not_drawn_from_zero():
    from splendor_mcts.tournament.charts import ratings_figure

    table = RatingTable("plackett-luce", [RatingRow(0, "mcts:iterations=300", 32.1, 6.0, 90, 0.7),
                                          RatingRow(1, "greedy", 19.8, 5.6, 90, 0.1)], origin=25.0)
    title = "splendor(players=3,points_to_win=15,take_fewer_distinct=true,gem_tokens=5,gold_tokens=5,nobles=4): 120 games"
    fig = ratings_figure(table, title)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.axes[0].title.get_window_extent(renderer)
    assert 0 <= box.x0 and box.x1 <= fig.bbox.x1 and box.y1 <= fig.bbox.y1
    assert not fig.axes[0].patches  # points with error bars, no bars from 0
    low, high = fig.axes[0].get_xlim()
    assert 0 < low < 19.8 - 5.6 and high > 32.1 + 6.0
