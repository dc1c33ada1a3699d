"""``splendor-mcts pipeline``: generations of self-play, training and gating, and recipes of such
runs (:mod:`splendor_mcts.learning.pipeline`, :mod:`splendor_mcts.learning.recipe`, docs/training.md)."""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from .. import exit_codes
from ..search.families import FAMILIES
from ..learning.pipeline import STATE_FILE, Pipeline, PipelineSettings, budget, run_report
from ..learning.recipe import RECIPES, recipe_report, recipe_settings, run_recipe
from ..learning.train import require_torch
from ..ranges import ANY_NUMBER, WHOLE
from .options import add, arg, command_parser

EXAMPLES = """examples:
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


def register(subparsers: Any) -> None:
    """Add ``pipeline`` to the ``splendor-mcts`` parser."""
    defaults = PIPELINE_DEFAULTS
    parser = command_parser(subparsers, 
        "pipeline", help="generations of self-play, training and gating (needs the [train] extra)",
        description="Run generations for each family: self-play with the newest accepted network, train a "
                    "candidate, gate it by a tournament with SPRT against the current one (docs/training.md). "
                    "State in DIR/<family>/pipeline.json: the same command again resumes.",
        epilog=EXAMPLES)
    parser.add_argument("--dir", required=True, help="run directory (one subdirectory per family)")
    parser.add_argument("--families", nargs="+", choices=list(FAMILIES), default=list(FAMILIES))
    parser.add_argument("--stage-hours", type=arg(ANY_NUMBER), default=1.6,
                        help="stop before a step that would end after this many hours (default %(default)s)")
    for name in ("generations", "iterations", "epochs", "window", "seed", "workers"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=arg(WHOLE), default=getattr(defaults, name))
    for name in ("selfplay_games", "gate_games"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=arg(WHOLE),
                            help="per generation (default: the family's budget, docs/training.md)")
    parser.add_argument("--elo1", type=arg(ANY_NUMBER), default=defaults.elo1, help="the gate's SPRT elo1 (elo0 is 0)")
    add(parser, "search_value_share", default=defaults.search_value_share)
    add(parser, "dropout", default=defaults.dropout)
    add(parser, "positions_per_game", default=defaults.positions_per_game)
    add(parser, "features", default=defaults.features, start="--start")
    add(parser, "hidden", default=defaults.hidden, more="; a --start network must have the same")
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
    parser.set_defaults(func=run)


RUN_OPTIONS = ("generations", "selfplay_games", "iterations", "epochs", "window", "gate_games", "seed", "workers",
               "elo1", "search_value_share", "dropout", "positions_per_game", "features", "hidden", "start")


def run(args: argparse.Namespace) -> int:
    """Run the families' generations (or the recipe) until done or the stage is over; the exit code."""
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
