"""Running the search for the people-facing tools (hint, analyze, review, play).

``run_search(state, limits, on_progress=...)`` calls :func:`splendor_mcts.analyze` with the
settings a tool was given and, when asked, reports partial results while it thinks.
The commands read those settings from their options (``commands/options.py``).
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import _core
from ..games.registry import SearchDefaults, entry_of_state
from ..search.analyze import analyze
from ..search.defaults import ANALYSIS_MOVES, HINT_SECONDS, PROBE_FOR_ADVICE
from ..search.settings import BY_NAME, SettingError, make_params


@dataclass(frozen=True)
class SearchLimits:
    """How long and how wide to search. Neither ``iterations`` nor ``time_limit``
    means ``search.defaults.HINT_SECONDS``; both means whichever is reached first.
    ``threads=None`` uses every core. ``settings`` holds the other search settings by
    name (``parallelism``, ``exploration``, ``evaluator``, ...; docs/search.md).
    ``analysis``: analysis mode (docs/search.md, "Best move"), on for what a person
    reads, off for play's engine moves; see :meth:`analysis_moves`. The solver's root
    probe follows it (:meth:`probe`)."""

    iterations: int | None = None
    time_limit: float | None = None
    threads: int | None = None
    seed: int = 0
    top_k: int | None = 5
    settings: Mapping[str, Any] = field(default_factory=dict)
    analysis: bool = True

    def resolved_threads(self) -> int:
        return self.threads if self.threads is not None else max(1, os.cpu_count() or 1)

    def budget(self) -> tuple[int | None, float | None]:
        if self.iterations is None and self.time_limit is None:
            return None, HINT_SECONDS
        return self.iterations, self.time_limit

    def replace(self, **changes: Any) -> SearchLimits:
        """A copy with some fields changed (the settings kept)."""
        return dataclasses.replace(self, **changes)

    def analysis_moves(self) -> Any:
        """Analysis mode's k: 0 when off; else the ``analysis_moves`` setting when given,
        or the moves shown (``top_k``, at most ``_core.MAX_ANALYSIS_MOVES``), or
        ``search.defaults.ANALYSIS_MOVES`` when every move is shown (review)."""
        if not self.analysis:
            return 0
        if self.settings.get("analysis_moves") is not None:
            return self.settings["analysis_moves"]  # checked by the engine with the others
        return min(self.top_k, _core.MAX_ANALYSIS_MOVES) if self.top_k else ANALYSIS_MOVES

    def probe(self) -> Any:
        """The solver's root probe: the ``probe`` setting when given, else
        ``search.defaults.PROBE_FOR_ADVICE`` with analysis mode on, off for play."""
        if self.settings.get("probe") is not None:
            return self.settings["probe"]  # checked by make_params with the others
        return PROBE_FOR_ADVICE if self.analysis else False

    def search_settings(self) -> dict[str, Any]:
        """Every search setting these limits give, by name (``sm.analyze`` keywords)."""
        iterations, time_limit = self.budget()
        return {**self.settings, "iterations": iterations, "time_limit": time_limit,
                "threads": self.resolved_threads(), "seed": self.seed, "analysis_moves": self.analysis_moves(), "probe": self.probe()}


def check_option_limits(limits: SearchLimits, game: Any = None) -> None:
    """:func:`check_limits` for a command line: ``ValueError`` naming the option."""
    try:
        check_limits(limits, game)
    except SettingError as exc:
        raise ValueError(f"{BY_NAME[exc.setting].flag}: {exc}") from None


def check_limits(limits: SearchLimits, game: Any = None) -> None:
    """The engine's check of the settings (before any search): ``SettingError`` names the
    bad one. With ``game`` (a :class:`splendor_mcts.Game` or a state of it), for that game:
    its defaults, and the shipped network of its family where one is asked for or on by
    default (``search.networks``); without, the settings alone."""
    if game is None:
        make_params(SearchDefaults(), **limits.search_settings())
        return
    entry = entry_of_state(game) if not hasattr(game, "entry") else game.entry
    make_params(entry.search_defaults, game=entry.name, players=game.num_players(), **limits.search_settings())


def run_search(
    state: Any,
    limits: SearchLimits,
    on_progress: Callable[[Any], None] | None = None,
    progress_every: float = 0.5,
    turns: bool = False,
) -> Any:
    """Analyze ``state`` for the player to move; ``on_progress(partial_analysis)`` is
    called about every ``progress_every`` seconds while the search runs. ``turns``: the
    analysis also has the whole turns (``analysis.turns``).

    Raises ``ValueError`` for a bad setting or a state without a decision (terminal or
    a chance node), ``KeyboardInterrupt`` when interrupted.
    """
    kwargs: dict[str, Any] = dict(limits.search_settings(), top_k=limits.top_k, turns=turns)
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
