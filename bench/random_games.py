#!/usr/bin/env python3
"""Random complete games per second in one thread (the C++ loop behind
sm.random_playouts). Usage: python bench/random_games.py [--games N] [--repeat R]

Prints one line per game and player count: games/s (best of R runs), mean
decisions per game (chance outcomes included) and ns per decision.
"""
from __future__ import annotations

import argparse
import platform
import time

import splendor_mcts as sm


def measure(spec: str, games: int, repeat: int, seed: int) -> tuple[float, float]:
    game = sm.load_game(spec)
    sm.random_playouts(game, min(games, 2000), seed)  # warm up caches and the CPU clock
    best = float("inf")
    lengths = 0.0
    for r in range(repeat):
        start = time.perf_counter()
        result = sm.random_playouts(game, games, seed + r)
        best = min(best, time.perf_counter() - start)
        lengths = float(result.lengths.mean())
    return games / best, lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--specs", nargs="*", default=["splendor(players=2)", "splendor(players=3)", "splendor(players=4)", "duel"])
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}, one thread")
    print(f"{'game':<24} {'games/s':>10} {'decisions/game':>15} {'ns/decision':>12}")
    for spec in args.specs:
        rate, length = measure(spec, args.games, args.repeat, args.seed)
        print(f"{spec:<24} {rate:>10.0f} {length:>15.1f} {1e9 / (rate * length):>12.1f}")


if __name__ == "__main__":
    main()
