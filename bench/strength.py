"""Head-to-head strength of two bots with fixed seeds, seats rotated.

    python bench/strength.py --a "mcts:iterations=1000" --b random --games 200
    python bench/strength.py --a "mcts:iterations=4000" --b "mcts:iterations=1000" --games 200 --workers 2

Bot specs: ``random``, ``greedy``, ``mcts:key=value,...`` (MCTSBot keyword arguments).
Game ``2k`` and ``2k+1`` replay the same deal (seed + k) with the seats swapped.
Prints A's score (win 1, shared win 1/k, loss 0) with a 95% interval (normal
approximation on the per-game scores) and W-L-D.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import time

import splendor_mcts as sm


def make_bot(spec: str, game: sm.Game, seed: int) -> sm.Bot:
    name, _, args = spec.partition(":")
    kwargs = {}
    for item in filter(None, args.split(",")):
        key, _, value = item.partition("=")
        for cast in (int, float):
            try:
                value = cast(value)
                break
            except ValueError:
                pass
        if value in ("true", "false"):
            value = value == "true"
        kwargs[key] = value
    if name == "random":
        return sm.RandomBot(game, seed=seed)
    if name == "greedy":
        return sm.GreedyBot(game, seed=seed)
    if name == "mcts":
        return sm.MCTSBot(game, seed=seed, **kwargs)
    raise ValueError(f"unknown bot {spec!r}")


def play(job: tuple[str, str, str, int, int]) -> tuple[float, int]:
    game_spec, a_spec, b_spec, deal, game_index = job
    game = sm.load_game(game_spec)
    n = game.num_players()
    a_seat = game_index % n
    bots = [make_bot(b_spec, game, seed=deal * 8 + s) for s in range(n)]
    bots[a_seat] = make_bot(a_spec, game, seed=deal * 8 + a_seat)
    state = game.new_initial_state(seed=deal)
    moves = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        moves += 1
    return state.returns()[a_seat], moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="splendor")
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    game = sm.load_game(args.game)
    n = game.num_players()
    jobs = [(game.spec, args.a, args.b, args.seed + g // n, g) for g in range(args.games)]
    start = time.perf_counter()
    if args.workers > 1:
        with mp.Pool(args.workers) as pool:
            results = pool.map(play, jobs, chunksize=1)
    else:
        results = [play(j) for j in jobs]
    scores = [r for r, _ in results]
    wins = sum(1 for s in scores if s == 1.0)
    losses = sum(1 for s in scores if s == 0.0)
    draws = len(scores) - wins - losses
    mean = sum(scores) / len(scores)
    var = sum((s - mean) ** 2 for s in scores) / max(1, len(scores) - 1)
    half = 1.96 * math.sqrt(var / len(scores))
    moves = sum(m for _, m in results) / len(results)
    print(
        f"{args.game} A={args.a} B={args.b} games={len(scores)} seed={args.seed}: "
        f"score {mean:.3f} [{max(0.0, mean - half):.3f}, {min(1.0, mean + half):.3f}] "
        f"W-L-D {wins}-{losses}-{draws} moves/game {moves:.0f} ({time.perf_counter() - start:.0f}s)"
    )


if __name__ == "__main__":
    main()
