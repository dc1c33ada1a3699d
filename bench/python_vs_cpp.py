"""The Python API against the C++ drivers, side by side in one run.

The same work is timed both ways, alternating (C++, Python, C++, Python, ...) so that the
shared machine's noise falls on both alike; each figure is the best of ``--repeats`` runs.

- random games: ``bench_playouts splendor 2 N`` / ``bench_duel N`` against
  ``sm.random_playouts(game, N)``;
- search: ``bench_search --iterations N`` against ``sm.analyze(state, iterations=N)``
  from the same opening (deal 1), one thread, the defaults (heuristic rollouts cut off
  after 30 plies) and random rollouts. The Python figure is timed around the whole call
  (parameter checks and result conversion included); the driver's is the search's own.

Usage (after building the C++ drivers and installing the package, see RESULTS.md):
    python bench/python_vs_cpp.py --build build-cpp [--repeats 5]
"""
from __future__ import annotations

import argparse
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import splendor_mcts as sm


def cpp_rate(command: list[str], field: str) -> float:
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    match = re.search(rf"{field}=([0-9.]+)", out)
    if not match:
        raise RuntimeError(f"{command[0]} printed no {field}: {out!r}")
    return float(match.group(1))


def python_rate(work: Callable[[], object], units: int) -> float:
    start = time.perf_counter()
    work()
    return units / (time.perf_counter() - start)


def best_of(repeats: int, cpp: Callable[[], float], python: Callable[[], float]) -> tuple[float, float]:
    cpp_best = python_best = 0.0
    for _ in range(repeats):
        cpp_best = max(cpp_best, cpp())
        python_best = max(python_best, python())
    return cpp_best, python_best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, default=Path("build-cpp"), help="build directory of the C++ drivers")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--iterations", type=int, default=100_000)
    args = parser.parse_args()
    build, games, iterations = args.build, args.games, args.iterations

    rows: list[tuple[str, str, float, float]] = []
    for name, spec, driver in (("Splendor 2p", "splendor", [str(build / "bench_playouts"), "splendor", "2", str(games)]),
                               ("Duel", "duel", [str(build / "bench_duel"), str(games)])):
        game = sm.load_game(spec)
        cpp, python = best_of(args.repeats, lambda d=driver: cpp_rate(d, "games_per_s"),
                              lambda g=game: python_rate(lambda: sm.random_playouts(g, games, seed=1), games))
        rows.append((f"{name} random games", "games/s", cpp, python))

    for name, spec in (("Splendor 2p", "splendor"), ("Duel", "duel")):
        state = sm.load_game(spec).new_initial_state(seed=1)
        for label, flags, options in (("default", ["--rollout", "heuristic", "--cutoff", "30"], {}),
                                      ("random rollouts", ["--rollout", "random"], {"rollout": "random", "rollout_cutoff": 0})):
            command = [str(build / "bench_search"), "--game", spec, "--iterations", str(iterations), "--seed", "1", *flags]
            cpp, python = best_of(
                args.repeats, lambda c=command: cpp_rate(c, "it_per_s"),
                lambda o=options, s=state: python_rate(
                    lambda: sm.analyze(s, iterations=iterations, threads=1, seed=1, **o), iterations))
            rows.append((f"{name} search, {label}", "iterations/s", cpp, python))

    print(f"| work | unit | C++ driver | Python API | Python / C++ |\n|---|---|---:|---:|---:|")
    for work, unit, cpp, python in rows:
        print(f"| {work} | {unit} | {cpp:,.0f} | {python:,.0f} | {python / cpp:.2f} |")


if __name__ == "__main__":
    main()
