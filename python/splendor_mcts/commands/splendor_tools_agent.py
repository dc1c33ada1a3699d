"""``splendor-mcts splendor-tools-agent``: our engine as an agent of the splendor-tools referee
(:mod:`splendor_mcts.splendor_tools.agent`, docs/splendor-tools.md)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import exit_codes
from ..ranges import ITERATIONS
from ..splendor_tools.agent import DEFAULT_SECONDS, InputError, answer, kibitz
from .options import add, command_parser

EXAMPLES = """examples:
  splendor-mcts splendor-tools-agent < input.txt
  splendor-mcts splendor-tools-agent --iterations 5000 --seed 7 < input.txt

As a referee agent, a two-line script in the agent's folder:
  #!/bin/sh
  exec splendor-mcts splendor-tools-agent --time 5

exit codes: 0 a move was printed, 2 bad option, 3 the input is not the referee's format
or not a consistent position (the referee then plays a pass).
"""


def register(subparsers: Any) -> None:
    """Add ``splendor-tools-agent`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "splendor-tools-agent", help="answer one move of the splendor-tools referee (stdin -> move line)",
        description="Read the splendor-tools referee's input for one move on standard input, search the "
        "position of the seat to move and print its move line (docs/splendor-tools.md).",
        epilog=EXAMPLES)
    budget = p.add_mutually_exclusive_group()
    add(budget, "time", help=f"search seconds per move, token returns included (default {DEFAULT_SECONDS:g})")
    add(budget, "iterations", more=" for the main action")
    add(p, "seed", what="seed of the search and of the sampled hidden cards")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer the referee's input on standard input with one move line; the exit code."""
    if args.time is not None and not 0 < args.time <= 3600:
        raise ValueError(f"--time must be between 0 and 3600 seconds, got {args.time}")
    if args.iterations is not None:
        ITERATIONS.check(args.iterations, "--iterations")
    try:
        line, lines = answer(sys.stdin.read(), args.time, args.iterations, args.seed)
    except InputError as exc:
        print(f"splendor-mcts splendor-tools-agent: {exc}", file=sys.stderr)
        return exit_codes.INVALID_INPUT
    kibitz(lines, sys.stderr)
    print(line, flush=True)
    return exit_codes.OK
