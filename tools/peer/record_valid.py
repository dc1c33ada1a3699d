"""Record the peer's own valid actions on positions of our random games, for the suite.

    python3 tools/peer/record_valid.py PEER_CHECKOUT [--venv VENV] [--out tests/data/peer_valid_actions.json]

Plays random games with our engine (2, 3 and 4 players), encodes positions of the player to
move as the wrapper does (``translate.encode``, cards matched to the peer's own tables), and
asks the peer's game (``peer_side.py``, op ``valid``) which of its 81 actions it allows there.
The file holds the boards and those answers: tests/test_peer_wrapper.py checks its stand-in
of the peer's rules against them, so the suite runs without the peer installed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import translate  # noqa: E402
from peer_engine import PeerProcess, default_venv  # noqa: E402

from splendor_mcts.games.game import load_game  # noqa: E402

DEFAULT_OUT = HERE.parent.parent / "tests" / "data" / "peer_valid_actions.json"


def positions(players: int, count: int, seed: int) -> list[tuple[dict, int, int]]:
    """``count`` main-phase positions (full state JSON, mover, turns played) of random games,
    taken late in the game more often, where tokens pile up and reserves fill."""
    game = load_game(f"splendor(players={players})")
    rng = random.Random(seed)
    found: list[tuple[dict, int, int]] = []
    while len(found) < count:
        state = game.new_initial_state(seed=rng.randrange(2**32))
        turns = 0
        while not state.is_terminal() and len(found) < count:
            position = json.loads(state.to_json())
            if position["phase"] == "main":
                if rng.random() < 0.08 + 0.01 * turns:
                    found.append((position, state.current_player(), turns))
                turns += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout")
    parser.add_argument("--venv")
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--count", type=int, default=40, help="positions per number of players")
    args = parser.parse_args(argv)
    checkout = os.path.abspath(args.checkout)
    peer = PeerProcess(checkout, os.path.abspath(args.venv or default_venv(checkout)))
    try:
        tables = peer.request(op="tables")
        records = []
        for players in (2, 3, 4):
            game = load_game(f"splendor(players={players})")
            catalogue = translate.Catalogue.match(game.cards(), game.nobles(), tables["cards"], tables["nobles"])
            for position, seat, turns in positions(players, args.count, seed=players):
                board, _ = translate.encode(position, seat, turns, catalogue)
                valid = peer.request(op="valid", players=players, board=board)["valid"]
                records.append({"players": players, "board": board, "valid": "".join(map(str, valid))})
    finally:
        peer.close()
    note = ("The peer's own valid actions (cestpasphoto/alpha-zero-general 5d6d1f1, its Splendor game) on "
            "boards the wrapper encoded from our random games; made by tools/peer/record_valid.py")
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump({"note": note, "positions": records}, out, separators=(",", ":"))
        out.write("\n")
    print(f"{len(records)} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
