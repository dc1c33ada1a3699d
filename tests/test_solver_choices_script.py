"""bench/solver_choices.py replays a tournament's games: wins in one per agent, and solver on against off."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300)


def test_replays_a_tournament_and_counts(tmp_path):
    db = str(tmp_path / "duel.sqlite")
    played = run("strength.py", "--game", "duel", "--a", "mcts:iterations=30", "--b", "mcts:iterations=30,solver=false",
                 "--games", "2", "--seed", "5", "--db", db)
    assert played.returncode == 0, played.stderr
    wins = run("solver_choices.py", "--db", db, "--wins-only")
    assert wins.returncode == 0, wins.stderr
    lines = dict(line.rsplit(": ", 1) for line in wins.stdout.splitlines())
    for agent in (0, 1):  # every win in one was played or missed
        seen = int(lines.get(f"agent {agent}: a win in one", "0"))
        assert seen == int(lines.get(f"agent {agent}: played it", "0")) + int(lines.get(f"agent {agent}: missed it", "0"))
    assert sum(int(lines.get(f"agent {a}: a win in one", "0")) for a in (0, 1)) >= 1  # someone won with the last move
    both = run("solver_choices.py", "--db", db, "--games", "1", "--iterations", "30")
    assert both.returncode == 0, both.stderr
    counts = dict(line.rsplit(": ", 1) for line in both.stdout.splitlines())
    assert int(counts["decisions"]) > 20 and "different choices, otherwise" not in counts
    probe = run("solver_choices.py", "--db", db, "--games", "1", "--iterations", "30", "--switch", "probe")
    assert probe.returncode == 0, probe.stderr
    counts = dict(line.rsplit(": ", 1) for line in probe.stdout.splitlines())
    assert "different choices, otherwise" not in counts  # the probe changes nothing where it proves nothing


def test_bad_arguments_are_named(tmp_path):
    missing = run("solver_choices.py", "--db", str(tmp_path / "none.sqlite"))
    assert missing.returncode == 2 and "--db must name an existing tournament database" in missing.stderr
