"""``splendor-mcts tournament``: a rated, seat-rotated, resumable tournament between agents
(:mod:`splendor_mcts.tournament`, docs/tournaments.md)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import exit_codes
from ..charts import check_chart_path
from ..ranges import ANY_NUMBER, WHOLE
from ..records import write_jsonl
from ..tournament.charts import plot_tournament
from ..tournament.progress import make_progress
from ..tournament.report import TournamentResult
from ..tournament.runner import Progress, Tournament, TournamentConfig, _load_game
from ..tournament.schedule import MODES, deals_for_games
from ..tournament.sprt import SprtConfig
from ..tournament.store import TournamentStore
from ..wording import counted
from .options import add, arg, command_parser

EXAMPLES = """examples:
  splendor-mcts tournament mcts:iterations=400 greedy --deals 50
  splendor-mcts tournament mcts:iterations=800,name=new mcts:iterations=400,name=old \\
      --deals 5000 --sprt elo0=0 elo1=20 alpha=0.05 beta=0.05 --db ab.sqlite
  splendor-mcts tournament mcts:iterations=1000,exploration=0.6,name=c06 mcts:iterations=1000,name=c04 \\
      --deals 2000 --sprt elo0=0 elo1=20 --db c.sqlite
  splendor-mcts tournament random greedy mcts:iterations=100 mcts:iterations=300 --players 4 --deals 10
  splendor-mcts tournament mcts:time=0.1,name=net "mcts:time=0.1,network=none,name=r1" \\
      "mcts:time=0.1,network=none,name=r2" --players 3 --deals 500 --sprt elo0=-5 elo1=5 --db net3p.sqlite
  splendor-mcts tournament mcts:time=0.1,name=net "mcts:time=0.1,network=none,name=r1" \\
      "mcts:time=0.1,network=none,name=r2" --players 3 --deals 500 --sprt elo0=-5 elo1=5 --db net3p.sqlite --report
  splendor-mcts tournament mcts:time=0.5 greedy --game duel --backend ray --ray-address auto
  splendor-mcts tournament 'engine:cmd="./mybot --level 3",name=mybot' mcts:iterations=1000 --tc 60+0.5
"""

# The options' defaults are the configuration's (its fields' defaults, as class attributes).
DEFAULTS = TournamentConfig


def register(subparsers: Any) -> None:
    """Add ``tournament`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
        "tournament", help="play a rated, seat-rotated, resumable tournament between agents",
        description="Play every deal with every seat rotation between the given agents, store each game "
        "in a SQLite database as it ends, and print cutechess-style results and a rating table. "
        "Running the same command again resumes. Exit codes: 0 done; 1 the run cannot go on (a worker died, "
        "another tournament is using the database, the disk is full, the database is read-only with games "
        "left to play); 2 bad input (options, agents, a database that is not this tournament's or has a bad "
        "row); 130 interrupted. Finished games are never lost.",
        epilog=EXAMPLES)
    p.add_argument("agents", nargs="+", metavar="AGENT",
                   help="agent spec: mcts[:key=value,...] with any search setting (iterations=N, time=SECONDS, "
                   "threads, parallelism, exploration, evaluator, rollout_cutoff, ...; docs/search.md) | greedy | "
                   "random | module:Class[:k=v,...] (imports and runs that module: see 'Code a tournament "
                   "runs' in docs/tournaments.md) | engine:cmd=\"PROGRAM ARGS\"[,tc=60+0.5|movetime=1|iterations=N,"
                   "option.NAME=VALUE] (runs that program: docs/engine-protocol.md) | splendor-tools:cmd=\"PROGRAM\" "
                   "(a splendor-tools referee agent; docs/splendor-tools.md); add name=LABEL to any spec")
    add(p, "game")
    add(p, "players")
    p.add_argument("--mode", choices=MODES, default=DEFAULTS.mode,
                   help="round-robin: every group of agents meets; gauntlet: the first agent meets every other")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=arg(WHOLE),
                       help=f"deals per pairing; each is played once per seat rotation (default {DEFAULTS.deals})")
    count.add_argument("--games", type=arg(WHOLE), help="games per pairing (a multiple of the number of players)")
    add(p, "seed", what="tournament seed: fixes every deal", default=DEFAULTS.seed)
    add(p, "db", what="SQLite database of the games", default=DEFAULTS.db)
    p.add_argument("--concurrency", type=arg(WHOLE), help="games played at once (default: all cores)")
    add(p, "backend", default=DEFAULTS.backend)
    add(p, "ray_address")
    p.add_argument("--tc", metavar="BASE+INC", help="clock of every engine:... agent without its own limit, in "
                   "seconds (e.g. 60+0.5); the tournament keeps it and an engine that runs out loses")
    p.add_argument("--movetime", type=arg(ANY_NUMBER), metavar="SECONDS",
                   help="seconds per decision for every engine:... agent without its own limit")
    add(p, "max_decisions", what="adjudicate a game still going", outcome="a draw, every seat an equal share",
        why=", as self-play; neither game has a turn limit and weak agents can loop", default=DEFAULTS.max_decisions)
    p.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                   help="stop early on agent 1's result against the others (as many agents as seats): "
                   "elo0=0 elo1=10 alpha=0.05 beta=0.05")
    add(p, "plot", what="a chart", shows="the ratings, the head-to-head score matrix and the ratings over the games")
    p.add_argument("--export", metavar="JSONL", help="also write every stored game as JSON lines")
    p.add_argument("--report", action="store_true",
                   help="play nothing: print the results of the games already in --db, also while another run "
                   "of the same tournament is still playing them (a missing database is refused, none is created)")
    add(p, "no_progress", how=" (a progress bar on a terminal, else progress lines)")
    add(p, "json", what="the results (ratings, matches, places, head to head)")
    add(p, "game_loader", why="", takes="(spec, players=...)",
        where=", here and in every worker, from the import path: with python -m, the working directory comes first",
        default=DEFAULTS.loader)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play (or with --report read) the tournament and print its results; the exit code."""
    sprt = SprtConfig.parse(args.sprt) if args.sprt else None
    deals = args.deals if args.deals is not None else DEFAULTS.deals
    if args.games is not None:
        game = _load_game(args.game_loader, args.game, args.players)
        deals = deals_for_games(args.games, game.num_players())
    config = TournamentConfig(
        game=args.game, agents=tuple(args.agents), players=args.players, mode=args.mode, deals=deals,
        seed=args.seed, db=args.db, concurrency=args.concurrency, backend=args.backend,
        ray_address=args.ray_address, sprt=sprt, loader=args.game_loader, tc=args.tc, movetime=args.movetime,
        max_decisions=args.max_decisions,
    )
    if args.plot:
        check_chart_path(args.plot)
    tournament = Tournament(config)  # validates everything before the database is touched
    result = tournament.stored() if args.report else _play(tournament, args)
    if result is None:
        return exit_codes.INTERRUPTED
    return _report(result, args)


def _play(tournament: Tournament, args: argparse.Namespace) -> TournamentResult | None:
    """Play the games left, with a progress display; None if interrupted by Ctrl-C or SIGTERM (the
    command line turns SIGTERM into ``KeyboardInterrupt``): the workers are closed, what was played
    is stored."""
    display = make_progress(not args.no_progress)
    latest: list[Progress] = []

    def progress(p: Progress) -> None:
        latest[:] = [p]
        if display is not None:
            display(p)

    try:
        return tournament.run(progress)
    except KeyboardInterrupt:
        if display is not None:
            display.close()
            display = None
        stored = f"{len(latest[0].games)} of {latest[0].total} games are stored in {args.db}" if latest else \
            f"the games played are stored in {args.db}"
        print(f"splendor-mcts tournament: interrupted; {stored}: run the same command to resume", file=sys.stderr)
        return None
    finally:
        if display is not None:
            display.close()


def _report(result: TournamentResult, args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result.report())
    if args.plot:
        plot_tournament(result, args.plot)
        print(f"Chart: {args.plot}", file=sys.stderr if args.json else sys.stdout)
    if args.export:
        store = TournamentStore.open_existing(args.db)
        try:
            count = write_jsonl(store.records(), args.export)
        except OSError as exc:  # the command line says what; here, that no game is lost
            exc.add_note(f"every game is kept in {args.db}: write them with splendor-mcts export --db {args.db} -o FILE")
            raise
        finally:
            store.close()
        print(f"Exported {counted(count, 'game')} to {args.export}", file=sys.stderr if args.json else sys.stdout)
    return 0
