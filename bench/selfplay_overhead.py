#!/usr/bin/env python3
"""Self-play's cost per decision beyond the search (bench/RESULTS.md, "Self-play throughput").

On 60 positions of a searched game, 3 passes each, at 800 iterations (no tree reuse): the
search reporting only its best move (``top_k=1``), every root move (``top_k=None``, what
self-play reads), and every root move plus the row (observation tensor, legal mask, policy).

    python bench/selfplay_overhead.py
"""
from __future__ import annotations

import time

import splendor_mcts as sm
from splendor_mcts.learning.selfplay import visit_policy
from splendor_mcts.search.settings import make_params

POSITIONS = 60
PASSES = 3


def main() -> None:
    for spec in ("splendor", "duel"):
        game = sm.load_game(spec)
        params = make_params(game.entry.search_defaults, game=game.entry.name, players=game.num_players(),
                             iterations=800, seed=1, reuse_tree=False)
        searcher = game.entry.searcher(params)
        state, positions = game.new_initial_state(seed=3), []
        while not state.is_terminal() and len(positions) < POSITIONS:
            if state.is_chance_node():
                state.apply_action(state.dealt_outcome())
                continue
            positions.append(state.clone())
            state.apply_action(searcher.search(state, top_k=1).best_action)
        times = {"top_k=1": 0.0, "top_k=None": 0.0, "top_k=None + row": 0.0}
        for _ in range(PASSES):
            for key, k in (("top_k=1", 1), ("top_k=None", None)):
                start = time.perf_counter()
                for p in positions:
                    searcher.search(p, top_k=k)
                times[key] += time.perf_counter() - start
            start = time.perf_counter()
            for p in positions:
                analysis = searcher.search(p)
                seat = p.current_player()
                p.observation_tensor(seat), p.legal_actions_mask(), visit_policy(analysis, game.num_distinct_actions())
            times["top_k=None + row"] += time.perf_counter() - start
        n = PASSES * len(positions)
        print(spec, ", ".join(f"{key}: {1000 * t / n:.2f} ms/decision" for key, t in times.items()))


if __name__ == "__main__":
    main()
