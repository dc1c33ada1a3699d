"""The learning commands: ``splendor-mcts selfplay`` (games with the search into training shards) and
``splendor-mcts pipeline`` (generations of self-play, training and gating, and recipes of such runs).
``splendor-mcts train`` is :mod:`.train`'s."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ..ranges import ANY_NUMBER, WHOLE
from .. import exit_codes
from ..console import StepProgress
from ..games.game import load_game
from ..games.registry import DEFAULT_GAME
from ..tournament.backends import BACKENDS
from ..wording import counted
from .families import FAMILIES
from .pipeline import STATE_FILE, Pipeline, PipelineSettings, budget, run_report
from .recipe import RECIPES, recipe_report, recipe_settings, run_recipe
from .selfplay import (
    DEFAULT_SEARCH, GAMES_PER_SHARD, MAX_DECISIONS, TEMPERATURE, TEMPERATURE_MOVES, SelfPlayProgress, selfplay,
)
from .train import hidden_sizes, require_torch

PLAIN_PROGRESS_EVERY = 10.0  # seconds between progress lines when standard error is not a terminal

SELFPLAY_EXAMPLES = f"""examples:
  splendor-mcts selfplay --out runs/sp2 --games 1000                       Splendor 2p, {DEFAULT_SEARCH}
  splendor-mcts selfplay --out runs/sp4 --game 'splendor(players=4)' --games 500 --workers 2
  splendor-mcts selfplay --out runs/duel --game duel --games 200 --search mcts:iterations=400
  splendor-mcts selfplay --out runs/duel --game duel --games 2000 --backend ray --ray-address auto
Run the same command again to resume; a larger --games extends a finished run.
"""


def register_selfplay(subparsers: Any) -> None:
    """Add ``selfplay`` to the ``splendor-mcts`` parser."""
    p = subparsers.add_parser(
        "selfplay", help="play games with the search against itself and write training shards",
        description="Play games in which one MCTS searches every decision, and write one row per decision "
        "(observation tensor, legal actions, the root's visit shares, the final result from the mover's seat) "
        "to compressed numpy shards with a manifest.json in --out. The first --temperature-moves decisions of "
        "each game are drawn from the root's visits (temperature --temperature) so games differ; later ones "
        "play the best move. A game depends only on --seed and its index, never on the worker. Running the "
        "same command again resumes (a kill loses at most the shard being filled): every shard is first checked "
        "against the SHA-256 in the manifest, and one missing, damaged or another run's is named, moved to "
        "rejected/ and its games played again; other settings against an existing run are refused. Exit codes: 0 done; 1 a worker was lost or --out cannot be written; 2 bad input, settings that "
        "differ from the run's or a manifest that cannot be trusted; 130 interrupted (finished shards are kept).",
        epilog=SELFPLAY_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="run directory (created; holds shard-NNNNN.npz and manifest.json)")
    p.add_argument("--games", type=WHOLE.arg(), required=True, help="games in the run (already finished ones are skipped)")
    p.add_argument("--game", default=DEFAULT_GAME,
                   help=f"game name or spec, e.g. duel, 'splendor(players=3)' (default: {DEFAULT_GAME})")
    p.add_argument("--search", default=DEFAULT_SEARCH,
                   help="mcts agent spec with any search setting of docs/search.md "
                   f"(default: {DEFAULT_SEARCH}; with time=... games are not reproducible)")
    p.add_argument("--seed", type=WHOLE.arg(), default=0, help="run seed: fixes every game's deal and search (default 0)")
    p.add_argument("--temperature-moves", type=WHOLE.arg(), default=TEMPERATURE_MOVES,
                   help=f"decisions per game drawn from the visits (default {TEMPERATURE_MOVES}; 0: always the best move)")
    p.add_argument("--temperature", type=ANY_NUMBER.arg(), default=TEMPERATURE,
                   help=f"those draws weigh moves by visits^(1/T) (default {TEMPERATURE:g})")
    p.add_argument("--games-per-shard", type=WHOLE.arg(), default=GAMES_PER_SHARD,
                   help=f"games per shard file (default {GAMES_PER_SHARD})")
    p.add_argument("--max-decisions", type=WHOLE.arg(), default=MAX_DECISIONS,
                   help=f"a game still going after this many decisions is stopped and scored as a draw "
                   f"(default {MAX_DECISIONS}; the games have no turn limit and a weak search can loop)")
    p.add_argument("--workers", type=WHOLE.arg(), help="games played at once (default: all cores; 1: in this process)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="local processes or a Ray cluster")
    p.add_argument("--ray-address", help="address of an existing Ray cluster (default: start a local Ray)")
    p.add_argument("--no-progress", action="store_true", help="no progress display on standard error")
    p.set_defaults(func=run_selfplay_command)


def run_selfplay_command(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    display = StepProgress("selfplay", enabled=not args.no_progress, every=PLAIN_PROGRESS_EVERY)

    def show(p: SelfPlayProgress) -> None:
        rate = p.decisions_this_call / p.seconds if p.seconds > 0 else 0.0
        display.step(f"{p.games_done}/{p.games_total} games, {p.rows} rows, {rate:.1f} decisions/s")

    try:
        summary = selfplay(args.out, args.games, game, search=args.search, seed=args.seed, workers=args.workers,
                           backend=args.backend, ray_address=args.ray_address,
                           temperature_moves=args.temperature_moves, temperature=args.temperature,
                           games_per_shard=args.games_per_shard, progress=show, max_decisions=args.max_decisions)
    except KeyboardInterrupt:
        display.close()
        print(f"splendor-mcts selfplay: interrupted; finished shards are kept in {args.out}: "
              "run the same command again to resume", file=sys.stderr)
        return exit_codes.INTERRUPTED
    except OSError as exc:  # the run directory cannot be written (permissions, a full disk)
        display.close()
        print(f"splendor-mcts selfplay: cannot write the run in {args.out}: {exc}; finished shards are kept",
              file=sys.stderr)
        return exit_codes.FAILURE
    display.close()
    rate = summary.decisions_played / summary.seconds if summary.seconds > 0 else 0.0
    print(f"{game.spec}: played {counted(summary.games_played, 'game')} ({summary.decisions_played} decisions, "
          f"{summary.seconds:.1f} s, {rate:.1f} decisions/s); {summary.directory} holds "
          f"{counted(summary.games_total, 'game')}, {summary.rows_total} rows in {counted(summary.shards_total, 'shard')}")
    if summary.games_capped:
        print(f"{counted(summary.games_capped, 'game')} reached --max-decisions {args.max_decisions} and "
              "counted as draws")
    return exit_codes.OK


PIPELINE_EXAMPLES = """examples:
  splendor-mcts pipeline --dir runs          # all families, a stage of at most 2 hours; run again for the next
  splendor-mcts pipeline --dir runs --families duel --generations 2 --selfplay-games 100
  splendor-mcts pipeline --dir deeper --families splendor-2p --start shipped --iterations 800
  splendor-mcts pipeline --dir recipe --recipe shipped   # the shipped networks, made again; run until done
  splendor-mcts pipeline --dir recipe --recipe shipped --report   # where it stands; runs nothing

exit codes: 0 done or stage over (run again to go on), 1 PyTorch missing or a step failed,
2 bad option, 130 interrupted (run again to resume).
"""


# The options' defaults (the family's budget fills selfplay_games and gate_games when not given).
PIPELINE_DEFAULTS = PipelineSettings(family="duel", selfplay_games=1, gate_games=2)


def register_pipeline(subparsers: Any) -> None:
    """Add ``pipeline`` to the ``splendor-mcts`` parser."""
    defaults = PIPELINE_DEFAULTS
    parser = subparsers.add_parser(
        "pipeline", help="generations of self-play, training and gating (needs the [train] extra)",
        description="Run generations for each family: self-play with the newest accepted network, train a "
                    "candidate, gate it by a tournament with SPRT against the current one (docs/training.md). "
                    "State in DIR/<family>/pipeline.json: the same command again resumes.",
        epilog=PIPELINE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", required=True, help="run directory (one subdirectory per family)")
    parser.add_argument("--families", nargs="+", choices=list(FAMILIES), default=list(FAMILIES))
    parser.add_argument("--stage-hours", type=ANY_NUMBER.arg(), default=1.6,
                        help="stop before a step that would end after this many hours (default %(default)s)")
    for name in ("generations", "iterations", "epochs", "window", "seed", "workers"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=WHOLE.arg(), default=getattr(defaults, name))
    for name in ("selfplay_games", "gate_games"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=WHOLE.arg(),
                            help="per generation (default: the family's budget, docs/training.md)")
    parser.add_argument("--elo1", type=ANY_NUMBER.arg(), default=defaults.elo1, help="the gate's SPRT elo1 (elo0 is 0)")
    parser.add_argument("--search-value-share", type=ANY_NUMBER.arg(), default=defaults.search_value_share, metavar="S",
                        help="the value head learns S x the search root's mean return + (1 - S) x the game's "
                             "result (splendor-mcts train --search-value-share; default %(default)s)")
    parser.add_argument("--dropout", type=ANY_NUMBER.arg(), default=defaults.dropout,
                        help="dropout after each trunk layer while training (splendor-mcts train --dropout; "
                             "default %(default)s)")
    parser.add_argument("--positions-per-game", type=WHOLE.arg(), default=defaults.positions_per_game,
                        help="rows of each game an epoch trains on; 0 = all (splendor-mcts train "
                             "--positions-per-game; default %(default)s)")
    parser.add_argument("--features", default=defaults.features, metavar="NAME",
                        help="input features the networks read beside the observation (splendor-mcts train "
                             "--features; default: none); a --start network without them starts with zero weights "
                             "from them")
    parser.add_argument("--hidden", type=hidden_sizes, default=defaults.hidden, metavar="H1,H2",
                        help="the trunk's layer sizes (splendor-mcts train --hidden; default "
                             f"{','.join(map(str, defaults.hidden))}); a --start network must have the same")
    parser.add_argument("--start", metavar="NET.smnet|shipped",
                        help="begin from this network (shipped: the package's network of each family) instead of "
                             "the search without one: generation 1's self-play uses it and its gate plays against it")
    parser.add_argument("--recipe", choices=sorted(RECIPES),
                        help="run a recipe's chain of runs instead, shipping each one's network into DIR/networks and "
                             "its provenance into DIR/provenance (shipped: how the package's networks were made, "
                             "docs/training.md); only --workers and "
                             "--stage-hours go with it")
    parser.add_argument("--report", action="store_true",
                        help="print where the run (or the recipe) in DIR stands, from its state files, and run "
                             "nothing; also while another command runs it")
    parser.set_defaults(func=run_pipeline_command)


RUN_OPTIONS = ("generations", "selfplay_games", "iterations", "epochs", "window", "gate_games", "seed", "workers",
               "elo1", "search_value_share", "dropout", "positions_per_game", "features", "hidden", "start")


def run_pipeline_command(args: argparse.Namespace) -> int:
    if not args.stage_hours > 0:
        raise ValueError(f"--stage-hours must be positive, got {args.stage_hours}")
    deadline = time.monotonic() + args.stage_hours * 3600
    if args.recipe:
        return run_recipe_command(args, deadline)
    if args.report:
        return report_pipeline(Path(args.dir), args.families)
    options = {name: getattr(args, name) for name in RUN_OPTIONS}
    pipelines = [Pipeline(budget(name, **options), Path(args.dir) / name) for name in args.families]
    require_torch()
    for pipeline in pipelines:
        if not pipeline.run(deadline):
            print(f"stage over: run the same command again to continue ({args.dir})")
            return exit_codes.OK
    return exit_codes.OK


def report_pipeline(directory: Path, families: list[str]) -> int:
    """``pipeline --report`` without a recipe: each family's run in ``directory``."""
    if not any((directory / name / STATE_FILE).is_file() for name in families):
        raise ValueError(f"{directory}: no pipeline run of {', '.join(families)} has begun here (no "
                         f"<family>/{STATE_FILE})")
    for name in families:
        lines = run_report(directory / name)
        print(f"{name} ({directory / name}): {lines[0]}")
        print("".join(f"  {line}\n" for line in lines[1:]), end="")
    return exit_codes.OK


def run_recipe_command(args: argparse.Namespace, deadline: float) -> int:
    """``pipeline --recipe``: the recipe sets every run's options but the workers."""
    given = [name for name in RUN_OPTIONS if name != "workers"
             and getattr(args, name) != (getattr(PIPELINE_DEFAULTS, name) if name not in ("selfplay_games", "gate_games", "start")
                                         else None)]
    if args.families != list(FAMILIES):
        given.insert(0, "families")
    if given:
        raise ValueError(f"--recipe sets the runs' options itself; leave out --{', --'.join(n.replace('_', '-') for n in given)}")
    recipe_settings(RECIPES[args.recipe], args.workers)  # bad --workers refused before anything
    if args.report:
        print("\n".join(recipe_report(args.recipe, args.dir)))
        return exit_codes.OK
    require_torch()
    if not run_recipe(args.recipe, args.dir, args.workers, deadline):
        print(f"stage over: run the same command again to continue ({args.dir})")
    return exit_codes.OK
