"""``splendor-mcts train``: a family's policy-value network trained from self-play shards
(:mod:`splendor_mcts.learning.train`, docs/training.md)."""
from __future__ import annotations

import argparse
from typing import Any

from .. import exit_codes
from ..search.families import FAMILIES
from ..learning.input_features import feature_sets
from ..learning.train import INSTALL_HINT, TrainSettings, require_torch, train
from ..ranges import ANY_NUMBER, WHOLE
from .options import add, arg, command_parser

EXAMPLES = f"""examples:
  splendor-mcts train --family duel --data runs/duel/gen-001/selfplay-2p --out duel.smnet
  splendor-mcts train --family splendor-2p --data a/ b/shard-00003.npz --out s2.smnet --epochs 20 --seed 3
  splendor-mcts train --family duel --data more/ --out duel-2.smnet --init duel.smnet

exit codes: 0 done, 1 PyTorch missing ({INSTALL_HINT}), 2 bad option or bad data, 130 interrupted
(the same command again resumes from <out>.ckpt).
"""


def register(subparsers: Any) -> None:
    """Add ``train`` to the ``splendor-mcts`` parser."""
    defaults = TrainSettings(family="duel", data=("-",), out="-.smnet")
    parser = command_parser(subparsers, 
        "train", help="train a policy-value network from self-play shards (needs the [train] extra)",
        description="Train a family's policy-value network from self-play shards and write it as .smnet "
                    "(docs/training.md). Same settings and data give the same weights; an interrupted run "
                    "started again with the same settings resumes from <out>.ckpt.",
        epilog=EXAMPLES)
    parser.add_argument("--family", required=True, choices=list(FAMILIES), help="the game family")
    parser.add_argument("--data", required=True, nargs="+", metavar="PATH",
                        help="shard files or directories: a self-play run's by its manifest (each shard checked against "
                             "its entry), another's shard-*.npz files")
    parser.add_argument("--out", required=True, metavar="FILE.smnet", help="the network to write")
    parser.add_argument("--epochs", type=arg(WHOLE), default=defaults.epochs)
    parser.add_argument("--batch-size", type=arg(WHOLE), default=defaults.batch_size)
    parser.add_argument("--learning-rate", type=arg(ANY_NUMBER), default=defaults.learning_rate)
    parser.add_argument("--weight-decay", type=arg(ANY_NUMBER), default=defaults.weight_decay)
    add(parser, "hidden", default=defaults.hidden)
    parser.add_argument("--seed", type=arg(WHOLE), default=defaults.seed)
    parser.add_argument("--validation", type=arg(ANY_NUMBER), default=defaults.validation,
                        help="share of the games held out to measure the losses on (default %(default)s)")
    parser.add_argument("--value-weight", type=arg(ANY_NUMBER), default=defaults.value_weight,
                        help="weight of the value loss beside the policy loss")
    add(parser, "dropout", default=defaults.dropout)
    add(parser, "positions_per_game", default=defaults.positions_per_game)
    add(parser, "search_value_share", default=defaults.search_value_share,
        more="; the validation value loss always scores the result")
    parser.add_argument("--init", metavar="NET.smnet", help="start from this network's weights")
    add(parser, "features", default=defaults.features, choices=["", *feature_sets()],
        sets=": " + ", ".join(feature_sets()))
    parser.add_argument("--threads", type=arg(WHOLE), default=defaults.threads,
                        help="torch threads (default 1; more may change the weights' last bits)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Train the network and write it; the exit code."""
    settings = TrainSettings(
        family=args.family, data=tuple(args.data), out=args.out, epochs=args.epochs, batch_size=args.batch_size,
        learning_rate=args.learning_rate, weight_decay=args.weight_decay, hidden=tuple(args.hidden), seed=args.seed,
        validation=args.validation, value_weight=args.value_weight, dropout=args.dropout,
        positions_per_game=args.positions_per_game, search_value_share=args.search_value_share, init=args.init,
        features=args.features, threads=args.threads)
    require_torch()
    train(settings)
    return exit_codes.OK
