"""bench/time_scaling.py: its ladder of matches, its table, --only and --report."""
from __future__ import annotations

import fcntl
import math
import os
import subprocess
import sys

import pytest

from splendor_mcts.tournament.elo import WinLossDraw
from tool_modules import REPO, load_tool

scaling = load_tool("time_scaling", folder="bench")
SCRIPT = REPO / "bench" / "time_scaling.py"


def test_with_time_replaces_the_budget_and_names_the_agent():
    spec = scaling.with_time("mcts:iterations=500,network=shipped,threads=2,name=x,value_mix=0.5", 0.3, "new-0.3s")
    assert spec == "mcts:network=shipped,value_mix=0.5,time=0.3,threads=1,name=new-0.3s"
    assert scaling.with_time("mcts", 1.0, "base-1s") == "mcts:time=1,threads=1,name=base-1s"


def test_the_ladder_plays_equal_time_at_every_time_then_each_search_up_one_step():
    keys = [m.key for m in scaling.ladder("mcts", "mcts:exploration=0.6", [0.1, 0.3, 1.0])]
    assert keys == ["equal-0.1", "equal-0.3", "equal-1", "base-0.3-vs-0.1", "base-1-vs-0.3",
                    "new-0.3-vs-0.1", "new-1-vs-0.3"]
    step = scaling.ladder("mcts", "mcts:exploration=0.6", [0.1, 0.3])[-1]
    assert "time=0.3" in step.a and "name=new-0.3s" in step.a and "time=0.1" in step.b


def test_the_table_sums_each_ladder_and_adds_its_margins_in_quadrature():
    times = [0.1, 0.3]
    matches = scaling.ladder("mcts", "mcts:exploration=0.6", times)
    results = {"equal-0.1": WinLossDraw(60, 40, 0), "equal-0.3": WinLossDraw(50, 50, 0),
               "base-0.3-vs-0.1": WinLossDraw(70, 30, 0), "new-0.3-vs-0.1": WinLossDraw(55, 45, 0)}
    text = scaling.table([(m, results[m.key]) for m in matches], times, "mcts", "mcts:exploration=0.6")
    equal, base_step, new_step = (results[k].elo() for k in ("equal-0.1", "base-0.3-vs-0.1", "new-0.3-vs-0.1"))
    assert "| new-0.1s vs base-0.1s | 100 | 0.600 [0.504, 0.696] |" in text
    assert f"| base | +0 | {base_step.elo:+.0f} +/- {base_step.error:.0f} |" in text
    ladder_new = equal.elo + new_step.elo, math.hypot(equal.error, new_step.error)
    assert f"| new (ladder) | {equal.elo:+.0f} +/- {equal.error:.0f} | {ladder_new[0]:+.0f} +/- {ladder_new[1]:.0f} |" in text
    empty = scaling.table([(m, WinLossDraw(0, 0, 0)) for m in matches], times, "mcts", "mcts:exploration=0.6")
    assert "| new-0.1s vs base-0.1s | 0 | - |" in empty and "| base | +0 | - |" in empty


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--new", "mcts:exploration=0.6", "--times", "0.01", "0.02",
                           "--games", "2", *args], capture_output=True, text=True, timeout=300)


def test_only_plays_the_matches_named_and_report_reads_what_is_stored(tmp_path):
    played = run("--dir", str(tmp_path), "--only", "equal-0.01")
    assert played.returncode == 0, played.stderr
    progress = [line for line in played.stdout.splitlines() if line.startswith("equal-0.01: ")]
    assert progress[0] == "equal-0.01: 0 of 2 games, new-0.01s 0-0-0"  # then one line a stored game
    assert len(progress) == 3 and progress[-1].startswith("equal-0.01: 2 of 2 games, new-0.01s ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["equal-0.01.sqlite"]
    report = run("--dir", str(tmp_path), "--report")
    assert report.returncode == 0, report.stderr
    assert "| new-0.01s vs base-0.01s | 2 |" in report.stdout and "| new-0.02s vs base-0.02s | 0 | - |" in report.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["equal-0.01.sqlite"]  # --report plays and creates nothing


@pytest.mark.parametrize("args, message", [
    (["--only", "equal-5"], "--only: no match ['equal-5']"),
    (["--times", "0.3", "0.1"], "--times must be positive and rising"),
    (["--games", "1"], "--games must be at least 2"),
])
def test_bad_arguments_are_refused_by_name(tmp_path, args, message):
    refused = run("--dir", str(tmp_path), *args)
    assert refused.returncode == 2 and message in refused.stderr and "Traceback" not in refused.stderr


def test_report_reads_a_match_another_run_is_playing(tmp_path):
    assert run("--dir", str(tmp_path), "--only", "equal-0.01").returncode == 0
    fd = os.open(tmp_path / "equal-0.01.sqlite", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the lock of the run playing that match
        report = run("--dir", str(tmp_path), "--report")
        other = run("--dir", str(tmp_path), "--only", "equal-0.02")  # the other matches are read too
    finally:
        os.close(fd)
    assert report.returncode == 0, report.stderr
    assert "| new-0.01s vs base-0.01s | 2 |" in report.stdout
    assert other.returncode == 0, other.stderr
    assert "| new-0.01s vs base-0.01s | 2 |" in other.stdout and "| new-0.02s vs base-0.02s | 2 |" in other.stdout
