"""The bench of ``splendor-mcts bench`` (commands/bench.py): fixed positions searched with a fixed budget.

As in chess engines' ``bench``: with one thread the search is deterministic, so the node
count and a signature of every root's visit counts identify the engine's behaviour (a
change to the rules, the move generation or the search changes the signature), and the
time gives nodes per second on this machine.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..games.game import load_game
from ..games.registry import entries
from .analyze import analyze
from .defaults import BENCH_ITERATIONS

# (game spec, deal seed, plies of dealt play before the search): each built-in game's
# registry entry's bench_positions, in the registry's order.
POSITIONS: list[tuple[str, int, int]] = [position for entry in entries() for position in entry.bench_positions]


def _position(spec: str, seed: int, plies: int) -> Any:
    """The deal of ``seed`` after ``plies`` moves, each the first legal action: fixed forever."""
    state = load_game(spec).new_initial_state(seed=seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    return state


def _fnv1a(values: list[int], h: int = 0xCBF29CE484222325) -> int:
    for v in values:
        for byte in int(v).to_bytes(8, "little", signed=True):
            h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def run_bench(iterations: int = BENCH_ITERATIONS, seed: int = 0,
              on_position: Callable[[int, str, tuple[str, int, float] | None], None] | None = None,
              network: str | None = None) -> tuple[int, int, float, list[tuple[str, int, float]]]:
    """Searches every bench position with one thread; returns (total nodes, signature,
    seconds, rows). The signature hashes each root's moves and visit counts. ``network``:
    as the search setting (None: the default search's, ``"none"``: the search without one).
    ``on_position(index, name, row)`` is called before each search (row None) and after it."""
    rows = []
    total_nodes, total_seconds, signature = 0, 0.0, _fnv1a([])
    for index, (spec, deal, plies) in enumerate(POSITIONS):
        name = f"{spec} seed {deal} +{plies}"
        if on_position:
            on_position(index, name, None)
        state = _position(spec, deal, plies)
        start = time.perf_counter()
        analysis = analyze(state, iterations=iterations, threads=1, seed=seed, top_k=None, network=network)
        seconds = time.perf_counter() - start
        rows.append((name, analysis.root.nodes, seconds))
        if on_position:
            on_position(index, name, rows[-1])
        total_nodes += analysis.root.nodes
        total_seconds += seconds
        signature = _fnv1a([v for m in analysis.moves for v in (m.action, m.visits)], signature)
    return total_nodes, signature, total_seconds, rows


def format_row(name: str, nodes: int, seconds: float) -> str:
    """One position's line: its name, nodes and nodes per second."""
    return f"{name:<32} nodes {nodes:>9,}  {nodes / seconds:>12,.0f} nodes/s"
