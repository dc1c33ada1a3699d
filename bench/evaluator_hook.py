"""What the Python evaluator hook costs per call (docs/search.md, "Python evaluators").

Searches the deal of Splendor 2 players (seed 0) with ``sm.analyze(..., evaluate_with=f,
batch_size=b)`` where ``f`` is a trivial numpy model (every seat an equal share, no
policy: the cost is the hook's, not the model's), for each batch size, and prints
iterations per second and microseconds per iteration, the best of ``--repeats`` runs.
For scale it also runs the same search with the ``evaluate`` evaluator (no Python).

    python bench/evaluator_hook.py [--iterations 20000] [--batch 1 8 32] [--repeats 3]
"""
from __future__ import annotations

import argparse

import numpy as np

import splendor_mcts as sm


def equal_shares(observations: np.ndarray, legal: np.ndarray, players: int) -> np.ndarray:
    return np.full((len(observations), players), 1.0 / players, np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=20_000)
    ap.add_argument("--batch", type=int, nargs="+", default=[1, 8, 32])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    state = sm.load_game("splendor", players=2).new_initial_state(seed=0)
    settings = dict(iterations=args.iterations, seed=1, threads=1, probe=False)

    def best_rate(**extra: object) -> float:
        return max(sm.analyze(state, **settings, **extra).root.iterations_per_second for _ in range(args.repeats))

    print(f"{'leaves valued by':<28} {'iterations/s':>12} {'us/iteration':>12}")
    rows = [("evaluate (C++, no Python)", best_rate(evaluator="evaluate"))]
    rows += [(f"numpy hook, batch {b}", best_rate(evaluate_with=equal_shares, batch_size=b)) for b in args.batch]
    for name, rate in rows:
        print(f"{name:<28} {rate:>12,.0f} {1e6 / rate:>12.1f}")


if __name__ == "__main__":
    main()
