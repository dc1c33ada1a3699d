"""``splendor-mcts selfplay``: games with the search against itself, written as training shards
(:mod:`splendor_mcts.learning.selfplay`, docs/selfplay.md)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import exit_codes
from ..console import StepProgress
from ..games.game import load_game
from ..learning.selfplay import (DEFAULT_SEARCH, GAMES_PER_SHARD, MAX_DECISIONS, TEMPERATURE, TEMPERATURE_MOVES,
                                 SelfPlayProgress, selfplay)
from ..ranges import ANY_NUMBER, WHOLE
from ..wording import counted
from .options import add, arg, command_parser, parameter_default

PLAIN_PROGRESS_EVERY = 10.0  # seconds between progress lines when standard error is not a terminal

EXAMPLES = f"""examples:
  splendor-mcts selfplay --out runs/sp2 --games 1000                       Splendor 2p, {DEFAULT_SEARCH}
  splendor-mcts selfplay --out runs/sp4 --game 'splendor(players=4)' --games 500 --workers 2
  splendor-mcts selfplay --out runs/duel --game duel --games 200 --search mcts:iterations=400
  splendor-mcts selfplay --out runs/duel --game duel --games 2000 --backend ray --ray-address auto
Run the same command again to resume; a larger --games extends a finished run.
"""


def register(subparsers: Any) -> None:
    """Add ``selfplay`` to the ``splendor-mcts`` parser."""
    p = command_parser(subparsers, 
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
        epilog=EXAMPLES)
    p.add_argument("--out", required=True, help="run directory (created; holds shard-NNNNN.npz and manifest.json)")
    p.add_argument("--games", type=arg(WHOLE), required=True, help="games in the run (already finished ones are skipped)")
    add(p, "game")
    p.add_argument("--search", default=DEFAULT_SEARCH,
                   help="mcts agent spec with any search setting of docs/search.md "
                   f"(default: {DEFAULT_SEARCH}; with time=... games are not reproducible)")
    add(p, "seed", what="run seed: fixes every game's deal and search", default=parameter_default(selfplay, "seed"))
    p.add_argument("--temperature-moves", type=arg(WHOLE), default=TEMPERATURE_MOVES,
                   help=f"decisions per game drawn from the visits (default {TEMPERATURE_MOVES}; 0: always the best move)")
    p.add_argument("--temperature", type=arg(ANY_NUMBER), default=TEMPERATURE,
                   help=f"those draws weigh moves by visits^(1/T) (default {TEMPERATURE:g})")
    p.add_argument("--games-per-shard", type=arg(WHOLE), default=GAMES_PER_SHARD,
                   help=f"games per shard file (default {GAMES_PER_SHARD})")
    add(p, "max_decisions", what="a game still going", outcome="is stopped and scored as a draw",
        why="; the games have no turn limit and a weak search can loop", default=MAX_DECISIONS)
    add(p, "workers", help="games played at once (default: all cores; 1: in this process)")
    add(p, "backend", default=parameter_default(selfplay, "backend"))
    add(p, "ray_address")
    add(p, "no_progress")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the run's games not yet played and say what the run holds; the exit code."""
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
