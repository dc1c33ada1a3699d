"""Training a family's policy-value network from self-play shards: ``splendor-mcts train``.

Reproducible: a fixed seed fixes the initial weights, the validation games and every
epoch's batch order; torch runs deterministic algorithms on ``threads`` threads (1 by
default: more threads may change float rounding). Each finished epoch is checkpointed
beside the output (``<out>.ckpt``, its SHA-256 in ``<out>.ckpt.sha256``), so an interrupted run
started again with the same settings resumes where it stopped and ends with the same weights as
an uninterrupted one; a checkpoint that is not the file written is refused, never resumed from.
Losses go to ``<out>.train.jsonl`` (one JSON object per epoch) and one line per epoch
to standard output. The network written is the epoch with the lowest validation loss
(policy + value_weight * value; the earliest on a tie, the last epoch without validation
games): on self-play data the value head soon memorises the games' outcomes, and later
epochs judge unseen games worse. The checkpoint keeps that epoch's weights too.
"""
from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from ..atomic_write import atomic_write
from ..search.families import family
from ..stopping import deferred_interrupts
from ..version import __version__
from ..wording import install_hint
from .dataset import Examples, load_examples, split_by_game
from .input_features import check_features, with_features
from .shards import file_sha256
from .weights import SUFFIX, read_warm_start, write_network

# The trainer's defaults, also the pipeline's (docs/training.md, "Why few positions a game";
# bench/notes/2026-12-02-first-generation.md): on 1,000 Splendor 2p games, all ~70 positions
# of every game each epoch let the value head learn the games' outcomes by heart within one
# epoch; 8 positions a game per epoch, a small trunk and dropout learn a value that holds on
# unseen games.
# With ten times the games (10,000 a generation), dropout 0 and all positions learn more
# (pipeline --dropout 0 --positions-per-game 0; docs/training.md, "Training on many games").
DEFAULT_EPOCHS = 15
DEFAULT_HIDDEN = (64, 64)
DEFAULT_DROPOUT = 0.3
DEFAULT_POSITIONS_PER_GAME = 8
# Half the value target from the search root's mean return: trained so on the same 2,000 self-play
# games, the network scored +48 +/- 15 Elo against the shipped one at equal iterations, against
# +15 with the result alone and +23 with the search's value alone (docs/training.md, "The network";
# bench/notes/2026-12-02-value-target.md).
DEFAULT_SEARCH_VALUE_SHARE = 0.5

INSTALL_HINT = install_hint("train")


def check_dropout(dropout: float) -> None:
    """``ValueError`` unless ``dropout`` (after each trunk layer while training) is in [0, 1)."""
    if not 0 <= float(dropout) < 1:
        raise ValueError(f"dropout must be in [0, 1), got {dropout}")


def check_positions_per_game(positions: int) -> None:
    """``ValueError`` unless ``positions`` (rows of each game an epoch trains on; 0 = all) is >= 0."""
    if int(positions) < 0:
        raise ValueError(f"positions-per-game must be >= 0 (0 = all), got {positions}")


def check_search_value_share(share: float) -> None:
    """``ValueError`` unless ``share`` (of the value target taken from the search) is in [0, 1]."""
    if not 0 <= float(share) <= 1:
        raise ValueError(f"search-value-share must be in [0, 1], got {share}")


@dataclass(frozen=True)
class TrainSettings:
    """Everything a training run depends on (the checkpoint must match all but ``threads``)."""

    family: str
    data: tuple[str, ...]
    out: str
    epochs: int = DEFAULT_EPOCHS
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    seed: int = 0
    validation: float = 0.1
    value_weight: float = 1.0
    dropout: float = DEFAULT_DROPOUT
    positions_per_game: int = DEFAULT_POSITIONS_PER_GAME  # rows of each game an epoch trains on, drawn anew; 0 = all
    # the value head's training target: this share of the search root's mean return (shard
    # format 2's search_value), the rest the game's result; validation always scores the result
    search_value_share: float = DEFAULT_SEARCH_VALUE_SHARE
    init: str | None = None
    features: str = ""  # input features read beside the observation (input_features.py); "" = none
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
        check_positions_per_game(self.positions_per_game)
        check_dropout(self.dropout)
        check_search_value_share(self.search_value_share)
        check_features(self.features, self.family)
        if not 0 <= float(self.validation) < 1:
            raise ValueError(f"validation must be in [0, 1), got {self.validation}")
        if not self.hidden or any(h < 1 for h in self.hidden):
            raise ValueError(f"hidden layer sizes must be positive, got {list(self.hidden)}")

    def checkpoint_path(self) -> Path:
        return checkpoint_of(self.out)

    def log_path(self) -> Path:
        return Path(self.out[: -len(SUFFIX)] + ".train.jsonl")

    def recorded(self) -> dict[str, Any]:
        """The settings as JSON values (in the checkpoint and the network's metadata)."""
        values = asdict(self)
        values.pop("threads")
        values["data"], values["hidden"] = list(self.data), list(self.hidden)
        if not self.features:
            del values["features"]  # the checkpoints of runs without them, as they were
        return values


def checkpoint_of(out: str | Path) -> Path:
    """Where training to the network file ``out`` keeps its checkpoint."""
    return Path(str(out) + ".ckpt")


def _digest_of(checkpoint: Path) -> Path:
    return checkpoint.with_name(checkpoint.name + ".sha256")


def checkpoint_problem(checkpoint: Path) -> str | None:
    """What is wrong with ``checkpoint``: not the file whose SHA-256 was kept beside it when it was
    written. None when it is, when there is none, and for one from before the digests (the
    reading and the settings check judge that)."""
    digest = _digest_of(checkpoint)
    if not checkpoint.is_file() or not digest.is_file():
        return None
    recorded, actual = digest.read_text(encoding="utf-8").strip(), file_sha256(checkpoint)
    return None if actual == recorded else f"is not the checkpoint written: its SHA-256 is {actual}, recorded {recorded}"


def remove_checkpoint(checkpoint: Path) -> None:
    """Remove a checkpoint and its digest."""
    checkpoint.unlink(missing_ok=True)
    _digest_of(checkpoint).unlink(missing_ok=True)


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
    if settings.search_value_share and examples.search_value is None:
        old = [str(s["file"]) for s in summaries if s["meta"].get("format") == 1]  # type: ignore[union-attr]
        raise ValueError(f"--search-value-share {settings.search_value_share:g} needs the search's root values, "
                         f"which shards of format 1 lack: {', '.join(old)} (--search-value-share 0 trains on the "
                         "games' results alone)")
    training_rows, validation_rows = split_by_game(examples, settings.validation, settings.seed)
    if settings.init:
        net = nets.from_network(_init_network(settings), settings.dropout)
    else:
        net = nets.new_model(settings.family, settings.hidden, settings.dropout, settings.features)
    optimizer = torch.optim.AdamW(net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay)
    history: list[dict[str, Any]] = []
    best: dict[str, Any] = {}
    start = _resume(settings, net, optimizer, history, best, torch)
    if start:
        say(f"resuming from {settings.checkpoint_path()} after epoch {start}")
    train_t = _tensors(training_rows, torch, settings.search_value_share, settings)
    valid_t = _tensors(validation_rows, torch, 0.0, settings)
    rows_per_epoch = len(_epoch_rows(training_rows.game_id, settings, 0, torch))
    steps_per_epoch = -(-rows_per_epoch // settings.batch_size)
    for epoch in range(start, settings.epochs):
        began = time.perf_counter()
        order = _epoch_rows(training_rows.game_id, settings, epoch, torch)
        torch.manual_seed(settings.seed * 1_000_003 + epoch)  # the dropout masks: the same after a resume
        net.train()
        sums = np.zeros(2)
        for first in range(0, rows_per_epoch, settings.batch_size):
            batch = {key: value[order[first:first + settings.batch_size]] for key, value in train_t.items()}
            policy_loss, value_loss = _losses(net, batch, nets)
            optimizer.zero_grad()
            (policy_loss + settings.value_weight * value_loss).backward()
            optimizer.step()
            sums += np.array([policy_loss.item(), value_loss.item()]) * len(batch["players"])
        record = {"epoch": epoch + 1, "steps": (epoch + 1) * steps_per_epoch,
                  "train_policy": float(sums[0] / rows_per_epoch), "train_value": float(sums[1] / rows_per_epoch)}
        if len(validation_rows):
            record["validation_policy"], record["validation_value"] = _evaluate(net, valid_t, settings.batch_size, torch, nets)
        record["seconds"] = round(time.perf_counter() - began, 3)
        history.append(record)
        loss = _selection_loss(record, settings.value_weight)
        if not best or loss < best["loss"]:
            best.update(epoch=epoch + 1, loss=loss, model=copy.deepcopy(net.state_dict()))
        _log(settings, record)
        _save_checkpoint(settings, net, optimizer, history, best, epoch + 1, torch)
        say(_epoch_line(record, settings.epochs))
    net.load_state_dict(best["model"])
    chosen = {**history[best["epoch"] - 1], "loss": best["loss"],
              "by": "validation" if len(validation_rows) else "last epoch (no validation games)"}
    training = {"settings": settings.recorded(), "version": __version__, "torch": torch.__version__,
                "rows": {"train": len(training_rows), "validation": len(validation_rows)},
                "data": [{"file": s["file"], "rows": s["rows"],
                          **{k: s["meta"].get(k) for k in ("search", "seed", "version")}}  # type: ignore[union-attr]
                         for s in summaries],
                "steps": settings.epochs * steps_per_epoch, "losses": history, "best": chosen}
    out = write_network(settings.out, nets.to_network(net, settings.family, training, settings.features))
    remove_checkpoint(settings.checkpoint_path())
    say(f"wrote {out}: epoch {best['epoch']}'s weights ({len(training_rows)} training rows, "
        f"{len(validation_rows)} validation rows)")
    return out


def _epoch_rows(game_id: np.ndarray, settings: TrainSettings, epoch: int, torch: ModuleType) -> Any:
    """The training rows of an epoch in batch order, fixed by the seed and the epoch: all of
    them, or ``positions_per_game`` random rows of each game (a game's positions share one
    outcome: seeing them all every epoch teaches the value head that game's result)."""
    seed = settings.seed * 1_000_003 + epoch
    if not settings.positions_per_game:
        return torch.randperm(len(game_id), generator=torch.Generator().manual_seed(seed))
    rng = np.random.default_rng(seed % 2**63)
    grouped = np.lexsort((rng.random(len(game_id)), game_id))  # by game, shuffled within each
    games = game_id[grouped]
    starts = np.flatnonzero(np.r_[True, games[1:] != games[:-1]])
    rank = np.arange(len(grouped)) - np.repeat(starts, np.diff(np.r_[starts, len(grouped)]))
    chosen = grouped[rank < settings.positions_per_game]
    return torch.from_numpy(chosen[rng.permutation(len(chosen))])


def _init_network(settings: TrainSettings):  # type: ignore[no-untyped-def]
    return read_warm_start(settings.init, settings.family, settings.hidden, f"--init {settings.init}",  # type: ignore[arg-type]
                           settings.features)


def value_target(rows: Examples, search_value_share: float) -> np.ndarray:
    """The value head's target: ``search_value_share`` of the root's mean return, the rest the
    game's result (both win shares rotated to the mover, so the mix is win shares too)."""
    if not search_value_share:
        return rows.value
    assert rows.search_value is not None  # train() refuses such data first
    return ((1 - search_value_share) * rows.value + search_value_share * rows.search_value).astype(np.float32)


def _tensors(rows: Examples, torch: ModuleType, search_value_share: float, settings: TrainSettings) -> dict[str, Any]:
    observation = with_features(settings.features, settings.family, rows.observation, rows.players)
    return {"observation": torch.from_numpy(observation), "legal": torch.from_numpy(rows.legal),
            "policy": torch.from_numpy(rows.policy),
            "value": torch.from_numpy(value_target(rows, search_value_share)),
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


def _selection_loss(record: dict[str, Any], value_weight: float) -> float:
    """The loss that picks the epoch to keep: validation policy + value_weight * value, or
    minus the epoch number without validation rows (the last epoch wins)."""
    if "validation_policy" not in record:
        return -float(record["epoch"])
    return float(record["validation_policy"] + value_weight * record["validation_value"])


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
                     best: dict[str, Any], epochs_done: int, torch: ModuleType) -> None:
    path = settings.checkpoint_path()
    with deferred_interrupts():  # the checkpoint and its digest together
        with atomic_write(path) as out:  # a crash mid-write leaves the previous checkpoint whole
            torch.save({"settings": settings.recorded(), "epochs_done": epochs_done, "model": net.state_dict(),
                        "optimizer": optimizer.state_dict(), "history": history, "best": best}, out)
        with atomic_write(_digest_of(path)) as out:
            out.write(file_sha256(path).encode())


def _resume(settings: TrainSettings, net: Any, optimizer: Any, history: list[dict[str, Any]],
            best: dict[str, Any], torch: ModuleType) -> int:
    """Epochs already done by a checkpoint of these settings (0 without one), with its
    history and best epoch filled in; a fresh run starts a fresh log."""
    path = settings.checkpoint_path()
    if not path.exists():
        settings.log_path().unlink(missing_ok=True)
        return 0
    if (problem := checkpoint_problem(path)) is not None:
        raise ValueError(f"{path}: {problem}; delete it to start over")
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
    best.update(saved["best"])
    _rewrite_log(settings, history)
    return int(saved["epochs_done"])


def _rewrite_log(settings: TrainSettings, history: list[dict[str, Any]]) -> None:
    # An epoch logged after the last checkpoint is run again: the log keeps one line per epoch.
    with open(settings.log_path(), "w", encoding="utf-8") as log:
        log.writelines(json.dumps(record) + "\n" for record in history)


def hidden_sizes(text: str) -> tuple[int, ...]:
    """``--hidden``'s value: the trunk's layer sizes, e.g. ``64,64`` (``ValueError`` saying
    what is wrong)."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"hidden sizes are comma-separated integers, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise ValueError(f"hidden sizes must be positive, got {text!r}")
    return sizes
