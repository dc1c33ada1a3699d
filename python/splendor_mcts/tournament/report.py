"""A tournament's result and its reports in the shapes people know (cutechess-cli lines, a
rating table), and the ratings plot."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from .elo import WinLossDraw
from .matches import MatchStats
from .ratings import RatingTable, ScoredGame
from .sprt import SprtConfig


@dataclass(frozen=True)
class SprtStatus:
    config: SprtConfig
    llr: float
    verdict: str | None  # "H0", "H1" or None
    pairs: int


@dataclass
class TournamentResult:
    """Everything the reports need, computed from the database."""

    game_spec: str
    num_players: int
    names: list[str]
    games: list[ScoredGame]
    scheduled: int
    played_now: int
    table: RatingTable
    matches: list[MatchStats]
    sprt: SprtStatus | None
    forfeits: list[tuple[int, int, str]] = field(default_factory=list)
    think_times: list[tuple[int, float, int]] = field(default_factory=list)
    elapsed: float = 0.0
    # (game id, problem) of stored games whose stated result their replay contradicts
    contradictions: list[tuple[int, str]] = field(default_factory=list)

    def report(self) -> str:
        """The full end-of-run report (:func:`format_report`)."""
        return format_report(self)


def _fmt(x: float, digits: int = 1) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"


def wld_line(label: str, r: WinLossDraw) -> str:
    """``label: W - L - D  [0.xxx] N`` as cutechess prints it."""
    score = "nan" if r.games == 0 else f"{r.score:.3f}"
    return f"{label}: {r.wins} - {r.losses} - {r.draws}  [{score}] {r.games}"


def format_match(m: MatchStats, names: list[str]) -> list[str]:
    """The cutechess block for one pairing, plus the pentanomial line (fastchess style)."""
    a, b = names[m.a], names[m.b]
    e = m.overall.elo()
    pe = m.pentanomial.elo()
    p = m.pentanomial.counts
    return [
        wld_line(f"Score of {a} vs {b}", m.overall),
        wld_line(f"...      {a} playing seat 1", m.by_seat[0]),
        wld_line(f"...      {a} playing seat 2", m.by_seat[1]),
        wld_line("...      Seat 1 vs Seat 2", m.seat0_vs_seat1),
        f"Elo difference: {_fmt(e.elo)} +/- {_fmt(e.error)}, LOS: {100 * m.overall.los():.1f} %, "
        f"DrawRatio: {_fmt(100 * m.overall.draw_ratio)} %",
        f"Ptnml(0-2): [{p[0]}, {p[1]}, {p[2]}, {p[3]}, {p[4]}], "
        f"Elo (pentanomial): {_fmt(pe.elo)} +/- {_fmt(pe.error)} over {m.pentanomial.pairs} deal pairs",
    ]


def format_sprt(s: SprtStatus) -> str:
    """``SPRT: llr 2.97 (101.0%), lbound -2.94, ubound 2.94 - H1 was accepted``."""
    c = s.config
    bound = c.upper if s.llr >= 0 else c.lower
    percent = 100.0 * s.llr / abs(bound)
    text = (f"SPRT (elo0={c.elo0:g}, elo1={c.elo1:g}, alpha={c.alpha:g}, beta={c.beta:g}): "
            f"llr {s.llr:.2f} ({percent:.1f}%), lbound {c.lower:.2f}, ubound {c.upper:.2f}")
    if s.verdict == "H1":
        return text + " - H1 was accepted"
    if s.verdict == "H0":
        return text + " - H0 was accepted"
    return text + " - no verdict yet"


def format_table(table: RatingTable) -> list[str]:
    """Rank, name, rating +/- 95% error, games, score."""
    head = "Elo" if table.kind == "elo" else "PL mu"
    width = max([len(r.name) for r in table.rows] + [5])
    lines = [f"{'Rank':>4}  {'Name':<{width}}  {head:>8}  {'+/-':>6}  {'Games':>6}  {'Score':>6}"]
    for rank, r in enumerate(table.rows, start=1):
        score = "nan" if math.isnan(r.score) else f"{100 * r.score:.1f}%"
        lines.append(f"{rank:>4}  {r.name:<{width}}  {_fmt(r.rating):>8}  {_fmt(r.error):>6}  {r.games:>6}  {score:>6}")
    if table.note:
        lines.append(f"({table.note})")
    return lines


def format_seconds(seconds: float) -> str:
    """A duration to 3 significant digits in s, ms or us: ``1.25 s``, ``12.5 ms``, ``840 us``."""
    shown = float(f"{seconds:.3g}")
    unit, scale = ("s", 1.0) if shown >= 1 else ("ms", 1e-3) if shown >= 1e-3 else ("us", 1e-6)
    value = shown / scale
    return f"{value:.3g} {unit}" if value < 1000 else f"{value:.0f} {unit}"


def format_report(result: TournamentResult) -> str:
    """The full end-of-run report."""
    lines = [
        f"Game: {result.game_spec}   games stored: {len(result.games)} of {result.scheduled} scheduled"
        f"   played by this run: {result.played_now} in {result.elapsed:.1f} s"
    ]
    for m in result.matches:
        lines.append("")
        lines.extend(format_match(m, result.names))
    if result.sprt is not None:
        lines.append(format_sprt(result.sprt))
    lines.append("")
    lines.extend(format_table(result.table))
    if result.think_times:
        lines.append("")
        lines.append("Time per decision: " + ", ".join(
            f"{result.names[a]} {format_seconds(t / c)}" for a, t, c in result.think_times if c))
    if result.forfeits:
        lines.append("")
        lines.append(f"Forfeits ({len(result.forfeits)}):")
        for game_id, agent, reason in result.forfeits[:20]:
            lines.append(f"  game {game_id}: {result.names[agent]} - {reason}")
        if len(result.forfeits) > 20:
            lines.append(f"  ... and {len(result.forfeits) - 20} more")
    lines.extend(format_contradictions(result.contradictions))
    return "\n".join(lines)


def format_contradictions(contradictions: list[tuple[int, str]]) -> list[str]:
    """The report's lines flagging stored games whose stated result their replay contradicts."""
    if not contradictions:
        return []
    lines = ["", f"Results that contradict their replay ({len(contradictions)}; counted as stored):"]
    lines.extend(f"  game {game_id}: {problem}" for game_id, problem in contradictions[:20])
    if len(contradictions) > 20:
        lines.append(f"  ... and {len(contradictions) - 20} more")
    return lines


def plot_ratings(table: RatingTable, path: str | Path, title: str = "") -> None:
    """Horizontal bars of each agent's rating with its 95% error bar, best on top (matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'splendor-mcts[tournament]'") from None
    rows = list(reversed(table.rows))
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    values = [r.rating if math.isfinite(r.rating) else 0.0 for r in rows]
    errors = [r.error if math.isfinite(r.error) else 0.0 for r in rows]
    ax.barh([r.name for r in rows], values, xerr=errors, capsize=4, color="#4c78a8")
    if table.kind == "elo":
        ax.axvline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("Elo (mean 0), 95% error" if table.kind == "elo" else "Plackett-Luce mu, 95% error")
    ax.set_title(title or "Ratings")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
