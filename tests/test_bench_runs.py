"""bench/runs/: each committed tournament database, and each recipe's state, is named by a
command in its README that reads it (the command with --report added), so a measurement or
a training recipe left unfinished by one machine is resumed, not begun again, by the next."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from splendor_mcts.learning.recipe import STATE_FILE as RECIPE_STATE
from splendor_mcts.search.networks import shipped_file

RUNS = Path(__file__).resolve().parents[1] / "bench" / "runs"
REPO = RUNS.parents[1]
_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)


def commands() -> dict[str, list[str]]:
    """The README's commands by what they keep: a tournament's database (--db
    bench/runs/NAME.sqlite) or a recipe's folder (--dir bench/runs/NAME)."""
    found: dict[str, list[str]] = {}
    for block in _BLOCK.findall((RUNS / "README.md").read_text()):
        words = shlex.split(block.replace("\\\n", " "), comments=True)
        kept = words[words.index("--db" if "--db" in words else "--dir") + 1]
        assert kept.startswith("bench/runs/") and Path(kept).parent == Path("bench/runs"), \
            f"{kept}: keep the runs' databases and recipes in bench/runs"
        found[Path(kept).name] = words
    return found


def kept() -> list[str]:
    """What bench/runs holds: tournament databases and recipes' folders."""
    return sorted([p.name for p in RUNS.glob("*.sqlite")] + [p.parent.name for p in RUNS.glob(f"*/{RECIPE_STATE}")])


def test_everything_kept_has_its_command_and_every_command_what_it_keeps() -> None:
    stored, named = set(kept()), set(commands())
    assert stored <= named, f"kept in bench/runs, named by no command in its README: {sorted(stored - named)}"
    assert named <= stored, f"commands whose database or recipe is not committed: {sorted(named - stored)}"


def report(words: list[str]) -> subprocess.CompletedProcess[str]:
    program = [sys.executable, str(REPO / words[1]), *words[2:]] if words[0] == "python" else \
        [sys.executable, "-m", "splendor_mcts.cli", *words[1:]] if words[0] == "splendor-mcts" else None
    assert program is not None, f"a command of a bench/ script or splendor-mcts, got {words[0]}"
    return subprocess.run([*program, "--report"], cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name", kept())
def test_the_command_reads_what_it_keeps(name: str) -> None:
    words = commands()[name]
    run = report(words)  # read, never played nor trained: the same run, or a clear refusal
    assert run.returncode == 0, f"{name}: {run.stderr}"
    if name.endswith(".sqlite"):  # the same tournament: agents, seed, deals, shipped networks
        assert "played by this run: 0" in run.stdout
        return
    state = json.loads((RUNS / name / RECIPE_STATE).read_text())
    recipe = words[words.index("--recipe") + 1]
    assert state["recipe"] == recipe
    first = run.stdout.splitlines()[0]
    compute = re.fullmatch(rf"recipe {recipe} in bench/runs/{name}: {len(state['shipped'])} of \d+ runs shipped, "
                           r"(?:(\d+) h )?(\d+) min of compute", first)
    assert compute, first
    hours, minutes = compute.groups()
    assert int(hours or 0) * 60 + int(minutes) <= 8 * 60, f"{name}: more than issue 16's 8 hours of compute"
    for key in state["shipped"]:  # a shipped run's network is there for the next run to begin from
        family = key.split("/")[1]
        assert shipped_file(family, RUNS / name / "networks") is not None, f"{key}: its network is missing"
