"""Tournament throughput with cheap agents, and the harness overhead per game.

Measures, for the same games (same deals, seat rotations and agent seeds):

* the bare game loop: build the agents, play chance from the deal, ``step``/``apply_action``,
  nothing else, in this process;
* ``run_tournament`` with ``--concurrency 1`` (in-process) and ``2`` (two spawned worker
  processes), each into a fresh SQLite database: records, one transaction per game, ratings.

Prints games per minute for each. A tournament run also has fixed costs (creating the database,
starting worker processes, the final standings), so it also prints the rate from the first stored
game to the last ("steady"), which leaves them out, and the fixed cost that remains. The overhead
per game is the steady time per game at concurrency 1 minus the bare loop's. Keep it under a
minute on 2 cores (the defaults do).

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
from splendor_mcts.tournament.schedule import ScheduledGame


def bare_loop(tournament: Tournament, games: list[ScheduledGame] | None = None) -> float:
    """Seconds to play every scheduled game (or ``games``) with nothing but the game loop."""
    game = tournament.game
    started = time.perf_counter()
    for g in tournament.schedule if games is None else games:
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
    parser.add_argument("--players", type=int, default=None, help="default: the game's own")
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
        bare_loop(tournament, tournament.schedule[:1])  # untimed warm-up: first-use costs are not per game
        bare = bare_loop(tournament)
        print(f"bare game loop         : {60 * n / bare:10.0f} games/min  ({1000 * bare / n:.3f} ms/game)")
        steady_per_game: dict[int, float] = {}
        for c in args.concurrency:
            stored_at: list[float] = []

            def on_game(p: Progress) -> None:
                if p.played_now:
                    stored_at.append(time.perf_counter())

            started = time.perf_counter()
            result = run_tournament(config(c), on_game)
            elapsed = time.perf_counter() - started
            assert len(result.games) == n
            line = f"tournament concurrency {c}: {60 * n / elapsed:10.0f} games/min  ({1000 * elapsed / n:.3f} ms/game)"
            if n > 1 and stored_at[-1] > stored_at[0]:
                steady = steady_per_game[c] = (stored_at[-1] - stored_at[0]) / (n - 1)
                line += (f"; steady {60 / steady:.0f} games/min ({1000 * steady:.3f} ms/game),"
                         f" fixed {elapsed - n * steady:.2f} s")
            print(line)
        if 1 in steady_per_game:
            print(f"overhead per game at concurrency 1: {1000 * (steady_per_game[1] - bare / n):.3f} ms "
                  "(timing and checking every move, the record, its SQLite transaction)")


if __name__ == "__main__":
    main()
