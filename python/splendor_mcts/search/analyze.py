"""Monte Carlo tree search from Python: ``analyze``, its parameters and its result types.

The search itself is C++ (information-set MCTS, ``cpp/search/``); this module validates
parameters, runs it with the GIL released (Ctrl-C stops it: ``KeyboardInterrupt``) and
wraps the result in dataclasses.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from .. import _core
from ..games.registry import entry_of_state
from ..seeds import check_seed
from .defaults import ANALYZE_ITERATIONS, MEMORY_LIMIT, PARALLELISM_MODES, ROLLOUT_POLICIES, SearchDefaults


def _int(name: str, value: Any, minimum: int, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        upper = f" and <= {maximum}" if maximum is not None else ""
        raise ValueError(f"{name} must be >= {minimum}{upper}, got {value}")
    return value


def _number(name: str, value: Any, minimum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return float(value)


def make_params(
    *,
    defaults: SearchDefaults,
    iterations: int | None,
    time_limit: float | None,
    threads: int,
    seed: int,
    exploration: float | None,
    rollout: str | None,
    rollout_cutoff: int | None,
    perfect_information: bool,
    memory_limit: int,
    reuse_tree: bool,
    parallelism: str = "root",
) -> Any:
    """Validated ``_core.SearchParams``; ``ValueError`` names the bad parameter.
    ``exploration``, ``rollout`` and ``rollout_cutoff`` left as None take the game's
    measured ``defaults`` (its registry entry's)."""
    exploration = defaults.exploration if exploration is None else exploration
    rollout = defaults.rollout if rollout is None else rollout
    rollout_cutoff = defaults.rollout_cutoff if rollout_cutoff is None else rollout_cutoff
    p = _core.SearchParams()
    if iterations is not None:
        p.iterations = _int("iterations", iterations, 1)
    if time_limit is not None:
        p.time_limit = _number("time_limit", time_limit, 0.0)
        if p.time_limit == 0.0:
            raise ValueError("time_limit must be > 0 seconds")
    if iterations is None and time_limit is None:
        raise ValueError("iterations or time_limit must be given")
    p.threads = _int("threads", threads, 1, 256)
    if parallelism not in PARALLELISM_MODES:
        raise ValueError(f"parallelism must be one of {PARALLELISM_MODES}, got {parallelism!r}")
    p.parallelism = parallelism
    p.seed = check_seed(seed)
    p.exploration = _number("exploration", exploration, 0.0)
    if rollout not in ROLLOUT_POLICIES:
        raise ValueError(f"rollout must be one of {ROLLOUT_POLICIES}, got {rollout!r}")
    p.rollout = rollout
    p.rollout_cutoff = _int("rollout_cutoff", rollout_cutoff, 0, 1_000_000)
    if not isinstance(perfect_information, bool):
        raise ValueError(f"perfect_information must be a bool, got {perfect_information!r}")
    p.perfect_information = perfect_information
    p.memory_limit = _int("memory_limit", memory_limit, 1 << 20, 2**63 - 1)
    if not isinstance(reuse_tree, bool):
        raise ValueError(f"reuse_tree must be a bool, got {reuse_tree!r}")
    p.reuse_tree = reuse_tree
    p.validate()
    return p


@dataclass(frozen=True)
class MoveInfo:
    """Statistics of one root move. ``win_rate`` is the mean return (win 1, loss 0,
    shared wins split) of the player to move; ``lcb`` its 95% Wilson lower bound;
    ``prior`` is None (this search uses no policy prior); ``pv`` the principal
    variation as move texts starting with this move (``pv_actions`` as ids).
    ``proof`` is "win" or "loss" when the search proved this move's result for the
    player to move whatever the hidden cards (docs/search.md), else None;
    ``proof_turns`` the proven turns of play until the game ends (1: this turn)."""

    action: int
    text: str
    visits: int
    win_rate: float
    prior: float | None
    lcb: float
    pv: list[str]
    pv_actions: list[int]
    proof: str | None = None
    proof_turns: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.text,
            "action": self.action,
            "visits": self.visits,
            "winrate": self.win_rate,
            "prior": self.prior,
            "lcb": self.lcb,
            "pv": list(self.pv),
            "pvActions": list(self.pv_actions),
            "proof": self.proof,
            "proofTurns": self.proof_turns,
        }


@dataclass(frozen=True)
class RootInfo:
    """The root: seat to move, visits (reused ones included), mean return per seat
    over this search's iterations, speed and tree size."""

    player: int
    visits: int
    win_rates: list[float]
    iterations: int
    seconds: float
    iterations_per_second: float
    max_depth: int
    nodes: int
    bytes: int
    reused_visits: int
    interrupted: bool
    memory_full: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "currentPlayer": self.player,
            "visits": self.visits,
            "winrate": self.win_rates[self.player],
            "winrates": list(self.win_rates),
            "iterations": self.iterations,
            "seconds": self.seconds,
            "iterationsPerSecond": self.iterations_per_second,
            "maxDepth": self.max_depth,
            "nodes": self.nodes,
            "bytes": self.bytes,
            "reusedVisits": self.reused_visits,
            "interrupted": self.interrupted,
            "memoryFull": self.memory_full,
        }


@dataclass(frozen=True)
class Analysis:
    """Result of ``analyze``: the move to play and the statistics of the root moves
    (proven wins, the others most visited first, proven losses last; at most ``top_k``).
    ``proof``: "win" or "loss" when the position is proven for the player to move
    (as MoveInfo's), ``proof_turns`` its distance in turns."""

    best_action: int
    best_text: str
    moves: list[MoveInfo]
    root: RootInfo
    params: dict[str, Any] = field(default_factory=dict)
    proof: str | None = None
    proof_turns: int = 0

    def to_dict(self) -> dict[str, Any]:
        """KataGo-style: ``{"rootInfo": {...}, "moveInfos": [...]}``."""
        return {
            "rootInfo": self.root.to_dict(),
            "moveInfos": [dict(m.to_dict(), order=i) for i, m in enumerate(self.moves)],
            "bestAction": self.best_action,
            "bestMove": self.best_text,
            "params": dict(self.params),
            "proof": self.proof,
            "proofTurns": self.proof_turns,
        }

    def to_json(self) -> str:
        """``to_dict()`` as a JSON string."""
        return json.dumps(self.to_dict())


def build_analysis(state: Any, raw: dict[str, Any], top_k: int | None, params: Any) -> Analysis:
    moves = [
        MoveInfo(
            action=m["action"],
            text=state.action_to_string(m["action"]),
            visits=m["visits"],
            win_rate=m["win_rate"],
            prior=None,
            lcb=m["lcb"],
            pv=list(m["pv_text"]),
            pv_actions=list(m["pv"]),
            proof=m["proof"],
            proof_turns=m["proof_turns"],
        )
        for m in (raw["moves"] if top_k is None else raw["moves"][:top_k])
    ]
    root = RootInfo(
        player=raw["player"],
        visits=raw["root_visits"],
        win_rates=list(raw["seat_values"]),
        iterations=raw["iterations"],
        seconds=raw["seconds"],
        iterations_per_second=raw["iterations_per_second"],
        max_depth=raw["max_depth"],
        nodes=raw["nodes"],
        bytes=raw["bytes"],
        reused_visits=raw["reused_visits"],
        interrupted=raw["interrupted"],
        memory_full=raw["memory_full"],
    )
    best = raw["best_action"]
    settings = {
        "iterations": params.iterations or None,
        "timeLimit": params.time_limit or None,
        "threads": params.threads,
        "parallelism": params.parallelism,
        "seed": params.seed,
        "exploration": params.exploration,
        "rollout": params.rollout,
        "rolloutCutoff": params.rollout_cutoff,
        "perfectInformation": params.perfect_information,
    }
    return Analysis(best_action=best, best_text=state.action_to_string(best), moves=moves, root=root, params=settings,
                    proof=raw["proof"], proof_turns=raw["proof_turns"])


def analyze(
    state: Any,
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    parallelism: str = "root",
    seed: int = 0,
    top_k: int | None = 5,
    exploration: float | None = None,
    rollout: str | None = None,
    rollout_cutoff: int | None = None,
    perfect_information: bool = False,
    memory_limit: int = MEMORY_LIMIT,
    progress: Callable[[Analysis], Any] | None = None,
    progress_interval: float = 0.5,
) -> Analysis:
    """Search ``state`` from the view of the player to move and report the root moves.

    Budget: ``iterations`` (total over threads), ``time_limit`` seconds, or both (the
    first reached stops); neither given means ``search.defaults.ANALYZE_ITERATIONS``. With an iteration
    budget the result is deterministic for a ``seed`` and a number of ``threads`` (one
    tree per thread, each with its own share of the budget); a time limit is not (how
    many iterations fit depends on the machine). ``parallelism="tree"`` has the threads
    share one tree instead (with virtual loss); it is not deterministic with 2+ threads
    (bench/RESULTS.md compares the two modes). The search samples the
    cards the player cannot see; ``perfect_information=True`` searches the true ones
    (experiments only). ``exploration`` is the UCT constant, ``rollout`` the leaf
    evaluator (one of ``ROLLOUT_POLICIES``: "random" or "heuristic" rollouts, or
    "evaluate", the heuristic value at once), ``rollout_cutoff`` the rollout plies before a heuristic evaluation
    (0: play out to the end); left as None they take the game's measured defaults
    (its registry entry's ``search_defaults``). ``memory_limit`` caps the tree's bytes (it stops growing
    there). ``top_k=None`` reports every root move. Ctrl-C stops the
    search and raises ``KeyboardInterrupt``. ``progress(partial_analysis)`` is called
    about every ``progress_interval`` seconds while the search runs; if it returns
    True the search stops there (the result then has ``root.interrupted``). Raises
    ``ValueError`` naming a bad parameter, or for a terminal state or a chance node.
    """
    if iterations is None and time_limit is None:
        iterations = ANALYZE_ITERATIONS
    if top_k is not None:
        _int("top_k", top_k, 1)
    entry = entry_of_state(state)
    params = make_params(
        defaults=entry.search_defaults,
        iterations=iterations,
        time_limit=time_limit,
        threads=threads,
        seed=seed,
        exploration=exploration,
        rollout=rollout,
        rollout_cutoff=rollout_cutoff,
        perfect_information=perfect_information,
        memory_limit=memory_limit,
        reuse_tree=False,
        parallelism=parallelism,
    )
    searcher = entry.searcher(params)
    if progress is None:
        return build_analysis(state, searcher.search(state), top_k, params)
    if not callable(progress):
        raise ValueError(f"progress must be callable, got {progress!r}")
    interval = _number("progress_interval", progress_interval, 0.0)
    if interval == 0.0:
        raise ValueError("progress_interval must be > 0 seconds")

    def report(raw: dict[str, Any]) -> bool:
        return bool(progress(build_analysis(state, raw, top_k, params)))

    return build_analysis(state, searcher.search(state, report, interval), top_k, params)


__all__ = ["Analysis", "MoveInfo", "RootInfo", "analyze"]
