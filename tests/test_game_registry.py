"""The game registry: every tool finds a game there. A game from outside the package
needs only its own module and one ``register`` call: test_toy_game.py proves it with Nim."""
from __future__ import annotations

import json

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.games import registry
from splendor_mcts.games.positions import read_position


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


def test_the_shipped_engine_binds_only_the_shipped_games():
    # The test game Nim is bound by its own test-only module (tests/toy_nim.py), never by _core.
    assert not [name for name in dir(_core) if "nim" in name.lower()]
    position = json.dumps({"game": "nim", "to_move": 0, "stones": 3})
    with pytest.raises(_core.PositionError, match="unknown game 'nim'; known games: duel, splendor"):
        read_position(position)
    assert registry.position_readers() == {}  # the built-in games read their positions in _core


def test_players_is_every_games_keyword_a_fixed_count_takes_its_own():
    duel = sm.load_game("duel")
    assert sm.load_game("duel", players=2).config == duel.config
    assert sm.load_game("duel(players=2,points_to_win=18)").config == sm.load_game("duel", points_to_win=18).config
    for bad in (3, 1, True, "2", 2.0):
        with pytest.raises(ValueError, match=f"^players must be 2, got {bad!r}: Splendor Duel is a 2-player game$"):
            sm.load_game("duel", players=bad)
    with pytest.raises(ValueError, match="duel: unknown variant field 'seats'"):
        sm.load_game("duel", seats=2)
    with pytest.raises(ValueError, match="players must be between 2 and 4, got 5"):
        sm.load_game("splendor", players=5)


def test_a_tournament_of_duel_takes_players_2_and_refuses_3(tmp_path, capsys):
    from splendor_mcts.cli import main

    def tournament(players: str) -> int:
        return main(["tournament", "random", "greedy", "--game", "duel", "--players", players, "--games", "2",
                     "--db", str(tmp_path / f"t{players}.sqlite"), "--concurrency", "1", "--no-progress"])

    assert tournament("2") == 0
    assert "games stored: 2 of 2" in capsys.readouterr().out
    assert tournament("3") == 2
    assert "players must be 2, got 3: Splendor Duel is a 2-player game" in capsys.readouterr().err
    assert not (tmp_path / "t3.sqlite").exists()
