"""Small commands through the real entry point: --version (and its one source), random-game and bench."""
from __future__ import annotations

import subprocess
import sys

import pytest


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], capture_output=True, text=True, timeout=120)


def test_version_is_the_package_version():
    from importlib.metadata import version

    import splendor_mcts as sm

    out = _run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"splendor-mcts {version('splendor-mcts')}"
    assert sm.__version__ == version("splendor-mcts")


def test_pyproject_is_the_one_place_the_version_is_written():
    """The package, the CLI and the analysis protocol read the installed metadata; nothing
    else (the C++ module, CMake, the docs) spells the version out."""
    from importlib.metadata import version
    from pathlib import Path

    import splendor_mcts as sm

    repo = Path(__file__).resolve().parents[1]
    spelt = (f'"{version("splendor-mcts")}"', f"'{version('splendor-mcts')}'", f"VERSION {version('splendor-mcts')}")
    files = [repo / "pyproject.toml", repo / "CMakeLists.txt", repo / "README.md",
             *(p for d in ("python", "cpp", "docs", "tools") for p in (repo / d).rglob("*") if p.is_file()
               and p.suffix in (".py", ".pyi", ".hpp", ".cpp", ".md", ".txt", ".toml"))]
    writing = [p.relative_to(repo).as_posix() for p in files if any(s in p.read_text(encoding="utf-8") for s in spelt)]
    assert writing == ["pyproject.toml"]
    assert not hasattr(sm._core, "__version__")


def test_random_game_prints_a_complete_game():
    out = _run("random-game", "--seed", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("splendor(players=2")
    assert lines[1].startswith("   1. seat 1: ")
    assert lines[-1].startswith(("winner: seat", "shared win"))
    assert _run("random-game", "--seed", "3").stdout == out.stdout  # same seed, same game


def test_random_game_of_duel_prints_a_complete_game():
    out = _run("random-game", "--game", "duel", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-2].startswith("seat 1: ") and "crowns" in out.stdout.splitlines()[-2]
    assert out.stdout.splitlines()[-1].startswith("winner: seat")


def test_random_game_rejects_a_bad_variant():
    out = _run("random-game", "--game", "splendor(players=7)")
    assert out.returncode == 2 and "players" in out.stderr


def test_output_into_a_closed_pipe_stops_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "random-game", "--seed", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err


def test_bench_node_count_is_deterministic():
    first = _run("bench", "--iterations", "300")
    assert first.returncode == 0, first.stderr
    signature = [line for line in first.stdout.splitlines() if line.startswith(("Nodes searched", "Signature"))]
    assert len(signature) == 2 and int(signature[0].split(":")[1]) > 6 * 100
    second = _run("bench", "--iterations", "300")
    assert [line for line in second.stdout.splitlines() if line.startswith(("Nodes searched", "Signature"))] == signature
    other_seed = _run("bench", "--iterations", "300", "--seed", "1")
    assert [line for line in other_seed.stdout.splitlines() if line.startswith("Signature")] != signature[1:]
    assert _run("bench", "--iterations", "0").returncode == 2


# The default bench's signature, as recorded in bench/RESULTS.md. Like a chess engine's
# bench number it changes with any change to the rules, move generation, rollout policy or
# search: a change meant to keep play move for move (a speed-up) must keep it; a change
# meant to alter play updates it here and in bench/RESULTS.md, with the new strength figures.
BENCH_SIGNATURE = "297de3aea3676a0b"  # the default search with the networks on: Splendor 2p (its fifth run, the "needs" input features), 3-4p (the recipe's eighth run, "needs" too), Duel (third run), 2026-12-06
# The search without a network (`bench --network none`): the default search before the
# shipped networks, whose signature a change to the rollout search must keep or update.
NO_NETWORK_BENCH_SIGNATURE = "51d589eb13565c3f"


@pytest.mark.parametrize("args, signature", [((), BENCH_SIGNATURE), (("--network", "none"), NO_NETWORK_BENCH_SIGNATURE)])
def test_bench_signature_is_the_recorded_one(args, signature):
    out = _run("bench", *args)
    assert out.returncode == 0, out.stderr
    lines = {line.split(":")[0].strip(): line.split(":")[1].strip() for line in out.stdout.splitlines() if ":" in line}
    assert lines["Nodes searched"] == "120006"
    assert lines["Signature"] == signature


def test_bench_refuses_a_bad_network_by_option_name(tmp_path):
    out = _run("bench", "--iterations", "10", "--network", str(tmp_path / "missing.smnet"))
    assert out.returncode == 2 and "--network: network file" in out.stderr and "cannot be opened" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("command, flag, value, message", [
    (["hint", "missing.json"], "--exploration", "-1", "--exploration: exploration must be a finite number >= 0"),
    (["hint", "missing.json"], "--threads", "0", "--threads: threads must be between 1 and 256"),
    (["review", "missing.json"], "--evaluator", "clever", "--evaluator: evaluator (rollout) must be one of"),
    (["review", "missing.json"], "--time", "-1", "--time: time_limit must be between 0 and 1000000 seconds, got -1"),
    (["play"], "--rollout-cutoff", "-2", "--rollout-cutoff: rollout_cutoff must be >= 0"),
    (["play"], "--memory-limit", "10", "--memory-limit: memory_limit must be at least 1 MiB"),
    (["analyze"], "--threads", "300", "--threads: threads must be between 1 and 256"),
])
def test_bad_search_settings_are_refused_before_anything_starts(command, flag, value, message):
    """Checked by the engine's SearchParams, named by the option typed (before any file is read)."""
    out = _run(*command, flag, value)
    assert out.returncode == 2 and message in out.stderr, out.stderr
