"""Head-to-head strength of two agents: a two-agent tournament, seats rotated on each deal.

    python bench/strength.py --a "mcts:iterations=1000" --b random --games 200
    python bench/strength.py --a "mcts:iterations=4000" --b "mcts:iterations=1000" --games 200 --workers 2
    python bench/strength.py --a "mcts:iterations=1000,exploration=0.6" --b "mcts:iterations=1000" \\
        --games 2000 --sprt elo0=0 elo1=20

Agents are tournament agent specs (docs/tournaments.md): ``random``, ``greedy``,
``mcts:<search settings>`` (every setting of docs/search.md, e.g. ``rollout=random``,
``exploration=0.6``, ``parallelism=tree``). Each deal is played twice, seats swapped.
Prints A's score (win 1, shared win 1/2, loss 0) with a 95% interval (normal
approximation on the per-game scores) and W-L-D; with ``--sprt`` the games stop at the
test's verdict (2-player games only), which is printed too, then the tournament's full
report (Elo with its 95% interval, pentanomial counts, the SPRT line). ``--db`` keeps the
games: the same command again resumes a stopped run, and ``--report`` prints what a
database holds without playing more.
"""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

from splendor_mcts import exit_codes
from splendor_mcts.tournament import (DatabaseInUse, SprtConfig, Tournament, TournamentConfig,
                                     TournamentDatabaseError, TournamentResult)
from splendor_mcts.tournament.elo import mean_score, score_interval
from splendor_mcts.tournament.report import format_report


def agent_specs(a: str, b: str) -> tuple[str, str]:
    """The two specs; identical ones get the display names A and B (a tournament needs two names)."""
    if a.strip() != b.strip():
        return a, b
    sep = "," if ":" in a else ":"
    return f"{a}{sep}name=A", f"{b}{sep}name=B"


def score_line(result: TournamentResult) -> str:
    """A's score with its 95% interval and W-L-D."""
    scores = [g.result[g.seats.index(0)] for g in result.games]
    n = len(scores)
    wins = sum(1 for s in scores if s == 1.0)
    losses = sum(1 for s in scores if s == 0.0)
    return f"score {score_interval(*mean_score(scores))} W-L-D {wins}-{losses}-{n - wins - losses}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="splendor", help="game name or spec (default splendor)")
    ap.add_argument("--a", required=True, help="agent A's spec")
    ap.add_argument("--b", required=True, help="agent B's spec")
    ap.add_argument("--games", type=int, default=200, help="games (two per deal, seats swapped; default 200)")
    ap.add_argument("--seed", type=int, default=0, help="tournament seed: the deals and the agents' seeds")
    ap.add_argument("--workers", type=int, default=1, help="games played at once (default 1)")
    ap.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                    help="stop at the SPRT verdict of A against B: elo0= elo1= alpha= beta= (docs/tournaments.md)")
    ap.add_argument("--db", help="tournament database to keep (and resume); default: a temporary one")
    ap.add_argument("--report", action="store_true", help="only report the games stored in --db (play none)")
    args = ap.parse_args()
    if args.games < 2:
        ap.error(f"--games must be at least 2, got {args.games}")
    if args.report and not (args.db and Path(args.db).is_file()):
        ap.error(f"--report needs --db naming an existing tournament database, got {args.db!r}")
    a, b = agent_specs(args.a, args.b)
    with tempfile.TemporaryDirectory() as scratch:
        config = TournamentConfig(
            game=args.game, agents=(a, b), deals=math.ceil(args.games / 2), seed=args.seed,
            db=args.db or Path(scratch) / "strength.sqlite", concurrency=args.workers,
            sprt=SprtConfig.parse(args.sprt) if args.sprt else None)
        start = time.perf_counter()
        try:
            tournament = Tournament(config)
        except ValueError as exc:  # e.g. a 3-player game with two agents, an unknown setting
            ap.error(str(exc))
        try:
            result = tournament.stored() if args.report else tournament.run()
        except (DatabaseInUse, TournamentDatabaseError) as exc:  # e.g. a run already playing this --db
            ap.error(str(exc))
        except KeyboardInterrupt:
            kept = f"the games played are stored in {args.db}: run the same command to resume" if args.db else \
                "the games played are lost (no --db)"
            print(f"strength.py: interrupted; {kept}", file=sys.stderr)
            raise SystemExit(exit_codes.INTERRUPTED) from None
    print(f"{args.game} A={args.a} B={args.b} games={len(result.games)} seed={args.seed}: {score_line(result)} "
          f"({time.perf_counter() - start:.0f}s)")
    if result.sprt is not None:
        s = result.sprt
        verdict = {"H1": "H1 accepted (A is stronger)", "H0": "H0 accepted (A is not stronger)"}.get(
            s.verdict or "", "no verdict yet")
        print(f"SPRT elo0={s.config.elo0:g} elo1={s.config.elo1:g}: LLR {s.llr:.2f} "
              f"[{s.config.lower:.2f}, {s.config.upper:.2f}] over {s.pairs} game pairs: {verdict}")
    print()
    print(format_report(result))


if __name__ == "__main__":
    main()
