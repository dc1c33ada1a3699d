"""Helpers shared by the position-entry tests of both games (test_position_entry.py,
test_duel_position_entry.py): damaging a position, collecting the problems the reader
reports, and running the command line."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from splendor_mcts.games.positions import PositionError, read_position

Edit = Callable[[dict], None]


def problems_of(data: dict) -> list[str]:
    """The problems read_position reports for ``data`` (which must be refused)."""
    with pytest.raises(PositionError) as info:
        read_position(json.dumps(data))
    return [f"{p['path']}: {p['message']}" if p["path"] else p["message"] for p in info.value.problems]


def set_at(path: list, value: object) -> Edit:
    """An edit that sets the field at ``path`` (keys and list indexes) to ``value``."""
    def edit(d: dict) -> None:
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def assert_reported(data: dict, edit: Edit, expected: str) -> None:
    """After ``edit``, the reader refuses ``data`` with a problem containing ``expected``."""
    edit(data)
    problems = problems_of(data)
    assert any(expected in p for p in problems), problems


def assert_reported_at_once(data: dict, errors: Iterable[tuple[Edit, str]]) -> None:
    """With every (edit, expected) applied, each problem is reported, and nothing else."""
    errors = list(errors)
    for edit, _ in errors:
        edit(data)
    problems = problems_of(data)
    assert len(problems) == len(errors), problems
    for _, expected in errors:
        assert any(expected in p for p in problems), expected


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``splendor-mcts ARGS`` through the real entry point."""
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def hint_refusal(tmp_path: Path, data: dict) -> str:
    """The problems ``splendor-mcts hint`` prints for ``data`` written to a file: it
    must refuse it with exit code 3 and print nothing on stdout."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    run = run_cli("hint", str(path))
    assert run.returncode == 3, run.stderr
    assert run.stdout == ""
    return run.stderr


def assert_only_a_view_reads(game: Any, text: str) -> None:
    """A view (decks as counts) is refused as a full position and read as a view."""
    with pytest.raises(ValueError, match=r"decks\[0\]: a full position lists each deck"):
        game.state_from_json(text)
    game.state_from_observation(text, seed=0)
