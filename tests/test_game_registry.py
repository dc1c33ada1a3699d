"""The game registry: every tool finds a game there. A game from outside the package
needs only its own module and one ``register`` call: test_toy_game.py proves it with Nim."""
from __future__ import annotations

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.games import registry


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
