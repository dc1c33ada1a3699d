"""Rated, seat-rotated, resumable tournaments between agents, locally or on a Ray cluster.

Public API::

    from splendor_mcts.tournament import TournamentConfig, run_tournament, SprtConfig
    result = run_tournament(TournamentConfig(game="splendor", players=2,
                                             agents=("mcts:iterations=200", "greedy"), deals=50))
    print(result.report())

See ``docs/tournaments.md``.
"""

from .agents import AgentSpec, parse_agent_spec
from .elo import EloEstimate, Pentanomial, WinLossDraw, elo_from_score, score_from_elo
from .ratings import RatingRow, RatingTable, ScoredGame, rating_table
from .report import SprtStatus, TournamentResult
from .runner import Progress, Tournament, TournamentConfig, run_tournament
from .schedule import ScheduledGame, make_schedule
from .sprt import SprtConfig, llr
from .store import DatabaseFull, DatabaseInUse, DatabaseReadOnly, TournamentDatabaseError, TournamentStore

__all__ = [
    "AgentSpec", "DatabaseFull", "DatabaseInUse", "DatabaseReadOnly", "EloEstimate", "Pentanomial", "Progress", "RatingRow", "RatingTable", "ScheduledGame",
    "ScoredGame", "SprtConfig", "SprtStatus", "Tournament", "TournamentConfig", "TournamentDatabaseError",
    "TournamentResult", "TournamentStore", "WinLossDraw", "elo_from_score", "llr", "make_schedule",
    "parse_agent_spec", "rating_table", "run_tournament", "score_from_elo",
]
