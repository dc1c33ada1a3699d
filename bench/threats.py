"""Threats (issue 51, item 2): the engine's threat check against an exhaustive one, and its cost in a hint.

Positions: the last LAST decisions of random games (deal d, uniformly random moves from
random.Random(d), d in 0..DEALS-1) of Splendor (2 and 3 players) and Duel, blind reserves
included. For each position, up to TURNS whole turns of the player to move (all of them
when fewer; else a sample): the engine's check (``_core.threat_after``, cpp/core/threats.hpp)
and the exhaustive reference of tests/threat_reference.py (every reveal, every reply, written
from the definition in docs/hints.md "Threats", no gate) must agree on whether the next seat
then wins in its next turn, which seat, and with which first moves. Counted: turns checked,
turns with a threat, threats named (same seat and moves), threats missed, threats named where
there is none, undecided. Duel's reference remembers positions by hash (a Duel turn's tree is
too large to walk in Python otherwise); Splendor's walks every line.

Cost: on the first POSITIONS of them, a hint's search (``sm.analyze`` with ITERATIONS
iterations, whole turns, top 5, one thread) and then the hint's advice
(analysis/advice.py: the threat check once per listed turn, and the plan), timed apart.

    python bench/threats.py [--deals 30] [--last 8] [--turns 8] [--positions 40] [--iterations 20000]
        [--game splendor [--players 2]] [--game duel]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts.analysis.advice import advise

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from threat_reference import engine_threat, late_positions, reference_threat, whole_turns  # noqa: E402

GAMES = (("splendor", {"players": 2}), ("splendor", {"players": 3}), ("duel", {}))


def agreement(positions: list, turns: int, remember: bool) -> dict[str, int]:
    c = dict.fromkeys(("turns", "threats", "named", "missed", "false", "undecided"), 0)
    for i, state in enumerate(positions):
        for turn in whole_turns(state, turns, seed=i):
            found, seat, moves = engine_threat(state, turn)
            expected, expected_seat, expected_moves = reference_threat(state, turn, remember=remember)
            c["turns"] += 1
            c["threats"] += expected
            if found is None:
                c["undecided"] += 1
            elif expected:
                c["named" if (found, seat, moves) == (True, expected_seat, expected_moves) else "missed"] += 1
            elif found:
                c["false"] += 1
    return c


def cost(positions: list, iterations: int) -> tuple[float, float]:
    search = advice = 0.0
    for i, state in enumerate(positions):
        start = time.perf_counter()
        analysis = sm.analyze(state, iterations=iterations, threads=1, seed=i, top_k=5, turns=True, analysis_moves=5)
        middle = time.perf_counter()
        advise(state, analysis)
        search += middle - start
        advice += time.perf_counter() - middle
    return search, advice


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=30, help="random games per game")
    ap.add_argument("--last", type=int, default=8, help="decisions taken from each game's end")
    ap.add_argument("--turns", type=int, default=8, help="whole turns checked per position")
    ap.add_argument("--positions", type=int, default=40, help="positions timed with a hint's search")
    ap.add_argument("--iterations", type=int, default=20_000, help="the hint's search iterations")
    ap.add_argument("--game", choices=sorted({name for name, _ in GAMES}), action="append",
                    help="only this game (repeatable; default: all)")
    ap.add_argument("--players", type=int, action="append", help="only Splendor with this many players (repeatable)")
    args = ap.parse_args()
    print("| game | positions | turns checked | with a threat | named | missed | named where none | undecided | "
          "hint search s | threat check + plan s (share) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    wrong = 0
    for name, variant in GAMES:
        if (args.game and name not in args.game) or (args.players and variant and variant["players"] not in args.players):
            continue
        game = sm.load_game(name, **variant)
        positions = late_positions(game, range(args.deals), args.last)
        c = agreement(positions, args.turns, remember=name == "duel")
        wrong += c["missed"] + c["false"] + c["undecided"]
        search, advice = cost(positions[:args.positions], args.iterations)
        print(f"| {name} {game.num_players()}p | {len(positions)} | {c['turns']} | {c['threats']} | {c['named']} | "
              f"{c['missed']} | {c['false']} | {c['undecided']} | {search:.1f} | {advice:.2f} "
              f"({100 * advice / search:.1f}%) |", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
