"""Search speed: iterations per second from the opening and a mid-game position,
full random rollouts, full heuristic rollouts and the defaults (heuristic cut off by
the evaluation), 1 and 2 threads, and tree bytes per node.

    python bench/search_speed.py [--game splendor] [--iterations 200000] [--repeat 3]

The mid-game position is the one after 30 greedy moves from deal 1. Each figure is
the best of ``--repeat`` runs (the machine is shared: the best run is the least
disturbed one). Iteration counts are fixed, so node counts are deterministic.
"""
from __future__ import annotations

import argparse

import splendor_mcts as sm


CONFIGS = {
    "random": {"rollout": "random", "rollout_cutoff": 0},
    "heuristic": {"rollout": "heuristic", "rollout_cutoff": 0},
    "default": {},
}


def midgame(game: sm.Game, plies: int = 30) -> object:
    state = game.new_initial_state(seed=1)
    bot = sm.GreedyBot(game, seed=1)
    for _ in range(plies):
        state.apply_action(bot.step(state))
    return state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="splendor")
    ap.add_argument("--iterations", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    game = sm.load_game(args.game)
    positions = {"opening": game.new_initial_state(seed=1), "midgame": midgame(game)}
    print(f"{'position':9} {'rollout':9} {'threads':>7} {'iter/s':>10} {'nodes':>8} {'bytes/node':>10} {'depth':>5}")
    for name, state in positions.items():
        for rollout, options in CONFIGS.items():
            for threads in (1, 2):
                runs = [
                    sm.analyze(state, iterations=args.iterations, threads=threads, seed=1, **options).root
                    for _ in range(args.repeat)
                ]
                best = max(runs, key=lambda r: r.iterations_per_second)
                print(f"{name:9} {rollout:9} {threads:>7} {best.iterations_per_second:>10,.0f} {best.nodes:>8} "
                      f"{best.bytes / best.nodes:>10.1f} {best.max_depth:>5}")
    print(f"node size: {sm._core.SEARCH_NODE_BYTES} bytes (bytes/node above includes the unused tail of the last chunk)")


if __name__ == "__main__":
    main()
