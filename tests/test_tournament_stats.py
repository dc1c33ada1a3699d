"""Elo, LOS, pentanomial, SPRT and rating tables against published numbers and independent formulas."""

from __future__ import annotations

import math
import random

import pytest

from splendor_mcts.tournament.elo import (
    Pentanomial,
    WinLossDraw,
    elo_from_score,
    elo_from_share,
    score_from_elo,
    share_from_elo,
)
from splendor_mcts.tournament.ratings import ScoredGame, elo_table, plackett_luce_table
from splendor_mcts.tournament.sprt import SprtConfig, llr, llr_normal_approx, llr_scores, mle_with_mean

# (wins, losses, draws) -> (Elo, 95% error, LOS %, draw ratio %) exactly as cutechess-cli printed
# them in published match logs.
CUTECHESS_OUTPUTS = [
    ((4, 189, 7), (-563.7, 127.4, 0.0, 3.5)),
    ((6, 174, 20), (-424.3, 75.5, 0.0, 10.0)),
    ((133, 146, 31), (-14.6, 36.8, 21.8, 10.0)),
    ((11, 22, 67), (-38.4, 39.0, 2.8, 67.0)),
    ((34, 44, 17), (-36.7, 64.2, 12.9, 17.9)),
    ((28, 64, 8), (-130.9, 70.8, 0.0, 8.0)),
]


@pytest.mark.parametrize("wld, expected", CUTECHESS_OUTPUTS)
def test_elo_matches_cutechess_output(wld: tuple[int, int, int], expected: tuple[float, ...]) -> None:
    r = WinLossDraw(*wld)
    e = r.elo()
    assert round(e.elo, 1) == expected[0]
    assert round(e.error, 1) == expected[1]
    assert round(100 * r.los(), 1) == expected[2]
    assert round(100 * r.draw_ratio, 1) == expected[3]


def test_textbook_elo_of_a_score() -> None:
    # Elo's logistic table: a 75% score is +190.8 Elo, 64% is +100 Elo (rounded), 50% is 0.
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert round(elo_from_score(0.75), 1) == 190.8
    assert round(elo_from_score(0.64)) == 100
    assert elo_from_score(0.5) == 0.0
    assert score_from_elo(elo_from_score(0.3)) == pytest.approx(0.3)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_pentanomial_counts_and_error() -> None:
    p = Pentanomial.from_pair_scores([0, 0.5, 1, 1, 1.5, 2, 2, 2])
    assert p.counts == (1, 1, 2, 1, 3)
    e = p.elo()
    scores = [0, 0.25, 0.5, 0.5, 0.75, 1, 1, 1]
    mu = sum(scores) / 8
    sd = math.sqrt(sum((s - mu) ** 2 for s in scores) / 8 / 8)
    assert e.elo == pytest.approx(elo_from_score(mu))
    assert e.error == pytest.approx((elo_from_score(mu + 1.959964 * sd) - elo_from_score(mu - 1.959964 * sd)) / 2,
                                    rel=1e-5)
    with pytest.raises(ValueError, match="pair score 0.3"):
        Pentanomial.from_pair_scores([0.3])


def test_mle_with_mean_has_the_mean_and_is_a_distribution() -> None:
    phat = [0.1, 0.2, 0.3, 0.25, 0.15]
    scores = [0, 0.25, 0.5, 0.75, 1]
    for s in (0.45, 0.5, 0.52, 0.6):
        p = mle_with_mean(phat, scores, s)
        assert sum(p) == pytest.approx(1.0)
        assert sum(a * x for a, x in zip(scores, p)) == pytest.approx(s, abs=1e-9)
        assert all(x > 0 for x in p)


@pytest.mark.parametrize("counts", [(10, 90, 200, 80, 20), (30, 40, 30), (5, 60, 180, 70, 8), (120, 110, 140)])
def test_gsprt_llr_agrees_with_normal_approximation(counts: tuple[int, ...]) -> None:
    # For small Elo differences the exact GSPRT LLR and the normal approximation agree closely.
    exact = llr(counts, 0.0, 5.0)
    approx = llr_normal_approx(counts, 0.0, 5.0)
    assert exact == pytest.approx(approx, rel=0.02, abs=0.02)


def test_llr_sign_follows_the_evidence() -> None:
    assert llr((0, 0, 0, 0, 0), 0, 10) == 0.0
    strong = llr((2, 10, 40, 30, 18), 0, 10)
    weak = llr((18, 30, 40, 10, 2), 0, 10)
    assert strong > 0 > weak
    with pytest.raises(ValueError, match="3 .* or 5"):
        llr((1, 2), 0, 10)


def test_share_from_elo_is_the_logistic_score_for_two_and_luce_beyond() -> None:
    for elo in (-300.0, -20.0, 0.0, 55.0, 400.0):
        assert share_from_elo(elo, 2) == pytest.approx(score_from_elo(elo))
    assert share_from_elo(0.0, 3) == pytest.approx(1 / 3) and share_from_elo(0.0, 4) == pytest.approx(1 / 4)
    # 400 Elo over each of 3 others: ten times as likely to win as each of them, 10 / (10 + 3).
    assert share_from_elo(400.0, 4) == pytest.approx(10 / 13)
    for players in (2, 3, 4):
        for share in (0.05, 0.3, 0.477, 0.9):
            assert share_from_elo(elo_from_share(share, players), players) == pytest.approx(share)
        assert elo_from_share(0.0, players) == -math.inf and elo_from_share(1.0, players) == math.inf
    with pytest.raises(ValueError, match="at least 2 players"):
        share_from_elo(0.0, 1)


def test_llr_over_scores_is_the_pentanomial_llr_on_pair_scores() -> None:
    # Where every pentanomial category is seen, the same sample as scores gives the same LLR.
    counts = (7, 31, 80, 45, 12)
    values = [k / 4 for k, c in enumerate(counts) for _ in range(c)]
    for elo0, elo1 in ((0.0, 10.0), (-5.0, 5.0), (100.0, 150.0)):
        want = llr(counts, elo0, elo1)
        assert llr_scores(values, score_from_elo(elo0), score_from_elo(elo1)) == pytest.approx(want, rel=1e-9)
    assert llr_scores([], 0.3, 0.4) == 0.0


def test_llr_over_scores_follows_the_evidence_and_refuses_bad_input() -> None:
    rng = random.Random(3)
    # 3-player deals: the mean of 3 shares, each 1 (a win) with probability p, else 0.
    def deals(p: float, n: int) -> list[float]:
        return [sum(rng.random() < p for _ in range(3)) / 3 for _ in range(n)]
    s0, s1 = share_from_elo(0.0, 3), share_from_elo(50.0, 3)
    assert llr_scores(deals(0.55, 300), s0, s1) > 2.94  # clearly stronger: H1
    assert llr_scores(deals(0.25, 300), s0, s1) < -2.94  # clearly weaker: H0
    assert llr_scores([1.0] * 5, s0, s1) > 0 > llr_scores([0.0] * 5, s0, s1)  # one-sided samples stay finite
    with pytest.raises(ValueError, match=r"lie in \(0, 1\)"):
        llr_scores([0.5], 0.0, 0.5)
    with pytest.raises(ValueError, match=r"scores must lie in \[0, 1\]"):
        llr_scores([0.5, 1.5], 0.3, 0.4)


def test_sprt_bounds_and_parsing() -> None:
    c = SprtConfig.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"])
    # Wald's bounds for alpha = beta = 0.05: +-log(19) = +-2.944 (cutechess prints +-2.94).
    assert c.upper == pytest.approx(math.log(19)) and c.lower == pytest.approx(-math.log(19))
    assert c.verdict(3.0) == "H1" and c.verdict(-3.0) == "H0" and c.verdict(0.1) is None
    with pytest.raises(ValueError, match="elo1 > elo0"):
        SprtConfig.parse(["elo0=5", "elo1=0"])
    with pytest.raises(ValueError, match="alpha"):
        SprtConfig.parse(["alpha=0.7"])
    with pytest.raises(ValueError, match="gamma"):
        SprtConfig.parse(["gamma=1"])
    with pytest.raises(ValueError, match="number"):
        SprtConfig.parse(["elo0=x"])


def _games(results: list[tuple[tuple[int, int], tuple[float, float]]]) -> list[ScoredGame]:
    return [ScoredGame(i, 0, i // 2, seats, res) for i, (seats, res) in enumerate(results)]


def test_two_agent_elo_table_reproduces_the_match_elo() -> None:
    # A scores 13.5 of 20 against B: the rating difference equals the cutechess Elo difference.
    results = [((0, 1), (1.0, 0.0))] * 12 + [((1, 0), (0.5, 0.5))] * 3 + [((1, 0), (1.0, 0.0))] * 5
    games = _games(results)
    table = elo_table(["A", "B"], games)
    a, b = sorted(table.rows, key=lambda r: r.agent)
    assert a.rating - b.rating == pytest.approx(WinLossDraw(12, 5, 3).elo().elo, abs=1e-6)
    assert a.rating == pytest.approx(-b.rating)
    assert a.error > 0 and a.score == pytest.approx(13.5 / 20)
    assert table.rows[0].name == "A" and table.note == ""


def test_three_agent_elo_table_orders_and_uses_prior_for_perfect_scores() -> None:
    results = ([((0, 1), (1.0, 0.0)), ((1, 0), (0.0, 1.0))] * 4 + [((1, 2), (1.0, 0.0)), ((2, 1), (0.0, 1.0))] * 4
               + [((0, 2), (1.0, 0.0)), ((2, 0), (0.0, 1.0))] * 4)
    table = elo_table(["A", "B", "C"], _games(results))
    assert [r.name for r in table.rows] == ["A", "B", "C"]
    assert "prior" in table.note and all(math.isfinite(r.rating) for r in table.rows)
    mixed = results + [((2, 0), (1.0, 0.0)), ((1, 0), (0.5, 0.5)), ((2, 1), (1.0, 0.0))]
    table = elo_table(["A", "B", "C"], _games(mixed))
    assert table.note == ""
    assert sum(r.rating for r in table.rows) == pytest.approx(0.0, abs=1e-6)


def test_plackett_luce_table_ranks_the_usual_winner_first() -> None:
    games = [ScoredGame(i, 0, i, (0, 1, 2), (1.0, 0.0, 0.0) if i % 4 else (0.0, 1.0, 0.0)) for i in range(20)]
    table = plackett_luce_table(["A", "B", "C"], games)
    assert table.kind == "plackett-luce"
    assert table.rows[0].name == "A" and table.rows[0].games == 20
    assert table.rows[0].rating > table.rows[-1].rating
    assert table.rows[0].score == pytest.approx(15 / 20)


def test_decision_times_are_shown_to_three_digits_in_a_fitting_unit() -> None:
    from splendor_mcts.tournament.report import format_seconds

    shown = [format_seconds(x) for x in (2.5, 0.99951, 0.0125, 0.00084, 3.2e-6, 0.0, 12345.0)]
    assert shown == ["2.5 s", "1 s", "12.5 ms", "840 us", "3.2 us", "0 us", "12300 s"]
