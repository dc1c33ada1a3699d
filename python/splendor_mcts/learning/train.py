"""Training a family's policy-value network from self-play shards: ``splendor-mcts train``.

Reproducible: a fixed seed fixes the initial weights, the validation games and every
epoch's batch order; torch runs deterministic algorithms on ``threads`` threads (1 by
default: more threads may change float rounding). Each finished epoch is checkpointed
beside the output (``<out>.ckpt``), so an interrupted run started again with the same
settings resumes where it stopped and ends with the same weights as an uninterrupted one.
Losses go to ``<out>.train.jsonl`` (one JSON object per epoch) and one line per epoch
to standard output.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .. import exit_codes
from ..version import __version__
from .dataset import Examples, load_examples, split_by_game
from .families import FAMILIES, family
from .weights import SUFFIX, read_network, write_network

INSTALL_HINT = "pip install 'splendor-mcts[train]'"
EXAMPLES = f"""examples:
  splendor-mcts train --family duel --data runs/duel/gen-001/selfplay-2p --out duel.smnet
  splendor-mcts train --family splendor-2p --data a/ b/shard-00003.npz --out s2.smnet --epochs 20 --seed 3
  splendor-mcts train --family duel --data more/ --out duel-2.smnet --init duel.smnet

exit codes: 0 done, 1 PyTorch missing ({INSTALL_HINT}), 2 bad option or bad data, 130 interrupted
(the same command again resumes from <out>.ckpt).
"""


@dataclass(frozen=True)
class TrainSettings:
    """Everything a training run depends on (the checkpoint must match all but ``threads``)."""

    family: str
    data: tuple[str, ...]
    out: str
    epochs: int = 10
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    hidden: tuple[int, ...] = (256, 256)
    seed: int = 0
    validation: float = 0.1
    value_weight: float = 1.0
    init: str | None = None
    threads: int = field(default=1, compare=False)

    def __post_init__(self) -> None:
        family(self.family)
        if not self.data:
            raise ValueError("no shard files or directories given (--data)")
        if not self.out.endswith(SUFFIX):
            raise ValueError(f"the output network must be a {SUFFIX} file, got {self.out!r}")
        for name in ("epochs", "batch_size", "threads"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        for name in ("learning_rate", "value_weight"):
            if not float(getattr(self, name)) > 0:
                raise ValueError(f"{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if not float(self.weight_decay) >= 0:
            raise ValueError(f"weight-decay must be >= 0, got {self.weight_decay}")
        if not 0 <= float(self.validation) < 1:
            raise ValueError(f"validation must be in [0, 1), got {self.validation}")
        if not self.hidden or any(h < 1 for h in self.hidden):
            raise ValueError(f"hidden layer sizes must be positive, got {list(self.hidden)}")

    def checkpoint_path(self) -> Path:
        return Path(self.out + ".ckpt")

    def log_path(self) -> Path:
        return Path(self.out[: -len(SUFFIX)] + ".train.jsonl")

    def recorded(self) -> dict[str, Any]:
        """The settings as JSON values (in the checkpoint and the network's metadata)."""
        values = asdict(self)
        values.pop("threads")
        values["data"], values["hidden"] = list(self.data), list(self.hidden)
        return values


def require_torch() -> ModuleType:
    """torch, or ``RuntimeError`` saying how to install the ``[train]`` extra."""
    try:
        import torch
    except ImportError:
        raise RuntimeError(f"training needs PyTorch: {INSTALL_HINT}") from None
    return torch


def train(settings: TrainSettings, say: Callable[[str], None] = print) -> Path:
    """Train as ``settings`` say, write the ``.smnet`` network and return its path."""
    torch = require_torch()
    from . import model as nets

    torch.manual_seed(settings.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(settings.threads)
    examples, summaries = load_examples(settings.data, settings.family)
    training_rows, validation_rows = split_by_game(examples, settings.validation, settings.seed)
    if settings.init:
        net = nets.from_network(_init_network(settings))
    else:
        net = nets.new_model(settings.family, settings.hidden)
    optimizer = torch.optim.AdamW(net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay)
    history: list[dict[str, Any]] = []
    start = _resume(settings, net, optimizer, history, torch)
    if start:
        say(f"resuming from {settings.checkpoint_path()} after epoch {start}")
    train_t, valid_t = _tensors(training_rows, torch), _tensors(validation_rows, torch)
    steps_per_epoch = -(-len(training_rows) // settings.batch_size)
    for epoch in range(start, settings.epochs):
        began = time.perf_counter()
        order = torch.randperm(len(training_rows), generator=torch.Generator().manual_seed(settings.seed * 1_000_003 + epoch))
        net.train()
        sums = np.zeros(2)
        for first in range(0, len(training_rows), settings.batch_size):
            batch = {key: value[order[first:first + settings.batch_size]] for key, value in train_t.items()}
            policy_loss, value_loss = _losses(net, batch, nets)
            optimizer.zero_grad()
            (policy_loss + settings.value_weight * value_loss).backward()
            optimizer.step()
            sums += np.array([policy_loss.item(), value_loss.item()]) * len(batch["players"])
        record = {"epoch": epoch + 1, "steps": (epoch + 1) * steps_per_epoch,
                  "train_policy": float(sums[0] / len(training_rows)), "train_value": float(sums[1] / len(training_rows))}
        if len(validation_rows):
            record["validation_policy"], record["validation_value"] = _evaluate(net, valid_t, settings.batch_size, torch, nets)
        record["seconds"] = round(time.perf_counter() - began, 3)
        history.append(record)
        _log(settings, record)
        _save_checkpoint(settings, net, optimizer, history, epoch + 1, torch)
        say(_epoch_line(record, settings.epochs))
    training = {"settings": settings.recorded(), "version": __version__, "torch": torch.__version__,
                "rows": {"train": len(training_rows), "validation": len(validation_rows)},
                "data": [{"file": s["file"], "rows": s["rows"],
                          **{k: s["meta"].get(k) for k in ("search", "seed", "version")}}  # type: ignore[union-attr]
                         for s in summaries],
                "steps": settings.epochs * steps_per_epoch, "losses": history}
    out = write_network(settings.out, nets.to_network(net, settings.family, training))
    settings.checkpoint_path().unlink(missing_ok=True)
    say(f"wrote {out} ({len(training_rows)} training rows, {len(validation_rows)} validation rows)")
    return out


def _init_network(settings: TrainSettings):  # type: ignore[no-untyped-def]
    network = read_network(settings.init)  # type: ignore[arg-type]
    if network.family != settings.family:
        raise ValueError(f"{settings.init}: network is for {network.family}, not {settings.family}")
    hidden = tuple(layer.weight.shape[0] for layer in network.trunk)
    if hidden != settings.hidden:
        raise ValueError(f"{settings.init}: hidden sizes {list(hidden)} differ from --hidden {list(settings.hidden)}")
    return network


def _tensors(rows: Examples, torch: ModuleType) -> dict[str, Any]:
    return {"observation": torch.from_numpy(rows.observation), "legal": torch.from_numpy(rows.legal),
            "policy": torch.from_numpy(rows.policy), "value": torch.from_numpy(rows.value),
            "players": torch.from_numpy(rows.players.astype(np.int64))}


def _losses(net: Any, batch: dict[str, Any], nets: ModuleType) -> tuple[Any, Any]:
    policy_logits, value_logits = net(batch["observation"])
    return (nets.masked_cross_entropy(policy_logits, batch["legal"], batch["policy"]),
            nets.masked_cross_entropy(value_logits, nets.value_mask(batch["players"]), batch["value"]))


def _evaluate(net: Any, rows: dict[str, Any], batch_size: int, torch: ModuleType, nets: ModuleType) -> tuple[float, float]:
    net.eval()
    n = len(rows["players"])
    sums = np.zeros(2)
    with torch.no_grad():
        for first in range(0, n, batch_size):
            batch = {key: value[first:first + batch_size] for key, value in rows.items()}
            policy_loss, value_loss = _losses(net, batch, nets)
            sums += np.array([policy_loss.item(), value_loss.item()]) * len(batch["players"])
    return float(sums[0] / n), float(sums[1] / n)


def _epoch_line(record: dict[str, Any], epochs: int) -> str:
    line = (f"epoch {record['epoch']}/{epochs}: train policy {record['train_policy']:.4f} "
            f"value {record['train_value']:.4f}")
    if "validation_policy" in record:
        line += f", validation policy {record['validation_policy']:.4f} value {record['validation_value']:.4f}"
    return line + f" ({record['seconds']:.1f} s)"


def _log(settings: TrainSettings, record: dict[str, Any]) -> None:
    with open(settings.log_path(), "a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")


def _save_checkpoint(settings: TrainSettings, net: Any, optimizer: Any, history: list[dict[str, Any]],
                     epochs_done: int, torch: ModuleType) -> None:
    path = settings.checkpoint_path()
    partial = path.with_name(path.name + ".partial")
    torch.save({"settings": settings.recorded(), "epochs_done": epochs_done, "model": net.state_dict(),
                "optimizer": optimizer.state_dict(), "history": history}, partial)
    os.replace(partial, path)  # a crash mid-write leaves the previous checkpoint whole


def _resume(settings: TrainSettings, net: Any, optimizer: Any, history: list[dict[str, Any]],
            torch: ModuleType) -> int:
    """Epochs already done by a checkpoint of these settings (0 without one); a fresh run
    starts a fresh log."""
    path = settings.checkpoint_path()
    if not path.exists():
        settings.log_path().unlink(missing_ok=True)
        return 0
    try:
        saved = torch.load(path, weights_only=True)
    except Exception as exc:  # torch raises several kinds for a damaged file
        raise ValueError(f"{path}: cannot read the checkpoint ({exc}); delete it to start over") from None
    if saved.get("settings") != settings.recorded():
        differ = sorted(k for k, v in settings.recorded().items() if saved.get("settings", {}).get(k) != v)
        raise ValueError(f"{path}: checkpoint of a run with other settings ({', '.join(differ)}); "
                         "delete it to start over, or give the same settings to resume")
    net.load_state_dict(saved["model"])
    optimizer.load_state_dict(saved["optimizer"])
    history += saved["history"]
    _rewrite_log(settings, history)
    return int(saved["epochs_done"])


def _rewrite_log(settings: TrainSettings, history: list[dict[str, Any]]) -> None:
    # An epoch logged after the last checkpoint is run again: the log keeps one line per epoch.
    with open(settings.log_path(), "w", encoding="utf-8") as log:
        log.writelines(json.dumps(record) + "\n" for record in history)


def _hidden(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"hidden sizes are comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"hidden sizes must be positive, got {text!r}")
    return sizes


def register(subparsers: Any) -> None:
    defaults = TrainSettings(family="duel", data=("-",), out="-.smnet")
    parser = subparsers.add_parser(
        "train", help="train a policy-value network from self-play shards (needs the [train] extra)",
        description="Train a family's policy-value network from self-play shards and write it as .smnet "
                    "(docs/training.md). Same settings and data give the same weights; an interrupted run "
                    "started again with the same settings resumes from <out>.ckpt.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", required=True, choices=list(FAMILIES), help="the game family")
    parser.add_argument("--data", required=True, nargs="+", metavar="PATH",
                        help="shard files or directories of shard-*.npz files")
    parser.add_argument("--out", required=True, metavar="FILE.smnet", help="the network to write")
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--weight-decay", type=float, default=defaults.weight_decay)
    parser.add_argument("--hidden", type=_hidden, default=defaults.hidden, metavar="H1,H2",
                        help="trunk layer sizes (default %(default)s)")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--validation", type=float, default=defaults.validation,
                        help="share of the games held out to measure the losses on (default %(default)s)")
    parser.add_argument("--value-weight", type=float, default=defaults.value_weight,
                        help="weight of the value loss beside the policy loss")
    parser.add_argument("--init", metavar="NET.smnet", help="start from this network's weights")
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help="torch threads (default 1; more may change the weights' last bits)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = TrainSettings(
        family=args.family, data=tuple(args.data), out=args.out, epochs=args.epochs, batch_size=args.batch_size,
        learning_rate=args.learning_rate, weight_decay=args.weight_decay, hidden=tuple(args.hidden), seed=args.seed,
        validation=args.validation, value_weight=args.value_weight, init=args.init, threads=args.threads)
    require_torch()
    train(settings)
    return exit_codes.OK
