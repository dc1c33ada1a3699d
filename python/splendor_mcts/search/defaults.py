"""Every search default, written once: the per-game parameters and each tool's budget.

A setting not given and not listed here keeps the engine's default (``SearchParams`` in
C++; docs/search.md lists them all).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchDefaults:
    """A game's parameters for any left as None: the strongest measured at 1,000
    iterations per move (docs/search.md, "Defaults"). Each game's registry entry holds one."""

    exploration: float = 0.4
    evaluator: str = "heuristic"
    rollout_cutoff: int = 30


@dataclass(frozen=True)
class ShippedNetwork:
    """How the search uses a family's shipped network (``splendor_mcts/networks/``).

    ``on``: the default search uses it (at every door, when no ``network`` is given;
    ``network=none`` turns it off), for the player counts in ``players`` (None: every count
    the family plays). ``value_mix`` and ``puct`` are those it is used with, by default or
    as ``network=shipped``, unless given (``puct`` None: the engine's).
    """

    on: bool = False
    value_mix: float = 0.5
    puct: float | None = None
    players: tuple[int, ...] | None = None

    def default_for(self, players: int) -> bool:
        """Whether the default search with ``players`` seats uses the network."""
        return self.on and (self.players is None or players in self.players)


# THE table of shipped networks by family (learning.families.FAMILIES): turn an entry on
# once its network is shipped and measured stronger than the search without it at equal
# time (docs/search.md, "Shipped networks"). value_mix 0.5: the pipeline's agents'
# (learning.pipeline).
SHIPPED_NETWORKS: dict[str, ShippedNetwork] = {
    # The recipe's seventh run ("needs" input features): +193 +/- 49 Elo at 0.1 s a move against the search
    # without a network, SPRT H1; +174 +/- 48 at 1 s, SPRT H1; +241 +/- 89 at 0.3 s and at 3 s, 100 games each
    # (docs/search.md, "Shipped networks").
    "splendor-2p": ShippedNetwork(on=True, value_mix=0.5),
    # The recipe's eighth run ("needs" input features): mean share at 0.1 s a move in one seat against searches
    # without a network, 3 players 0.597 [0.540, 0.654] (even 0.333, +189 Elo over each), 4 players 0.492
    # [0.440, 0.544] (even 0.25, +185); at 1 s, 3 players 0.597 [0.540, 0.653] (+188), 4 players 0.498
    # [0.440, 0.556] (+190); all SPRT H1
    # (docs/search.md, "Shipped networks").
    "splendor-3-4p": ShippedNetwork(on=True, value_mix=0.5),
    # The third run's network (begun from the second's): +213 +/- 52 Elo at 0.1 s a move and +182 +/- 49
    # at 1 s, both SPRT H1 (docs/search.md, "Shipped networks").
    "duel": ShippedNetwork(on=True, value_mix=0.5),
}


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
