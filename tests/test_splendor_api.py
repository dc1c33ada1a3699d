"""The public Python API (README, "Using it from Python") for the base game."""
from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
import re

import numpy as np
import pytest

import splendor_mcts as sm
from search_helpers import policy_wins_against_random
from splendor_mcts import _core
from splendor_mcts.games.positions import PositionError, read_position


def test_load_game_by_keywords_and_spec_string():
    a = sm.load_game("splendor", players=4, points_to_win=18)
    b = sm.load_game("splendor(players=4,points_to_win=18)")
    assert a == b and a.num_players() == 4
    assert sm.load_game(a.spec) == a
    assert a.config.gem_tokens == 7 and a.config.nobles == 5


def test_variant_overrides_reach_the_engine():
    game = sm.load_game("splendor", players=2, gem_tokens=6, gold_tokens=3, nobles=4)
    d = json.loads(game.new_initial_state(seed=1).to_json())
    assert d["bank"]["red"] == 6 and d["bank"]["gold"] == 3 and len(d["nobles"]) == 4


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"players": 5}, "players"),
        ({"players": 1}, "players"),
        ({"players": "2"}, "players"),
        ({"points_to_win": 0}, "points_to_win"),
        ({"gem_tokens": -1}, "gem_tokens"),
        ({"gold_tokens": -2}, "gold_tokens"),
        ({"nobles": 11}, "nobles"),
        ({"token_limit": 0}, "token_limit"),
        ({"reserve_limit": 4}, "reserve_limit"),
        ({"take_two_min": 1}, "take_two_min"),
        ({"take_fewer_distinct": 1}, "take_fewer_distinct"),
        ({"take_fewer_distinct": "sometimes"}, "take_fewer_distinct must be true, false or always, got 'sometimes'"),
        ({"take_fewer_distinct": None}, "take_fewer_distinct"),
        ({"colour": 3}, "colour"),
    ],
)
def test_bad_variant_raises_value_error_naming_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        sm.load_game("splendor", **kwargs)


@pytest.mark.parametrize(
    "spec,needle",
    [("chess", "unknown game"), ("splendor(players=2", "parenthesis"), ("splendor(players)", "key=value"),
     ("splendor(players=x)", "players"), ("splendor(players=2,players=3)", "twice")],
)
def test_bad_spec_strings(spec, needle):
    with pytest.raises(ValueError, match=needle):
        sm.load_game(spec)


@pytest.mark.parametrize("text, value", [("true", True), ("false", False), ("always", "always"), ("Always", "always")])
def test_the_take_rule_reads_from_specs_and_prints_back(text, value):
    game = sm.load_game(f"splendor(players=3,take_fewer_distinct={text})")
    assert game.config.take_fewer_distinct == value and game.rules.take_fewer_distinct == value
    assert sm.load_game(game.spec) == game
    assert f"take_fewer_distinct={str(value).lower()}," in game.spec


def test_the_default_spec_still_says_take_fewer_distinct_true():
    """Specs, records and tournament databases written before the third value read and compare the same."""
    assert sm.load_game("splendor").spec == ("splendor(players=2,points_to_win=15,take_fewer_distinct=true,gem_tokens=4,"
                                             "gold_tokens=5,nobles=3,token_limit=10,reserve_limit=3,take_two_min=4)")


def test_the_engine_refuses_a_take_rule_it_does_not_know():
    fields = dataclasses.asdict(sm.load_game("splendor").config)
    for bad in ("sometimes", 1, None):
        with pytest.raises(ValueError, match="take_fewer_distinct must be true, false or always"):
            _core.SplendorRules(**{**fields, "take_fewer_distinct": bad})


def test_the_take_rule_round_trips_through_positions():
    game = sm.load_game("splendor", take_fewer_distinct="always")
    state = game.new_initial_state(seed=3)
    text = state.to_json()
    assert json.loads(text)["variant"]["take_fewer_distinct"] == "always"
    position = read_position(text)
    assert position.game == game and position.state == state
    assert game.state_from_json(text) == state
    view = read_position(state.observation_json(0))
    assert view.game == game and len(view.state.legal_actions()) == 25 + 5 + 12 + 3
    # Positions of the published rule say true, as they always have.
    assert json.loads(sm.load_game("splendor").new_initial_state(seed=3).to_json())["variant"]["take_fewer_distinct"] is True


@pytest.mark.parametrize("game_spec, said, message", [
    ("splendor", "always", 'the position says "always" but the game was loaded with true'),
    ("splendor(take_fewer_distinct=always)", True, 'the position says true but the game was loaded with "always"'),
    ("splendor(take_fewer_distinct=always)", 1, "expected a boolean, found an integer"),
])
def test_a_position_of_another_take_rule_is_refused_naming_both(game_spec, said, message):
    d = json.loads(sm.load_game("splendor", take_fewer_distinct="always").new_initial_state(seed=3).to_json())
    d["variant"]["take_fewer_distinct"] = said
    with pytest.raises(ValueError, match=re.escape(message)):
        sm.load_game(game_spec).state_from_json(json.dumps(d))


@pytest.mark.parametrize("said, message", [("sometimes", 'expected true, false or "always", found "sometimes"'),
                                           (2, "expected a boolean, found an integer")])
def test_a_position_with_an_unknown_take_rule_is_refused(said, message):
    d = json.loads(sm.load_game("splendor").new_initial_state(seed=3).to_json())
    d["variant"]["take_fewer_distinct"] = said
    with pytest.raises(PositionError, match=re.escape(message)):
        read_position(json.dumps(d))


def test_state_basics():
    game = sm.load_game("splendor", players=3)
    s = game.new_initial_state(seed=7)
    assert s.current_player() == 0 and not s.is_terminal() and s.returns() == [0.0, 0.0, 0.0]
    a = s.legal_actions()[0]
    text = s.action_to_string(a)
    assert s.string_to_action(text) == a
    c = s.clone()
    s.apply_action(a)
    assert s.current_player() == 1 and c.current_player() == 0 and c != s
    assert isinstance(s.hash(), int) and s.hash() != c.hash()
    assert copy.deepcopy(s) == s and pickle.loads(pickle.dumps(s)) == s


def test_chance_nodes_and_dealt_outcome():
    s = sm.load_game("splendor").new_initial_state(seed=1, explicit_chance=True)
    assert s.current_player() == sm.CHANCE
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 10 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert s.dealt_outcome() in [a for a, _ in outcomes]
    assert s.legal_actions() == [a for a, _ in outcomes]
    s.set_explicit_chance(False)  # resolves the rest of the deal from the seed
    assert s.current_player() == 0 and s.chance_outcomes() == []
    with pytest.raises(ValueError, match="not at a chance node"):
        s.dealt_outcome()


def test_legal_actions_mask_and_observation_tensor():
    game = sm.load_game("splendor", players=2)
    s = game.new_initial_state(seed=2)
    mask = s.legal_actions_mask()
    assert mask.shape == (game.num_distinct_actions(),) and mask.dtype == np.bool_
    assert list(np.flatnonzero(mask)) == s.legal_actions()
    t0, t1 = s.observation_tensor(0), s.observation_tensor(1)
    assert t0.shape == (game.observation_tensor_size(),) and t0.dtype == np.float32
    assert np.all(np.isfinite(t0))


def test_observation_tensor_hides_blind_reserves_from_others():
    game = sm.load_game("splendor")
    a = game.new_initial_state(seed=2)
    a.apply_action(a.string_to_action("reserve deck 3"))
    hidden = json.loads(a.to_json())["players"][0]["reserved"][0]["card"]
    for seed in range(10):
        b = a.clone()
        b.determinize(1, seed)  # resample what seat 1 cannot see
        if json.loads(b.to_json())["players"][0]["reserved"][0]["card"] != hidden:
            break
    else:
        pytest.fail("determinize never changed the hidden card")
    assert np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert a.observation_json(1) == b.observation_json(1)
    assert not np.array_equal(a.observation_tensor(0), b.observation_tensor(0))  # the owner sees it


def test_cards_and_nobles_tables():
    game = sm.load_game("splendor")
    card = game.cards()[7]
    assert card == {"id": 8, "level": 1, "bonus": "white", "points": 1,
                    "cost": {"white": 0, "blue": 0, "green": 4, "red": 0, "black": 0}, "text": "white 1pt G4"}
    assert game.nobles()[0]["requirement"] == {"white": 4, "blue": 4, "green": 0, "red": 0, "black": 0}


def test_heuristic_and_evaluate():
    def check(state: object) -> None:
        values = [state.evaluate(p) for p in range(2)]
        assert all(0.0 <= v <= 1.0 for v in values) and sum(values) == pytest.approx(1.0)

    game = sm.load_game("splendor")
    assert policy_wins_against_random(game, 40, check) >= 30  # the policy beats random moves
    s, rng = game.new_initial_state(seed=1), random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    with pytest.raises(ValueError, match="seat 2"):
        s.evaluate(2)
    with pytest.raises(ValueError, match="game is over"):
        s.heuristic_action(1)


def test_both_games_bind_the_same_state_methods_and_rules_fields():
    def methods(cls: type) -> set[str]:
        return {name for name in dir(cls) if not name.startswith("_")}

    assert methods(_core.SplendorState) == methods(_core.DuelState)
    for game in (sm.load_game("splendor", players=3, nobles=2), sm.load_game("duel", first_player=1)):
        rules = game.config.to_engine()
        for f in dataclasses.fields(game.config):
            assert getattr(rules, f.name) == getattr(game.config, f.name)
        assert rules == game.config.to_engine()


def test_same_seed_same_game():
    game = sm.load_game("splendor", players=4)
    r1 = sm.random_playouts(game, 50, seed=11)
    r2 = sm.random_playouts(game, 50, seed=11)
    assert np.array_equal(r1.returns, r2.returns) and np.array_equal(r1.lengths, r2.lengths)
    assert not np.array_equal(r1.lengths, sm.random_playouts(game, 50, seed=12).lengths)
