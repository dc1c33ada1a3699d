"""``splendor-mcts tournament``, ``splendor-mcts replay`` and ``splendor-mcts export``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import exit_codes
from ..games.limits import MAX_DECISIONS
from ..games.registry import DEFAULT_GAME
from ..ranges import ANY_NUMBER, WHOLE, Whole
from ..records import GameRecord, read_jsonl, replay, result_problem, write_jsonl
from ..wording import counted
from .backends import BACKENDS
from .play import DEFAULT_LOADER
from .progress import make_progress
from ..charts import check_chart_path
from .charts import plot_tournament
from .report import TournamentResult, format_seconds
from .runner import Progress, Tournament, TournamentConfig, _load_game
from .schedule import MODES, deals_for_games
from .sprt import SprtConfig
from .store import TournamentStore

# Text to numbers only: the tournament checks each range (Tournament, with_time_control), the same for its Python API.
_GAME_NUMBER = Whole(0, 2**63 - 1)  # a database's game id (an SQLite INTEGER) or a line number

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

REPLAY_EXAMPLES = """examples:
  splendor-mcts replay --db results.sqlite 17            game id 17
  splendor-mcts replay --records games.jsonl 3 --upto 40 the third record, its first 40 actions
  splendor-mcts replay --db results.sqlite 17 --json     the final state as JSON
"""

EXPORT_EXAMPLES = """examples:
  splendor-mcts export --db results.sqlite -o games.jsonl
  splendor-mcts export --db results.sqlite | splendor-mcts review - --game-index 2
"""


def register(subparsers: Any) -> None:
    """Add the tournament subcommands to the ``splendor-mcts`` parser."""
    p = subparsers.add_parser(
        "tournament", help="play a rated, seat-rotated, resumable tournament between agents",
        description="Play every deal with every seat rotation between the given agents, store each game "
        "in a SQLite database as it ends, and print cutechess-style results and a rating table. "
        "Running the same command again resumes. Exit codes: 0 done; 1 the run cannot go on (a worker died, "
        "another tournament is using the database, the disk is full, the database is read-only with games "
        "left to play); 2 bad input (options, agents, a database that is not this tournament's or has a bad "
        "row); 130 interrupted. Finished games are never lost.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("agents", nargs="+", metavar="AGENT",
                   help="agent spec: mcts[:key=value,...] with any search setting (iterations=N, time=SECONDS, "
                   "threads, parallelism, exploration, evaluator, rollout_cutoff, ...; docs/search.md) | greedy | "
                   "random | module:Class[:k=v,...] (imports and runs that module: see 'Code a tournament "
                   "runs' in docs/tournaments.md) | engine:cmd=\"PROGRAM ARGS\"[,tc=60+0.5|movetime=1|iterations=N,"
                   "option.NAME=VALUE] (runs that program: docs/engine-protocol.md) | splendor-tools:cmd=\"PROGRAM\" "
                   "(a splendor-tools referee agent; docs/splendor-tools.md); add name=LABEL to any spec")
    p.add_argument("--game", default=DEFAULT_GAME, help="game name or spec, e.g. splendor, duel, "
                   f"'splendor(players=4,points_to_win=18)' (default: {DEFAULT_GAME})")
    p.add_argument("--players", type=WHOLE.arg(), help="number of players (default: the game's default)")
    p.add_argument("--mode", choices=MODES, default="round-robin",
                   help="round-robin: every group of agents meets; gauntlet: the first agent meets every other")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=WHOLE.arg(), help="deals per pairing; each is played once per seat rotation (default 10)")
    count.add_argument("--games", type=WHOLE.arg(), help="games per pairing (a multiple of the number of players)")
    p.add_argument("--seed", type=WHOLE.arg(), default=0, help="tournament seed: fixes every deal (default 0)")
    p.add_argument("--db", default="results.sqlite", help="SQLite database of the games (default: ./results.sqlite)")
    p.add_argument("--concurrency", type=WHOLE.arg(), help="games played at once (default: all cores)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="local processes or a Ray cluster")
    p.add_argument("--ray-address", help="address of an existing Ray cluster (default: start a local Ray)")
    p.add_argument("--tc", metavar="BASE+INC", help="clock of every engine:... agent without its own limit, in "
                   "seconds (e.g. 60+0.5); the tournament keeps it and an engine that runs out loses")
    p.add_argument("--movetime", type=ANY_NUMBER.arg(), metavar="SECONDS",
                   help="seconds per decision for every engine:... agent without its own limit")
    p.add_argument("--max-decisions", type=WHOLE.arg(), default=MAX_DECISIONS, metavar="N",
                   help="adjudicate a game still going after N decisions a draw, every seat an equal share "
                   f"(default {MAX_DECISIONS}, as self-play; neither game has a turn limit and weak agents can loop)")
    p.add_argument("--sprt", nargs="+", metavar="KEY=VALUE",
                   help="stop early on agent 1's result against the others (as many agents as seats): "
                   "elo0=0 elo1=10 alpha=0.05 beta=0.05")
    p.add_argument("--plot", metavar="FILE", help="save a chart (PNG or SVG by the suffix; matplotlib): the ratings, "
                   "the head-to-head score matrix and the ratings over the games")
    p.add_argument("--export", metavar="JSONL", help="also write every stored game as JSON lines")
    p.add_argument("--report", action="store_true",
                   help="play nothing: print the results of the games already in --db, also while another run "
                   "of the same tournament is still playing them (a missing database is refused, none is created)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or progress lines")
    p.add_argument("--json", action="store_true",
                   help="print the results as one JSON object (ratings, matches, places, head to head) instead")
    p.add_argument("--game-loader", default=DEFAULT_LOADER, metavar="MODULE:FUNCTION",
                   help="advanced: load the game with another function taking (spec, players=...); the module "
                   "is imported and run, here and in every worker, from the import path (with python -m, the "
                   "working directory comes first)")
    p.set_defaults(func=run_tournament_command)

    r = subparsers.add_parser("replay", help="replay a stored game move by move",
                              description="Print every action of a game from a tournament database or a JSON-lines "
                              "file, with the time each decision took.", epilog=REPLAY_EXAMPLES,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    source = r.add_mutually_exclusive_group(required=True)
    source.add_argument("--db", help="tournament database")
    source.add_argument("--records", metavar="JSONL", help="file of game records (one per line)")
    r.add_argument("game", type=_GAME_NUMBER.arg(), help="game id in the database, or line number (from 1) in the file")
    r.add_argument("--upto", type=WHOLE.arg(), help="stop after this many actions")
    r.add_argument("--json", action="store_true", help="print the final state as JSON instead of the moves")
    r.add_argument("--game-loader", default=DEFAULT_LOADER, metavar="MODULE:FUNCTION",
                   help="advanced: load the game with another function taking the record's game spec "
                   "(imports and runs that module)")
    r.set_defaults(func=run_replay_command)

    e = subparsers.add_parser("export", help="write every game of a tournament database as JSON lines",
                              description="Write every stored game of a tournament database as one game record per "
                              "line (splendor-mcts-record/1: every action, chance outcomes included, and the "
                              "time of every decision); the count goes to standard error. Games whose stated result their "
                              "replay contradicts are exported too, and named on standard error.",
                              epilog=EXPORT_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    e.add_argument("--db", default="results.sqlite", help="tournament database (default: ./results.sqlite)")
    e.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    e.add_argument("--game-loader", default=DEFAULT_LOADER, metavar="MODULE:FUNCTION",
                   help="advanced: load the game (to replay each record) with another function taking the "
                   "record's game spec (imports and runs that module)")
    e.set_defaults(func=run_export_command)


def run_tournament_command(args: argparse.Namespace) -> int:
    sprt = SprtConfig.parse(args.sprt) if args.sprt else None
    deals = args.deals if args.deals is not None else 10
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


def _load_record(args: argparse.Namespace) -> GameRecord:
    if args.db:
        store = TournamentStore.open_existing(args.db)
        try:
            return store.record(args.game)
        finally:
            store.close()
    if args.game < 1:
        raise ValueError(f"line numbers start at 1, got {args.game}")
    for number, record in enumerate(read_jsonl(args.records), start=1):
        if number == args.game:
            return record
    raise ValueError(f"{args.records} has fewer than {args.game} records")


def run_replay_command(args: argparse.Namespace) -> int:
    record = _load_record(args)
    game = _load_game(args.game_loader, record.game, None)
    final = replay(record, upto=args.upto, game=game)  # checks every action first
    problem = result_problem(record, final) if args.upto is None else None
    if args.json:
        print(final.to_json())
        _flag_contradiction(args.game, problem)
        return 0
    print(f"{record.game}  seed {record.seed}  seats: " + ", ".join(f"{i + 1}={s}" for i, s in enumerate(record.seats)))
    state = game.new_initial_state(seed=record.seed, explicit_chance=record.explicit_chance)
    times = iter(record.move_times or ())
    actions = record.actions if args.upto is None else record.actions[: args.upto]
    for ply, action in enumerate(actions):
        player = state.current_player()
        text = state.action_to_string(action)
        if player < 0:
            print(f"{ply:4d}  chance   {text}")
        else:
            seconds = next(times, None)
            spent = "" if seconds is None else f"  ({format_seconds(seconds)})"
            print(f"{ply:4d}  seat {player + 1}   {text}{spent}")
        state.apply_action(action)
    if args.upto is None:
        print(f"termination: {record.termination}  result: {list(record.result or [])}")
        if record.forfeit:
            print(f"forfeit: seat {record.forfeit.seat + 1} - {record.forfeit.reason}")
            for line in record.forfeit.stderr:  # an external engine's last words
                print(f"  stderr: {line}")
        if record.termination == "adjudicated":
            print(f"adjudicated a draw: {record.meta.get('adjudication', 'the decision cap')}")
    _flag_contradiction(args.game, problem)
    return 0


def _flag_contradiction(game: int, problem: str | None, command: str = "replay") -> None:
    """Name on standard error a game whose stated result its replay contradicts."""
    if problem is not None:
        print(f"splendor-mcts {command}: game {game}: the record's stated result contradicts its replay: {problem}",
              file=sys.stderr)


def run_export_command(args: argparse.Namespace) -> int:
    store = TournamentStore.open_existing(args.db)
    try:
        if args.output == "-":
            count = write_jsonl(store.records(), sys.stdout)
            sys.stdout.flush()  # all of it out before the count is said
        else:
            count = write_jsonl(store.records(), args.output)
        try:
            contradictions = store.result_contradictions(lambda spec: _load_game(args.game_loader, spec, None))
        except ValueError as exc:  # a game this loader does not know: the records are exported all the same
            print(f"splendor-mcts export: results not checked against their replays: {exc} (see --game-loader)",
                  file=sys.stderr)
            contradictions = []
    finally:
        store.close()
    for game_id, problem in contradictions:
        _flag_contradiction(game_id, problem, "export")
    print(f"exported {counted(count, 'game')}", file=sys.stderr)
    return 0
