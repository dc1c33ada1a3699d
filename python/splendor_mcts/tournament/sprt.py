"""Sequential probability ratio test for A/B matches, as fishtest runs it.

Hypotheses on the logistic Elo difference of A over B: H0 ``elo = elo0`` against H1
``elo = elo1``. Bounds (Wald 1945): ``lower = log(beta / (1 - alpha))``,
``upper = log((1 - beta) / alpha)``; stop and accept H1 when ``LLR >= upper``, H0 when
``LLR <= lower``.

The LLR is the generalized (GSPRT) log-likelihood ratio of a multinomial sample — trinomial
over games (scores 0, 1/2, 1) or pentanomial over game pairs (scores 0, 1/4, ..., 1) — as in
fishtest's ``stat_util`` (M. Van den Bergh, "A practical introduction to the GSPRT"): for a
target mean score ``s``, the maximum-likelihood distribution with mean ``s`` is
``p_i = phat_i / (1 + lambda (a_i - s))`` with ``lambda`` solving
``sum phat_i (a_i - s) / (1 + lambda (a_i - s)) = 0``, and
``LLR = N sum phat_i log(p1_i / p0_i)``. Empty categories get 1e-3 counts, as fishtest does.
:func:`llr_scores` is the same test over any scores in [0, 1]: in an N-player game, each
deal's mean share of the tested agent, its hypotheses the shares that ``elo0`` and ``elo1``
give against N - 1 equal opponents (``elo.share_from_elo``).
:func:`llr_normal_approx` is the well-known approximation ``N (s1-s0)(2 mu - s0 - s1) / (2 var)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..ranges import ANY_NUMBER, Number
from .elo import score_from_elo

# The Elo differences a test may name: beyond them every score rounds to a sure win or loss.
ELO = Number(-1000, 1000)

TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def _regularize(counts: Sequence[float]) -> list[float]:
    return [c if c > 0 else 1e-3 for c in counts]


def mle_with_mean(phat: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution closest (in likelihood) to ``phat`` whose mean score is ``s``."""
    d = [a - s for a in scores]
    lo = -1.0 / max(d) + 1e-12  # keep 1 + lambda d_i > 0 for every i
    hi = -1.0 / min(d) - 1e-12

    def f(lam: float) -> float:
        return sum(p * di / (1.0 + lam * di) for p, di in zip(phat, d))

    for _ in range(200):  # f is decreasing in lambda: bisection
        mid = 0.5 * (lo + hi)
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    p = [q / (1.0 + lam * di) for q, di in zip(phat, d)]
    total = sum(p)
    return [x / total for x in p]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of H1 over H0 for trinomial (3) or pentanomial (5) counts."""
    scores = {3: TRINOMIAL_SCORES, 5: PENTANOMIAL_SCORES}.get(len(counts))
    if scores is None:
        raise ValueError(f"expected 3 (trinomial) or 5 (pentanomial) counts, got {len(counts)}")
    if sum(counts) == 0:
        return 0.0
    reg = _regularize(counts)
    n = sum(reg)
    phat = [c / n for c in reg]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    p0 = mle_with_mean(phat, scores, s0)
    p1 = mle_with_mean(phat, scores, s1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(phat, p0, p1))


def llr_scores(values: Sequence[float], s0: float, s1: float) -> float:
    """GSPRT log-likelihood ratio of mean score ``s1`` over ``s0`` for a sample of scores in
    [0, 1] (each deal's mean share of an N-player game): the multinomial GSPRT of :func:`llr`
    whose categories are the distinct values seen, with 0 and 1 always among them (1e-3
    counts where unseen, as :func:`llr` fills empty categories), so that any mean in (0, 1)
    has a maximum-likelihood distribution."""
    if not 0.0 < s0 < 1.0 or not 0.0 < s1 < 1.0:
        raise ValueError(f"the hypotheses' mean scores must lie in (0, 1), got {s0} and {s1}")
    if any(not 0.0 <= v <= 1.0 for v in values):
        raise ValueError("scores must lie in [0, 1]")
    if not values:
        return 0.0
    tally: dict[float, float] = {0.0: 0.0, 1.0: 0.0}
    for v in values:
        tally[v] = tally.get(v, 0.0) + 1.0
    scores = sorted(tally)
    reg = _regularize([tally[a] for a in scores])
    n = sum(reg)
    phat = [c / n for c in reg]
    p0 = mle_with_mean(phat, scores, s0)
    p1 = mle_with_mean(phat, scores, s1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(phat, p0, p1))


def llr_normal_approx(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Normal approximation of the LLR: ``N (s1 - s0)(2 mu - s0 - s1) / (2 var)``."""
    scores = TRINOMIAL_SCORES if len(counts) == 3 else PENTANOMIAL_SCORES
    reg = _regularize(counts)
    n = sum(reg)
    mu = sum(c * a for c, a in zip(reg, scores)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(reg, scores)) / n
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


@dataclass(frozen=True)
class SprtConfig:
    """``--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for key in ("elo0", "elo1"):
            ELO.check(getattr(self, key), f"SPRT {key}")
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT needs elo1 > elo0, got elo0={self.elo0} elo1={self.elo1}")
        for key in ("alpha", "beta"):
            value = getattr(self, key)
            if not 0.0 < value < 0.5:
                raise ValueError(f"SPRT {key} must be in (0, 0.5), got {value}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    @classmethod
    def parse(cls, items: Sequence[str]) -> SprtConfig:
        """Parse ``["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]`` (any subset, any order)."""
        values: dict[str, float] = {}
        for item in items:
            key, eq, text = item.partition("=")
            if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"--sprt: expected elo0=, elo1=, alpha=, beta=, got {item!r}")
            values[key] = (ELO if key.startswith("elo") else ANY_NUMBER).parse(text, f"--sprt: {key}")
        return cls(**values)

    def verdict(self, value: float) -> str | None:
        """``"H1"`` (A is better by elo1), ``"H0"`` (not better than elo0) or None (continue)."""
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None
