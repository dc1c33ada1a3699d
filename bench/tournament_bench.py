"""Tournament throughput with cheap agents, and the harness overhead per game.

Measures, for the same games (same deals, seat rotations and agent seeds):

* the bare game loop: build the agents, play chance from the deal, ``step``/``apply_action``,
  nothing else, in this process;
* ``run_tournament`` with ``--concurrency 1`` (in-process) and ``2`` (two spawned worker
  processes), each into a fresh SQLite database: records, one transaction per game, ratings.

Prints games per minute for each and the overhead per game of the tournament at concurrency 1
over the bare loop. Runs with worker processes also print the rate from the first stored game to
the last, which leaves out starting the workers (a fixed cost per run, not per game). Keep it
under a minute on 2 cores (the defaults do).

    python bench/tournament_bench.py                       # splendor, random vs random
    python bench/tournament_bench.py --agents greedy random --deals 20
    python bench/tournament_bench.py --game duel --agents mcts:iterations=100 random --deals 10
    python bench/tournament_bench.py --game highcard --game-loader tournament_fakes:load_fake_game
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from splendor_mcts.tournament import TournamentConfig, run_tournament
from splendor_mcts.tournament.agents import build_agent, parse_agent_spec
from splendor_mcts.tournament.play import DEFAULT_LOADER
from splendor_mcts.tournament.runner import Progress, Tournament


def bare_loop(tournament: Tournament) -> float:
    """Seconds to play every scheduled game with nothing but the game loop."""
    game = tournament.game
    started = time.perf_counter()
    for g in tournament.schedule:
        task = tournament.task(g)
        agents = [build_agent(parse_agent_spec(s), game, seed) for s, seed in zip(task.seats, task.agent_seeds)]
        state = game.new_initial_state(seed=task.seed, explicit_chance=True)
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(state.dealt_outcome() if player < 0 else agents[player].step(state))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="splendor")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", nargs="+", default=["random", "random:name=random2"])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--game-loader", default=DEFAULT_LOADER)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        def config(concurrency: int) -> TournamentConfig:
            return TournamentConfig(game=args.game, players=args.players, agents=tuple(args.agents), deals=args.deals,
                                    seed=1, db=Path(tmp) / f"c{concurrency}.sqlite", concurrency=concurrency,
                                    loader=args.game_loader)

        tournament = Tournament(config(1))
        n = len(tournament.schedule)
        print(f"game {tournament.game_spec}, agents {', '.join(args.agents)}: {n} games")
        bare = bare_loop(tournament)
        print(f"bare game loop         : {60 * n / bare:10.0f} games/min  ({1000 * bare / n:.3f} ms/game)")
        per_game = {}
        for c in args.concurrency:
            stored_at: list[float] = []

            def on_game(p: Progress) -> None:
                if p.played_now:
                    stored_at.append(time.perf_counter())

            started = time.perf_counter()
            result = run_tournament(config(c), on_game)
            elapsed = time.perf_counter() - started
            assert len(result.games) == n
            per_game[c] = elapsed / n
            line = f"tournament concurrency {c}: {60 * n / elapsed:10.0f} games/min  ({1000 * elapsed / n:.3f} ms/game"
            if c > 1 and n > 1 and stored_at[-1] > stored_at[0]:
                steady = (stored_at[-1] - stored_at[0]) / (n - 1)
                line += (f" incl. process start-up; first game stored after {stored_at[0] - started:.2f} s, then"
                         f" {60 / steady:.0f} games/min, {1000 * steady:.3f} ms/game)")
            else:
                line += ")"
            print(line)
        if 1 in per_game:
            print(f"overhead per game at concurrency 1: {1000 * (per_game[1] - bare / n):.3f} ms "
                  "(timing and checking every move, the record, its SQLite transaction)")


if __name__ == "__main__":
    main()
