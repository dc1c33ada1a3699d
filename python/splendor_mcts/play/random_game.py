"""``splendor-mcts random-game``: plays and prints one complete random game."""
from __future__ import annotations

import argparse
import json
import random
from typing import Any

from ..ranges import WHOLE
from ..games.game import load_game
from ..games.registry import DEFAULT_GAME
from ..records import GameRecord
from ..wording import seat_name, seats_named

_LETTERS = {"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K", "pearl": "P", "gold": "Y"}


def _scoreline(state: Any) -> str:
    d = json.loads(state.to_json())
    parts = []
    for seat, p in enumerate(d["players"]):
        tokens = "".join(f"{_LETTERS.get(c, c)}{n}" for c, n in p["tokens"].items() if n)
        crowns = f", {p['crowns']} crowns" if "crowns" in p else ""
        parts.append(f"{seat_name(seat)}: {p['points']} pts{crowns}, {len(p['cards'])} cards, tokens {tokens or '-'}")
    return " | ".join(parts)


EXAMPLES = """examples:
  splendor-mcts random-game
  splendor-mcts random-game --game "splendor(players=4)" --seed 7
  splendor-mcts random-game --game duel --json > game.json   a game record, e.g. for review or play --load
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "random-game", help="play and print one complete game of random moves",
        description="Deal a game and play it to the end with uniformly random legal moves: every move, then "
        "the final scores. The same --seed gives the same game (a quick check that a game or variant works).",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default=DEFAULT_GAME,
                   help=f'game or spec, e.g. "splendor(players=3)" (default: {DEFAULT_GAME})')
    p.add_argument("--seed", type=WHOLE.arg(), default=1, help="deal and move seed (default: 1)")
    p.add_argument("--json", action="store_true",
                   help="print the game as one game record (JSON, every reveal included) instead of the moves")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    if args.json:
        print(random_record(game, args.seed).to_json())
        return 0
    state = game.new_initial_state(seed=args.seed)
    rng = random.Random(args.seed)
    print(f"{game.spec}, seed {args.seed}")
    turn = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = rng.choice(state.legal_actions())
        turn += 1
        print(f"{turn:4d}. {seat_name(seat)}: {state.action_to_string(action)}")
        state.apply_action(action)
    print(_scoreline(state))
    returns = state.returns()
    winners = [seat for seat, r in enumerate(returns) if r > 0]
    print(f"winner: {seat_name(winners[0])}" if len(winners) == 1 else f"shared win: {seats_named(winners)}")
    return 0


def random_record(game: Any, seed: int) -> GameRecord:
    """The game ``run`` prints, as a record: the same moves (the dealt reveals recorded as chance actions)."""
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        action = state.dealt_outcome() if state.is_chance_node() else rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return GameRecord(game=game.spec, seed=seed, seats=tuple("random" for _ in range(game.num_players())),
                      actions=tuple(actions), result=tuple(state.returns()), meta={"command": "random-game"})
