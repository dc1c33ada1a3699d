"""Win in one: how often the search, at its default settings and 1,000 iterations,
plays a move that wins at once and reports it proven (issue 12), and whether any
proof it reports is false for the true cards.

Positions: from random games (deals 0..GAMES-1, uniformly random moves) of Splendor
2, 3 and 4 players and Duel, the last PER_GAME positions of each game where some move
ends the game at once with the mover winning outright (tests/search_helpers.py,
win_in_one_positions: in Splendor the last seat of the final round). Every proof in
every searched position is checked against the true state's moves.

    python bench/win_in_one.py [--games 60] [--per-game 3] [--iterations 1000]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import splendor_mcts as sm

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from search_helpers import final_moves, win_in_one_positions  # noqa: E402

GAMES = [("splendor", {"players": n}) for n in (2, 3, 4)] + [("duel", {})]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="random games per game and player count")
    ap.add_argument("--per-game", type=int, default=3, help="win-in-one positions taken from each game's end")
    ap.add_argument("--iterations", type=int, default=1000)
    args = ap.parse_args()
    print("| game | positions | winning move chosen | reported proven | false proofs | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    failed = False
    for name, variant in GAMES:
        game = sm.load_game(name, **variant)
        positions = win_in_one_positions(game, range(args.games), per_game=args.per_game)
        chosen = proven = false = 0
        start = time.perf_counter()
        for i, (state, wins) in enumerate(positions):
            analysis = sm.analyze(state, iterations=args.iterations, seed=i, top_k=None)
            chosen += analysis.best_action in wins
            proven += analysis.proof == "win" and analysis.best_action in wins
            true_wins, true_losses, _ = final_moves(state)
            false += sum((m.proof == "win" and m.action not in true_wins)
                         or (m.proof == "loss" and m.action not in true_losses) for m in analysis.moves)
        seconds = time.perf_counter() - start
        failed |= chosen < len(positions) or proven < len(positions) or false > 0
        print(f"| {game.spec.split('(')[0]} {game.num_players()}p | {len(positions)} | {chosen} | {proven} | {false} | "
              f"{seconds:.1f} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
