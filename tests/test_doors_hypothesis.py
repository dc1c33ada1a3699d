"""Property tests of the Python doors that read text (issue 15, item 2): `read_position` with
mutated JSON values and `string_to_action` with arbitrary text succeed or raise ValueError,
nothing else; a position they accept reads back equal. The C++ side of the same doors is
fuzzed with libFuzzer (cpp/fuzz)."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import splendor_mcts as sm
from splendor_mcts.games.positions import read_position


def _positions() -> list[dict]:
    docs = []
    for name, variant in (("splendor", {"players": 2}), ("splendor", {"players": 3}), ("duel", {})):
        game = sm.load_game(name, **variant)
        for seed in range(3):
            state = game.new_initial_state(seed=seed, explicit_chance=seed == 1)
            rng = random.Random(seed)
            for _ in range(8 * seed):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
            docs.append(json.loads(state.to_json()))
            docs.append(json.loads(state.observation_json(seed % 2)))
    return docs


DOCS = _positions()
GAMES = [sm.load_game("splendor"), sm.load_game("duel")]
STATES = [game.new_initial_state(seed=1) for game in GAMES]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def _paths(value, prefix=()):
    """Every path to a value inside a JSON document."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _set(doc, path, value):
    if not path:
        return value
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return doc


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(DOCS) - 1), st.lists(st.tuples(st.integers(0, 10**6), json_values), min_size=1, max_size=3))
def test_read_position_refuses_with_value_error_or_reads_back_equal(which, edits):
    doc = json.loads(json.dumps(DOCS[which]))
    for at, value in edits:
        paths = list(_paths(doc))
        doc = _set(doc, paths[at % len(paths)], value)
    try:
        position = read_position(json.dumps(doc))
    except ValueError:
        return
    if position.observer is None:
        text = position.state.to_json()
        assert position.game.state_from_json(text).to_json() == text


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.text(max_size=40))
def test_string_to_action_refuses_with_value_error_or_gives_an_action_that_writes_back(which, text):
    state = STATES[which]
    try:
        action = state.string_to_action(text)
    except ValueError:
        return
    assert 0 <= action < GAMES[which].num_distinct_actions()  # legality is the caller's check
    assert state.string_to_action(state.action_to_string(action)) == action
