"""What the solver's root probe (cpp/search/probe.hpp) costs over whole games (issue 12).

Games of Splendor 2 players or Duel from deal g (g in 0..GAMES-1): on even steps the
search plays (``sm.analyze`` at ITERATIONS iterations, seed = step), on odd steps the
greedy agent (``_core.greedy_agent_action``), chance outcomes by the greedy agent too.
For every search: did the probe run (its gate let it: ``root.probe_nodes`` > 0), its
positions and seconds (``root.probe_seconds``), and did it prove the root. Reported:
decisions searched, how many ran the probe, the step of each game's first probe (and
the game's length in steps), the probe's share of the search's seconds.

    python bench/probe_cost.py [--game duel] [--games 6] [--iterations 1000]
"""
from __future__ import annotations

import argparse
import time

import splendor_mcts as sm
from splendor_mcts import _core


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["splendor", "duel"], default="splendor")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=1000)
    args = ap.parse_args()
    game = sm.load_game(args.game, **({"players": 2} if args.game == "splendor" else {}))
    decisions = runs = nodes = proofs = 0
    probe_seconds = search_seconds = 0.0
    first: list[tuple[int | None, int]] = []
    for deal in range(args.games):
        state, step, first_probe = game.new_initial_state(seed=deal), 0, None
        while not state.is_terminal():
            if state.is_chance_node() or step % 2:
                state.apply_action(_core.greedy_agent_action(state, deal, step))
                step += 1
                continue
            start = time.perf_counter()
            analysis = sm.analyze(state, iterations=args.iterations, seed=step, top_k=None)
            search_seconds += time.perf_counter() - start
            decisions += 1
            if analysis.root.probe_nodes:
                runs += 1
                nodes += analysis.root.probe_nodes
                probe_seconds += analysis.root.probe_seconds
                proofs += analysis.proof == "win" and analysis.root.iterations == 0
                first_probe = step if first_probe is None else first_probe
            state.apply_action(analysis.best_action)
            step += 1
        first.append((first_probe, step))
    share = probe_seconds / search_seconds if search_seconds else 0.0
    print(f"{args.game}: {decisions} searches, probe ran in {runs} ({nodes:,} positions, {proofs} proofs); "
          f"probe {probe_seconds:.2f} s of {search_seconds:.2f} s searched ({share:.0%}); "
          f"first probe step / game length: {first}")


if __name__ == "__main__":
    main()
