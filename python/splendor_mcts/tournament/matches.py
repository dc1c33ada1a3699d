"""Per-pairing statistics of 2-player games: A vs B results, by seat, and pentanomial over deals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from .elo import Pentanomial, WinLossDraw
from .ratings import ScoredGame


def _tally(scores: Sequence[float]) -> WinLossDraw:
    wins = sum(1 for s in scores if s > 0.5)
    losses = sum(1 for s in scores if s < 0.5)
    return WinLossDraw(wins, losses, len(scores) - wins - losses)


@dataclass(frozen=True)
class MatchStats:
    """Agent ``a`` against agent ``b`` in 2-player games (scores from a's side)."""

    a: int
    b: int
    overall: WinLossDraw
    by_seat: tuple[WinLossDraw, WinLossDraw]  # a in seat 0, a in seat 1
    seat0_vs_seat1: WinLossDraw
    pentanomial: Pentanomial  # over deals whose two rotations are both finished


def match_stats(a: int, b: int, games: Sequence[ScoredGame]) -> MatchStats:
    """Statistics of every stored game between ``a`` and ``b``."""
    scores: list[float] = []
    seat_scores: tuple[list[float], list[float]] = ([], [])
    seat0: list[float] = []
    by_deal: dict[tuple[int, int], list[float]] = defaultdict(list)
    for g in games:
        if set(g.seats) != {a, b} or len(g.seats) != 2:
            continue
        seat = g.seats.index(a)
        score = g.result[seat]
        scores.append(score)
        seat_scores[seat].append(score)
        seat0.append(g.result[0])
        by_deal[(g.pairing, g.deal)].append(score)
    pairs = [sum(v) for v in by_deal.values() if len(v) == 2]
    return MatchStats(
        a=a,
        b=b,
        overall=_tally(scores),
        by_seat=(_tally(seat_scores[0]), _tally(seat_scores[1])),
        seat0_vs_seat1=_tally(seat0),
        pentanomial=Pentanomial.from_pair_scores(pairs),
    )


def all_matches(num_agents: int, games: Sequence[ScoredGame]) -> list[MatchStats]:
    """One :class:`MatchStats` per pair of agents that met, in agent order."""
    met = {tuple(sorted(g.seats)) for g in games if len(g.seats) == 2}
    return [match_stats(a, b, games) for a in range(num_agents) for b in range(a + 1, num_agents) if (a, b) in met]
