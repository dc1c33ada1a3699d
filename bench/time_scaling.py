"""How strength grows with thinking time, for two searches: a ladder of 2-player tournaments.

    python bench/time_scaling.py --game splendor --dir scaling-s2p \\
        --base "mcts" --new "mcts:network=shipped,value_mix=0.5" --times 0.1 0.3 1 3 --games 200 --workers 2

For each time t of ``--times`` (seconds a move, one thread) it plays, seats rotated on every
deal:

* ``new-<t>s`` against ``base-<t>s``: the two searches at equal time;
* ``base-<t>s`` against ``base-<t'>s`` and ``new-<t>s`` against ``new-<t'>s``, t' the time before t: how
  much each search gains from more time.

Each match is a tournament database in ``--dir`` (``equal-<t>.sqlite``,
``base-<t>-vs-<t'>.sqlite``, ``new-...``), so the same command again resumes, ``--only``
plays some of them, and ``--report`` prints the table from what is stored. The table gives
each match's games, the first agent's score with its 95% interval and the Elo difference
(cutechess's formula and margin), then each search's Elo relative to ``base`` at the first
time: the ladder's steps summed, their margins added in quadrature (an approximation: the
steps are independent matches). ``--sprt`` stops each match at its verdict.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

from splendor_mcts.tournament import (DatabaseInUse, Progress, ScoredGame, SprtConfig, Tournament, TournamentConfig,
                                     TournamentDatabaseError, TournamentResult)
from splendor_mcts.tournament.elo import WinLossDraw, score_interval
from splendor_mcts.tournament.matches import match_stats


@dataclass(frozen=True)
class Match:
    """One tournament of the ladder: ``a`` against ``b``."""

    key: str
    a: str
    b: str


def with_time(spec: str, seconds: float, name: str) -> str:
    """An mcts spec with a time limit and a display name (the spec's own iterations are dropped)."""
    head, _, settings = spec.partition(":")
    kept = [s for s in settings.split(",") if s and not s.startswith(("time=", "iterations=", "name=", "threads="))]
    return f"{head}:" + ",".join([*kept, f"time={seconds:g}", "threads=1", f"name={name}"])


def ladder(base: str, new: str, times: list[float]) -> list[Match]:
    """The matches: equal time at every time, then each search's steps up the ladder."""
    matches = [Match(f"equal-{t:g}", with_time(new, t, f"new-{t:g}s"), with_time(base, t, f"base-{t:g}s")) for t in times]
    for label, spec in (("base", base), ("new", new)):
        for low, high in zip(times, times[1:]):
            matches.append(Match(f"{label}-{high:g}-vs-{low:g}", with_time(spec, high, f"{label}-{high:g}s"),
                                 with_time(spec, low, f"{label}-{low:g}s")))
    return matches


def overall(games: list[ScoredGame]) -> WinLossDraw:
    """The first agent's wins, losses and draws against the second."""
    return match_stats(0, 1, games).overall


def run_match(match: Match, args: argparse.Namespace) -> TournamentResult:
    config = TournamentConfig(
        game=args.game, agents=(match.a, match.b), deals=math.ceil(args.games / 2), seed=args.seed,
        db=Path(args.dir) / f"{match.key}.sqlite", concurrency=args.workers,
        sprt=SprtConfig.parse(args.sprt) if args.sprt else None)
    tournament = Tournament(config)
    if args.report:
        return tournament.stored()
    return tournament.run(on_game=lambda progress: print(progress_line(match, progress), flush=True))


def progress_line(match: Match, progress: Progress) -> str:
    """A match's state after each stored game: a ladder runs for hours."""
    wld = overall(progress.games)
    score = f", score {wld.score:.3f}" if wld.games else ""
    return (f"{match.key}: {len(progress.games)} of {progress.total} games, "
            f"{display_name(match.a)} {wld.wins}-{wld.losses}-{wld.draws}{score}")


def display_name(spec: str) -> str:
    return spec.rpartition("name=")[2]


def table(rows: list[tuple[Match, WinLossDraw]], times: list[float], base: str, new: str) -> str:
    """Each match's line, then each search's Elo against base at the first time."""
    lines = [f"base: {base}", f"new: {new}", "",
             "| match | games | score of the first, 95% interval | Elo |", "|---|---:|---|---|"]
    elo: dict[str, tuple[float, float]] = {}
    for match, wld in rows:
        estimate = wld.elo()
        interval = score_interval(wld.score, wld.sigma) if wld.games else "-"
        lines.append(f"| {display_name(match.a)} vs {display_name(match.b)} | {wld.games} | {interval} | {estimate} |")
        elo[match.key] = (estimate.elo, estimate.error)
    lines += ["", "| search | " + " | ".join(f"{t:g} s" for t in times) + " |",
              "|---|" + "---:|" * len(times)]
    base_steps = [(0.0, 0.0)] + [elo.get(f"base-{h:g}-vs-{lo:g}", (math.nan, math.nan)) for lo, h in zip(times, times[1:])]
    new_steps = [elo.get(f"new-{h:g}-vs-{lo:g}", (math.nan, math.nan)) for lo, h in zip(times, times[1:])]
    base_cum, new_cum = _cumulative(base_steps), _cumulative([elo.get(f"equal-{times[0]:g}", (math.nan, math.nan)),
                                                              *new_steps])
    lines.append("| base | " + " | ".join(_fmt(v) for v in base_cum) + " |")
    lines.append("| new (ladder) | " + " | ".join(_fmt(v) for v in new_cum) + " |")
    equal = [elo.get(f"equal-{t:g}", (math.nan, math.nan)) for t in times]
    lines.append("| new - base at equal time | " + " | ".join(_fmt(v) for v in equal) + " |")
    return "\n".join(lines)


def _cumulative(steps: list[tuple[float, float]]) -> list[tuple[float, float]]:
    total, var, out = 0.0, 0.0, []
    for value, error in steps:
        total += value
        var += error * error
        out.append((total, math.sqrt(var)))
    return out


def _fmt(value: tuple[float, float]) -> str:
    elo, error = value
    if not math.isfinite(elo):
        return "-"
    return f"{elo:+.0f}" if error == 0 else f"{elo:+.0f} +/- {error:.0f}" if math.isfinite(error) else f"{elo:+.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="splendor", help="a 2-player game spec (default splendor)")
    ap.add_argument("--dir", required=True, help="folder of the matches' tournament databases (resumable)")
    ap.add_argument("--base", default="mcts", help="the reference search (default: the default search)")
    ap.add_argument("--new", required=True, help="the search to compare, e.g. mcts:network=shipped,value_mix=0.5")
    ap.add_argument("--times", type=float, nargs="+", default=[0.1, 0.3, 1.0, 3.0], help="seconds a move, rising")
    ap.add_argument("--games", type=int, default=200, help="games per match, at most (default 200)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1, help="games at once (each search has one thread)")
    ap.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="stop each match at its SPRT verdict")
    ap.add_argument("--only", nargs="+", metavar="MATCH", help="play only these matches (keys as in the table)")
    ap.add_argument("--report", action="store_true", help="play nothing: the table of what is stored")
    args = ap.parse_args()
    if args.games < 2:
        ap.error(f"--games must be at least 2, got {args.games}")
    if any(t <= 0 for t in args.times) or args.times != sorted(set(args.times)):
        ap.error(f"--times must be positive and rising, got {args.times}")
    matches = ladder(args.base, args.new, args.times)
    unknown = set(args.only or []) - {m.key for m in matches}
    if unknown:
        ap.error(f"--only: no match {sorted(unknown)}; the matches are {[m.key for m in matches]}")
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    rows = []
    for match in matches:
        stored = (Path(args.dir) / f"{match.key}.sqlite").is_file()
        if args.report or (args.only is not None and match.key not in args.only):
            only_stored = argparse.Namespace(**{**vars(args), "report": True})
            try:
                rows.append((match, overall(run_match(match, only_stored).games) if stored else WinLossDraw(0, 0, 0)))
            except (ValueError, DatabaseInUse, TournamentDatabaseError) as exc:
                ap.error(f"{match.key}: {exc}")
            continue
        try:
            result = run_match(match, args)
        except (ValueError, DatabaseInUse, TournamentDatabaseError) as exc:  # a bad spec or game, a busy database
            ap.error(f"{match.key}: {exc}")
        rows.append((match, overall(result.games)))
        print(f"{display_name(match.a)} vs {display_name(match.b)}: {overall(result.games).elo()} over {len(result.games)} games",
              flush=True)
    print(table(rows, args.times, args.base, args.new))


if __name__ == "__main__":
    main()
