"""``splendor-mcts perft``: leaf counts of a fixed deal, with Stockfish's per-move divide.

Move generation is checked by comparing counts with a golden or another engine; with
``--divide`` the listing of each root move's count finds the move where two disagree.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from .game import load_game
from .playouts import perft, perft_divide
from .registry import DEFAULT_GAME


EXAMPLES = """examples:
  splendor-mcts perft 3
  splendor-mcts perft 2 --game duel --seed 5 --divide     each root move's count, to find where two engines differ
  splendor-mcts perft 4 --game "splendor(players=3)" --json
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "perft", help="count the leaf decisions DEPTH plies below a deal (move generation check)",
        description="Count every line of play DEPTH plies deep from the deal of --seed (chess's perft): "
        "compare the count with a golden or another engine to check move generation.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("depth", type=int, metavar="DEPTH", help="plies to count, chance outcomes included")
    p.add_argument("--game", default=DEFAULT_GAME,
                   help=f'game or spec, e.g. "splendor(players=3)" (default: {DEFAULT_GAME})')
    p.add_argument("--seed", type=int, default=1, help="deal seed (default: 1)")
    p.add_argument("--explicit-chance", action="store_true",
                   help="every card reveal, the opening deal included, is a chance ply")
    p.add_argument("--divide", action="store_true",
                   help="list each root move with its count DEPTH-1 plies below it (DEPTH >= 1)")
    p.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    state = game.new_initial_state(seed=args.seed, explicit_chance=args.explicit_chance)
    start = time.perf_counter()
    counts = perft_divide(state, args.depth) if args.divide else None
    nodes = sum(counts.values()) if counts is not None else perft(state, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"game": game.spec, "seed": args.seed, "explicitChance": args.explicit_chance,
                          "depth": args.depth, "nodes": nodes, "seconds": seconds,
                          **({"divide": counts} if counts is not None else {})}))
        return 0
    print(f"{game.spec}, seed {args.seed}{', explicit chance' if args.explicit_chance else ''}, depth {args.depth}")
    if counts is not None:
        for move, count in counts.items():
            print(f"{move}: {count}")
        print()
    print(f"Nodes searched: {nodes}")
    print(f"Time (s): {seconds:.3f}")
    return 0
