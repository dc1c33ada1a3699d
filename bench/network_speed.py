"""Iterations a search makes in a given time, with the shipped network and without one.

    python bench/network_speed.py [--times 0.1 1] [--repeat 3] [--games splendor-2p duel]

For each game (Splendor with 2, 3 and 4 players, Duel) and each of two positions (the
opening of deal 1 and the position after 30 greedy moves from it), one thread searches for
each time with the default search (the shipped network of the game's family with its
settings in the networks index) and with ``network=none`` (heuristic rollouts cut off by the
evaluation), the search for play (no probe, no analysis mode), a new tree each time. Prints
the median iterations of ``--repeat`` searches, as iterations a second, and the network's
share of the rollout search's. A tree grows with time and a network search's rate falls
with it (bench/notes/2026-12-03-network-iteration-rate.md), hence several times.

``--iterations N`` runs one search instead, of N iterations, of the first ``--games`` game
from ``--position`` with ``--search``, and prints nothing: for counting instructions,
    valgrind --tool=callgrind python bench/network_speed.py --iterations 22000 --games splendor-2p \\
        --position 1 --search network         # minus the same with --iterations 2000
"""
from __future__ import annotations

import argparse
import statistics

import splendor_mcts as sm
from search_speed import midgame

GAMES = {"splendor-2p": "splendor", "splendor-3p": "splendor(players=3)", "splendor-4p": "splendor(players=4)",
         "duel": "duel"}
SEARCHES = {"network": {}, "rollout": {"network": "none"}}


def positions(game: sm.Game) -> dict[str, object]:
    """The opening of deal 1 and search_speed.py's mid-game position (30 greedy moves on)."""
    return {"opening": game.new_initial_state(seed=1), "after 30": midgame(game)}


def iterations(state: object, seconds: float, repeat: int, **settings: object) -> int:
    return int(statistics.median(
        sm.analyze(state, time_limit=seconds, iterations=0, threads=1, seed=r, probe=False, **settings).root.iterations
        for r in range(repeat)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--times", type=float, nargs="+", default=[0.1, 1.0], help="seconds a search (default 0.1 1)")
    ap.add_argument("--repeat", type=int, default=3, help="searches a figure, the median kept (default 3)")
    ap.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    ap.add_argument("--iterations", type=int, help="one search of this many iterations, for valgrind")
    ap.add_argument("--position", type=int, choices=(0, 1), default=0, help="with --iterations: 0 opening, 1 after 30")
    ap.add_argument("--search", choices=list(SEARCHES), default="network", help="with --iterations")
    args = ap.parse_args()
    if args.iterations:
        state = list(positions(sm.load_game(GAMES[args.games[0]])).values())[args.position]
        sm.analyze(state, iterations=args.iterations, threads=1, seed=1, probe=False, **SEARCHES[args.search])
        return
    print(f"{'game':12} {'position':9} {'time':>5} {'network it/s':>13} {'rollout it/s':>13} {'ratio':>6}")
    for name in args.games:
        game = sm.load_game(GAMES[name])
        for where, state in positions(game).items():
            for seconds in args.times:
                rate = {search: iterations(state, seconds, args.repeat, **settings) / seconds
                        for search, settings in SEARCHES.items()}
                print(f"{name:12} {where:9} {seconds:>5g} {rate['network']:>13,.0f} {rate['rollout']:>13,.0f} "
                      f"{rate['network'] / rate['rollout']:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
