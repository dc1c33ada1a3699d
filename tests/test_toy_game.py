"""The game seam, proved by Nim (tests/toy_nim.py, cpp/tests/toy/nim.hpp): a game that
is nothing but its own files and one registration line per layer is loaded, searched,
played in a tournament and read from a position by the same code as the real games.

Nim's engine is the test-only module ``nim_engine``: without it built (CMake option
``SPLENDOR_MCTS_TEST_GAMES``, docs/adding-a-game.md) these tests skip, unless
``SPLENDOR_MCTS_TEST_GAMES=1`` (``.ci/run`` sets it, after building it): then they fail."""
from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator

import numpy as np
import pytest

import splendor_mcts as sm
from splendor_mcts.engines.server import EngineServer
from splendor_mcts.games import registry
from splendor_mcts.games.observation_layout import decode, layout
from splendor_mcts.games.positions import as_the_table_shows, read_position
from splendor_mcts.pictures.board import board_svg
from splendor_mcts.play.tables import table_for
from splendor_mcts.search.families import FAMILIES, family_of
from splendor_mcts.tournament import TournamentConfig, run_tournament

try:
    from toy_nim import GAME, NimConfig, register_nim
except ImportError as missing:
    if os.environ.get("SPLENDOR_MCTS_TEST_GAMES") == "1":
        raise
    pytest.skip(f"the test-only module nim_engine is not built ({missing}): cmake -DSPLENDOR_MCTS_TEST_GAMES=ON, "
                "then build the target nim_engine (docs/adding-a-game.md)", allow_module_level=True)


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[registry.GameEntry]:
    registry.game_names()  # the built-in games first, so that the patch restores them too
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_BY_STATE", dict(registry._BY_STATE))
    yield register_nim()


def test_nim_loads_with_its_variant_and_its_tools(nim: registry.GameEntry):
    game = sm.load_game("nim(stones=7)")
    assert game.entry is nim is GAME and game.spec == "nim(stones=7,max_take=3)"
    assert sm.load_game(game.spec) == game and game.num_distinct_actions() == 5 and game.cards() == []
    state = game.new_initial_state(seed=3)
    assert registry.entry_of_state(state) is nim and state.legal_actions() == [0, 1, 2]
    assert state.action_to_string(1) == "take 2"
    state.apply_action(state.string_to_action("take 3"))
    assert state.current_player() == 1 and json.loads(state.to_json())["stones"] == 4
    with pytest.raises(ValueError, match="illegal action 4 \\(take 5\\): 4 stones left, take 1 to 3"):
        state.apply_action(4)
    assert state.why_illegal(4) == "4 stones left, take 1 to 3" and state.why_illegal(2) == ""
    with pytest.raises(ValueError, match="nim has no nobles"):
        game.nobles()
    with pytest.raises(ValueError, match="Nim cannot be played in the terminal yet"):
        table_for(game)
    with pytest.raises(ValueError, match="stones must be between 1 and 100, got 101"):
        sm.load_game("nim", stones=101)
    with pytest.raises(ValueError, match="players must be 2, got 3: Nim is a 2-player game"):
        sm.load_game("nim", players=3)
    assert sm.load_game("nim", players=2).config == sm.load_game("nim").config
    returns, lengths = nim.random_playouts(game.rules, 20, 1)
    assert returns.shape == (20, 2) and (returns.sum(axis=1) == 1).all() and (lengths >= 3).all()


def test_analyze_finds_the_winning_take(nim: registry.GameEntry):
    # 10 stones, take 1 to 3: taking 2 leaves 8, a multiple of 4, lost for the opponent.
    state = sm.load_game("nim", stones=10).new_initial_state(seed=0)
    analysis = sm.analyze(state, iterations=2000, seed=1)
    assert analysis.best_action == 1 and analysis.best_text == "take 2"
    assert analysis.params.evaluator == "random"  # the game's own search defaults
    assert sm.analyze(state, iterations=500, rollout="evaluate").best_action == 1


def test_a_tournament_between_mcts_and_random(nim: registry.GameEntry, tmp_path):
    result = run_tournament(TournamentConfig(
        game="nim(stones=13)", agents=("mcts:iterations=300", "random"), deals=3, seed=5,
        db=tmp_path / "nim.sqlite", concurrency=1, loader="toy_nim:load_game"))
    table = {row.name: row for row in result.table.rows}
    assert sum(row.games for row in table.values()) == 2 * 6  # 3 deals, both seat orders, two agents each
    assert table["mcts:iterations=300"].score > table["random"].score


def test_read_position_reads_a_nim_position_by_its_own_variant(nim: registry.GameEntry):
    text = json.dumps({"game": "nim", "variant": {"stones": 9, "max_take": 2}, "observer": 1, "to_move": 1,
                       "stones": 5})
    position = read_position(text)
    assert (position.game.name, position.game.config, position.observer) == ("nim", NimConfig(9, 2), 1)
    name, variant, state, observer = sm._core.read_position(text, readers=registry.position_readers())
    assert (name, variant, observer) == ("nim", {"stones": 9, "max_take": 2}, 1)
    assert sm.load_game(name, **variant).config == NimConfig(stones=9, max_take=2)
    assert state.current_player() == 1 and state.legal_actions() == [0, 1]
    with pytest.raises(sm._core.PositionError) as error:
        read_position(json.dumps({"game": "nim", "to_move": 2, "stones": 16}))
    assert error.value.problems == [{"path": "to_move", "message": "2 is more than 1"},
                                    {"path": "stones", "message": "16 is more than 15"}]
    with pytest.raises(sm._core.PositionError, match='unknown field "heap" .expected one of "game"'):
        read_position(json.dumps({"game": "nim", "to_move": 0, "heap": 1}))


def test_the_engine_protocol_offers_every_registered_game(nim: registry.GameEntry):
    out = io.StringIO()
    assert EngineServer(iter(["sep\n"]), out).run() == 0
    assert "feature games splendor duel nim" in out.getvalue().splitlines()


def test_a_games_layout_and_families_are_its_entrys(nim: registry.GameEntry):
    state = sm.load_game("nim", stones=8).new_initial_state(seed=0)
    state.apply_action(1)  # take 2: 6 of 8 left, the other seat to move
    parts = decode("nim", np.asarray(state.observation_tensor(0)))
    assert [s.name for s in layout("nim")] == ["stones", "to_move", "max_take"]
    assert parts["stones"].tolist() == [[0.75]] and parts["to_move"].tolist() == [[0.0]]
    assert family_of("nim", 2).name == "nim" and "nim" not in FAMILIES  # FAMILIES: the built-in games'


def test_a_game_without_a_part_says_so(nim: registry.GameEntry):
    state = sm.load_game("nim").new_initial_state(seed=0)
    view = json.loads(state.observation_json(0))
    with pytest.raises(ValueError, match="Nim has no summary of bought cards"):
        as_the_table_shows(view, 0, [])
    with pytest.raises(ValueError, match="Nim has no SVG board"):
        board_svg(state)
