"""A tiny game with the splendor_mcts game/state interface, and agents for tournament tests.

"High card": a shuffled deck of 40 cards (values 0-9, four each). Each turn a chance node reveals
the deck's top card; the player to move either keeps it (scores its value, action 0) or takes a
flat 4 points (action 1). After ``rounds`` turns each, the highest score wins; ties share the point.
Keeping cards of 5 or more is the best play, so a threshold agent clearly beats a random one.
The deck order is hidden: an observation holds scores, the revealed card and the cards seen.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from typing import Any

CHANCE = -1
TERMINAL = -4
FLAT = 4

# How tournaments name this game's loader and its two basic agents.
LOADER = "tournament_fakes:load_fake_game"
THRESHOLD = "tournament_fakes:ThresholdAgent"
RANDOM = "tournament_fakes:RandomAgent"


class HighCardGame:
    def __init__(self, players: int = 2, rounds: int = 5) -> None:
        if not 2 <= players <= 4:
            raise ValueError(f"highcard is played by 2 to 4 players, not {players}")
        self.players = players
        self.rounds = rounds
        self.spec = f"highcard(players={players},rounds={rounds})"

    def num_players(self) -> int:
        return self.players

    def new_initial_state(self, seed: int, explicit_chance: bool = True) -> HighCardState:
        deck = [v for v in range(10) for _ in range(4)]
        random.Random(seed).shuffle(deck)
        return HighCardState(self, deck, [0] * self.players, 0, None, [])

    def state_from_observation(self, text: str, seed: int = 0) -> HighCardState:
        obs = json.loads(text)
        deck = [v for v in range(10) for _ in range(4)]
        for v in obs["seen"]:
            deck.remove(v)
        random.Random(seed).shuffle(deck)
        return HighCardState(self, deck, list(obs["scores"]), obs["turn"], obs["pending"], list(obs["seen"]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HighCardGame) and other.spec == self.spec


def load_fake_game(spec: str, players: int | None = None) -> HighCardGame:
    m = re.fullmatch(r"highcard(?:\(players=(\d+)(?:,rounds=(\d+))?\))?", spec)
    if m is None:
        raise ValueError(f"unknown game {spec!r}")
    n = players if players is not None else int(m.group(1) or 2)
    return HighCardGame(n, int(m.group(2) or 5))


class HighCardState:
    def __init__(self, game: HighCardGame, deck: list[int], scores: list[int], turn: int,
                 pending: int | None, seen: list[int]) -> None:
        self.game = game
        self.deck = deck
        self.scores = scores
        self.turn = turn
        self.pending = pending
        self.seen = seen

    def is_terminal(self) -> bool:
        return self.turn >= self.game.players * self.game.rounds

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.pending is None:
            return CHANCE
        return self.turn % self.game.players

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.pending is None:
            return sorted(set(self.deck))
        return [0, 1]

    def dealt_outcome(self) -> int:
        if self.pending is not None or self.is_terminal():
            raise ValueError("not a chance node")
        return self.deck[0]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if self.pending is None:
            self.deck.remove(action)
            self.pending = action
            self.seen.append(action)
            return
        self.scores[self.turn % self.game.players] += self.pending if action == 0 else FLAT
        self.pending = None
        self.turn += 1

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.players
        best = max(self.scores)
        winners = [i for i, s in enumerate(self.scores) if s == best]
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(self.game.players)]

    def observation_json(self, player: int) -> str:
        return json.dumps({"scores": self.scores, "turn": self.turn, "pending": self.pending, "seen": self.seen})

    def to_json(self) -> str:
        return json.dumps({"deck": self.deck, "scores": self.scores, "turn": self.turn,
                           "pending": self.pending, "seen": self.seen})

    def action_to_string(self, action: int) -> str:
        if self.pending is None:
            return f"reveal {action}"
        return "keep" if action == 0 else "flat"

    def clone(self) -> HighCardState:
        return HighCardState(self.game, list(self.deck), list(self.scores), self.turn, self.pending, list(self.seen))


class ThresholdAgent:
    """Keeps a card worth at least ``threshold``."""

    def __init__(self, game: Any, seed: int = 0, threshold: int = 5) -> None:
        self.threshold = threshold

    def step(self, state: HighCardState) -> int:
        assert state.pending is not None
        return 0 if state.pending >= self.threshold else 1


class RandomAgent:
    def __init__(self, game: Any, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: HighCardState) -> int:
        return self.rng.choice(state.legal_actions())


class PeekingAgent:
    """Keeps a card if the next card in the deck it is shown is smaller: only works if it sees the real deck."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.decks: list[list[int]] = []

    def step(self, state: HighCardState) -> int:
        self.decks.append(list(state.deck))
        return 0


class CrashingAgent:
    """Raises on its ``crash_at``-th decision."""

    def __init__(self, game: Any, seed: int = 0, crash_at: int = 2) -> None:
        self.crash_at = crash_at
        self.calls = 0

    def step(self, state: HighCardState) -> int:
        self.calls += 1
        if self.calls >= self.crash_at:
            raise RuntimeError("agent blew up")
        return 0


class IllegalAgent:
    def __init__(self, game: Any, seed: int = 0) -> None:
        pass

    def step(self, state: HighCardState) -> int:
        return 7


class SlowAgent(ThresholdAgent):
    """A threshold agent that takes ``delay`` seconds per decision (for the kill-and-resume test)."""

    def __init__(self, game: Any, seed: int = 0, delay: float = 0.02) -> None:
        super().__init__(game, seed)
        self.delay = delay

    def step(self, state: HighCardState) -> int:
        time.sleep(self.delay)
        return super().step(state)


class ProcessKillingAgent:
    """Kills the process it runs in: a hard crash no exception handler can catch."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        pass

    def step(self, state: HighCardState) -> int:
        import os

        os._exit(3)


class FirstLegalAgent:
    """Plays the lowest legal action id: in Duel that loops for ever (at the token limit:
    replenish, take one token, discard it, round after round), as a weak search can."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        pass

    def step(self, state: Any) -> int:
        return min(state.legal_actions())


# Work functions for the worker pool itself (ProcessBackend's ``work``): a batch of numbers in,
# one result per number out, each with the ``wall_time`` the batcher reads.
class Squared:
    def __init__(self, value: int, wall_time: float = 0.001) -> None:
        self.value = value
        self.wall_time = wall_time
        self.worker = os.getpid()


def square_all(tasks: list[int]) -> list[Squared]:
    return [Squared(t * t) for t in tasks]


def refuse_sevens(tasks: list[int]) -> list[Squared]:
    if 7 in tasks:
        raise ValueError("task 7 is not allowed")
    return square_all(tasks)


def unsendable(tasks: list[int]) -> list[Any]:
    return [lambda: t for t in tasks]  # a lambda cannot be pickled back to the parent


class TwoPartError(Exception):
    """Pickles (its args are the message) but cannot be rebuilt from that alone."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


def raise_two_part_error(tasks: list[int]) -> list[Squared]:
    raise TwoPartError("task", "refused")


def slow_squares(tasks: list[int]) -> list[Squared]:  # 50 ms a task: batches of one
    time.sleep(0.05 * len(tasks))
    return [Squared(t * t, wall_time=0.05) for t in tasks]
