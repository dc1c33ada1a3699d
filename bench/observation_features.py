"""Do input features help a network learn? (issue 16; needs the [train] extra)

    nice python bench/observation_features.py --data SHARDS... [--features needs] [--epochs 8] [--seed 1]

Trains the default network twice from nothing on the same self-play shards, with
``splendor-mcts train``'s code and the settings that learn from 10,000-game generations
(dropout 0, every position): once on the observation tensor alone (docs/observation.md),
once with the engine's input features as well (``--features``; docs/network-format.md,
"Input features"). Prints each epoch's validation losses of both: the same seed holds out
the same games, so the losses compare.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from splendor_mcts.learning.input_features import feature_sets


def run(data: list[str], family: str, epochs: int, seed: int, features: str, folder: Path) -> None:
    from splendor_mcts.learning import train as trainer  # torch: the [train] extra

    name = f"with {features}" if features else "observation alone"
    settings = trainer.TrainSettings(family=family, data=tuple(data), out=str(folder / f"{features or 'raw'}.smnet"),
                                     epochs=epochs, seed=seed, dropout=0.0, positions_per_game=0, features=features)
    trainer.train(settings, say=lambda line: print(f"{name}: {line}", flush=True))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="self-play shards (splendor-mcts selfplay --out)")
    ap.add_argument("--family", default="splendor-2p")
    ap.add_argument("--features", default="needs", choices=sorted(feature_sets()))
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for features in ("", args.features):
            run(args.data, args.family, args.epochs, args.seed, features, Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
