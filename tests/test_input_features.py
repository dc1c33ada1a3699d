"""Input features a network reads beside the observation (docs/network-format.md,
"features"): the "needs" set against the rules, the C++ forward pass of a network that
reads them against numpy, their checks at every door, and training with them."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from learning_shards import write_shard
from tool_modules import load_tool

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.learning import weights
from splendor_mcts.learning.input_features import feature_sets, with_features
from splendor_mcts.learning.train import TrainSettings, train
from splendor_mcts.learning.weights import read_network, with_new_features

NEEDS = feature_sets()["needs"]
PER_SEAT, PER_CARD, CARDS = NEEDS["per_seat"], 9, 15
COLOURS = ("white", "blue", "green", "red", "black")
random_network = load_tool("random_network", "bench").random_network


def needs(state: sm.State, observer: int, seats: int) -> np.ndarray:
    """The observer's "needs" features, [seats, per seat]."""
    obs = np.asarray(state.observation_tensor(observer), np.float32)[None]
    return _core.input_features("needs", obs, state.num_players(), seats)[0].reshape(seats, PER_SEAT)


def can_buy(block: np.ndarray) -> np.ndarray:
    return block[:CARDS * PER_CARD].reshape(CARDS, PER_CARD)[:, 8]


def positions(players: int, games: int, seed: int):
    """(state, legal move names) where a player chooses a main action, over random games."""
    game = sm.load_game("splendor", players=players)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(seed=seed * 100 + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.dealt_outcome())
                continue
            moves = [state.action_to_string(a) for a in state.legal_actions()]
            if not any(m.startswith(("return", "noble")) for m in moves):
                yield state, moves
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_player_to_move_can_buy_exactly_the_cards_the_rules_let_it(players):
    game = sm.load_game("splendor", players=players)
    requirement = {n["id"]: n["requirement"] for n in game.nobles()}
    checked = buys = 0
    for state, moves in positions(players, 6, players):
        me = state.current_player()
        features = needs(state, me, 4)
        allowed = np.zeros(CARDS)
        for m in moves:
            if m.startswith("buy reserved "):
                allowed[12 + int(m.split()[-1]) - 1] = 1
            elif m.startswith("buy "):
                level, slot = map(int, m[4:].split("."))
                allowed[4 * (level - 1) + slot - 1] = 1
        np.testing.assert_array_equal(can_buy(features[0]), allowed, err_msg=f"{moves}")
        view = json.loads(state.observation_json(me))
        for r in range(players):
            # Another seat's needs for the table and the nobles are what it sees itself.
            own = needs(state, (me + r) % players, 4)[0]
            np.testing.assert_array_equal(features[r][:12 * PER_CARD], own[:12 * PER_CARD])
            bonuses = view["players"][(me + r) % players]["bonuses"]
            expected = np.zeros(10)
            for noble in view["nobles"]:
                expected[noble - 1] = sum(max(0, requirement[noble][c] - bonuses[c]) for c in COLOURS)
            np.testing.assert_array_equal(features[r][CARDS * PER_CARD:], expected)
        assert not features[players:].any()  # no seat past the game's
        checked += 1
        buys += int(allowed.sum())
    assert checked > 150 and buys > 50


def test_another_seats_blind_reserves_are_unseen_and_its_others_seen():
    game = sm.load_game("splendor", players=2)
    rng = random.Random(2)
    seen = {True: 0, False: 0}
    for g in range(6):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.dealt_outcome())
                continue
            me = state.current_player()
            for i, card in enumerate(json.loads(state.observation_json(me))["players"][1 - me].get("reserved", [])):
                cards = needs(state, me, 2)[1][:CARDS * PER_CARD].reshape(CARDS, PER_CARD)
                blind = bool(card.get("blind"))
                assert cards[12 + i].any() != blind, card  # a seen card always needs something or can be bought
                seen[blind] += 1
            moves = state.legal_actions()
            blind_reserves = [a for a in moves if state.action_to_string(a).startswith("reserve deck")]
            state.apply_action(blind_reserves[0] if blind_reserves and rng.random() < 0.3 else rng.choice(moves))
    assert seen[True] > 20 and seen[False] > 20


@pytest.mark.parametrize("call, message", [
    (lambda obs: _core.input_features("wants", obs, 2, 2), "unknown input features 'wants'"),
    (lambda obs: _core.input_features("needs", obs[:, :10], 2, 2), r"observations must be an array \[batch, 474\]"),
    (lambda obs: _core.input_features("needs", obs, 3, 2), r"players 3 is not one of .*\(1, 2\)"),
    (lambda obs: _core.input_features("needs", obs, [2], 2), r"players must be an int or an array \[2\]"),
    (lambda obs: _core.input_features("needs", obs, 2, 5), "seats must be from 1 to 4"),
])
def test_bad_calls_are_refused_with_a_message(call, message):
    obs = np.zeros((2, 474), np.float32)
    with pytest.raises(ValueError, match=message):
        call(obs)


@pytest.mark.parametrize("players", [2, 3])
def test_the_cpp_forward_pass_with_features_equals_numpy(tmp_path, players):
    game = sm.load_game("splendor", players=players)
    network = random_network(game, (32, 16), seed=3, features="needs")
    path = weights.write_network(tmp_path / "net.smnet", network)
    states = [s.clone() for s, _ in positions(players, 2, 5)][:40]
    obs = np.array([s.observation_tensor(s.current_player()) for s in states], np.float32)
    counts = np.array([s.num_players() for s in states])
    if players == 3:  # the 3-4p family: a 4-player position beside them
        four = next(s for s, _ in positions(4, 1, 2))
        obs = np.vstack([obs, np.asarray(four.observation_tensor(four.current_player()), np.float32)[None]])
        counts = np.append(counts, 4)
        with pytest.raises(ValueError, match="give players"):
            _core.network_forward(str(path), obs)
        with pytest.raises(ValueError, match="give players"):
            network.forward(obs)
        with pytest.raises(ValueError, match=r"players 2 is not one of"):
            _core.network_forward(str(path), obs, players=2)
    for kernel in _core.network_kernels():
        policy, value = _core.network_forward(str(path), obs, kernel=kernel, players=counts)
        want_policy, want_value = network.forward(obs, counts)
        np.testing.assert_allclose(policy, want_policy, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(value, want_value, rtol=1e-4, atol=1e-4)
    info = _core.network_info(str(path))
    assert info["features"] == "needs" and info["input_size"] == 474 + PER_SEAT * (4 if players == 3 else 2)
    # The search reads them at every leaf, and a seeded search is repeatable.
    state = states[0]
    runs = [sm.analyze(state, iterations=200, seed=4, network=str(path), value_mix=0.5, top_k=None) for _ in range(2)]
    assert [(m.action, m.visits) for m in runs[0].moves] == [(m.action, m.visits) for m in runs[1].moves]


def test_a_network_widened_for_features_computes_what_it_did(tmp_path):
    game = sm.load_game("splendor", players=2)
    plain = random_network(game, (16, 8), seed=1)
    weights.write_network(tmp_path / "plain.smnet", plain)
    weights.write_network(tmp_path / "wide.smnet", with_new_features(plain, "needs"))
    obs = np.array([s.observation_tensor(s.current_player()) for s, _ in positions(2, 1, 3)], np.float32)
    for a, b in zip(_core.network_forward(str(tmp_path / "plain.smnet"), obs),
                    _core.network_forward(str(tmp_path / "wide.smnet"), obs)):
        np.testing.assert_array_equal(a, b)


def test_readers_refuse_features_that_do_not_fit(tmp_path):
    duel_path = tmp_path / "duel.smnet"
    network = random_network(sm.load_game("duel"), (8,), seed=1)
    network.features = "needs"
    with pytest.raises(ValueError, match="input features 'needs' are for splendor, not duel"):
        weights.write_network(duel_path, network)
    splendor = random_network(sm.load_game("splendor", players=2), (8,), seed=1, features="needs")
    path = weights.write_network(tmp_path / "s.smnet", splendor)
    data = path.read_bytes()
    for old, new, message in [(b'"features": "needs"', b'"features": "wants"', "unknown input features 'wants'"),
                              (b'"features": "needs"', b'"features": 1234567', "features must be"),
                              (b'"features": "needs"', b'"featurex": "needs"', "do not chain")]:
        bad = tmp_path / "bad.smnet"
        bad.write_bytes(data.replace(old, new))
        with pytest.raises(ValueError, match=message):
            read_network(bad)
        with pytest.raises(ValueError, match="bad.smnet"):
            _core.network_info(str(bad))


def test_training_with_features_from_nothing_and_from_a_network_without_them(tmp_path):
    torch = pytest.importorskip("torch")
    from splendor_mcts.learning import model as nets

    (tmp_path / "data").mkdir()
    write_shard(tmp_path / "data" / "shard-00000.npz", games=8, moves=8, seed=1)

    def settings(name: str, **more) -> TrainSettings:
        return TrainSettings(family="splendor-2p", data=(str(tmp_path / "data"),), out=str(tmp_path / f"{name}.smnet"),
                             epochs=1, batch_size=16, hidden=(8, 8), seed=7, validation=0.25, **more)

    network = read_network(train(settings("fresh", features="needs"), say=lambda _: None))
    assert network.features == "needs" and network.input_size == 474 + 2 * PER_SEAT
    x = np.random.default_rng(0).integers(0, 5, size=(6, 474)).astype(np.float32)
    with torch.no_grad():
        policy, value = nets.from_network(network)(torch.from_numpy(with_features("needs", "splendor-2p", x, 2)))
    ours = _core.network_forward(str(tmp_path / "fresh.smnet"), x)
    np.testing.assert_allclose(ours[0], policy.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ours[1], value.numpy(), rtol=1e-4, atol=1e-4)
    plain = train(settings("plain"), say=lambda _: None)
    assert read_network(plain).features is None
    grown = read_network(train(settings("grown", features="needs", init=str(plain)), say=lambda _: None))
    assert grown.features == "needs"
    with pytest.raises(ValueError, match="reads the input features 'needs'; give --features needs"):
        train(settings("again", init=str(tmp_path / "grown.smnet")), say=lambda _: None)
    with pytest.raises(ValueError, match="unknown input features 'wants'"):
        settings("x", features="wants")
    with pytest.raises(ValueError, match="are for splendor, not duel"):
        TrainSettings(family="duel", data=("d",), out="d.smnet", features="needs")
