"""``splendor-mcts replay``: a stored game move by move, from a tournament database or a
file of game records."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..ranges import WHOLE, Whole
from ..records import GameRecord, read_jsonl, replay, result_problem
from ..tournament.report import format_seconds
from ..tournament.runner import _load_game
from ..tournament.store import TournamentStore
from .options import add, arg, command_parser

# Text to numbers only: the store checks its range; a database's game id (an SQLite INTEGER) or a line number.
GAME_NUMBER = Whole(0, 2**63 - 1)

EXAMPLES = """examples:
  splendor-mcts replay --db results.sqlite 17            game id 17
  splendor-mcts replay --records games.jsonl 3 --upto 40 the third record, its first 40 actions
  splendor-mcts replay --db results.sqlite 17 --json     the final state as JSON
"""


def register(subparsers: Any) -> None:
    """Add ``replay`` to the ``splendor-mcts`` parser."""
    r = command_parser(subparsers, "replay", help="replay a stored game move by move",
                              description="Print every action of a game from a tournament database or a JSON-lines "
                              "file, with the time each decision took.", epilog=EXAMPLES)
    source = r.add_mutually_exclusive_group(required=True)
    add(source, "db", help="tournament database", default=None)
    source.add_argument("--records", metavar="JSONL", help="file of game records (one per line)")
    r.add_argument("game", type=arg(GAME_NUMBER), help="game id in the database, or line number (from 1) in the file")
    r.add_argument("--upto", type=arg(WHOLE), help="stop after this many actions")
    add(r, "json", help="print the final state as JSON instead of the moves")
    add(r, "game_loader")
    r.set_defaults(func=run)


def _load_record(args: argparse.Namespace) -> GameRecord:
    if args.db:
        store = TournamentStore.open_existing(args.db)
        try:
            return store.record(args.game)
        finally:
            store.close()
    if args.game < 1:
        raise ValueError(f"line numbers start at 1, got {args.game}")
    for number, record in enumerate(read_jsonl(args.records), start=1):
        if number == args.game:
            return record
    raise ValueError(f"{args.records} has fewer than {args.game} records")


def run(args: argparse.Namespace) -> int:
    """Print the game's actions (or with --json its final state); the exit code."""
    record = _load_record(args)
    game = _load_game(args.game_loader, record.game, None)
    final = replay(record, upto=args.upto, game=game)  # checks every action first
    problem = result_problem(record, final) if args.upto is None else None
    if args.json:
        print(final.to_json())
        flag_contradiction(args.game, problem)
        return 0
    print(f"{record.game}  seed {record.seed}  seats: " + ", ".join(f"{i + 1}={s}" for i, s in enumerate(record.seats)))
    state = game.new_initial_state(seed=record.seed, explicit_chance=record.explicit_chance)
    times = iter(record.move_times or ())
    actions = record.actions if args.upto is None else record.actions[: args.upto]
    for ply, action in enumerate(actions):
        player = state.current_player()
        text = state.action_to_string(action)
        if player < 0:
            print(f"{ply:4d}  chance   {text}")
        else:
            seconds = next(times, None)
            spent = "" if seconds is None else f"  ({format_seconds(seconds)})"
            print(f"{ply:4d}  seat {player + 1}   {text}{spent}")
        state.apply_action(action)
    if args.upto is None:
        print(f"termination: {record.termination}  result: {list(record.result or [])}")
        if record.forfeit:
            print(f"forfeit: seat {record.forfeit.seat + 1} - {record.forfeit.reason}")
            for line in record.forfeit.stderr:  # an external engine's last words
                print(f"  stderr: {line}")
        if record.termination == "adjudicated":
            print(f"adjudicated a draw: {record.meta.get('adjudication', 'the decision cap')}")
    flag_contradiction(args.game, problem)
    return 0


def flag_contradiction(game: int, problem: str | None, command: str = "replay") -> None:
    """Name on standard error a game whose stated result its replay contradicts."""
    if problem is not None:
        print(f"splendor-mcts {command}: game {game}: the record's stated result contradicts its replay: {problem}",
              file=sys.stderr)
