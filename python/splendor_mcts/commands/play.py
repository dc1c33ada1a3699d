"""``splendor-mcts play``: play against the engine in the terminal, or follow a game on a real
table (:mod:`splendor_mcts.play`)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import exit_codes
from ..analysis.running import check_option_limits, run_search
from ..console import make_console
from ..games.game import load_game
from ..play.session import PlaySession
from ..play.terminal import game_to_load, loop
from ..play.thinking import thinking_on_terminal
from ..ranges import SECONDS, WHOLE
from ..search.defaults import HINT_SECONDS, PLAY_SECONDS
from ..search.networks import shipped_used
from ..seeds import seed_or_random
from ..wording import seat_name
from .options import add, add_search_options, arg, command_parser, search_limits

EXAMPLES = """examples:
  splendor-mcts play                          you are seat 1 against the engine (2 s per move)
  splendor-mcts play --players 3 --seat 1 --time 5   --seat counts from 0: you are seat 2
  splendor-mcts play --follow --players 4 --seat 2   follow a game on a real table
  splendor-mcts play --load game.json         go on with a saved game
  splendor-mcts play --follow --load table.json   follow a game under way from a typed position
                                              (docs/position-format.md; you are its "observer")
  splendor-mcts play --game duel              Splendor Duel (the board has cell names: take c3 c4)
  splendor-mcts play --game duel --follow --seat 1   follow a Duel table (type cards, bag draws, moves)

type 'help' at the prompt for the commands (moves, hint, undo, save, load, quit).
"""


def register(subparsers: Any) -> None:
    """Add ``play`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "play", help="play against the engine in the terminal, or follow a game on a real table",
        description="Play in the terminal: type moves in the notation (docs/actions.md, docs/actions-duel.md), ask for hints, "
        "undo, save and load the game record.", epilog=EXAMPLES)
    add(p, "game")
    add(p, "players")
    p.add_argument("--seat", type=arg(WHOLE), action="append",
                   help="your seat as an index from 0, as in JSON (--seat 0 is the board's seat 1; default 0); "
                        "repeat for several people at one terminal")
    p.add_argument("--follow", action="store_true",
                   help="follow a real table: type every player's moves and the cards revealed; hints at any time")
    add_search_options(p, default_time=PLAY_SECONDS)
    p.add_argument("--hint-time", type=arg(SECONDS), default=HINT_SECONDS, metavar="SECONDS",
                   help=f"thinking time of a hint (default {HINT_SECONDS:g})")
    p.add_argument("--deal-seed", type=arg(WHOLE), help="seed of the deal (default: random; ignored with --follow)")
    p.add_argument("--load", metavar="FILE",
                   help="start from a saved game record, or from a typed position (a game under way); the game, its "
                        "players and, without --seat, the seat (the position's observer) are taken from the file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play (or follow) the game until quit or the end of input; the exit code."""
    game = load_game(args.game)
    loaded = game_to_load(args.load)
    if loaded is not None:
        if args.players is None:
            game = loaded[0]
        if args.seat is None and loaded[1] is not None and 0 <= loaded[1] < loaded[0].num_players():
            args.seat = [loaded[1]]
    if args.players is not None and args.players != game.num_players():
        game = load_game(args.game, players=args.players)
    seats = args.seat or [0]
    for seat in seats:
        if not 0 <= seat < game.num_players():
            raise ValueError(f"--seat {seat} is not a seat of a {game.num_players()}-player game (0..{game.num_players() - 1})")
    limits = search_limits(args)
    if limits.iterations is None and limits.time_limit is None:
        limits = limits.replace(time_limit=PLAY_SECONDS)
    engine_limits = limits.replace(top_k=1, analysis=False)  # the search for play
    check_option_limits(engine_limits, game)  # the shipped network of its game, when asked for

    def engine(state: Any) -> int:
        with thinking_on_terminal(f"{seat_name(state.current_player())} thinks:", engine_limits) as progress:
            return int(run_search(state, engine_limits, on_progress=progress).best_action)

    budget = f"iterations={limits.iterations}" if limits.iterations else f"time={limits.time_limit:g}"
    shipped = shipped_used(engine_limits.search_settings(), game.entry.name, game.num_players())
    if shipped is not None:
        budget += f",network={shipped}"
    console = make_console(highlight=False)
    session = PlaySession(game, console, humans=set(seats), engine=engine, seed=seed_or_random(args.deal_seed, "--deal-seed") if not args.follow else 0,
                          follow=args.follow, viewer=seats[0], engine_name=f"mcts:{budget}",
                          hint_limits=limits.replace(iterations=None, time_limit=args.hint_time, top_k=5))
    session.thinking = thinking_on_terminal
    console.print(f"type a move (e.g. {session.table.example}), or 'help'")
    if args.load:
        if not session.load(args.load):  # draws the board once it is loaded
            return exit_codes.INVALID_INPUT
    else:
        session.advance()
        session.draw()
    return loop(session, interactive=sys.stdin.isatty())
