"""One complete game of random moves, printed or as a record: ``splendor-mcts random-game``
(commands/random_game.py)."""
from __future__ import annotations

import json
import random
from typing import Any

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


def print_random_game(game: Any, seed: int) -> None:
    """Play the game of ``seed`` with uniformly random moves and print every move, the final
    scores and the winner (``splendor-mcts random-game``)."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    print(f"{game.spec}, seed {seed}")
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


def random_record(game: Any, seed: int) -> GameRecord:
    """The game :func:`print_random_game` prints, as a record: the same moves (the dealt reveals recorded as chance actions)."""
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        action = state.dealt_outcome() if state.is_chance_node() else rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return GameRecord(game=game.spec, seed=seed, seats=tuple("random" for _ in range(game.num_players())),
                      actions=tuple(actions), result=tuple(state.returns()), meta={"command": "random-game"})
