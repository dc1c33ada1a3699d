"""Head-to-head statistics for two agents: Elo difference with a 95% error, LOS, draw ratio, pentanomial.

Formulas follow cutechess-cli's Elo code:

* score ``mu = (W + D/2) / N``; Elo difference ``-400 * log10(1/mu - 1)``;
* standard deviation of the mean score from the trinomial sample
  ``sigma = sqrt(w(1-mu)^2 + l(0-mu)^2 + d(0.5-mu)^2) / sqrt(N)`` (w, l, d = fractions);
* 95% error margin ``(elo(mu + z sigma) - elo(mu - z sigma)) / 2`` with cutechess's own
  normal quantile ``z = 1.95716`` (its Winitzki approximation of erf^-1; the exact 1.95996 gives a
  0.14% wider interval) so that the same W-L-D prints the same numbers as cutechess;
* likelihood of superiority ``LOS = 0.5 + 0.5 erf((W - L) / sqrt(2 (W + L)))``.

The pentanomial variant (fishtest) does the same over *game pairs* — the two games of one deal
with seats swapped — whose score for A is 0, 0.5, 1, 1.5 or 2; it removes the luck of the deal
from the error bar.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # Phi^-1(0.975)


def _cutechess_phi_inv(p: float) -> float:
    """cutechess's normal quantile: sqrt(2) erfinv(2p - 1), erfinv by Winitzki's approximation."""
    pi = 3.1415926535897  # the constant as cutechess writes it
    a = 8.0 * (pi - 3.0) / (3.0 * pi * (4.0 - pi))
    x = 2.0 * p - 1.0
    y = math.log(1.0 - x * x)
    z = 2.0 / (pi * a) + y / 2.0
    r = math.sqrt(math.sqrt(z * z - y / a) - z)
    return math.sqrt(2.0) * (r if x >= 0 else -r)


CUTECHESS_Z95 = _cutechess_phi_inv(0.975)


def elo_from_score(mu: float) -> float:
    """Logistic Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if mu <= 0.0:
        return -math.inf
    if mu >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / mu - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of the side that is ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def share_from_elo(elo: float, players: int) -> float:
    """Expected share of a ``players``-seat game for an agent ``elo`` points stronger than each
    of the other seats, which are equal: Luce's choice model of who wins, ``g / (g + players - 1)``
    with ``g = 10 ** (elo / 400)``, the logistic score for 2 players (it is what Bradley-Terry
    and Plackett-Luce ratings assume of the winner)."""
    if players < 2:
        raise ValueError(f"a share needs at least 2 players, got {players}")
    return 1.0 / (1.0 + (players - 1) * 10.0 ** (-elo / 400.0))


def elo_from_share(share: float, players: int) -> float:
    """The inverse of :func:`share_from_elo`: +-inf at the ends."""
    if players < 2:
        raise ValueError(f"a share needs at least 2 players, got {players}")
    if share <= 0.0:
        return -math.inf
    if share >= 1.0:
        return math.inf
    return 400.0 * math.log10(share * (players - 1) / (1.0 - share))


def score_interval(mu: float, sigma: float, z: float = Z95) -> str:
    """A mean score with its 95% interval (normal approximation, clipped to [0, 1]): "0.553 [0.507, 0.599]"."""
    return f"{mu:.3f} [{max(0.0, mu - z * sigma):.3f}, {min(1.0, mu + z * sigma):.3f}]"


def mean_score(scores: list[float]) -> tuple[float, float]:
    """The mean of per-game scores (any in [0, 1]: a share of a multi-player game too) and its
    standard error, ``sigma`` of the trinomial formula above when every score is 0, 1/2 or 1."""
    n = len(scores)
    if n == 0:
        return math.nan, math.nan
    mu = sum(scores) / n
    return mu, math.sqrt(sum((s - mu) ** 2 for s in scores) / n) / math.sqrt(n)


def _interval_margin(mu: float, sigma: float, z: float = Z95) -> float:
    """Half the width of the 95% Elo interval mapped from the score interval (cutechess)."""
    if sigma == 0.0 or not 0.0 < mu < 1.0:
        return math.nan
    return (elo_from_score(mu + z * sigma) - elo_from_score(mu - z * sigma)) / 2.0


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference of the first side and the half width of its 95% interval.

    At the extremes these are not finite (a side that never lost is +inf Elo; an interval
    reaching a 0% or 100% score is infinitely wide): ``text`` then says what is known instead.
    """

    elo: float
    error: float
    text: str = ""  # for people: "+478.0 +/- 187.9", "> +570 (no losses)", ...

    def __str__(self) -> str:
        return self.text or f"{self.elo:.1f} +/- {self.error:.1f}"


def perfect_score_bound(n: int) -> float:
    """The Elo the 95% interval of a perfect score over ``n`` games (or pairs) is sure of: the
    exact (Clopper-Pearson) lower end of the score when every one was won, ``0.025 ** (1/n)``."""
    return elo_from_score(0.025 ** (1.0 / n))


def estimate(mu: float, sigma: float, n: int, z: float = Z95) -> EloEstimate:
    """The Elo difference of a mean score ``mu`` over ``n`` samples of standard error ``sigma``,
    with a text that stays finite and says why at the extremes."""
    if n == 0:
        return EloEstimate(math.nan, math.nan, "none yet (no games)")
    elo, error = elo_from_score(mu) + 0.0, _interval_margin(mu, sigma, z)  # + 0.0: no "-0.0"
    if mu >= 1.0:
        return EloEstimate(elo, error, f"> {perfect_score_bound(n):+.0f} (no losses, 95%)")
    if mu <= 0.0:
        return EloEstimate(elo, error, f"< {-perfect_score_bound(n):+.0f} (no wins, 95%)")
    if sigma == 0.0:
        return EloEstimate(elo, error, f"{elo:.1f} (every result the same: no error estimate)")
    if math.isinf(error):
        low, high = elo_from_score(mu - z * sigma), elo_from_score(mu + z * sigma)
        if math.isinf(low) and math.isinf(high):
            return EloEstimate(elo, error, f"{elo:.1f} (too few games for a 95% interval)")
        if math.isinf(high):
            return EloEstimate(elo, error, f"{elo:.1f}, 95% above {low:+.0f} (too few losses for an upper bound)")
        return EloEstimate(elo, error, f"{elo:.1f}, 95% below {high:+.0f} (too few wins for a lower bound)")
    return EloEstimate(elo, error, f"{elo:.1f} +/- {error:.1f}")


@dataclass(frozen=True)
class WinLossDraw:
    """Game results of side A against side B (trinomial counts)."""

    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Mean points per game of A (cutechess prints it as [0.625])."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    @property
    def sigma(self) -> float:
        """Standard error of ``score`` (the trinomial formula above)."""
        n = self.games
        if n == 0:
            return math.nan
        w, l, d, mu = self.wins / n, self.losses / n, self.draws / n, self.score
        return math.sqrt(w * (1 - mu) ** 2 + l * mu**2 + d * (0.5 - mu) ** 2) / math.sqrt(n)

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else math.nan

    def elo(self) -> EloEstimate:
        """Elo difference of A over B with cutechess's 95% error margin."""
        n = self.games
        if n == 0:
            return estimate(math.nan, math.nan, 0)
        return estimate(self.score, self.sigma, n, CUTECHESS_Z95)

    def los(self) -> float:
        """Likelihood of superiority of A, in [0, 1] (draws ignored)."""
        decisive = self.wins + self.losses
        if decisive == 0:
            return 0.5
        return 0.5 + 0.5 * math.erf((self.wins - self.losses) / math.sqrt(2.0 * decisive))


@dataclass(frozen=True)
class Pentanomial:
    """Counts of game pairs by A's pair score 0, 0.5, 1, 1.5, 2 (index = 2 x pair score)."""

    counts: tuple[int, int, int, int, int]

    @classmethod
    def from_pair_scores(cls, pair_scores: list[float]) -> Pentanomial:
        counts = [0] * 5
        for s in pair_scores:
            index = round(2 * s)
            if not 0 <= index <= 4 or abs(index - 2 * s) > 1e-9:
                raise ValueError(f"pair score {s} is not one of 0, 0.5, 1, 1.5, 2")
            counts[index] += 1
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def elo(self) -> EloEstimate:
        """Elo difference from the mean pair score, with the 95% error from the pair variance."""
        n = self.pairs
        if n == 0:
            return estimate(math.nan, math.nan, 0)
        scores = (0.0, 0.25, 0.5, 0.75, 1.0)
        mu = sum(c * a for c, a in zip(self.counts, scores)) / n
        var = sum(c * (a - mu) ** 2 for c, a in zip(self.counts, scores)) / n
        return estimate(mu, math.sqrt(var / n), n)
