"""Writes a policy-value network with random weights in the ``.smnet`` format
(docs/network-format.md), to measure the search's speed with a network of a given size
(the weights' values do not change the cost of a forward pass).

    python bench/random_network.py --game splendor --players 2 --hidden 256,256 --out net.smnet

The weights are He-initialised from ``--seed``; the tests also write their small networks
with :func:`write_smnet`.
"""
from __future__ import annotations

import argparse
import json
import struct
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import splendor_mcts as sm

MAGIC = b"SMNET\x00\x00\x01"


def write_smnet(path: Path, header: dict, layers: Sequence[tuple[str, np.ndarray, np.ndarray]]) -> None:
    """A ``.smnet`` file: ``header`` (its ``layers`` filled in from ``layers``), then for each
    (name, weight [out, in], bias [out]) the weight row-major and the bias, float32."""
    header = {**header, "layers": [{"name": n, "in": int(w.shape[1]), "out": int(w.shape[0])} for n, w, _ in layers]}
    text = json.dumps(header).encode()
    parts = [MAGIC, struct.pack("<I", len(text)), text]
    for _, w, b in layers:
        parts += [np.ascontiguousarray(w, dtype="<f4").tobytes(), np.ascontiguousarray(b, dtype="<f4").tobytes()]
    Path(path).write_bytes(b"".join(parts))


def random_layers(sizes: Sequence[int], num_actions: int, seed: int) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """trunk.0 .. trunk.k over ``sizes`` (observation size first), then policy and value heads."""
    rng = np.random.default_rng(seed)

    def dense(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray]:
        return rng.normal(0.0, np.sqrt(2.0 / n_in), (n_out, n_in)).astype(np.float32), np.zeros(n_out, np.float32)

    layers = [(f"trunk.{k}", *dense(sizes[k], sizes[k + 1])) for k in range(len(sizes) - 1)]
    return layers + [("policy", *dense(sizes[-1], num_actions)), ("value", *dense(sizes[-1], 4))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="splendor", choices=["splendor", "duel"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hidden", default="256,256", help="trunk widths, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    game = sm.load_game(args.game, players=args.players) if args.game == "splendor" else sm.load_game("duel")
    n, a = game.observation_tensor_size(), game.num_distinct_actions()
    hidden = [int(h) for h in args.hidden.split(",") if h]
    family = "duel" if args.game == "duel" else ("splendor-2p" if args.players == 2 else "splendor-3-4p")
    header = {"family": family, "game": args.game, "players": [args.players], "observation_size": n,
              "num_actions": a, "value_size": 4, "activation": "relu", "training": {"random": True, "seed": args.seed}}
    write_smnet(args.out, header, random_layers([n, *hidden], a, args.seed))
    print(f"{args.out}: {family}, {n} -> {' -> '.join(map(str, hidden))} -> ({a}, 4)")


if __name__ == "__main__":
    main()
