"""``splendor-mcts bench``: a fixed set of positions searched with a fixed budget.

As in chess engines' ``bench``: with one thread the search is deterministic, so the node
count and a signature of every root's visit counts identify the engine's behaviour (a
change to the rules, the move generation or the search changes the signature), and the
time gives nodes per second on this machine.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from typing import Any

from ..ranges import WHOLE
from ..console import StepProgress
from ..games.game import load_game
from .analyze import analyze
from .defaults import BENCH_ITERATIONS
from .settings import BY_NAME

# (game spec, deal seed, plies of dealt play before the search)
POSITIONS: list[tuple[str, int, int]] = [
    ("splendor(players=2)", 1, 0),
    ("splendor(players=2)", 2, 20),
    ("splendor(players=3)", 3, 10),
    ("splendor(players=4)", 4, 30),
    ("duel", 1, 0),
    ("duel", 2, 25),
]


def _position(spec: str, seed: int, plies: int) -> Any:
    """The deal of ``seed`` after ``plies`` moves, each the first legal action: fixed forever."""
    state = load_game(spec).new_initial_state(seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    return state


def _fnv1a(values: list[int], h: int = 0xCBF29CE484222325) -> int:
    for v in values:
        for byte in int(v).to_bytes(8, "little", signed=True):
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def run_bench(iterations: int = BENCH_ITERATIONS, seed: int = 0,
              on_position: Callable[[int, str, tuple[str, int, float] | None], None] | None = None,
              network: str | None = None) -> tuple[int, int, float, list[tuple[str, int, float]]]:
    """Searches every bench position with one thread; returns (total nodes, signature,
    seconds, rows). The signature hashes each root's moves and visit counts. ``network``:
    as the search setting (None: the default search's, ``"none"``: the search without one).
    ``on_position(index, name, row)`` is called before each search (row None) and after it."""
    rows = []
    total_nodes, total_seconds, signature = 0, 0.0, _fnv1a([])
    for index, (spec, deal, plies) in enumerate(POSITIONS):
        name = f"{spec} seed {deal} +{plies}"
        if on_position:
            on_position(index, name, None)
        state = _position(spec, deal, plies)
        start = time.perf_counter()
        analysis = analyze(state, iterations=iterations, threads=1, seed=seed, top_k=None, network=network)
        seconds = time.perf_counter() - start
        rows.append((name, analysis.root.nodes, seconds))
        if on_position:
            on_position(index, name, rows[-1])
        total_nodes += analysis.root.nodes
        total_seconds += seconds
        signature = _fnv1a([v for m in analysis.moves for v in (m.action, m.visits)], signature)
    return total_nodes, signature, total_seconds, rows


EXAMPLES = """examples:
  splendor-mcts bench                       the signature must stay the same for a change that keeps play
  splendor-mcts bench --iterations 2000     quicker
  splendor-mcts bench --network none        the search without a network: its own signature
  splendor-mcts bench --json
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench", help="search a fixed set of positions: deterministic node count and nodes/s",
        description="Search six fixed positions (Splendor for 2-4 players, Duel) with one thread and a fixed "
        "budget. The node count and the signature (a hash of every root's visit counts) identify the "
        "engine's behaviour: a change to the rules, move generation or search changes them. The nodes "
        "per second measure this machine.", epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--iterations", type=WHOLE.arg(), default=BENCH_ITERATIONS,
                   help=f"iterations per position (default {BENCH_ITERATIONS})")
    p.add_argument("--seed", type=WHOLE.arg(), default=0, help="search seed (default 0)")
    p.add_argument("--network", help=BY_NAME["network"].help)
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress line on standard error (shown on a terminal: the position being searched; "
                   "each position's row is printed as it finishes)")
    p.set_defaults(func=run)


def format_row(name: str, nodes: int, seconds: float) -> str:
    """One position's line: its name, nodes and nodes per second."""
    return f"{name:<32} nodes {nodes:>9,}  {nodes / seconds:>12,.0f} nodes/s"


def run(args: argparse.Namespace) -> int:
    if args.iterations < 1:
        raise ValueError(f"--iterations must be at least 1, got {args.iterations}")
    # Each row is printed as its position finishes (progress in a log too); on a terminal a
    # live line names the position being searched. --json prints once, at the end.
    display = StepProgress("bench", enabled=not args.no_progress, every=math.inf, first_at_once=False)

    def progress(index: int, name: str, row: tuple[str, int, float] | None) -> None:
        if row is None:
            display.step(f"bench: searching position {index + 1} of {len(POSITIONS)}: {name}")
            return
        display.close()
        if not args.json:
            print(format_row(*row), flush=True)

    try:
        nodes, signature, seconds, rows = run_bench(args.iterations, args.seed, on_position=progress,
                                                    network=args.network)
    except ValueError as exc:  # only a bad --network gets here: the positions and budget are fixed or checked
        raise ValueError(f"--network: {exc}") from None
    finally:
        display.close()
    if args.json:
        print(json.dumps({"iterations": args.iterations, "seed": args.seed, "network": args.network, "nodes": nodes,
                          "signature": f"{signature:016x}", "seconds": seconds, "nodesPerSecond": nodes / seconds,
                          "positions": [{"position": name, "nodes": n, "seconds": s} for name, n, s in rows]}))
        return 0
    print(f"Nodes searched  : {nodes}")
    print(f"Signature       : {signature:016x}")
    print(f"Nodes/second    : {nodes / seconds:.0f}")
    return 0
