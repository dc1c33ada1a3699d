"""The C++ network (docs/network-format.md): its forward pass against numpy and against
the trainer's golden outputs, its refusals through the Python doors, and the search with
a network (values, PUCT priors shown as ``MoveInfo.prior``)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.learning import weights
from splendor_mcts.learning.weights import Layer, Network

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "network"
_spec = importlib.util.spec_from_file_location("random_network", ROOT / "bench" / "random_network.py")
random_network = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(random_network)


def write_network(path: Path, game: sm.Game, hidden=(32, 16), seed: int = 0, layers=None) -> Network:
    network = random_network.random_network(game, hidden, seed)
    if layers is not None:
        network.layers = layers
    weights.write_network(path, network)
    return network


@pytest.fixture(scope="module")
def splendor() -> sm.Game:
    return sm.load_game("splendor", players=2)


def test_forward_equals_numpy(tmp_path, splendor):
    path = tmp_path / "net.smnet"
    network = write_network(path, splendor)
    rng = np.random.default_rng(1)
    obs = rng.normal(size=(5, splendor.observation_tensor_size())).astype(np.float32)
    obs[obs < 0] = 0.0  # sparse, like an observation
    policy, value = _core.network_forward(str(path), obs)
    want_policy, want_value = network.forward(obs)
    np.testing.assert_allclose(policy, want_policy, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(value, want_value, rtol=1e-4, atol=1e-4)
    info = _core.network_info(str(path))
    assert [layer["name"] for layer in info["layers"]] == ["trunk.0", "trunk.1", "policy", "value"]


def test_kernels_are_named_and_checked(tmp_path, splendor):
    kernels = _core.network_kernels()
    assert kernels[0] == "portable" and set(kernels) <= {"portable", "avx2"}
    path = tmp_path / "net.smnet"
    write_network(path, splendor)
    obs = np.zeros((1, splendor.observation_tensor_size()), dtype=np.float32)
    best = _core.network_forward(str(path), obs)
    last = _core.network_forward(str(path), obs, kernel=kernels[-1])  # the search's kernel
    np.testing.assert_array_equal(best[0], last[0])
    with pytest.raises(ValueError, match="unknown network kernel 'sse9'"):
        _core.network_forward(str(path), obs, kernel="sse9")
    if "avx2" not in kernels:
        with pytest.raises(ValueError, match="lacks AVX2"):
            _core.network_forward(str(path), obs, kernel="avx2")


def _first(arrays, *names):
    for name in names:
        if name in arrays:
            return np.asarray(arrays[name])
    return None


@pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"{GOLDEN.relative_to(ROOT)} (the trainer's golden files) is absent")
@pytest.mark.parametrize("kernel", _core.network_kernels())
def test_forward_equals_the_trainers_golden_outputs(kernel):
    """Each ``X.smnet`` beside ``X.npz`` (inputs and the training framework's outputs),
    with every forward-pass kernel this CPU runs (the portable one, AVX2 + FMA)."""
    nets = sorted(GOLDEN.glob("*.smnet"))
    assert nets, f"{GOLDEN} holds no .smnet file"
    for net in nets:
        data = np.load(net.with_suffix(".npz"))
        obs = _first(data, "observation", "observations", "inputs", "input")
        assert obs is not None, f"{net.with_suffix('.npz')}: no observations among {list(data.keys())}"
        policy, value = _core.network_forward(str(net), obs.astype(np.float32), kernel=kernel)
        want_policy = _first(data, "policy_logits", "policy")
        want_value = _first(data, "value_logits", "value")
        assert want_policy is not None or want_value is not None, f"{net}: no outputs among {list(data.keys())}"
        if want_policy is not None:
            np.testing.assert_allclose(policy, want_policy, rtol=1e-4, atol=1e-4, err_msg=str(net))
        if want_value is not None:
            np.testing.assert_allclose(value, want_value, rtol=1e-4, atol=1e-4, err_msg=str(net))


def test_bad_files_are_refused_naming_the_file(tmp_path, splendor):
    path = tmp_path / "net.smnet"
    write_network(path, splendor)
    good = path.read_bytes()
    cases = {
        "not a .smnet": b"XXXXX" + good[5:],
        "format version 2": good[:7] + b"\x02" + good[8:],
        "shorter than the header says": good[:-4],
        "longer than the header says": good + b"\0\0\0\0",
        "not finite": good[:-4] + np.float32(np.nan).tobytes(),
    }
    for problem, data in cases.items():
        bad = tmp_path / "bad.smnet"
        bad.write_bytes(data)
        with pytest.raises(ValueError, match=problem) as err:
            sm.analyze(splendor.new_initial_state(seed=1), iterations=10, network=str(bad))
        assert str(bad) in str(err.value)
    with pytest.raises(ValueError, match="cannot be opened"):
        sm.MCTSBot(splendor, iterations=10, network=str(tmp_path / "missing.smnet"))
    duel_net = tmp_path / "duel.smnet"
    write_network(duel_net, sm.load_game("duel"))
    with pytest.raises(ValueError, match="made for the game 'duel'"):
        sm.analyze(splendor.new_initial_state(seed=1), iterations=10, network=str(duel_net))
    with pytest.raises(ValueError, match="not 3"):
        sm.analyze(sm.load_game("splendor", players=3).new_initial_state(seed=1), iterations=10, network=str(path))
    with pytest.raises(ValueError, match="value_mix mixes a network"):
        sm.analyze(splendor.new_initial_state(seed=1), iterations=10, network="none", value_mix=0.5)
    with pytest.raises(ValueError, match="value_mix must be between 0 and 1"):
        sm.analyze(splendor.new_initial_state(seed=1), iterations=10, network=str(path), value_mix=1.5)


def test_search_with_a_network_shows_priors_and_stays_deterministic(tmp_path, splendor):
    path = tmp_path / "net.smnet"
    write_network(path, splendor)
    state = splendor.new_initial_state(seed=2)
    runs = [sm.analyze(state, iterations=300, seed=4, network=str(path), top_k=None) for _ in range(2)]
    assert [m.action for m in runs[0].moves] == [m.action for m in runs[1].moves]
    priors = [m.prior for m in runs[0].moves]
    assert all(p is not None and 0.0 < p < 1.0 for p in priors)
    assert sum(priors) <= 1.0 + 1e-6
    # The shown prior is the softmax of the C++ policy logits over the legal moves.
    obs = np.asarray(state.observation_tensor(state.current_player()), np.float32)[None, :]
    logits = _core.network_forward(str(path), obs)[0][0].astype(np.float64)
    legal = state.legal_actions()
    soft = np.exp(logits[legal] - logits[legal].max())
    soft /= soft.sum()
    want = dict(zip(legal, soft))
    for m in runs[0].moves:
        assert m.prior == pytest.approx(want[m.action], rel=1e-4)
    mixed = sm.analyze(state, iterations=300, seed=4, network=str(path), value_mix=0.5)
    assert mixed.to_dict()["params"]["valueMix"] == 0.5
    plain = sm.analyze(state, iterations=100, seed=4, network="none")
    assert all(m.prior is None for m in plain.moves)


def test_the_policy_cache_is_exact_where_every_sample_looks_alike_and_a_setting_elsewhere(tmp_path, splendor):
    """With the true cards (perfect_information) a node is one position: reusing its policy
    searches exactly as running it at every expansion. With hidden cards the samples at a
    node differ and so may the searches; ``policy_cache`` is a setting at every door."""
    path = tmp_path / "net.smnet"
    write_network(path, splendor)
    state = splendor.new_initial_state(seed=2)

    def moves(**settings):
        result = sm.analyze(state, iterations=2000, seed=4, network=str(path), value_mix=0.5, top_k=None, **settings)
        return [(m.action, m.visits, m.avail, m.win_rate, m.prior) for m in result.moves], result

    for perfect in (True, False):
        (cached, with_cache), (run, without) = (moves(perfect_information=perfect, policy_cache=on) for on in (True, False))
        assert (cached == run) is perfect
        assert with_cache.to_dict()["params"]["policyCache"] is True
        assert without.to_dict()["params"]["policyCache"] is False
        assert with_cache.root.bytes > without.root.bytes  # the entries are counted in memory_limit
    assert _core.SearchParams().policy_cache is True
    assert sm.MCTSBot(splendor, iterations=10, network=str(path), policy_cache=False).params.policy_cache is False
    with pytest.raises(ValueError, match="policy_cache must be true or false, got 1"):
        sm.analyze(state, iterations=10, network=str(path), policy_cache=1)


def test_the_value_head_values_the_leaf_rotated_to_seats(tmp_path, splendor):
    """A value head that says "the seat to move wins" (index 0 is the seat to move): one
    iteration values one leaf, the opponent's decision after the root player's move, so
    the opponent's share is the head's softmax at index 0 and the root player's at 1."""
    path = tmp_path / "net.smnet"
    n, a = splendor.observation_tensor_size(), splendor.num_distinct_actions()
    layers = [Layer(layer.name, layer.weight * 0.0, layer.bias * 0.0)
              for layer in random_network.random_layers([n, 8], a, 0)]
    layers[-1].bias = np.array([3.0, 0.0, 0.0, 0.0], np.float32)
    write_network(path, splendor, layers=layers)
    state = splendor.new_initial_state(seed=2)
    result = sm.analyze(state, iterations=1, seed=1, network=str(path), solver=False)
    to_move = state.current_player()
    winner = 1.0 / (1.0 + np.exp(-3.0))
    assert result.root.win_rates[to_move] == pytest.approx(1.0 - winner, rel=1e-5)
    assert result.root.win_rates[1 - to_move] == pytest.approx(winner, rel=1e-5)
