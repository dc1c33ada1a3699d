"""``splendor-mcts engine``: speak the engine protocol on standard input and output
(:mod:`splendor_mcts.engines.server`, docs/engine-protocol.md)."""
from __future__ import annotations

import argparse
from typing import Any

from .options import command_parser


def register(subparsers: Any) -> None:
    """Add ``engine`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "engine", help="speak the engine protocol (docs/engine-protocol.md) on stdin/stdout",
        description="This package's MCTS as an engine for tournament managers and GUIs: one command per line "
        "on standard input (sep, setoption, newgame, position, go, stop, quit), answers on standard output. "
        "Bad lines are answered 'info string error ...'; the engine never exits on one. Exit code 0 at quit "
        "or end of input.",
        epilog="examples:\n"
        "  splendor-mcts engine       # then type lines: sep, newgame splendor, position view {...}, go movetime 1, quit\n"
        "  splendor-mcts tournament 'engine:cmd=\"splendor-mcts engine\",tc=10+0.1' greedy --deals 5")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Answer protocol lines until quit or the end of input; the exit code."""
    from ..engines.server import serve

    return serve()
