"""bench/runs/: each committed tournament database is named by a command in its README that
reads it (the command with --report added), so a measurement left unfinished by one machine
is resumed, not begun again, by the next."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

RUNS = Path(__file__).resolve().parents[1] / "bench" / "runs"
REPO = RUNS.parents[1]
_BLOCK = re.compile(r"```sh\n(.*?)```", re.S)


def commands() -> dict[str, list[str]]:
    """The README's commands by the database they keep (--db bench/runs/NAME.sqlite)."""
    found: dict[str, list[str]] = {}
    for block in _BLOCK.findall((RUNS / "README.md").read_text()):
        words = shlex.split(block.replace("\\\n", " "), comments=True)
        db = words[words.index("--db") + 1]
        assert db.startswith("bench/runs/") and db.endswith(".sqlite"), f"{db}: keep the runs' databases here"
        found[Path(db).name] = words
    return found


def test_every_database_has_its_command_and_every_command_its_database() -> None:
    stored = {p.name for p in RUNS.glob("*.sqlite")}
    named = set(commands())
    assert stored <= named, f"databases no command in bench/runs/README.md names: {sorted(stored - named)}"
    assert named <= stored, f"commands whose database is not committed: {sorted(named - stored)}"


@pytest.mark.parametrize("name", sorted(p.name for p in RUNS.glob("*.sqlite")))
def test_the_command_reads_its_database(name: str) -> None:
    words = commands()[name]
    program = [sys.executable, str(REPO / words[1])] if words[0] == "python" else \
        [sys.executable, "-m", "splendor_mcts.cli", *words[1:]] if words[0] == "splendor-mcts" else None
    assert program is not None, f"{name}: a command of bench/strength.py or splendor-mcts, got {words[0]}"
    if words[0] == "python":
        program += words[2:]
    # Read, never played: the same tournament (agents, seed, deals, shipped networks) or a clear refusal.
    run = subprocess.run([*program, "--report"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{name}: {run.stderr}"
    assert "played by this run: 0" in run.stdout
