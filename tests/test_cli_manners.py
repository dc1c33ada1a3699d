"""The command line's manners, through the real commands (subprocess, pipes, a pseudo-terminal):
plain unwrapped output when piped, help texts, no silent waits, case-insensitive game names."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """The command with its output piped (not a terminal), as a script or ``| less`` sees it."""
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})


def test_piped_hint_is_neither_wrapped_nor_split():
    """A narrow COLUMNS does not matter when piped: the header is one line, each move one row."""
    out = run("hint", str(EXAMPLES / "splendor-4p-view.json"), "--iterations", "3000", "--threads", "1",
              "--top", "5", COLUMNS="40")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Splendor, 4 players") and lines[0].endswith("with the best play found")
    rows = [line for line in lines if line[:1].isdigit()]
    assert len(rows) == 5 and len(lines) == 1 + 2 + 5  # title, column heads and rule, the moves
    assert all(row.count("│") == 5 for row in rows)
    assert "\x1b[" not in out.stdout


def test_piped_play_board_keeps_each_card_row_on_one_line():
    out = run("play", "--deal-seed", "1", "--iterations", "50", "--threads", "1", stdin="quit\n", COLUMNS="40")
    assert out.returncode == 0, out.stderr
    level3 = next(line for line in out.stdout.splitlines() if line.startswith("level 3"))
    assert all(f"3.{slot} " in level3 for slot in range(1, 5))
