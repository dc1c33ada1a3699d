"""A tournament's result and its reports in the shapes people know (cutechess-cli lines, a
rating table); its charts are in ``charts.py``."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .elo import Z95, EloEstimate, WinLossDraw, elo_from_share, score_interval
from .matches import MatchStats
from .places import Places
from .ratings import RatingTable, ScoredGame
from .sprt import SprtConfig


@dataclass(frozen=True)
class SprtStatus:
    config: SprtConfig
    llr: float
    verdict: str | None  # "H0", "H1" or None
    pairs: int  # finished deals: game pairs in a 2-player game, every rotation of a deal in an N-player one
    players: int = 2
    # N-player games: the first agent's mean share over the finished deals and its standard error
    mean_share: float | None = None
    share_error: float | None = None


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
    places: Places | None = None  # 3-4 players: place counts and head to head
    # (game id, problem) of stored games whose stated result their replay contradicts
    contradictions: list[tuple[int, str]] = field(default_factory=list)
    # agent name -> the shipped network it searched with (shipped:<family>@<hash>)
    networks: dict[str, str] = field(default_factory=dict)
    # (game id, reason) of games adjudicated a draw at the decision cap
    adjudicated: list[tuple[int, str]] = field(default_factory=list)
    # the variant fields seated agents' own protocols fixed, and why (runner._protocol_rules)
    rules: str | None = None
    # how engines under a time limit were charged (engine_agent.CLOCK_RULE), naming them
    clocks: str | None = None

    def report(self) -> str:
        """The full end-of-run report (:func:`format_report`)."""
        return format_report(self)

    def to_dict(self) -> dict[str, Any]:
        """Everything the report shows, as JSON-ready values (agents by name; a number that is
        not finite, such as the Elo of a pairing without a loss, is null, with the report's text)."""
        return {
            "game": self.game_spec, "players": self.num_players, "scheduled": self.scheduled,
            "stored": len(self.games), "playedNow": self.played_now, "seconds": self.elapsed,
            "ratings": {"kind": self.table.kind, "note": self.table.note or None,
                        "rows": [{"rank": rank, "name": r.name, "rating": _finite(r.rating), "error": _finite(r.error),
                                  "games": r.games, "score": _finite(r.score)}
                                 for rank, r in enumerate(self.table.rows, start=1)]},
            "matches": [match_dict(m, self.names) for m in self.matches],
            "sprt": None if self.sprt is None else {
                "elo0": self.sprt.config.elo0, "elo1": self.sprt.config.elo1, "alpha": self.sprt.config.alpha,
                "beta": self.sprt.config.beta, "llr": self.sprt.llr, "verdict": self.sprt.verdict,
                "pairs": self.sprt.pairs, "players": self.sprt.players,
                **({} if self.sprt.mean_share is None else {
                    "meanShare": _finite(self.sprt.mean_share), "shareError": _finite(self.sprt.share_error)})},
            "places": None if self.places is None else self.places.to_dict(),
            "secondsPerDecision": {self.names[a]: t / c for a, t, c in self.think_times if c},
            "forfeits": [{"game": g, "agent": self.names[a], "reason": reason} for g, a, reason in self.forfeits],
            "adjudicated": [{"game": g, "reason": reason} for g, reason in self.adjudicated],
            "networks": dict(self.networks),
            "rules": self.rules,
            "engineClocks": self.clocks,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _wld_dict(r: WinLossDraw) -> dict[str, Any]:
    return {"wins": r.wins, "losses": r.losses, "draws": r.draws, "score": _finite(r.score)}


def _elo_dict(e: EloEstimate) -> dict[str, Any]:
    return {"elo": _finite(e.elo), "error": _finite(e.error), "text": str(e)}


def match_dict(m: MatchStats, names: list[str]) -> dict[str, Any]:
    """One pairing's statistics as JSON (from the first agent's side)."""
    return {"a": names[m.a], "b": names[m.b], **_wld_dict(m.overall),
            "bySeat": [_wld_dict(r) for r in m.by_seat], "seat1VsSeat2": _wld_dict(m.seat0_vs_seat1),
            "elo": _elo_dict(m.overall.elo()), "los": m.overall.los(),
            "pentanomial": {"counts": list(m.pentanomial.counts), "pairs": m.pentanomial.pairs,
                            **_elo_dict(m.pentanomial.elo())}}


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
        f"Elo difference: {e}, LOS: {100 * m.overall.los():.1f} %, "
        f"DrawRatio: {_fmt(100 * m.overall.draw_ratio)} %",
        f"Ptnml(0-2): [{p[0]}, {p[1]}, {p[2]}, {p[3]}, {p[4]}], "
        f"Elo (pentanomial): {pe} over {m.pentanomial.pairs} deal pairs",
    ]


def format_field_share(s: SprtStatus, name: str) -> str:
    """An N-player SPRT's measure: ``Share of net against the field: 0.477 [0.408, 0.545] over 57
    deals (even: 0.333), Elo over each of the others +104 [+55, +151]`` (the first agent's mean
    share per finished deal with a 95% interval, and the Elo that share means by
    ``elo.share_from_elo``)."""
    assert s.mean_share is not None and s.share_error is not None
    even = 1.0 / s.players
    if s.pairs == 0:
        return f"Share of {name} against the field: none yet (no finished deal; even: {even:.3f})"
    mu, z = s.mean_share, Z95 * s.share_error
    low, high = (elo_from_share(x, s.players) for x in (mu - z, mu + z))
    if math.isinf(low) and math.isinf(high):
        bounds = " (too few deals for a 95% interval)"
    elif math.isinf(high):
        bounds = f", 95% above {low:+.0f}"
    elif math.isinf(low):
        bounds = f", 95% below {high:+.0f}"
    else:
        bounds = f" [{low:+.0f}, {high:+.0f}]"
    return (f"Share of {name} against the field: {score_interval(mu, s.share_error)} over {s.pairs} deals "
            f"(even: {even:.3f}), Elo over each of the others {elo_from_share(mu, s.players):+.0f}{bounds}")


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


def format_places(places: Places, table: RatingTable) -> list[str]:
    """Place counts per agent and the head-to-head matrix, agents in the rating table's order
    (the matrix's columns are their ranks)."""
    order = [r.agent for r in table.rows]
    width = max([len(n) for n in places.names] + [4])
    ordinals = ["1st", "2nd", "3rd", "4th"][:len(places.counts[0])]
    lines = ["Places (by result, then points at the end; equals share the better place):",
             f"{'Rank':>4}  {'Name':<{width}}  " + "  ".join(f"{o:>5}" for o in ordinals) + "   Games   Mean"]
    for rank, a in enumerate(order, start=1):
        mean = places.mean_place(a)
        lines.append(f"{rank:>4}  {places.names[a]:<{width}}  " + "  ".join(f"{c:>5}" for c in places.counts[a])
                     + f"  {places.games(a):>6}  " + ("   nan" if math.isnan(mean) else f"{mean:>5.2f}"))
    lines += ["", "Head to head: % of the games two agents played together in which the row's agent finished "
              "ahead (equal places count half), columns by rank:",
              f"{'Rank':>4}  {'Name':<{width}}  " + "  ".join(f"{rank:>6}" for rank in range(1, len(order) + 1))]
    for rank, a in enumerate(order, start=1):
        cells = []
        for b in order:
            n = places.together[a][b]
            cells.append(f"{'-' if a == b or not n else f'{100 * places.ahead[a][b] / n:.1f}':>6}")
        lines.append(f"{rank:>4}  {places.names[a]:<{width}}  " + "  ".join(cells))
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
    if result.rules:
        lines.append(f"Rules: {result.rules}")
    if result.clocks:
        lines.append(f"Engine clocks: {result.clocks}")
    if result.networks:
        lines.append("Shipped networks: " + ", ".join(f"{name} {label}" for name, label in result.networks.items()))
    for m in result.matches:
        lines.append("")
        lines.extend(format_match(m, result.names))
    if result.sprt is not None:
        if result.sprt.mean_share is not None:  # an N-player game: no match lines above
            lines += ["", format_field_share(result.sprt, result.names[0])]
        lines.append(format_sprt(result.sprt))
    lines.append("")
    lines.extend(format_table(result.table))
    if result.places is not None:
        lines.append("")
        lines.extend(format_places(result.places, result.table))
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
    lines.extend(format_adjudicated(result.adjudicated))
    lines.extend(format_contradictions(result.contradictions))
    return "\n".join(lines)


def format_adjudicated(adjudicated: list[tuple[int, str]]) -> list[str]:
    """The report's lines naming the games adjudicated a draw, one line per reason (the cap)."""
    if not adjudicated:
        return []
    by_reason: dict[str, list[int]] = {}
    for game_id, reason in adjudicated:
        by_reason.setdefault(reason, []).append(game_id)
    lines = ["", f"Adjudicated draws ({len(adjudicated)}):"]
    for reason, ids in by_reason.items():
        shown = ", ".join(str(g) for g in ids[:20]) + (f", ... and {len(ids) - 20} more" if len(ids) > 20 else "")
        lines.append(f"  {reason}: game{'s' if len(ids) > 1 else ''} {shown}")
    return lines


def format_contradictions(contradictions: list[tuple[int, str]]) -> list[str]:
    """The report's lines flagging stored games whose stated result their replay contradicts."""
    if not contradictions:
        return []
    lines = ["", f"Results that contradict their replay ({len(contradictions)}; counted as stored):"]
    lines.extend(f"  game {game_id}: {problem}" for game_id, problem in contradictions[:20])
    if len(contradictions) > 20:
        lines.append(f"  ... and {len(contradictions) - 20} more")
    return lines
