"""Monte Carlo tree search from Python: ``analyze`` and its result types.

The search itself is C++ (information-set MCTS, ``cpp/search/``); ``analyze`` builds its
parameters (:mod:`.settings`), runs it with the GIL released (Ctrl-C stops it:
``KeyboardInterrupt``) and returns the engine's result as it is: ``Analysis``,
``MoveInfo`` and ``RootInfo`` are read-only classes of the engine whose move texts are
made only when read.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import _core
from ..games.registry import entry_of_state
from ..ranges import Whole
from .defaults import ANALYZE_ITERATIONS, PROBE_FOR_ADVICE
from .networks import NO_NETWORK
from .settings import make_params

# Moves shown: any number of them (more than a position has shows them all), within the engine's int.
TOP_K = Whole(1, 2**31 - 1)
BATCH_SIZE = Whole(1, _core.MAX_BATCH_SIZE)

Analysis = _core.Analysis
MoveInfo = _core.MoveInfo
RootInfo = _core.RootInfo
TurnInfo = _core.TurnInfo

#: ``evaluate_with(observations, legal, players) -> values | (values, policy_logits)``.
BatchEvaluator = Callable[[NDArray[np.float32], NDArray[np.bool_], int], Any]


def analyze(
    state: Any,
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int | None = None,
    parallelism: str | None = None,
    seed: int | None = None,
    top_k: int | None = 5,
    exploration: float | None = None,
    evaluator: str | None = None,
    rollout_cutoff: int | None = None,
    perfect_information: bool | None = None,
    memory_limit: int | None = None,
    progress: Callable[[Analysis], Any] | None = None,
    progress_interval: float = 0.5,
    rollout: str | None = None,
    turns: bool = False,
    solver: bool | None = None,
    probe: bool | None = None,
    analysis_moves: int | None = None,
    network: str | None = None,
    value_mix: float | None = None,
    puct: float | None = None,
    policy_cache: bool | None = None,
    evaluate_with: BatchEvaluator | None = None,
    batch_size: int | None = None,
) -> Analysis:
    """Search ``state`` from the view of the player to move and report the root moves.

    The search settings are those of docs/search.md ("Settings"); left as None they take
    their defaults. Budget: ``iterations`` (total over threads), ``time_limit`` seconds, or
    both (the first reached stops); neither given means ``search.defaults.ANALYZE_ITERATIONS``.
    With an iteration budget the result is deterministic for a ``seed`` and a number of
    ``threads`` (root parallelism: one tree per thread, each with its share of the budget);
    a time limit is not. ``parallelism="tree"`` has the threads share one tree (not
    deterministic with 2+ threads). ``exploration``, ``evaluator`` (``rollout`` is its
    former name) and ``rollout_cutoff`` default to the game's measured values (its
    registry entry's ``search_defaults``). The search samples the cards the player cannot
    see; ``perfect_information=True`` searches the true ones (experiments only).
    ``memory_limit`` caps the tree's bytes. ``solver=False`` searches without proving
    results (docs/search.md, "Proven results"). ``probe`` (default on here, off for a bot:
    ``search.defaults.PROBE_FOR_ADVICE``) runs the solver's root probe, a proof of a win
    within two turns before the iterations; it needs the solver. ``top_k=None`` reports
    every root move; the moves come in the best-move rule's order (docs/search.md, "Best move"), the first being
    ``best_action``. ``analysis_moves=k`` (1-10) turns analysis mode on: each of the first k
    moves keeps at least 5% of the iterations and moves with that share rank by their
    lower bound; the default (0) is the search a bot plays with.
    ``network`` names a policy-value network's ``.smnet`` file (docs/network-format.md):
    its value head values the leaves (mixed with the evaluator's by ``value_mix``, 1: the
    network only) and its policy gives PUCT priors (constant ``puct``), shown as
    ``MoveInfo.prior`` (docs/search.md, "Networks"); ``network="shipped"`` is the package's
    network of the state's game family and ``network="none"`` no network. Without
    ``network`` the search uses the shipped network where the family's entry in the networks
    index (``search.network_index``) turns it on (docs/search.md, "Shipped networks"; not with ``evaluate_with``).
    ``policy_cache=False`` runs the network's policy at every expansion of a node instead of
    reusing the one its first expansion computed (docs/search.md, "Networks").
    ``evaluate_with`` values the leaves with a Python callable instead (docs/search.md,
    "Python evaluators"): ``evaluate_with(observations, legal, players)`` gets float32
    observations ``[b, ObservationSize]`` of the seat to move at each leaf, bool legal masks
    ``[b, NumDistinctActions]`` and the number of players, for up to ``batch_size`` leaves
    (default ``_core.DEFAULT_BATCH_SIZE``) held under a virtual loss, and returns float32
    win shares ``[b, players]`` (or ``[b, 4]``) with index 0 the seat to move, index k the
    seat k places after it, or ``(values, policy_logits)`` with float32 logits
    ``[b, NumDistinctActions]`` that become PUCT priors as a network's do. Ends of the game
    are valued by the game. It needs ``threads=1`` and no ``network``; the GIL is released
    except during the calls. A callable that raises, or returns a wrong type, shape or
    dtype, NaN or a share outside [0, 1], raises ``ValueError`` naming the problem (the
    callable's exception as its ``__cause__``).
    ``turns=True`` also gives the whole turns of the player to move (``Analysis.turns``:
    ``TurnInfo``, each a seat's decisions until another seat moves; docs/search.md, "Whole
    turns"); otherwise ``Analysis.turns`` is None.
    Ctrl-C stops the search and raises ``KeyboardInterrupt``. ``progress(partial_analysis)``
    is called about every ``progress_interval`` seconds while the search runs; if it
    returns True the search stops there (the result then has ``root.interrupted``).
    Raises ``ValueError`` naming a bad setting (``search.settings.SettingError``), or for a
    terminal state or a chance node.
    """
    if iterations is None and time_limit is None:
        iterations = ANALYZE_ITERATIONS
    if not isinstance(turns, bool):
        raise ValueError(f"turns must be True or False, got {turns!r}")
    batch_size = _core.DEFAULT_BATCH_SIZE if batch_size is None else BATCH_SIZE.check(batch_size, "batch_size")
    if top_k is not None:
        TOP_K.check(top_k, "top_k")
    entry = entry_of_state(state)
    if evaluate_with is not None and network is None:
        network = NO_NETWORK  # the hook values the leaves: not the default's shipped network
    params = make_params(
        entry.search_defaults, game=entry.name, players=state.num_players(), iterations=iterations, time_limit=time_limit, threads=threads,
        parallelism=parallelism, seed=seed, exploration=exploration, evaluator=evaluator, rollout=rollout,
        rollout_cutoff=rollout_cutoff, perfect_information=perfect_information, memory_limit=memory_limit,
        analysis_moves=analysis_moves, reuse_tree=False, solver=solver,
        probe=PROBE_FOR_ADVICE if probe is None else probe, network=network, value_mix=value_mix, puct=puct,
        policy_cache=policy_cache)
    searcher = entry.searcher(params)
    if progress is None:
        return searcher.search(state, top_k=top_k, turns=turns, evaluate_with=evaluate_with, batch_size=batch_size)
    if not callable(progress):
        raise ValueError(f"progress must be callable, got {progress!r}")
    if isinstance(progress_interval, bool) or not isinstance(progress_interval, (int, float)) \
            or not math.isfinite(progress_interval) or progress_interval <= 0:
        raise ValueError(f"progress_interval must be a positive number of seconds, got {progress_interval!r}")
    return searcher.search(state, progress, float(progress_interval), top_k, turns, evaluate_with, batch_size)


__all__ = ["Analysis", "BatchEvaluator", "MoveInfo", "RootInfo", "TurnInfo", "analyze"]
