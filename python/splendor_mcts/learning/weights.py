"""The ``.smnet`` weight format of the policy-value network, and its forward pass in numpy.

Little-endian, dependency-free (docs/training.md has the layout): 8 bytes of magic
``SMNET\\0\\0`` plus the format version, a uint32 header length, a UTF-8 JSON header naming
the family, sizes and layers, then each layer's weight float32 [out][in] row-major and bias
float32 [out], in header order, and nothing after. The C++ search reads the same files;
this module must not import torch, so a trained network can be checked and used anywhere.
"""
from __future__ import annotations

import json
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic_write import atomic_write
from ..search.families import VALUE_SIZE, family, game_sizes
from .input_features import check_features, feature_width, with_features

MAGIC = b"SMNET\0\0"
VERSION = 1
SUFFIX = ".smnet"
ACTIVATION = "relu"
REQUIRED_KEYS = ("family", "game", "players", "observation_size", "num_actions", "value_size",
                 "activation", "layers")


@dataclass
class Layer:
    """One dense layer: ``weight`` float32 [out, in], ``bias`` float32 [out]."""

    name: str
    weight: np.ndarray
    bias: np.ndarray


@dataclass
class Network:
    """A policy-value network: trunk layers ``trunk.0`` ... with ReLU, then the ``policy``
    and ``value`` heads, for one game family. ``training`` is free metadata; ``features``
    names the input features its first layer reads after the observation (None: none)."""

    family: str
    layers: list[Layer]
    training: dict[str, Any] = field(default_factory=dict)
    features: str | None = None

    @property
    def game(self) -> str:
        return family(self.family).game

    @property
    def players(self) -> tuple[int, ...]:
        return family(self.family).players

    @property
    def observation_size(self) -> int:
        return game_sizes(self.game)[0]

    @property
    def input_size(self) -> int:
        """The first layer's inputs: the observation, then the input features."""
        return int(self.layers[0].weight.shape[1])

    @property
    def num_actions(self) -> int:
        return int(self.layer("policy").weight.shape[0])

    @property
    def trunk(self) -> list[Layer]:
        return [layer for layer in self.layers if layer.name.startswith("trunk.")]

    def layer(self, name: str) -> Layer:
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise KeyError(name)

    def header(self) -> dict[str, Any]:
        """The JSON header this network is written with."""
        fam = family(self.family)
        return {"family": fam.name, "game": fam.game, "players": list(fam.players),
                "observation_size": self.observation_size, "num_actions": self.num_actions,
                "value_size": VALUE_SIZE, "activation": ACTIVATION,
                **({"features": self.features} if self.features else {}),  # networks without them as they were
                "layers": [{"name": layer.name, "in": int(layer.weight.shape[1]), "out": int(layer.weight.shape[0])}
                           for layer in self.layers],
                "training": self.training}

    def forward(self, observation: np.ndarray, players: np.ndarray | int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(policy logits [n, num_actions], value logits [n, 4]) for observations [n, N]
        (or one observation [N], giving 1-d results), computed in float32. ``players`` (an
        int or [n]) is each game's player count, which input features depend on: by default
        the family's only count (``ValueError`` for a family of several)."""
        x = np.asarray(observation, dtype=np.float32)
        single = x.ndim == 1
        if single:
            x = x[None, :]
        if x.ndim != 2 or x.shape[1] != self.observation_size:
            raise ValueError(f"observations must be [n, {self.observation_size}] for {self.family}, "
                             f"got shape {tuple(np.shape(observation))}")
        if self.features:
            if players is None:
                if len(self.players) > 1:
                    raise ValueError(f"{self.family} plays {list(self.players)} players and its input features "
                                     "depend on the count: give players")
                players = self.players[0]
            x = with_features(self.features, self.family, x, players)
        for layer in self.trunk:
            x = np.maximum(x @ layer.weight.T + layer.bias, np.float32(0))
        policy = self.layer("policy")
        value = self.layer("value")
        policy_logits = x @ policy.weight.T + policy.bias
        value_logits = x @ value.weight.T + value.bias
        if single:
            return policy_logits[0], value_logits[0]
        return policy_logits, value_logits


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax of ``logits`` over the entries where ``mask`` is true (0 elsewhere), per row:
    the policy priors over legal actions, or the value over the first ``players`` seats."""
    logits = np.asarray(logits, dtype=np.float64)
    mask = np.asarray(mask, dtype=bool)
    if not mask.any(axis=-1).all():
        raise ValueError("masked softmax: a row has no allowed entry")
    shifted = np.where(mask, logits, -np.inf)
    shifted = shifted - shifted.max(axis=-1, keepdims=True)
    exp = np.where(mask, np.exp(shifted), 0.0)
    return (exp / exp.sum(axis=-1, keepdims=True)).astype(np.float32)


def value_mask(players: np.ndarray | int, rows: int | None = None) -> np.ndarray:
    """bool [n, 4]: the first ``players`` entries of each row (the seats of that game)."""
    counts = np.broadcast_to(np.asarray(players, dtype=np.int64), (rows,) if rows is not None else np.shape(players))
    return np.arange(VALUE_SIZE)[None, :] < counts.reshape(-1, 1)


def write_network(path: str | Path, network: Network) -> Path:
    """Write ``network`` as ``.smnet`` to ``path`` (checked first, as a reader would)."""
    check_network(network, str(path))
    header = json.dumps(network.header(), sort_keys=False, allow_nan=False).encode("utf-8")
    path = Path(path)
    with atomic_write(path) as out:  # a network half written by an interrupt would not load
        out.write(MAGIC + bytes([VERSION]))
        out.write(struct.pack("<I", len(header)))
        out.write(header)
        for layer in network.layers:
            out.write(np.ascontiguousarray(layer.weight, dtype="<f4").tobytes())
            out.write(np.ascontiguousarray(layer.bias, dtype="<f4").tobytes())
    return path


def read_network(path: str | Path) -> Network:
    """Read a ``.smnet`` file; ``ValueError`` naming the file and the problem for a wrong
    magic or version, a header that is not JSON or lacks keys, layer sizes that do not chain
    or do not fit the game, a file shorter or longer than its header says, or non-finite
    weights."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the network: {exc.strerror or exc}") from None
    return parse_network(data, str(path))


def read_warm_start(path: str | Path, family_name: str, hidden: tuple[int, ...], where: str,
                    features: str | None = None) -> Network:
    """The network a training run warm-starts from (``train --init``, ``pipeline --start``):
    ``ValueError`` starting with ``where`` for a file that cannot be read, or one of another
    family, trunk or input features than the run's (its weights become the run's first
    ones). A network without input features starts a run with ``features`` as
    :func:`with_new_features` widens it: computing the same outputs."""
    network = read_network(path)
    if network.family != family_name:
        raise ValueError(f"{where}: a network of {network.family}, not {family_name}")
    trunk = tuple(layer.weight.shape[0] for layer in network.trunk)
    if trunk != tuple(hidden):
        raise ValueError(f"{where}: hidden sizes {list(trunk)} differ from --hidden {list(hidden)}")
    if network.features and network.features != (features or None):
        raise ValueError(f"{where}: the network reads the input features {network.features!r}; give "
                         f"--features {network.features} to train from it")
    return with_new_features(network, features) if features and not network.features else network


def with_new_features(network: Network, features: str) -> Network:
    """``network`` (without input features) reading ``features`` too, with zero weights
    from them: the same outputs, and a start for training that begins where it is."""
    first = network.layers[0]
    extra = np.zeros((first.weight.shape[0], feature_width(features, network.family)), dtype=np.float32)
    layers = [Layer(first.name, np.concatenate([first.weight, extra], axis=1), first.bias.copy()),
              *network.layers[1:]]
    return Network(network.family, layers, dict(network.training), features)


def parse_network(data: bytes, where: str = "network") -> Network:
    """A network from the bytes of a ``.smnet`` file (``where`` names it in errors)."""
    def fail(problem: str) -> ValueError:
        return ValueError(f"{where}: {problem}")

    if len(data) < len(MAGIC) + 1 or data[:len(MAGIC)] != MAGIC:
        raise fail("not a .smnet network (wrong magic bytes)")
    if data[len(MAGIC)] != VERSION:
        raise fail(f"format version {data[len(MAGIC)]} is not supported (this reader knows version {VERSION})")
    start = len(MAGIC) + 1
    if len(data) < start + 4:
        raise fail("file ends before the header length")
    (length,) = struct.unpack_from("<I", data, start)
    start += 4
    if len(data) < start + length:
        raise fail(f"file ends inside the header ({len(data) - start} of {length} bytes)")
    try:
        header = json.loads(data[start:start + length].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(f"header is not JSON text: {exc}") from None
    if not isinstance(header, dict):
        raise fail("header is not a JSON object")
    missing = [key for key in REQUIRED_KEYS if key not in header]
    if missing:
        raise fail(f"header lacks {', '.join(missing)}")
    shapes = _layer_shapes(header, fail)
    start += length
    expected = start + sum(4 * (out * (inp + 1)) for _, inp, out in shapes)
    if len(data) != expected:
        raise fail(f"file is {len(data)} bytes but its header describes {expected}"
                   + (" (truncated)" if len(data) < expected else " (data after the last bias)"))
    layers = []
    for name, inp, out in shapes:
        weight = np.frombuffer(data, dtype="<f4", count=out * inp, offset=start).reshape(out, inp)
        start += 4 * out * inp
        bias = np.frombuffer(data, dtype="<f4", count=out, offset=start)
        start += 4 * out
        if not (np.isfinite(weight).all() and np.isfinite(bias).all()):
            raise fail(f"layer {name} holds a non-finite weight (NaN or infinity)")
        layers.append(Layer(name, weight.astype(np.float32), bias.astype(np.float32)))
    training = header.get("training", {})
    return Network(str(header["family"]), layers, training if isinstance(training, dict) else {"value": training},
                   header.get("features"))


def with_training(data: bytes, training: dict[str, Any], where: str = "network") -> bytes:
    """The bytes of the ``.smnet`` file ``data`` with its header's ``training`` replaced by
    ``training``, and every weight byte as it was (copied, not parsed and written again);
    ``ValueError`` as :func:`parse_network` for ``data`` that is not a network."""
    parse_network(data, where)  # checked first: a network, whole
    start = len(MAGIC) + 1
    (length,) = struct.unpack_from("<I", data, start)
    header = json.loads(data[start + 4:start + 4 + length].decode("utf-8"))
    header["training"] = training
    text = json.dumps(header, sort_keys=False, allow_nan=False).encode("utf-8")
    return data[:start] + struct.pack("<I", len(text)) + text + data[start + 4 + length:]


def check_network(network: Network, where: str = "network") -> None:
    """``ValueError`` unless ``network`` is one the format can hold and a reader accepts."""
    def fail(problem: str) -> ValueError:
        return ValueError(f"{where}: {problem}")

    header = network.header() if network.layers else None
    if header is None:
        raise fail("network has no layers")
    for layer in network.layers:
        if layer.weight.ndim != 2 or layer.bias.shape != (layer.weight.shape[0],):
            raise fail(f"layer {layer.name}: weight must be [out, in] and bias [out], "
                       f"got {layer.weight.shape} and {layer.bias.shape}")
        if not (np.isfinite(layer.weight).all() and np.isfinite(layer.bias).all()):
            raise fail(f"layer {layer.name} holds a non-finite weight (NaN or infinity)")
    _layer_shapes(header, fail)


def _is_size(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _layer_shapes(header: dict[str, Any], fail: Callable[[str], ValueError]) -> list[tuple[str, int, int]]:
    """(name, in, out) per layer, after checking the header against the spec and the game."""
    try:
        fam = family(header["family"])
    except ValueError as exc:
        raise fail(str(exc)) from None
    if header["game"] != fam.game:
        raise fail(f"game {header['game']!r} is not family {fam.name}'s ({fam.game})")
    if header["players"] != list(fam.players):
        raise fail(f"players {header['players']!r} are not family {fam.name}'s {list(fam.players)}")
    if header["activation"] != ACTIVATION:
        raise fail(f"activation {header['activation']!r} is not supported (only {ACTIVATION!r})")
    if header["value_size"] != VALUE_SIZE:
        raise fail(f"value_size is {header['value_size']!r}, not {VALUE_SIZE}")
    observation_size, num_actions = game_sizes(fam.game)
    if header["observation_size"] != observation_size:
        raise fail(f"observation_size {header['observation_size']!r} is not {fam.game}'s {observation_size}")
    features = header.get("features")
    if features is not None and not (isinstance(features, str) and features):
        raise fail(f"features must be the name of input features, got {features!r}")
    try:
        check_features(features, fam.name)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if header["num_actions"] != num_actions:
        raise fail(f"num_actions {header['num_actions']!r} is not {fam.game}'s {num_actions}")
    layers = header["layers"]
    if not isinstance(layers, list) or not all(isinstance(layer, dict) for layer in layers):
        raise fail("layers must be a list of objects with name, in and out")
    names = [layer.get("name") for layer in layers]
    trunk = len(layers) - 2
    expected_names = [f"trunk.{i}" for i in range(trunk)] + ["policy", "value"]
    if trunk < 1 or names != expected_names:
        raise fail(f"layers must be named trunk.0 ... trunk.K, policy, value (K >= 0), got {names}")
    shapes = []
    for layer in layers:
        if not (_is_size(layer.get("in")) and _is_size(layer.get("out"))):
            raise fail(f"layer {layer['name']}: in and out must be positive integers, "
                       f"got {layer.get('in')!r} and {layer.get('out')!r}")
        shapes.append((str(layer["name"]), int(layer["in"]), int(layer["out"])))
    width = observation_size + feature_width(features, fam.name)
    for name, inp, out in shapes[:trunk]:
        if inp != width:
            raise fail(f"layer {name} takes {inp} inputs but receives {width}: the sizes do not chain")
        width = out
    for (name, inp, out), want in zip(shapes[trunk:], (num_actions, VALUE_SIZE)):
        if inp != width:
            raise fail(f"layer {name} takes {inp} inputs but the trunk gives {width}: the sizes do not chain")
        if out != want:
            raise fail(f"layer {name} gives {out} outputs, not {want}")
    return shapes
