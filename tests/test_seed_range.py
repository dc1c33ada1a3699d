"""One seed range, the engine's unsigned 64 bits, at every door that takes a seed."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import splendor_mcts as sm
from splendor_mcts.analysis.queries import QueryError, QueryReader
from splendor_mcts.tournament import TournamentConfig
from splendor_mcts.tournament.runner import Tournament

TOP = 2**64 - 1
GAME = sm.load_game("duel")
STATE = GAME.new_initial_state(seed=1)

DOORS: dict[str, Callable[[int], Any]] = {
    "new_initial_state": lambda seed: GAME.new_initial_state(seed=seed),
    "state_from_observation": lambda seed: GAME.state_from_observation(STATE.observation_json(0), seed=seed),
    "analyze": lambda seed: sm.analyze(STATE, iterations=10, seed=seed),
    "MCTSBot": lambda seed: sm.MCTSBot(GAME, iterations=10, seed=seed),
    "RandomBot": lambda seed: sm.RandomBot(GAME, seed=seed).step(STATE),
    "random_playouts": lambda seed: sm.random_playouts(GAME, 1, seed=seed),
    "protocol": lambda seed: QueryReader().limits_of({"seed": seed}),
    "tournament": lambda seed: Tournament(TournamentConfig(game="duel", agents=("random", "greedy"), seed=seed)),
}


@pytest.mark.parametrize("door", DOORS)
def test_every_door_takes_the_whole_range_and_refuses_the_rest(door: str) -> None:
    DOORS[door](0)
    DOORS[door](TOP)
    for bad in (-1, TOP + 1):
        with pytest.raises((ValueError, QueryError), match="seed"):
            DOORS[door](bad)
