"""What the pipeline's budget rests on (docs/training.md): decisions per searched game, and the
training and numpy-forward speed of the default policy-value network (needs the [train] extra).

    nice python bench/train_speed.py --rows 20000

First, 4 games per game and player count of the default search at 200 iterations a move
against itself, counting decisions. Then for each family: synthetic shards of ``--rows`` valid rows (random observations and visit
shares: speed does not depend on the values), one epoch of ``splendor-mcts train`` at the
default sizes on one thread, then the numpy forward pass on one observation.
Prints decisions per game, seconds per epoch, rows per second and microseconds per forward.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from learning_shards import write_shard  # noqa: E402  (the tests' synthetic shard writer)

import splendor_mcts as sm  # noqa: E402
from splendor_mcts.bots import MCTSBot  # noqa: E402
from splendor_mcts.search.families import FAMILIES  # noqa: E402
from splendor_mcts.learning.train import TrainSettings, train  # noqa: E402
from splendor_mcts.learning.weights import read_network  # noqa: E402


def per_call(function, repeats: int) -> float:
    began = time.perf_counter()
    for _ in range(repeats):
        function()
    return (time.perf_counter() - began) / repeats


def decisions(spec: str, deals: int = 4, iterations: int = 200) -> list[int]:
    """Decisions (chance excluded) of games of the search against itself, deals 0 .. deals-1."""
    game = sm.load_game(spec)
    counts = []
    for deal in range(deals):
        bots = [MCTSBot(game, iterations=iterations, seed=deal * 10 + seat) for seat in range(game.num_players())]
        state, count = game.new_initial_state(seed=deal), 0
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
            count += 1
        counts.append(count)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20000, help="training rows per family (default 20000)")
    args = parser.parse_args()
    for spec in ("splendor(players=2)", "splendor(players=3)", "splendor(players=4)", "duel"):
        counts = decisions(spec)
        print(f"{spec}: decisions per game {counts}, mean {sum(counts) / len(counts):.1f}")
    moves = 50
    for name in FAMILIES:
        with tempfile.TemporaryDirectory() as scratch:
            data = Path(scratch)
            write_shard(data / "shard-00000.npz", name, games=max(1, args.rows // moves), moves=moves, seed=1)
            out = data / "net.smnet"
            train(TrainSettings(family=name, data=(str(data),), out=str(out), epochs=1, validation=0.0),
                  say=lambda _: None)
            network = read_network(out)
        epoch = network.training["losses"][0]["seconds"]
        rows = network.training["rows"]["train"]
        one = np.random.default_rng(0).random(network.observation_size, dtype=np.float32)
        single = per_call(lambda: network.forward(one), 2000) * 1e6
        print(f"{name}: epoch of {rows} rows {epoch:.1f} s ({rows / epoch:,.0f} rows/s, 1 thread); "
              f"numpy forward of one observation {single:.0f} us")


if __name__ == "__main__":
    main()
