"""``splendor-mcts bench``: a fixed set of positions searched with a fixed budget.

As in chess engines' ``bench``: with one thread the search is deterministic, so the node
count and a signature of every root's visit counts identify the engine's behaviour (a
change to the rules, the move generation or the search changes the signature), and the
time gives nodes per second on this machine.
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..games.game import load_game
from .analyze import analyze
from .defaults import BENCH_ITERATIONS

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


def run_bench(iterations: int = BENCH_ITERATIONS, seed: int = 0) -> tuple[int, int, float, list[tuple[str, int, float]]]:
    """Searches every bench position with one thread; returns (total nodes, signature,
    seconds, rows). The signature hashes each root's moves and visit counts."""
    rows = []
    total_nodes, total_seconds, signature = 0, 0.0, _fnv1a([])
    for spec, deal, plies in POSITIONS:
        state = _position(spec, deal, plies)
        start = time.perf_counter()
        analysis = analyze(state, iterations=iterations, threads=1, seed=seed, top_k=None)
        seconds = time.perf_counter() - start
        rows.append((f"{spec} seed {deal} +{plies}", analysis.root.nodes, seconds))
        total_nodes += analysis.root.nodes
        total_seconds += seconds
        signature = _fnv1a([v for m in analysis.moves for v in (m.action, m.visits)], signature)
    return total_nodes, signature, total_seconds, rows


EXAMPLES = """examples:
  splendor-mcts bench                       the signature must stay the same for a change that keeps play
  splendor-mcts bench --iterations 2000     quicker
  splendor-mcts bench --json
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench", help="search a fixed set of positions: deterministic node count and nodes/s",
        description="Search six fixed positions (Splendor for 2-4 players, Duel) with one thread and a fixed "
        "budget. The node count and the signature (a hash of every root's visit counts) identify the "
        "engine's behaviour: a change to the rules, move generation or search changes them. The nodes "
        "per second measure this machine.", epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--iterations", type=int, default=BENCH_ITERATIONS,
                   help=f"iterations per position (default {BENCH_ITERATIONS})")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.iterations < 1:
        raise ValueError(f"--iterations must be at least 1, got {args.iterations}")
    nodes, signature, seconds, rows = run_bench(args.iterations, args.seed)
    if args.json:
        print(json.dumps({"iterations": args.iterations, "seed": args.seed, "nodes": nodes,
                          "signature": f"{signature:016x}", "seconds": seconds, "nodesPerSecond": nodes / seconds,
                          "positions": [{"position": name, "nodes": n, "seconds": s} for name, n, s in rows]}))
        return 0
    for name, n, s in rows:
        print(f"{name:<32} nodes {n:>9,}  {n / s:>12,.0f} nodes/s")
    print(f"Nodes searched  : {nodes}")
    print(f"Signature       : {signature:016x}")
    print(f"Nodes/second    : {nodes / seconds:.0f}")
    return 0
