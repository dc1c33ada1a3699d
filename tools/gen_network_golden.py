"""Make the golden network files of tests/data/network/ (needs torch: the [train] extra).

For each game family: a tiny policy-value network with torch's random initial weights from a
fixed seed, written as ``<family>.smnet``, and ``<family>.npz`` holding observation tensors
of random positions (``observation``, their ``legal`` masks and ``players``) with torch's
outputs for them (``policy_logits``, ``value_logits``, and the ``policy`` priors over legal
actions and ``value`` win shares over the seats). The tests check that the numpy forward
pass, and the C++ one, compute the same from the same file.

    python tools/gen_network_golden.py            # rewrites tests/data/network/
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import numpy as np

import splendor_mcts as sm
from splendor_mcts.search.families import FAMILIES
from splendor_mcts.learning.train import require_torch
from splendor_mcts.learning.weights import masked_softmax, value_mask, write_network

HIDDEN = (16, 8)
POSITIONS = 12
OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "network"


def positions(game_name: str, players: tuple[int, ...], seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observations for the seat to move, legal masks and player counts of random positions
    (a random number of random moves from random deals; chance and end positions skipped)."""
    rng = random.Random(seed)
    observations, legal, counts = [], [], []
    while len(observations) < POSITIONS:
        count = players[len(observations) % len(players)]
        game = sm.load_game(game_name, players=count) if game_name == "splendor" else sm.load_game(game_name)
        state = game.new_initial_state(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.current_player() < 0:
            continue
        observations.append(state.observation_tensor(state.current_player()))
        legal.append(state.legal_actions_mask())
        counts.append(count)
    return np.array(observations, dtype=np.float32), np.array(legal, dtype=bool), np.array(counts, dtype=np.int8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT, help="directory to write (default tests/data/network)")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    torch = require_torch()
    from splendor_mcts.learning import model as nets

    args.out.mkdir(parents=True, exist_ok=True)
    for index, fam in enumerate(FAMILIES.values()):
        torch.manual_seed(args.seed + index)
        net = nets.new_model(fam.name, HIDDEN)
        write_network(args.out / f"{fam.name}.smnet", nets.to_network(
            net, fam.name, {"purpose": "golden file: random weights", "seed": args.seed + index,
                            "generator": "tools/gen_network_golden.py", "torch": torch.__version__}))
        observation, legal, players = positions(fam.game, fam.players, args.seed + index)
        with torch.no_grad():
            policy_logits, value_logits = (t.numpy() for t in net(torch.from_numpy(observation)))
        np.savez_compressed(
            args.out / f"{fam.name}.npz", observation=observation, legal=legal, players=players,
            policy_logits=policy_logits, value_logits=value_logits, policy=masked_softmax(policy_logits, legal),
            value=masked_softmax(value_logits, value_mask(players)),
            meta=np.array(json.dumps({"family": fam.name, "torch": torch.__version__, "seed": args.seed + index})))
        print(f"wrote {args.out / fam.name}.smnet and .npz ({len(observation)} positions)")


if __name__ == "__main__":
    main()
