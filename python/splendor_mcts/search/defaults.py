"""Every search default, written once: the per-game parameters and each tool's budget."""
from __future__ import annotations

from dataclasses import dataclass

from .. import _core


@dataclass(frozen=True)
class SearchDefaults:
    """A game's parameters for any left as None: the strongest measured at 1,000
    iterations per move (bench/RESULTS.md, "Search"). Each game's registry entry holds one."""

    exploration: float = 0.4
    rollout: str = "heuristic"
    rollout_cutoff: int = 30


# The budget each door searches with when its caller gives none.
ANALYZE_ITERATIONS = 10_000   # sm.analyze
BOT_ITERATIONS = 2_000        # sm.MCTSBot and the tournament's "mcts" agents, per move
PROTOCOL_ITERATIONS = 1_000   # a query of splendor-mcts analyze
REVIEW_ITERATIONS = 2_000     # each decision in splendor-mcts review
HINT_SECONDS = 3.0            # splendor-mcts hint, and a hint asked for in play
PLAY_SECONDS = 2.0            # each engine move in splendor-mcts play
BENCH_ITERATIONS = 20_000     # each position of splendor-mcts bench

MEMORY_LIMIT = 1 << 30        # bytes of tree before it stops growing
# The leaf evaluators registered in C++ (cpp/search/evaluators.hpp); `rollout` names one.
ROLLOUT_POLICIES: tuple[str, ...] = tuple(_core.EVALUATORS)
PARALLELISM_MODES = ("root", "tree")
