"""The game registry: every tool finds a game there, and a game from outside the package
needs only its own module and one ``register`` call (here a Python-only toy game)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.games import registry
from splendor_mcts.games.variants import VariantConfig, check_int
from splendor_mcts.play.tables import table_for


def test_each_builtin_game_is_found_by_name_and_by_state():
    for name, state_class in (("splendor", _core.SplendorState), ("duel", _core.DuelState)):
        game = sm.load_game(name)
        entry = registry.game_entry(name)
        assert game.entry is entry and entry.state is state_class
        assert registry.entry_of_state(game.new_initial_state(seed=1)) is entry
    assert registry.game_names() == ["duel", "splendor"]


def test_unknown_games_and_states_are_named():
    with pytest.raises(ValueError, match="unknown game 'chess'; known games: duel, splendor"):
        sm.load_game("chess")
    with pytest.raises(ValueError, match="state must be a game state .* got str"):
        registry.entry_of_state("not a state")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.game_entry("duel"))


@dataclass(frozen=True)
class NimConfig(VariantConfig):
    game_name: ClassVar[str] = "nim"
    stones: int = 5

    def __post_init__(self) -> None:
        check_int("stones", self.stones, 1, 50)

    def num_players(self) -> int:
        return 2

    def to_engine(self) -> int:
        return self.stones


class NimState:
    """Take 1 or 2 stones (actions 0 and 1); who takes the last one wins."""

    def __init__(self, stones: int, mover: int = 0) -> None:
        self.stones, self.mover = stones, mover

    @classmethod
    def initial(cls, rules: int, seed: int, explicit_chance: bool) -> NimState:
        return cls(rules)

    def current_player(self) -> int:
        return self.mover

    def action_to_string(self, action: int) -> str:
        return f"take {action + 1}"

    def action_label(self, action: int) -> str:
        return self.action_to_string(action)  # no move names a card


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> registry.GameEntry:
    registry.game_names()  # the built-in games first, so that the patch restores them too
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_BY_STATE", dict(registry._BY_STATE))
    return registry.register(registry.GameEntry(
        name="nim", title="Nim", config=NimConfig, state=NimState, searcher=object,
        random_playouts=lambda rules, n, seed: None, num_distinct_actions=2, observation_size=1))


def test_a_game_registered_from_outside_works_with_the_tools(nim: registry.GameEntry):
    game = sm.load_game("nim(stones=7)")
    assert game.entry is nim and game.spec == "nim(stones=7)" and sm.load_game(game.spec) == game
    assert game.num_distinct_actions() == 2 and game.cards() == []
    state = game.new_initial_state(seed=3)
    assert isinstance(state, NimState) and state.stones == 7
    with pytest.raises(ValueError, match="nim has no nobles"):
        game.nobles()
    with pytest.raises(ValueError, match="Nim cannot be played in the terminal yet"):
        table_for(game)
    with pytest.raises(ValueError, match="stones must be between 1 and 50, got 99"):
        sm.load_game("nim", stones=99)
    with pytest.raises(ValueError, match="unknown variant field 'players'"):
        sm.load_game("nim", players=3)
