"""Would Splendor's network learn more from derived features? (issue 16; needs the [train] extra)

    nice python bench/observation_features.py --data SHARDS... [--epochs 8] [--seed 1]

Trains the default network twice from nothing on the same Splendor 2p self-play shards,
with ``splendor-mcts train``'s code and the settings that learn from 10,000-game generations
(dropout 0, every position): once on the observation tensor as it is (docs/observation.md),
once on it followed by what each player still lacks, derived from it:

- for each face-up card and each of the observer's and the opponent's reserves, and for
  each of the two players: the gems of each colour still needed after bonuses, their sum,
  the shortfall after tokens, the shortfall after gold as well, and whether that is 0 (the
  player can buy the card now);
- for each noble on the table and each player: the bonuses still needed.

A 64-64 MLP of raw counts has to learn "cost minus bonus minus tokens, at least 0" for every
card and colour itself. Prints each epoch's validation losses of both. An experiment only:
the derived tensor is not the engine's layout, so no network is written for it.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

import splendor_mcts as sm
from splendor_mcts.learning.observation_layout import decode

PLAYERS = 2
COLOURS = ("white", "blue", "green", "red", "black")


def derived(observation: np.ndarray) -> np.ndarray:
    """The features above for a batch of 2-player Splendor tensors: [rows, 2 x 172], per
    player (the observer, then the opponent) for 18 cards (12 face-up, then the reserves) the
    needs per colour (90), their sums (18), the shortfalls after tokens (18) and after gold
    (18), whether it can buy each (18), then the needs for the 10 nobles (10)."""
    d = decode("splendor", observation)
    cards = {k: np.concatenate([d[f"table.{k}"], d[f"reserved.{k}"][:, :3 * PLAYERS]], axis=1)
             for k in ("present", "cost")}
    nobles = sorted(sm.load_game("splendor", players=PLAYERS).nobles(), key=lambda n: n["id"])
    noble_cost = np.array([[n["requirement"][c] for c in COLOURS] for n in nobles], dtype=np.float32)
    on_table = d["nobles"][:, 0]
    out = []
    for p in range(PLAYERS):
        tokens, bonuses = d["players.tokens"][:, p], d["players.bonuses"][:, p]
        need = np.maximum(0.0, cards["cost"] - bonuses[:, None]) * cards["present"]
        short = np.maximum(0.0, need - tokens[:, None, :5]).sum(-1)
        after_gold = np.maximum(0.0, short - tokens[:, None, 5])
        out += [need.reshape(len(observation), -1), need.sum(-1), short, after_gold,
                (after_gold == 0) * cards["present"][:, :, 0],
                np.maximum(0.0, noble_cost[None] - bonuses[:, None]).sum(-1) * on_table]
    return np.concatenate(out, axis=1).astype(np.float32)


def run(data: list[str], epochs: int, seed: int, with_features: bool, folder: Path) -> None:
    from splendor_mcts.learning import model as nets  # torch: the [train] extra
    from splendor_mcts.learning import train as trainer
    from splendor_mcts.learning.families import family, game_sizes

    load = trainer.load_examples
    width = 0

    def load_with_features(sources, family_name):  # type: ignore[no-untyped-def]
        nonlocal width
        examples, summaries = load(sources, family_name)
        if with_features:
            examples = replace(examples, observation=np.concatenate(
                [examples.observation, derived(examples.observation)], axis=1))
        width = examples.observation.shape[1]
        return examples, summaries

    # The trainer takes its data and model from these two names; the experiment widens both.
    trainer.load_examples = load_with_features
    new_model = nets.new_model
    actions = game_sizes(family("splendor-2p").game)[1]
    nets.new_model = lambda family_name, hidden, dropout=0.0: nets.PolicyValueNet(width, actions, hidden, dropout)
    name = "with features" if with_features else "raw"
    settings = trainer.TrainSettings(family="splendor-2p", data=tuple(data), out=str(folder / f"{name[:3]}.smnet"),
                                     epochs=epochs, seed=seed, dropout=0.0, positions_per_game=0)
    try:
        trainer.train(settings, say=lambda line: print(f"{name}: {line}", flush=True))
    except ValueError as exc:  # the widened network is not a Splendor .smnet: nothing is written
        if not with_features:
            raise
        print(f"{name}: not written ({exc})")
    finally:
        trainer.load_examples, nets.new_model = load, new_model


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="Splendor 2p self-play shards (splendor-mcts selfplay --out)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for with_features in (False, True):
            run(args.data, args.epochs, args.seed, with_features, Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
