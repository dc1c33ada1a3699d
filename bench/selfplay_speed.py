#!/usr/bin/env python3
"""Self-play's speed in CPU time: games of a run played one by one in this process
(``learning.selfplay.play_selfplay_game``, nothing written), timed with
``time.process_time`` so that a loaded machine does not move the figure the way it moves
the wall clock (bench/notes/2026-12-02-duel-endless-games.md).

    python bench/selfplay_speed.py --game duel --search "mcts:iterations=200,network=NET,value_mix=0.5" --games 8
"""
from __future__ import annotations

import argparse
import time

from splendor_mcts.learning.selfplay import MAX_DECISIONS, SelfPlayTask, make_settings, play_selfplay_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="duel", help="game spec (default duel)")
    parser.add_argument("--search", default="mcts:iterations=200", help="mcts agent spec (default mcts:iterations=200)")
    parser.add_argument("--games", type=int, default=8, help="games, indexes FIRST .. FIRST+GAMES-1 (default 8)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (default 0)")
    parser.add_argument("--seed", type=int, default=5, help="run seed (default 5)")
    parser.add_argument("--max-decisions", type=int, default=MAX_DECISIONS,
                        help=f"self-play's cap on a game (default {MAX_DECISIONS})")
    args = parser.parse_args()
    try:
        settings = make_settings(args.game, args.search, args.seed, max_decisions=args.max_decisions)
    except ValueError as exc:
        parser.error(str(exc))
    decisions = capped = 0
    seconds = 0.0
    for index in range(args.first, args.first + args.games):
        start = time.process_time()
        game = play_selfplay_game(SelfPlayTask(settings, index))
        seconds += time.process_time() - start
        decisions += game.decisions
        capped += game.capped
    print(f"{settings.game} {settings.search}: {args.games} games, {decisions} decisions "
          f"({decisions / args.games:.1f} a game, {capped} capped), {seconds:.2f} s of CPU, "
          f"{decisions / seconds:.0f} decisions/s")


if __name__ == "__main__":
    main()
