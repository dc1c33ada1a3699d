"""The Python evaluator hook (``sm.analyze(..., evaluate_with=f, batch_size=b)``,
docs/search.md "Python evaluators"): a numpy model's values and policy reach the search,
the C++ network served through the hook searches as ``network=PATH`` does, every bad
answer is a ValueError naming it, and the searcher works again afterwards."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.learning import weights

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("random_network", ROOT / "bench" / "random_network.py")
random_network = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(random_network)


@pytest.fixture(scope="module")
def splendor() -> sm.Game:
    return sm.load_game("splendor", players=2)


@pytest.fixture(scope="module")
def state(splendor):
    return splendor.new_initial_state(seed=2)


def shares(first: float):
    """A model whose seat to move (index 0) gets ``first`` and the other seat the rest."""
    def model(observations, legal, players):
        values = np.zeros((len(observations), players), np.float32)
        values[:, 0] = first
        values[:, 1:] = (1.0 - first) / (players - 1)
        return values
    return model


class LinearModel:
    """A fixed random linear map: observations -> (win shares by softmax, policy logits)."""

    def __init__(self, observation_size: int, num_actions: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.value = rng.normal(0.0, 0.05, (observation_size, 4)).astype(np.float32)
        self.policy = rng.normal(0.0, 0.05, (observation_size, num_actions)).astype(np.float32)
        self.batches: list[int] = []

    def __call__(self, observations, legal, players):
        assert observations.dtype == np.float32 and legal.dtype == np.bool_ and legal.any(axis=1).all()
        self.batches.append(len(observations))
        logits = observations @ self.value
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32), observations @ self.policy


@pytest.mark.parametrize("batch_size", [1, 16])
def test_the_seat_to_move_always_wins(state, batch_size):
    """``batch_size`` iterations, one batch: each expands a different root move (held
    leaves keep their virtual loss), so each leaf is the opponent's decision after the
    root player's move. The opponent is the seat to move there: it gets index 0's share."""
    to_move = state.current_player()
    model = CountingShares(0.9)
    result = sm.analyze(state, iterations=batch_size, seed=1, solver=False, top_k=None, evaluate_with=model,
                        batch_size=batch_size)
    assert model.batches == [1, batch_size]  # the root's call, then one batch
    assert [m.visits for m in result.moves] == [1] * batch_size
    assert result.root.win_rates[to_move] == pytest.approx(0.1, abs=1e-6)
    assert result.root.win_rates[1 - to_move] == pytest.approx(0.9, abs=1e-6)
    assert all(m.win_rate == pytest.approx(0.1, abs=1e-6) for m in result.moves)


class CountingShares:
    """``shares(first)``, recording each batch's size."""

    def __init__(self, first: float) -> None:
        self.model = shares(first)
        self.batches: list[int] = []

    def __call__(self, observations, legal, players):
        self.batches.append(len(observations))
        return self.model(observations, legal, players)


def test_a_numpy_model_in_batches_is_deterministic(splendor, state):
    model = LinearModel(splendor.observation_tensor_size(), splendor.num_distinct_actions())
    runs = [sm.analyze(state, iterations=300, seed=4, top_k=None, evaluate_with=model, batch_size=16)
            for _ in range(2)]
    assert [(m.action, m.visits, m.win_rate) for m in runs[0].moves] == \
        [(m.action, m.visits, m.win_rate) for m in runs[1].moves]
    assert max(model.batches) == 16 and model.batches[0] == 1  # the root's call first
    assert sum(m.visits for m in runs[0].moves) == 300
    one_by_one = sm.analyze(state, iterations=300, seed=4, evaluate_with=model, batch_size=1)
    assert one_by_one.root.iterations == 300


def test_the_policy_becomes_the_priors(splendor, state):
    """A policy that likes one move puts the first expansions there."""
    liked = state.legal_actions()[-1]

    def model(observations, legal, players):
        logits = np.zeros((len(observations), splendor.num_distinct_actions()), np.float32)
        logits[:, liked] = 20.0
        return shares(0.5)(observations, legal, players), logits

    result = sm.analyze(state, iterations=1, seed=1, solver=False, evaluate_with=model)
    assert [m.action for m in result.moves if m.visits] == [liked]


@pytest.mark.parametrize("players", [2, 3])
def test_the_c_plus_plus_network_through_the_hook_searches_as_network_does(tmp_path, players):
    """``_core.network_forward`` as the callable, its value logits turned to shares as the
    C++ does (docs/network-format.md, "Forward"), at batch size 1 and with the true cards
    (perfect_information): the same tree as ``network=PATH``. With hidden cards the two
    differ by design: the network's priors are computed at each expansion, in that
    iteration's sample, the hook's once, when the node was a leaf (docs/search.md)."""
    game = sm.load_game("splendor", players=players)
    path = tmp_path / "net.smnet"
    weights.write_network(path, random_network.random_network(game, (32, 16), 0))

    def served(observations, legal, n):
        policy, value = _core.network_forward(str(path), observations)
        top = value[:, :n].max(axis=1, keepdims=True)
        e = np.exp((value[:, :n] - top).astype(np.float64))  # float32 differences, double exp, as the C++
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32), policy

    root = game.new_initial_state(seed=3)
    for analysis_moves in (0, 5):  # analysis mode's floor reads the root's visits, counted on entry here
        settings = dict(iterations=400, seed=5, top_k=None, perfect_information=True, analysis_moves=analysis_moves)
        native = sm.analyze(root, network=str(path), **settings)
        hooked = sm.analyze(root, evaluate_with=served, batch_size=1, **settings)
        moves = [(m.action, m.visits, m.avail) for m in hooked.moves]
        assert moves == [(m.action, m.visits, m.avail) for m in native.moves], analysis_moves
        for h, n in zip(hooked.moves, native.moves):
            assert h.win_rate == pytest.approx(n.win_rate, abs=1e-6)
        assert hooked.root.win_rates == pytest.approx(native.root.win_rates, abs=1e-6)
        assert hooked.root.nodes == native.root.nodes


def bad_values(kind: str):
    def model(observations, legal, players):
        n = len(observations)
        if kind == "raises":
            raise ZeroDivisionError("the model broke")
        if kind == "list":
            return [[0.5] * players] * n
        if kind == "float64":
            return np.full((n, players), 0.5)
        if kind == "shape":
            return np.full((n, players + 3), 0.1, np.float32)
        if kind == "nan":
            return np.full((n, players), np.nan, np.float32)
        if kind == "negative":
            return np.full((n, players), -0.25, np.float32)
        if kind == "triple":
            return np.full((n, players), 0.5, np.float32), None, None
        if kind == "logits":
            return np.full((n, players), 0.5, np.float32), np.zeros((n, 3), np.float32)
        raise AssertionError(kind)
    return model


@pytest.mark.parametrize("kind, message", [
    ("raises", "evaluate_with raised ZeroDivisionError: the model broke"),
    ("list", "evaluate_with must return values as a numpy float32 array"),
    ("float64", "values must have dtype float32, got float64"),
    ("shape", r"values must have shape \[\d+, 2\] or \[\d+, 4\], got \[\d+, 5\]"),
    ("nan", r"win shares in \[0, 1\], got nan"),
    ("negative", r"win shares in \[0, 1\], got -0.25"),
    ("triple", "values or \\(values, policy_logits\\), got a tuple of 3"),
    ("logits", r"policy_logits must have shape \[1, \d+\], got \[1, 3\]"),
])
def test_bad_answers_are_value_errors_and_the_search_works_after(state, kind, message):
    with pytest.raises(ValueError, match=message) as caught:
        sm.analyze(state, iterations=50, seed=1, evaluate_with=bad_values(kind), batch_size=8)
    if kind == "raises":
        assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert sm.analyze(state, iterations=50, seed=1, evaluate_with=shares(0.5), batch_size=8).root.iterations == 50


def test_bad_settings_are_refused(state, tmp_path):
    with pytest.raises(ValueError, match="evaluate_with must be callable"):
        sm.analyze(state, iterations=10, evaluate_with=3)
    with pytest.raises(ValueError, match="batch_size must be a whole number from 1 to 4096, got 0"):
        sm.analyze(state, iterations=10, evaluate_with=shares(0.5), batch_size=0)
    with pytest.raises(ValueError, match="batch_size must be a whole number"):
        sm.analyze(state, iterations=10, evaluate_with=shares(0.5), batch_size=2.0)
    with pytest.raises(ValueError, match="one thread"):
        sm.analyze(state, iterations=10, threads=2, evaluate_with=shares(0.5))
    path = tmp_path / "net.smnet"
    weights.write_network(path, random_network.random_network(sm.load_game("splendor", players=2), (8,), 0))
    with pytest.raises(ValueError, match="evaluate_with and network are two ways to value a leaf"):
        sm.analyze(state, iterations=10, network=str(path), evaluate_with=shares(0.5))


def test_a_policy_in_some_batches_only_is_refused(splendor, state):
    calls = []

    def model(observations, legal, players):
        calls.append(1)
        values = shares(0.5)(observations, legal, players)
        if len(calls) == 1:
            return values
        return values, np.zeros((len(observations), splendor.num_distinct_actions()), np.float32)

    with pytest.raises(ValueError, match="policy logits for some batches and not others"):
        sm.analyze(state, iterations=20, seed=1, evaluate_with=model)


def test_progress_reports_while_the_hook_serves(state):
    """The progress callback and the hook both take the GIL from their threads."""
    reports = []

    def progress(partial):
        reports.append(partial.root.iterations)
        return False

    result = sm.analyze(state, iterations=3000, seed=1, evaluate_with=shares(0.5), batch_size=4,
                        progress=progress, progress_interval=0.01)
    assert result.root.iterations == 3000
    assert reports == sorted(reports) and all(done <= 3000 for done in reports)
