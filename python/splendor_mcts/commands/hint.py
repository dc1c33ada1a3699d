"""``splendor-mcts hint POSITION``: the best moves of a position (:mod:`splendor_mcts.analysis.hint`)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import exit_codes
from ..analysis.advice import advise
from ..analysis.hint import ProgressLine, hint_json, print_hint, report_invalid, warn_about_view, write_board_svg
from ..analysis.running import check_option_limits, decision_problem, run_search
from ..console import note_reading_stdin
from ..games.positions import PositionError, read_position_file
from ..ranges import WHOLE
from ..search.analyze import TOP_K
from .options import add, add_search_options, arg, command_parser, search_limits

EXAMPLES = """examples:
  splendor-mcts hint examples/splendor-2p-view.json
  splendor-mcts hint examples/duel-view.json --json
  splendor-mcts hint examples/duel-view.json --decisions
  splendor-mcts hint position.json --time 10 --top 8
  splendor-mcts hint examples/splendor-3p-view.json --svg board.svg
  cat position.json | splendor-mcts hint - --iterations 20000 --threads 1 --json

exit codes: 0 ok, 2 bad option, 3 invalid position (every problem is listed with its
JSON path), 4 nothing to analyze (game over, or a card or bag draw comes first),
130 interrupted.
"""


def register(subparsers: Any) -> None:
    """Add ``hint`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "hint", help="show the best moves of a position (a table, or --json)",
        description="Search a position from the view of the player to move and show the best whole turns "
        "(or with --decisions the best single decisions), best first, with their visits, win rate and its 95% "
        "interval, and principal variation.",
        epilog=EXAMPLES)
    p.add_argument("position", nargs="?", default="-",
                   help="position JSON file (docs/position-format.md), or - for standard input (the default; on a "
                   "terminal, paste the position and end it with Ctrl-D)")
    add_search_options(p)
    p.add_argument("--top", type=arg(WHOLE), default=5, metavar="K", help="turns or moves shown (default 5)")
    p.add_argument("--decisions", action="store_true",
                   help="one decision per row (e.g. 'take WUK', then 'return R' separately) instead of whole turns")
    add(p, "json", what="the analysis")
    add(p, "no_progress", how=" (a live line on a terminal)")
    p.add_argument("--svg", metavar="FILE", help="also write the board with the best turn marked as an SVG picture")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Search the position and print the hint; the exit code."""
    TOP_K.check(args.top, "--top")
    limits = search_limits(args, top_k=args.top)
    if args.position == "-":
        note_reading_stdin("hint", "a position")
    try:
        position = read_position_file(args.position)
    except OSError as exc:
        raise ValueError(f"cannot read {args.position}: {exc.strerror or exc}") from None
    except PositionError as exc:
        return report_invalid("hint", args.position, exc)
    problem = decision_problem(position.state)
    if problem:
        print(f"splendor-mcts hint: {problem}", file=sys.stderr)
        return exit_codes.NO_DECISION
    check_option_limits(limits, position.state)  # the shipped network of its game, when asked for
    warn_about_view(position)
    progress = None if args.no_progress or not sys.stderr.isatty() else ProgressLine(position.state, sys.stderr)
    try:
        analysis = run_search(position.state, limits, on_progress=progress, turns=True)
    finally:
        if progress:
            progress.clear()
    if args.svg:
        write_board_svg(args.svg, position, analysis)
    advice = advise(position.state, analysis)
    if args.json:
        print(json.dumps(hint_json(position, analysis, advice)))
    else:
        from ..console import make_console

        console = make_console()
        print_hint(console, position.game, analysis, limits.resolved_threads(), decisions=args.decisions,
                   advice=advice)
    return exit_codes.OK
