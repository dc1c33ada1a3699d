"""The search speed table of bench/RESULTS.md ("Search speed without a network"), from cpp/bench/bench_search.cpp.

For every row (game x position x rollout policy) it measures
  - instructions per iteration with callgrind (exact and repeatable on a shared machine):
    a search of BIG iterations minus one of SMALL, divided by BIG - SMALL, so start-up
    and the final result collection cancel out;
  - iterations per second, one thread and two, as the best of REPEATS runs (the machine
    is shared and noisy: the best run is the one least disturbed).

Usage (after building the drivers, see RESULTS.md):
    python bench/search_table.py --build build-search [--repeats 3] [--rows splendor]
    python bench/search_table.py --build build-cpp --rollouts default --no-timing --driver-args "--analysis-moves 5"
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Row:
    game: str
    position: str  # "opening" or "mid-game"
    rollout: str  # "random, full", "heuristic, full", "default"

    def flags(self) -> list[str]:
        out = ["--game", self.game]
        if self.position == "mid-game":
            out += ["--midgame", "30"]
        if self.rollout == "random, full":
            out += ["--rollout", "random"]
        elif self.rollout == "heuristic, full":
            out += ["--rollout", "heuristic"]
        else:  # the defaults of sm.analyze: heuristic rollouts cut off after 30 plies
            out += ["--rollout", "heuristic", "--cutoff", "30"]
        return out


ROWS = [
    Row(game, position, rollout)
    for game in ("splendor", "duel")
    for position in ("opening", "mid-game")
    for rollout in ("random, full", "heuristic, full", "default")
]


def iterations_per_second(driver: Path, row: Row, iterations: int, threads: int, extra: list[str]) -> float:
    out = subprocess.run(
        [str(driver), *row.flags(), *extra, "--iterations", str(iterations), "--threads", str(threads)],
        check=True, capture_output=True, text=True,
    ).stdout
    match = re.search(r"it_per_s=(\d+)", out)
    if not match:
        raise RuntimeError(f"bench_search printed no it_per_s: {out!r}")
    return float(match.group(1))


def instructions(driver: Path, row: Row, iterations: int, extra: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", str(driver), *row.flags(), *extra,
             "--iterations", str(iterations)],
            check=True, capture_output=True, text=True,
        )
    match = re.search(r"Collected : (\d+)", result.stderr) or re.search(r"refs:\s+([\d,]+)", result.stderr)
    if not match:
        raise RuntimeError(f"callgrind printed no instruction count: {result.stderr[-500:]!r}")
    return int(match.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=Path, default=Path("build-search"), help="build directory holding bench_search")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell; the best is reported")
    parser.add_argument("--rows", choices=("all", "splendor", "duel"), default="all")
    parser.add_argument("--rollouts", choices=("all", "random, full", "heuristic, full", "default"), default="all")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the instruction counts")
    parser.add_argument("--no-timing", action="store_true", help="skip the iterations per second")
    parser.add_argument("--driver-args", default="", help="more bench_search options for every run, e.g. '--analysis-moves 5'")
    args = parser.parse_args(argv)
    driver = args.build / "bench_search"
    if not driver.exists():
        parser.error(f"{driver} not found: build it first (see bench/RESULTS.md)")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")

    print("| game | position | rollout | instructions/iteration | iterations/s, 1 thread | 2 threads |")
    print("|---|---|---|---:|---:|---:|")
    for row in ROWS:
        if (args.rows != "all" and row.game != args.rows) or (args.rollouts != "all" and row.rollout != args.rollouts):
            continue
        extra = args.driver_args.split()
        # Duel iterations cost ~3x Splendor's: fewer of them keep each run near a second.
        timed = 200_000 if row.game == "splendor" else 60_000
        small, big = (1_000, 11_000) if row.game == "splendor" else (500, 4_500)
        per_iteration = "-"
        if not args.no_callgrind:
            counted = instructions(driver, row, big, extra) - instructions(driver, row, small, extra)
            per_iteration = f"{counted / (big - small):,.0f}"
        if args.no_timing:
            print(f"| {row.game.capitalize()} | {row.position} | {row.rollout} | {per_iteration} | - | - |", flush=True)
            continue
        one = max(iterations_per_second(driver, row, timed, 1, extra) for _ in range(args.repeats))
        two = max(iterations_per_second(driver, row, 2 * timed, 2, extra) for _ in range(args.repeats))
        print(f"| {row.game.capitalize()} | {row.position} | {row.rollout} | {per_iteration} | {one:,.0f} | "
              f"{two:,.0f} ({two / one:.2f}x) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
