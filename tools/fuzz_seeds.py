"""Seed corpora for the libFuzzer targets of cpp/fuzz: positions and move texts from random games.

Usage: python tools/fuzz_seeds.py OUT_DIR [GAMES_PER_KIND]
Writes OUT_DIR/fuzz_<game>_position/ (full positions and player views, with and without
explicit chance, every player count; views also with the other seats' bought cards as the
table shows them, with and without decks) and OUT_DIR/fuzz_<game>_notation/ (the texts of legal
moves), one file each. The committed regression inputs live in cpp/fuzz/corpus/.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts.games.positions import as_the_table_shows

VARIANTS = {"splendor": [{"players": n} for n in (2, 3, 4)], "duel": [{}]}


def write(folder: Path, text: str) -> None:
    """One corpus file named by its content's hash, as libFuzzer names its own."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(text.encode()).hexdigest()).write_text(text)


def main(out: Path, games: int) -> None:
    rng = random.Random(1)
    for name, variants in VARIANTS.items():
        for variant in variants:
            game = sm.load_game(name, **variant)
            for g in range(games):
                state = game.new_initial_state(seed=g, explicit_chance=g % 2 == 1)
                stops = set(rng.sample(range(200), 4))
                for ply in range(200):
                    if state.is_terminal():
                        break
                    legal = state.legal_actions()
                    if ply in stops:
                        observer = rng.randrange(state.num_players())
                        write(out / f"fuzz_{name}_position", state.to_json())
                        write(out / f"fuzz_{name}_position", state.observation_json(observer))
                        table = json.loads(state.observation_json(observer))
                        for seat in range(state.num_players()):
                            if seat != observer:
                                table = as_the_table_shows(table, seat, game.cards())
                        write(out / f"fuzz_{name}_position", json.dumps(table))
                        write(out / f"fuzz_{name}_position", json.dumps({k: v for k, v in table.items() if k != "decks"}))
                        write(out / f"fuzz_{name}_notation", state.action_to_string(rng.choice(legal)))
                    state.apply_action(rng.choice(legal))
                write(out / f"fuzz_{name}_position", state.to_json())


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 10)
