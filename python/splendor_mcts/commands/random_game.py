"""``splendor-mcts random-game``: one complete game of random moves (:mod:`splendor_mcts.play.random_game`)."""
from __future__ import annotations

import argparse
from typing import Any

from ..games.game import load_game
from ..play.random_game import print_random_game, random_record
from .options import add, command_parser

EXAMPLES = """examples:
  splendor-mcts random-game
  splendor-mcts random-game --game "splendor(players=4)" --seed 7
  splendor-mcts random-game --game duel --json > game.json   a game record, e.g. for review or play --load
"""


def register(subparsers: Any) -> None:
    """Add ``random-game`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "random-game", help="play and print one complete game of random moves",
        description="Deal a game and play it to the end with uniformly random legal moves: every move, then "
        "the final scores. The same --seed gives the same game (a quick check that a game or variant works).",
        epilog=EXAMPLES)
    add(p, "game")
    add(p, "deal_seed", what="deal and move seed")
    add(p, "json", help="print the game as one game record (JSON, every reveal included) instead of the moves")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the game and print it; the exit code."""
    game = load_game(args.game)
    if args.json:
        print(random_record(game, args.seed).to_json())
    else:
        print_random_game(game, args.seed)
    return 0
