"""Output that cannot be written (issue 49): a full disk (/dev/full, a file-size limit), a missing
folder or a closed pipe is one line naming the file or stream and the system's reason, with the
documented exit code (docs/hints.md, "Exit codes"), never a traceback; what was stored before is
kept (the tournament's database, an export file that was there)."""
from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from splendor_mcts import exit_codes

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VIEW = str(EXAMPLES / "splendor-2p-view.json")
FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")


def run(*args: str, stdout: object = None, cwd: Path | None = None, file_size: int | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``splendor-mcts ARGS``; ``stdout`` a path to redirect it to; ``file_size`` a limit on the
    bytes any file may grow to (a disk that fills up: writes past it fail with EFBIG)."""
    def limit() -> None:
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails, the process goes on
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    out = open(stdout, "w") if stdout is not None else subprocess.PIPE  # noqa: SIM115
    try:
        return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], stdout=out, stderr=subprocess.PIPE,
                              text=True, cwd=cwd, timeout=300, preexec_fn=limit, input=stdin)
    finally:
        if stdout is not None:
            out.close()  # type: ignore[union-attr]


def one_line(run_: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in run_.stderr, run_.stderr
    lines = run_.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament's database: 2 games."""
    db = tmp_path_factory.mktemp("db") / "t.sqlite"
    done = run("tournament", "random", "greedy", "--games", "2", "--db", str(db), "--concurrency", "1", "--no-progress")
    assert done.returncode == 0, done.stderr
    return db


def stored(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])


@needs_dev_full
@pytest.mark.parametrize("args", [("random-game", "--json"), ("hint", VIEW, "--iterations", "50", "--threads", "1"),
                                  ("hint", VIEW, "--iterations", "50", "--threads", "1", "--json")],
                         ids=["random-game", "hint", "hint-json"])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_1(args: tuple[str, ...]) -> None:
    done = run(*args, stdout=FULL)
    assert one_line(done) == f"splendor-mcts {args[0]}: cannot write standard output: No space left on device"
    assert done.returncode == exit_codes.FAILURE


@needs_dev_full
def test_export_to_a_full_disk_names_the_file_and_standard_output(played: Path) -> None:
    done = run("export", "--db", str(played), "-o", FULL)
    assert one_line(done) == f"splendor-mcts export: cannot write {FULL}: No space left on device"
    assert done.returncode == exit_codes.FAILURE
    done = run("export", "--db", str(played), stdout=FULL)
    assert one_line(done) == "splendor-mcts export: cannot write standard output: No space left on device"
    assert done.returncode == exit_codes.FAILURE


def test_an_export_that_fills_the_disk_leaves_the_previous_file_whole(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("the previous export\n")
    done = run("export", "--db", str(played), "-o", str(out), file_size=64)
    assert one_line(done) == f"splendor-mcts export: cannot write {out}: File too large"
    assert done.returncode == exit_codes.FAILURE
    assert out.read_text() == "the previous export\n" and sorted(tmp_path.iterdir()) == [out]  # no temporary left


@needs_dev_full
def test_tournament_export_to_a_full_disk_keeps_every_game(played: Path) -> None:
    done = run("tournament", "random", "greedy", "--games", "2", "--db", str(played), "--concurrency", "1",
               "--no-progress", "--export", FULL)
    assert one_line(done) == (f"splendor-mcts tournament: cannot write {FULL}: No space left on device; every game "
                              f"is kept in {played}: write them with splendor-mcts export --db {played} -o FILE")
    assert done.returncode == exit_codes.FAILURE and "Rank" in done.stdout  # the report came first
    assert stored(played) == 2


def test_tournament_export_into_a_missing_folder_is_a_usage_error_after_the_games(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    done = run("tournament", "random", "greedy", "--games", "2", "--db", str(db), "--concurrency", "1",
               "--no-progress", "--export", str(Path("missing", "games")), cwd=tmp_path)
    assert one_line(done).startswith(f"splendor-mcts tournament: cannot write {Path('missing', 'games')}: the folder "
                                     "missing does not exist; every game is kept in")
    assert done.returncode == exit_codes.USAGE and stored(db) == 2 and not (tmp_path / "missing").exists()


def test_a_closed_pipe_stops_quietly_with_141() -> None:
    with subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "hint", VIEW, "--iterations", "50",
                           "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader goes away before the first line (`| head -c0`)
        err = process.stderr.read()
        assert process.wait(timeout=300) == exit_codes.BROKEN_PIPE and err == "", err


@needs_dev_full
def test_the_engine_on_a_full_disk_is_one_line_and_exit_1() -> None:
    view = json.dumps(json.loads(Path(VIEW).read_text()))
    done = run("engine", stdout=FULL, stdin=f"newgame splendor\nposition view {view}\ngo iterations 50\n")
    assert one_line(done) == "splendor-mcts engine: cannot write standard output: No space left on device"
    assert done.returncode == exit_codes.FAILURE
