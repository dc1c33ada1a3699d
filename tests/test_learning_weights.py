"""The .smnet weight format: round trip, every rejection a reader owes, the numpy forward."""
from __future__ import annotations

import json
import struct

import numpy as np
import pytest

from splendor_mcts.search.families import family, family_of, game_sizes
from splendor_mcts.learning.weights import (MAGIC, Layer, Network, masked_softmax, parse_network, read_network,
                                            read_warm_start, value_mask, write_network)


def random_network(family_name: str = "splendor-2p", hidden: tuple[int, ...] = (8, 6), seed: int = 1) -> Network:
    rng = np.random.default_rng(seed)
    observation_size, num_actions = game_sizes(family(family_name).game)
    widths = [observation_size, *hidden]
    shapes = [(f"trunk.{i}", a, b) for i, (a, b) in enumerate(zip(widths, widths[1:]))]
    shapes += [("policy", widths[-1], num_actions), ("value", widths[-1], 4)]
    layers = [Layer(name, rng.normal(size=(out, inp)).astype(np.float32), rng.normal(size=out).astype(np.float32))
              for name, inp, out in shapes]
    return Network(family_name, layers, {"seed": seed})


def encode(header: dict, payload: bytes, version: int = 1) -> bytes:
    text = json.dumps(header).encode()
    return MAGIC + bytes([version]) + struct.pack("<I", len(text)) + text + payload


def parts(tmp_path, network: Network) -> tuple[dict, bytes]:
    data = write_network(tmp_path / "net.smnet", network).read_bytes()
    (length,) = struct.unpack_from("<I", data, 8)
    return json.loads(data[12:12 + length]), data[12 + length:]


@pytest.mark.parametrize("family_name", ["splendor-2p", "splendor-3-4p", "duel"])
def test_round_trip_keeps_every_weight_and_the_metadata(tmp_path, family_name):
    network = random_network(family_name)
    back = read_network(write_network(tmp_path / "net.smnet", network))
    assert back.family == family_name and back.training == {"seed": 1}
    assert [layer.name for layer in back.layers] == ["trunk.0", "trunk.1", "policy", "value"]
    for ours, theirs in zip(network.layers, back.layers):
        assert np.array_equal(ours.weight, theirs.weight) and np.array_equal(ours.bias, theirs.bias)


def test_file_layout_is_the_documented_one(tmp_path):
    network = random_network(hidden=(3,))
    data = write_network(tmp_path / "net.smnet", network).read_bytes()
    assert data[:8] == b"SMNET\0\0\1"
    header, payload = parts(tmp_path, network)
    assert header["observation_size"] == 474 and header["num_actions"] == game_sizes("splendor")[1]
    assert header["layers"][0] == {"name": "trunk.0", "in": 474, "out": 3}
    first = np.frombuffer(payload[: 4 * 3 * 474], dtype="<f4").reshape(3, 474)
    assert np.array_equal(first, network.layers[0].weight)


def test_forward_is_the_documented_computation():
    network = random_network()
    x = np.random.default_rng(5).normal(size=(3, network.observation_size)).astype(np.float32)
    h = x
    for layer in network.trunk:
        h = np.maximum(h @ layer.weight.T + layer.bias, 0)
    policy, value = network.forward(x)
    assert np.allclose(policy, h @ network.layer("policy").weight.T + network.layer("policy").bias, rtol=1e-5, atol=1e-4)
    assert np.allclose(value, h @ network.layer("value").weight.T + network.layer("value").bias, rtol=1e-5, atol=1e-4)
    one_policy, _ = network.forward(x[1])
    assert one_policy.shape == (network.num_actions,) and np.allclose(one_policy, policy[1], atol=1e-4)
    with pytest.raises(ValueError, match=r"observations must be \[n, 474\]"):
        network.forward(np.zeros((2, 10)))


def test_masked_softmax_puts_all_mass_on_the_allowed_entries():
    logits = np.array([[1.0, 2.0, 3.0, 50.0], [0.0, 0.0, 0.0, 0.0]])
    mask = value_mask(np.array([3, 2]))
    shares = masked_softmax(logits, mask)
    assert shares[0, 3] == 0 and shares[1, 2:].sum() == 0
    assert np.allclose(shares.sum(axis=1), 1) and np.allclose(shares[1, :2], 0.5)
    with pytest.raises(ValueError, match="no allowed entry"):
        masked_softmax(logits, np.zeros((2, 4), dtype=bool))


def test_families():
    assert family_of("splendor", 4).name == "splendor-3-4p" and family_of("duel", 2).name == "duel"
    with pytest.raises(ValueError, match="no game family plays splendor with 5"):
        family_of("splendor", 5)
    with pytest.raises(ValueError, match="unknown game family 'chess'"):
        family("chess")


def reject(tmp_path, data: bytes, message: str) -> None:
    path = tmp_path / "bad.smnet"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=message) as caught:
        read_network(path)
    assert str(path) in str(caught.value)


def test_reader_rejects_wrong_magic_and_version(tmp_path):
    header, payload = parts(tmp_path, random_network())
    reject(tmp_path, b"PK\3\4" + encode(header, payload)[4:], "wrong magic")
    reject(tmp_path, encode(header, payload, version=2), "format version 2 is not supported")
    reject(tmp_path, b"SMNET", "wrong magic")


def test_reader_rejects_a_header_that_is_not_json_or_lacks_keys(tmp_path):
    header, payload = parts(tmp_path, random_network())
    reject(tmp_path, MAGIC + b"\1" + struct.pack("<I", 5) + b"{oops" + payload, "header is not JSON")
    reject(tmp_path, MAGIC + b"\1" + struct.pack("<I", 2) + b"[]" + payload, "not a JSON object")
    for key in ("family", "layers", "num_actions"):
        reject(tmp_path, encode({k: v for k, v in header.items() if k != key}, payload), f"header lacks {key}")
    reject(tmp_path, MAGIC + b"\1" + struct.pack("<I", 500) + b"{}", "ends inside the header")


def test_reader_rejects_sizes_that_do_not_chain_or_do_not_fit_the_game(tmp_path):
    header, payload = parts(tmp_path, random_network())
    cases = [
        (lambda h: h["layers"][1].update({"in": 7}), "trunk.1 takes 7 inputs but receives 8"),
        (lambda h: h["layers"][2].update({"in": 5}), "policy takes 5 inputs but the trunk gives 6"),
        (lambda h: h["layers"][3].update({"out": 3}), "value gives 3 outputs, not 4"),
        (lambda h: h.update({"observation_size": 475}), "observation_size 475 is not splendor's 474"),
        (lambda h: h.update({"num_actions": 12}), "num_actions 12 is not splendor's"),
        (lambda h: h.update({"game": "duel"}), "game 'duel' is not family splendor-2p's"),
        (lambda h: h.update({"family": "go"}), "unknown game family 'go'"),
        (lambda h: h.update({"activation": "tanh"}), "activation 'tanh' is not supported"),
        (lambda h: h["layers"].reverse(), "layers must be named trunk.0"),
        (lambda h: h["layers"][0].update({"in": "474"}), "in and out must be positive integers"),
    ]
    for change, message in cases:
        bad = json.loads(json.dumps(header))
        change(bad)
        reject(tmp_path, encode(bad, payload), message)
    # The network of another game has the right chain but not this game's sizes.
    duel_header, duel_payload = parts(tmp_path, random_network("duel"))
    reject(tmp_path, encode({**duel_header, "family": "splendor-2p", "game": "splendor"}, duel_payload),
           "observation_size 1486 is not splendor's 474")


def test_reader_rejects_a_file_shorter_or_longer_than_its_header(tmp_path):
    header, payload = parts(tmp_path, random_network())
    reject(tmp_path, encode(header, payload[:-4]), r"describes \d+ \(truncated\)")
    reject(tmp_path, encode(header, payload + b"\0"), "data after the last bias")


def test_reader_and_writer_reject_non_finite_weights(tmp_path):
    network = random_network()
    header, payload = parts(tmp_path, network)
    values = np.frombuffer(payload, dtype="<f4").copy()
    values[-1] = np.nan
    reject(tmp_path, encode(header, values.tobytes()), "layer value holds a non-finite weight")
    network.layers[0].weight[0, 0] = np.inf
    with pytest.raises(ValueError, match="trunk.0 holds a non-finite weight"):
        write_network(tmp_path / "inf.smnet", network)


def test_reader_names_a_missing_file(tmp_path):
    with pytest.raises(ValueError, match="cannot read the network"):
        read_network(tmp_path / "none.smnet")
    with pytest.raises(ValueError, match="bytes: not a .smnet network"):
        parse_network(b"nothing", "bytes")


def test_a_warm_start_must_be_of_the_runs_family_and_trunk(tmp_path):
    path = write_network(tmp_path / "s2.smnet", random_network("splendor-2p", hidden=(8, 6)))
    assert read_warm_start(path, "splendor-2p", (8, 6), "--init s2").family == "splendor-2p"
    with pytest.raises(ValueError, match=r"^--init s2: a network of splendor-2p, not duel$"):
        read_warm_start(path, "duel", (8, 6), "--init s2")
    with pytest.raises(ValueError, match=r"^--start s2: hidden sizes \[8, 6\] differ from --hidden \[8\]$"):
        read_warm_start(path, "splendor-2p", (8,), "--start s2")
    with pytest.raises(ValueError, match="cannot read the network"):
        read_warm_start(tmp_path / "none.smnet", "splendor-2p", (8, 6), "--init none")
