"""``splendor-mcts review RECORD``: every turn of a game analyzed, each player's mistakes
(:mod:`splendor_mcts.analysis.review`)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import exit_codes
from ..analysis.review import DEFAULT_THRESHOLD, PLAIN_PROGRESS_EVERY, print_review, read_record, review_record
from ..analysis.running import check_option_limits
from ..charts import check_chart_path
from ..console import StepProgress
from ..games.game import load_game
from ..ranges import ANY_NUMBER, WHOLE
from ..search.defaults import REVIEW_ITERATIONS
from .options import add, add_search_options, arg, command_parser, search_limits

EXAMPLES = """examples:
  splendor-mcts review game.json                      a game saved by play (save game.json)
  splendor-mcts review games.jsonl --game-index 3 --iterations 5000 --threshold 0.1
  splendor-mcts export --db results.sqlite | splendor-mcts review - --json
"""


def register(subparsers: Any) -> None:
    """Add ``review`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "review", help="analyze every turn of a game record and list each player's mistakes",
        description="Search every turn of a recorded game from the mover's view and report the whole turns "
        "whose win rate falls short of the best whole turn found by at least --threshold.", epilog=EXAMPLES)
    p.add_argument("record", help="game record: a JSON file (one record), a JSON-lines file with --game-index, or -")
    p.add_argument("--game-index", type=arg(WHOLE), default=1,
                   help="which record of a JSON-lines file (from 1; default 1)")
    add_search_options(p, default_time=None, default_iterations=REVIEW_ITERATIONS)
    p.add_argument("--threshold", type=arg(ANY_NUMBER), default=DEFAULT_THRESHOLD,
                   help=f"smallest win-rate drop reported as a mistake (default {DEFAULT_THRESHOLD})")
    add(p, "json", what="the review")
    add(p, "plot", what="the win-rate graph over the game", shows="each seat's win %% per turn, the mistakes marked")
    add(p, "no_progress", how=f" (a live line on a terminal, else a line every {PLAIN_PROGRESS_EVERY:g} s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Review the record and print its mistakes; the exit code."""
    if not 0 <= args.threshold <= 1:
        raise ValueError(f"--threshold must be between 0 and 1, got {args.threshold}")
    if args.plot:
        check_chart_path(args.plot)
    limits = search_limits(args)
    if limits.iterations is None and limits.time_limit is None:
        limits = limits.replace(iterations=REVIEW_ITERATIONS)
    try:
        record = read_record(args.record, args.game_index)
    except OSError as exc:
        raise ValueError(f"cannot read {args.record}: {exc.strerror or exc}") from None
    except ValueError as exc:
        print(f"splendor-mcts review: {args.record} is not a valid game record: {exc}", file=sys.stderr)
        return exit_codes.INVALID_INPUT
    try:
        game = load_game(record.game)
    except ValueError as exc:
        print(f"splendor-mcts review: {args.record} is not a valid game record: {exc}", file=sys.stderr)
        return exit_codes.INVALID_INPUT
    check_option_limits(limits, game)  # the shipped network of its game, when asked for
    # a live line on a terminal; off one (a log, CI) a plain line now and then, as the tournament's progress does
    display = StepProgress("review", enabled=not args.no_progress, live=not args.json, every=PLAIN_PROGRESS_EVERY)

    def progress(n: int, total: int) -> None:
        display.step(f"reviewing turn {n + 1} of {total}", f"turn {n + 1} of {total}")

    try:
        review = review_record(record, limits, threshold=args.threshold, on_turn=progress)
    except ValueError as exc:
        print(f"splendor-mcts review: {args.record} is not a valid game record: {exc}", file=sys.stderr)
        return exit_codes.INVALID_INPUT
    finally:
        display.close()
    if args.json:
        print(json.dumps(review.to_dict()))
    else:
        print_review(review)
    if args.plot:
        from ..pictures.win_rate_graph import plot_review

        plot_review(review, args.plot)
        print(f"Win-rate graph: {args.plot}", file=sys.stderr if args.json else sys.stdout)
    return exit_codes.OK
