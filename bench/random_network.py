"""Writes a policy-value network with random weights in the ``.smnet`` format
(docs/network-format.md), to measure the search's speed with a network of a given size
(the weights' values do not change the cost of a forward pass).

    python bench/random_network.py --game splendor --players 2 --hidden 256,256 --out net.smnet

The weights are He-initialised from ``--seed``; the tests also write their small networks
with :func:`random_network`.
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import splendor_mcts as sm
from splendor_mcts.search.families import family_of
from splendor_mcts.learning.input_features import feature_width
from splendor_mcts.learning.weights import VALUE_SIZE, Layer, Network, write_network


def random_layers(sizes: Sequence[int], num_actions: int, seed: int) -> list[Layer]:
    """trunk.0 .. trunk.k over ``sizes`` (observation size first), then policy and value heads."""
    rng = np.random.default_rng(seed)

    def dense(name: str, n_in: int, n_out: int) -> Layer:
        weight = rng.normal(0.0, np.sqrt(2.0 / n_in), (n_out, n_in)).astype(np.float32)
        return Layer(name, weight, np.zeros(n_out, np.float32))

    layers = [dense(f"trunk.{k}", sizes[k], sizes[k + 1]) for k in range(len(sizes) - 1)]
    return layers + [dense("policy", sizes[-1], num_actions), dense("value", sizes[-1], VALUE_SIZE)]


def random_network(game: sm.Game, hidden: Sequence[int], seed: int, features: str | None = None) -> Network:
    """A network of ``game``'s family with He-initialised random weights, reading the input
    features ``features`` beside the observation (none by default)."""
    family_name = family_of(game.name, game.num_players()).name
    sizes = [game.observation_tensor_size() + feature_width(features, family_name), *hidden]
    return Network(family_name, random_layers(sizes, game.num_distinct_actions(), seed),
                   {"random": True, "seed": seed}, features)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="splendor", choices=["splendor", "duel"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hidden", default="256,256", help="trunk widths, comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--features", help="input features read beside the observation (e.g. needs)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    game = sm.load_game(args.game, players=args.players) if args.game == "splendor" else sm.load_game("duel")
    hidden = [int(h) for h in args.hidden.split(",") if h]
    network = random_network(game, hidden, args.seed, args.features)
    write_network(args.out, network)
    print(f"{args.out}: {network.family}, {network.input_size} -> {' -> '.join(map(str, hidden))} "
          f"-> ({network.num_actions}, {VALUE_SIZE})")


if __name__ == "__main__":
    main()
