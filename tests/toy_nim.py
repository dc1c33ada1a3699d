"""Nim, the test-only third game (``cpp/tests/toy/nim.hpp``), on the Python side: its
config and registry entry, written as any game's (``docs/adding-a-game.md``).

The engine classes are in the test-only module ``nim_engine`` (``cpp/tests/toy/nim_module.cpp``,
built into ``tests/`` with the CMake option ``SPLENDOR_MCTS_TEST_GAMES``), not in the shipped
``_core``; no tool offers the game until ``register_nim()`` adds it to the registry (the
registration line of this layer). Importing this module without ``nim_engine`` built raises
``ImportError``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import nim_engine
import splendor_mcts as sm
from splendor_mcts.games import registry
from splendor_mcts.games.observation_layout import slices_of
from splendor_mcts.games.registry import GameEntry, NetworkFamily, SearchDefaults
from splendor_mcts.games.variants import VariantConfig, check_int


@dataclass(frozen=True)
class NimConfig(VariantConfig):
    """One heap of ``stones``; each player takes 1 to ``max_take``; the last stone wins."""

    game_name: ClassVar[str] = "nim"

    stones: int = 15
    max_take: int = 3

    def __post_init__(self) -> None:
        check_int("stones", self.stones, 1, 100)
        check_int("max_take", self.max_take, 1, 5)

    def num_players(self) -> int:
        return 2

    def to_engine(self) -> Any:
        return nim_engine.NimRules(stones=self.stones, max_take=self.max_take)


# The layout of Nim's observation tensor (cpp/tests/toy/nim.hpp), as any game declares its own.
LAYOUT = slices_of(
    ("stones", 1, 1, "count / stones", "stones left, over the stones of the start"),
    ("to_move", 1, 1, "flag", "the observer is to move"),
    ("max_take", 1, 1, "count / 5", "the most stones a move takes"),
)

GAME = GameEntry.from_engine(
    "nim", "Nim", NimConfig, engine=nim_engine,
    search_defaults=SearchDefaults(exploration=0.4, evaluator="random", rollout_cutoff=0),
    observation_layout="toy_nim:LAYOUT",
    network_families={"nim": NetworkFamily(players=(2,), selfplay_games=10, gate_games=4)})


def register_nim() -> GameEntry:
    """Adds Nim to the registry once (a tournament's loader calls it in every worker)."""
    if "nim" not in registry.game_names():
        registry.register(GAME)
    return GAME


def load_game(spec: str, **variant: Any) -> Any:
    """A tournament loader (``toy_nim:load_game``): ``sm.load_game`` with Nim registered."""
    register_nim()
    return sm.load_game(spec, **variant)
