"""``splendor-mcts bench``: the bench positions searched with a fixed budget
(:mod:`splendor_mcts.search.bench`): a deterministic node count and signature, and nodes/s."""
from __future__ import annotations

import argparse
import json
import math
from typing import Any

from ..console import StepProgress
from ..search.bench import POSITIONS, format_row, run_bench
from ..search.defaults import BENCH_ITERATIONS
from .options import add, command_parser, parameter_default

EXAMPLES = """examples:
  splendor-mcts bench                       the signature must stay the same for a change that keeps play
  splendor-mcts bench --iterations 2000     quicker
  splendor-mcts bench --network none        the search without a network: its own signature
  splendor-mcts bench --json
"""


def register(subparsers: Any) -> None:
    """Add ``bench`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "bench", help="search a fixed set of positions: deterministic node count and nodes/s",
        description="Search six fixed positions (Splendor for 2-4 players, Duel) with one thread and a fixed "
        "budget. The node count and the signature (a hash of every root's visit counts) identify the "
        "engine's behaviour: a change to the rules, move generation or search changes them. The nodes "
        "per second measure this machine.", epilog=EXAMPLES)
    add(p, "iterations", help="iterations per position (default {default})", default=BENCH_ITERATIONS)
    add(p, "seed", default=parameter_default(run_bench, "seed"))
    add(p, "network")
    add(p, "json")
    add(p, "no_progress", how=" (shown on a terminal: the position being searched; each position's row is printed "
        "as it finishes)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Search the bench positions and print the figures; the exit code."""
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
