"""Every search default, written once: each tool's budget. The per-game parameters are each
game's registry entry's (``GameEntry.search_defaults``, a :class:`~splendor_mcts.games.registry.SearchDefaults`).

A setting not given and not listed here keeps the engine's default (``SearchParams`` in
C++; docs/search.md lists them all). Whether and how the search uses a family's shipped
network is not here but in the networks folder's index (``search.network_index``).
"""
from __future__ import annotations

# The budget each door searches with when its caller gives none.
ANALYZE_ITERATIONS = 10_000   # sm.analyze
BOT_ITERATIONS = 2_000        # sm.MCTSBot and the tournament's "mcts" agents, per move
PROTOCOL_ITERATIONS = 1_000   # a query of splendor-mcts analyze
REVIEW_ITERATIONS = 2_000     # each decision in splendor-mcts review
HINT_SECONDS = 3.0            # splendor-mcts hint, and a hint asked for in play
PLAY_SECONDS = 2.0            # each engine move in splendor-mcts play
BENCH_ITERATIONS = 20_000     # each position of splendor-mcts bench
SELFPLAY_ITERATIONS = 800     # each decision of splendor-mcts selfplay (learning.selfplay)

# Analysis mode's k (the setting analysis_moves; docs/search.md, "Best move") where a person
# reads the moves: hint and the protocol use the number they show (--top, topK; at most
# _core.MAX_ANALYSIS_MOVES), review, which shows every move, this. Off (0) for sm.analyze,
# MCTSBot, tournaments and play's engine moves: the search for play.
ANALYSIS_MOVES = 5

# The solver's root probe (the setting probe; docs/search.md, "Proven results"), a proof of a
# win within two turns: on where a person reads the answer (sm.analyze, hint, review, the
# protocol, the server's analysis), which wants that proof; off for play (MCTSBot,
# tournaments, play's engine moves: SearchParams' own default), where it cost strength at
# 0.02 s a move (docs/search.md, "Proven results").
PROBE_FOR_ADVICE = True
