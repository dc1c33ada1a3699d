"""``splendor-mcts perft``: leaf counts of a fixed deal, with Stockfish's per-move divide.

Move generation is checked by comparing counts with a golden or another engine; with
``--divide`` the listing of each root move's count finds the move where two disagree.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..console import StepProgress
from ..games.game import load_game
from ..games.playouts import divided
from ..ranges import Whole
from .options import add, arg, command_parser

PLAIN_PROGRESS_EVERY = 5.0  # seconds between progress lines when standard error is not a terminal

EXAMPLES = """examples:
  splendor-mcts perft 3
  splendor-mcts perft 2 --game duel --seed 5 --divide     each root move's count, to find where two engines differ
  splendor-mcts perft 4 --game "splendor(players=3)" --json
"""

# Deeper than any count can finish (depth 6 of a deal is billions of lines), within the engine's int.
DEPTH = Whole(0, 1000)


def register(subparsers: Any) -> None:
    """Add ``perft`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "perft", help="count the leaf decisions DEPTH plies below a deal (move generation check)",
        description="Count every line of play DEPTH plies deep from the deal of --seed (chess's perft): "
        "compare the count with a golden or another engine to check move generation.",
        epilog=EXAMPLES)
    p.add_argument("depth", type=arg(DEPTH), metavar="DEPTH",
                   help=f"plies to count, chance outcomes included ({DEPTH.low:g} to {DEPTH.high:g})")
    add(p, "game")
    add(p, "deal_seed")
    p.add_argument("--explicit-chance", action="store_true",
                   help="every card reveal, the opening deal included, is a chance ply")
    p.add_argument("--divide", action="store_true",
                   help="list each root move with its count DEPTH-1 plies below it (DEPTH >= 1)")
    add(p, "json", what="the counts")
    add(p, "no_progress", how=f" (a live line on a terminal, else a line every {PLAIN_PROGRESS_EVERY:g} s once "
        "a count runs that long)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Count the lines and print the counts; the exit code."""
    game = load_game(args.game)
    state = game.new_initial_state(seed=args.seed, explicit_chance=args.explicit_chance)
    if args.divide and args.depth < 1:
        raise ValueError(f"--divide needs a depth of at least 1, got {args.depth}")
    display = StepProgress("perft", enabled=not args.no_progress, live=not args.json, every=PLAIN_PROGRESS_EVERY,
                           first_at_once=False)

    def progress(index: int, total: int) -> None:
        display.step(f"perft: depth {args.depth}, root move {index + 1} of {total}",
                     f"depth {args.depth}, root move {index + 1} of {total}")

    start = time.perf_counter()
    try:
        counts = divided(state, args.depth, progress)
    finally:
        display.close()
    nodes = sum(counts.values()) if counts else 1  # depth 0 or a finished game: the one leaf
    seconds = time.perf_counter() - start
    if not args.divide:
        counts = None
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
