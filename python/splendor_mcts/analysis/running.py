"""Running the search for the people-facing tools (hint, analyze, review, play).

``run_search(state, limits, on_progress=...)`` calls :func:`splendor_mcts.analyze` with the
limits a tool was given and, when asked, reports partial results while it thinks;
``add_limit_arguments`` and ``limits_from_args`` are those limits on a command line.
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import _core
from ..search.analyze import analyze
from ..search.defaults import HINT_SECONDS, PARALLELISM_MODES


@dataclass(frozen=True)
class SearchLimits:
    """How long and how wide to search. Neither ``iterations`` nor ``time_limit``
    means ``search.defaults.HINT_SECONDS``; both means whichever is reached first.
    ``threads=None`` uses every core; ``parallelism`` is how they share the work
    (``"root"``, the measured best, or ``"tree"``; docs/search.md)."""

    iterations: int | None = None
    time_limit: float | None = None
    threads: int | None = None
    seed: int = 0
    top_k: int | None = 5
    parallelism: str = "root"

    def resolved_threads(self) -> int:
        return self.threads if self.threads is not None else max(1, os.cpu_count() or 1)

    def budget(self) -> tuple[int | None, float | None]:
        if self.iterations is None and self.time_limit is None:
            return None, HINT_SECONDS
        return self.iterations, self.time_limit


def add_limit_arguments(p: argparse.ArgumentParser, default_time: float | None = HINT_SECONDS) -> None:
    """The search limits shared by hint, review and play."""
    shown = f"{default_time:g}" if default_time else "none"
    p.add_argument("--time", type=float, metavar="SECONDS",
                   help=f"thinking time per position (default: {shown} s unless --iterations is given)")
    p.add_argument("--iterations", type=int, metavar="N", help="search iterations (stops at whichever limit comes first)")
    p.add_argument("--threads", type=int, metavar="N", help="search threads (default: all cores)")
    p.add_argument("--parallelism", choices=PARALLELISM_MODES, default="root",
                   help="how the threads share the search: one tree each, merged (root, default: the "
                   "strongest measured) or one shared tree (tree)")
    p.add_argument("--seed", type=int, default=0, help="search seed (default 0); one thread + --iterations is reproducible")


def limits_from_args(args: argparse.Namespace, top_k: int | None = None) -> SearchLimits:
    for name in ("time", "iterations", "threads"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise ValueError(f"--{name} must be positive, got {value}")
    return SearchLimits(iterations=args.iterations, time_limit=args.time, threads=args.threads, seed=args.seed,
                        top_k=top_k, parallelism=args.parallelism)


def run_search(
    state: Any,
    limits: SearchLimits,
    on_progress: Callable[[Any], None] | None = None,
    progress_every: float = 0.5,
) -> Any:
    """Analyze ``state`` for the player to move; ``on_progress(partial_analysis)`` is
    called about every ``progress_every`` seconds while the search runs.

    Raises ``ValueError`` for a bad limit or a state without a decision (terminal or
    a chance node), ``KeyboardInterrupt`` when interrupted.
    """
    iterations, time_limit = limits.budget()
    kwargs: dict[str, Any] = dict(
        iterations=iterations,
        time_limit=time_limit,
        threads=limits.resolved_threads(),
        seed=limits.seed,
        top_k=limits.top_k,
        parallelism=limits.parallelism,
    )
    if on_progress is not None:
        kwargs.update(progress=on_progress, progress_interval=progress_every)
    return analyze(state, **kwargs)


def decision_problem(state: Any) -> str | None:
    """Why ``state`` has no move to analyze (game over, a reveal pending), or None."""
    if state.is_terminal():
        return "the game is over: there is no move to analyze"
    if state.current_player() == _core.CHANCE:
        return ("the position waits for a chance outcome (a card to be revealed, a token drawn from the bag): "
                "there is no move to analyze")
    return None
