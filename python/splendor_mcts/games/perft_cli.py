"""``splendor-mcts perft``: leaf counts of a fixed deal, with Stockfish's per-move divide.

Move generation is checked by comparing counts with a golden or another engine; with
``--divide`` the listing of each root move's count finds the move where two disagree.
"""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from .game import load_game
from ..console import StepProgress
from ..ranges import WHOLE, Whole
from .playouts import perft
from .registry import DEFAULT_GAME

PLAIN_PROGRESS_EVERY = 5.0  # seconds between progress lines when standard error is not a terminal


EXAMPLES = """examples:
  splendor-mcts perft 3
  splendor-mcts perft 2 --game duel --seed 5 --divide     each root move's count, to find where two engines differ
  splendor-mcts perft 4 --game "splendor(players=3)" --json
"""


# Deeper than any count can finish (depth 6 of a deal is billions of lines), within the engine's int.
DEPTH = Whole(0, 1000)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "perft", help="count the leaf decisions DEPTH plies below a deal (move generation check)",
        description="Count every line of play DEPTH plies deep from the deal of --seed (chess's perft): "
        "compare the count with a golden or another engine to check move generation.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("depth", type=DEPTH.arg(), metavar="DEPTH",
                   help=f"plies to count, chance outcomes included ({DEPTH.low:g} to {DEPTH.high:g})")
    p.add_argument("--game", default=DEFAULT_GAME,
                   help=f'game or spec, e.g. "splendor(players=3)" (default: {DEFAULT_GAME})')
    p.add_argument("--seed", type=WHOLE.arg(), default=1, help="deal seed (default: 1)")
    p.add_argument("--explicit-chance", action="store_true",
                   help="every card reveal, the opening deal included, is a chance ply")
    p.add_argument("--divide", action="store_true",
                   help="list each root move with its count DEPTH-1 plies below it (DEPTH >= 1)")
    p.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    p.add_argument("--no-progress", action="store_true",
                   help=f"no progress on standard error (a live line on a terminal, else a line every "
                   f"{PLAIN_PROGRESS_EVERY:g} s once a count runs that long)")
    p.set_defaults(func=run)


def divided(state: Any, depth: int, on_move: Callable[[int, int], None]) -> dict[str, int]:
    """:func:`perft_divide` one root move at a time, ``on_move(index, total)`` before each: the
    same counts, in the same order, with progress between them."""
    if depth < 1 or state.is_terminal():
        return {}
    actions = state.legal_actions()
    counts: dict[str, int] = {}
    for index, action in enumerate(actions):
        on_move(index, len(actions))
        child = state.clone()
        child.apply_action(action)
        counts[state.action_to_string(action)] = perft(child, depth - 1)
    return counts


def run(args: argparse.Namespace) -> int:
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
