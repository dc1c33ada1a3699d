"""Rating tables for all agents of a tournament.

* 2-player games: a Bradley–Terry (logistic Elo) maximum-likelihood fit over every game, draws
  counting half, ratings centred on 0. The 95% errors come from a cluster-robust (sandwich)
  covariance with one cluster per deal of a pairing, so the seat-rotated games of a deal count as
  the correlated pair they are. With two agents the rating difference is exactly the cutechess
  Elo difference (the ML fit reproduces the score).
  If an agent has won or lost every game the ML estimate is infinite; then every agent gets one
  virtual draw against a 0-rated anchor (as BayesElo's prior) and the table says so.
* 3–4 player games: Plackett–Luce ratings from ``openskill`` updated game by game in game-id
  order (mu, sigma; 95% error = 1.96 sigma; ordinal = mu - 3 sigma sorts the table).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..wording import install_hint
from .elo import Z95

ELO_PER_NATURAL = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class ScoredGame:
    """What ratings need from one stored game: agent index per seat and points per seat."""

    game_id: int
    pairing: int
    deal: int
    seats: tuple[int, ...]
    result: tuple[float, ...]


@dataclass(frozen=True)
class RatingRow:
    """One line of the rating table."""

    agent: int
    name: str
    rating: float
    error: float  # half width of the 95% interval
    games: int
    score: float  # mean points per game (1 = won every game)


@dataclass(frozen=True)
class RatingTable:
    kind: str  # "elo" or "plackett-luce"
    rows: list[RatingRow]  # best first
    note: str = ""
    origin: float = 0.0  # the rating of an agent with no games: the Elo mean, or Plackett-Luce's starting mu


def _agent_totals(names: Sequence[str], games: Sequence[ScoredGame]) -> tuple[list[int], list[float]]:
    played = [0] * len(names)
    points = [0.0] * len(names)
    for g in games:
        for agent, value in zip(g.seats, g.result):
            played[agent] += 1
            points[agent] += value
    return played, points


def elo_table(names: Sequence[str], games: Sequence[ScoredGame], max_iter: int = 100) -> RatingTable:
    """Bradley–Terry Elo ratings (mean 0) with cluster-robust 95% errors, for 2-player games."""
    k = len(names)
    played, points = _agent_totals(names, games)
    # Pairwise aggregates: n[i, j] games, s[i, j] points of i against j.
    n = np.zeros((k, k))
    s = np.zeros((k, k))
    for g in games:
        (a, b), (ra, rb) = g.seats, g.result
        n[a, b] += 1
        n[b, a] += 1
        s[a, b] += ra
        s[b, a] += rb
    perfect = [i for i in range(k) if played[i] and points[i] in (0.0, float(played[i]))]
    prior = 1.0 if perfect else 0.0
    theta = np.zeros(k)
    for _ in range(max_iter):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (s - n * p).sum(axis=1) + prior * (0.5 - 1.0 / (1.0 + np.exp(-theta)))
        w = n * p * (1.0 - p)
        hess = w - np.diag(w.sum(axis=1))  # Hessian of the log-likelihood
        hess -= np.diag(prior * np.exp(-theta) / (1.0 + np.exp(-theta)) ** 2)
        step = np.linalg.lstsq(-hess, grad, rcond=None)[0]
        theta += step
        if prior == 0.0:
            theta -= theta.mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    # Sandwich covariance H^-1 J H^-1, J = sum over clusters (deal of a pairing) of u u^T.
    p_of = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    clusters: dict[tuple[int, int], np.ndarray] = defaultdict(lambda: np.zeros(k))
    for g in games:
        (a, b), (ra, _) = g.seats, g.result
        u = clusters[(g.pairing, g.deal)]
        u[a] += ra - p_of[a, b]
        u[b] -= ra - p_of[a, b]
    meat = np.zeros((k, k))
    for u in clusters.values():
        meat += np.outer(u, u)
    w = n * p_of * (1.0 - p_of)
    info = np.diag(w.sum(axis=1)) - w + np.diag(prior * np.exp(-theta) / (1.0 + np.exp(-theta)) ** 2)
    if prior == 0.0:
        # Ratings are identified up to a constant: project onto mean-zero vectors.
        centre = np.eye(k) - 1.0 / k
        bread = centre @ np.linalg.pinv(info) @ centre
    else:
        bread = np.linalg.pinv(info)
    cov = bread @ meat @ bread
    rows = [
        RatingRow(
            agent=i,
            name=names[i],
            rating=float(theta[i] * ELO_PER_NATURAL),
            error=float(Z95 * math.sqrt(max(cov[i, i], 0.0)) * ELO_PER_NATURAL),
            games=played[i],
            score=points[i] / played[i] if played[i] else math.nan,
        )
        for i in range(k)
    ]
    rows.sort(key=lambda r: (-r.rating, r.agent))
    note = ""
    if perfect:
        note = ("prior: one virtual draw per agent against a 0-rated anchor, because "
                + ", ".join(names[i] for i in perfect) + " scored 0% or 100%")
    return RatingTable(kind="elo", rows=rows, note=note)


def plackett_luce_table(names: Sequence[str], games: Sequence[ScoredGame]) -> RatingTable:
    """openskill Plackett–Luce ratings, updated game by game in game-id order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as exc:  # pragma: no cover - openskill is a dependency of the tournament extra
        raise RuntimeError(f"ratings for 3-4 players need openskill: {install_hint('tournament')}") from exc
    model = PlackettLuce()
    ratings = [model.rating(name=name) for name in names]
    for g in sorted(games, key=lambda g: g.game_id):
        teams = [[ratings[a]] for a in g.seats]
        ranks = [-r for r in g.result]  # lower rank is better; equal points tie
        new = model.rate(teams, ranks=ranks)
        for agent, team in zip(g.seats, new):
            ratings[agent] = team[0]
    played, points = _agent_totals(names, games)
    rows = [
        RatingRow(i, names[i], float(r.mu), float(Z95 * r.sigma), played[i],
                  points[i] / played[i] if played[i] else math.nan)
        for i, r in enumerate(ratings)
    ]
    ordinal = {i: r.ordinal() for i, r in enumerate(ratings)}
    rows.sort(key=lambda r: (-ordinal[r.agent], r.agent))
    return RatingTable(kind="plackett-luce", rows=rows, note="openskill Plackett-Luce (mu, 95% = 1.96 sigma)",
                       origin=float(model.mu))


def rating_table(names: Sequence[str], games: Sequence[ScoredGame], num_players: int) -> RatingTable:
    """Elo table for 2-player games, Plackett–Luce for 3–4 players."""
    if num_players == 2:
        return elo_table(names, games)
    return plackett_luce_table(names, games)
