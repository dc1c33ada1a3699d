"""Per-decision cost of the engine protocol (docs/engine-protocol.md), against calling the agent in-process.

For decisions taken from seeded random games, times ``step(state)`` of:

* ``mcts``: the built-in ``MCTSBot`` at ``--iterations`` (in this process);
* ``engine``: ``splendor-mcts engine`` at the same budget through the tournament's
  ``EngineAgent`` (the mover's view and the legal moves out, ``go``, ``bestmove`` back);
* ``example``: ``examples/engines/random_engine.py``, which thinks not at all: its time is
  the protocol alone, the plain-Python engine's reading of the lines included.

The overhead of the protocol is ``engine - mcts`` per decision (both search the same budget).

    python bench/engine_overhead.py --game splendor --decisions 2000 --iterations 1
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts.tournament.engine_agent import EngineAgent, EnginePool, engine_settings

EXAMPLE = Path(__file__).resolve().parent.parent / "examples/engines/random_engine.py"


def decisions(game: sm.Game, count: int, seed: int) -> list:
    """Positions where a player decides, from random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state(seed=rng.randrange(1 << 30), explicit_chance=True)
        while not state.is_terminal() and len(found) < count:
            if not state.is_chance_node():
                found.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(state.dealt_outcome())
    return found


def timed(step, states: list) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for state in states:
        t0 = time.perf_counter()
        step(state)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="splendor")
    p.add_argument("--decisions", type=int, default=2000)
    p.add_argument("--iterations", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    game = sm.load_game(args.game)
    states = decisions(game, args.decisions, args.seed)
    pool = EnginePool()
    ours = EngineAgent(engine_settings({"cmd": f"{sys.executable} -m splendor_mcts.cli engine",
                                        "iterations": args.iterations}), game, 0, pool)
    example = EngineAgent(engine_settings({"cmd": f"{sys.executable} {EXAMPLE}", "movetime": 5}), game, 0, pool)
    bot = sm.MCTSBot(game, iterations=args.iterations, seed=0)
    try:
        timed(ours.step, states[:50])  # warm both sides up
        results = {"mcts": timed(bot.step, states), "engine": timed(ours.step, states),
                   "example": timed(example.step, states)}
    finally:
        ours.release()
        example.release()
        pool.close()
    print(f"{args.game}: {len(states)} decisions, iterations={args.iterations}")
    for name, times in results.items():
        us = sorted(t * 1e6 for t in times)
        print(f"  {name:8s} mean {statistics.fmean(us):8.1f} us   median {us[len(us) // 2]:8.1f} us   "
              f"p99 {us[int(len(us) * 0.99)]:8.1f} us")
    overhead = statistics.fmean(results["engine"]) - statistics.fmean(results["mcts"])
    print(f"  protocol overhead (engine - mcts): {overhead * 1e6:.1f} us per decision")


if __name__ == "__main__":
    main()
