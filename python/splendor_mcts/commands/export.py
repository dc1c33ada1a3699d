"""``splendor-mcts export``: every game of a tournament database as JSON lines (docs/records.md)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..records import write_jsonl
from ..tournament.runner import _load_game
from ..tournament.store import TournamentStore
from ..wording import counted
from .options import add, command_parser
from .replay import flag_contradiction

EXAMPLES = """examples:
  splendor-mcts export --db results.sqlite -o games.jsonl
  splendor-mcts export --db results.sqlite | splendor-mcts review - --game-index 2
"""


def register(subparsers: Any) -> None:
    """Add ``export`` to the ``splendor-mcts`` parser."""
    e = command_parser(subparsers, "export", help="write every game of a tournament database as JSON lines",
                              description="Write every stored game of a tournament database as one game record per "
                              "line (splendor-mcts-record/1: every action, chance outcomes included, and the "
                              "time of every decision); the count goes to standard error. Games whose stated result "
                              "their replay contradicts are exported too, and named on standard error.",
                              epilog=EXAMPLES)
    add(e, "db")
    e.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    add(e, "game_loader", why=" (to replay each record)")
    e.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the records and say how many; the exit code."""
    store = TournamentStore.open_existing(args.db)
    try:
        if args.output == "-":
            count = write_jsonl(store.records(), sys.stdout)
            sys.stdout.flush()  # all of it out before the count is said
        else:
            count = write_jsonl(store.records(), args.output)
        try:
            contradictions = store.result_contradictions(lambda spec: _load_game(args.game_loader, spec, None))
        except ValueError as exc:  # a game this loader does not know: the records are exported all the same
            print(f"splendor-mcts export: results not checked against their replays: {exc} (see --game-loader)",
                  file=sys.stderr)
            contradictions = []
    finally:
        store.close()
    for game_id, problem in contradictions:
        flag_contradiction(game_id, problem, "export")
    print(f"exported {counted(count, 'game')}", file=sys.stderr)
    return 0
