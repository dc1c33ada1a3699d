"""Forced wins in two turns (issue 12): how many the search proves, against an exhaustive check.

Positions: the last LAST decisions of random games (deal d, uniformly random moves from
random.Random(d), d in 0..DEALS-1) of Splendor 2 players and Duel where the player to move
sees every card the opponent holds (no blind reserve of theirs: the exhaustive check
needs the cards it cannot see to be exactly those left in the decks).

The exhaustive check is ``_core.forced_win`` (cpp/core/forced_win.hpp, which the search
also runs at the root near the end: cpp/search/probe.hpp): does the player to move win
within its next N turns whatever the opponent does
and whatever is revealed (every card left in a deck, every bag draw), choosing each move
on what it sees? A turn is a run of one seat's decisions, as the solver counts them
(Duel's extra turn belongs to the turn before it); a shared win is no win. A position
whose check reaches MAX_NODES positions is counted as undecided.

For each position with a forced win in two turns but none in one, the search at its
default settings and ITERATIONS iterations (``sm.analyze``): is the root proven a win,
and is its chosen move a winning one (the check again, with that move first)? The
search's seconds on those positions, and the share its root probe took, are reported. Every
proof the search reports there is checked too: a proven win in T turns of play must be
a forced win within the player's share of those turns, and a proven loss is false there.
For comparison, the same search with perfect_information=True (the true cards: every node
reached without a chance step is exact, but its proofs hold for the true cards only, not
for the player) and how many roots it proves.

    python bench/forced_wins.py [--deals 60] [--last 8] [--iterations 20000] [--max-nodes 2000000] [--game duel]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts import _core

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from search_helpers import end_positions  # noqa: E402

GAMES = (("splendor", {"players": 2}), ("duel", {}))


def own_turns(turns_of_play: int) -> int:
    """The mover's turns among ``turns_of_play`` turns that alternate from its own (2 players)."""
    return (turns_of_play + 1) // 2


def measure(game: sm.Game, args: argparse.Namespace) -> dict[str, int | float]:
    counts = dict.fromkeys(("positions", "in_one", "in_two", "no_win", "undecided", "proven", "winning_move",
                            "false_proofs", "move_undecided", "proven_true_cards", "search_seconds",
                            "probe_seconds"), 0)
    start = time.perf_counter()
    for i, state in enumerate(end_positions(game, range(args.deals), args.last)):
        counts["positions"] += 1
        in_one = _core.forced_win(state, 1, args.max_nodes)
        in_two = _core.forced_win(state, 2, args.max_nodes) if in_one is False else in_one
        if in_one is True:
            counts["in_one"] += 1
            continue
        if in_two is None or in_one is None:
            counts["undecided"] += 1
            continue
        if not in_two:
            counts["no_win"] += 1
            continue
        counts["in_two"] += 1
        searched = time.perf_counter()
        analysis = sm.analyze(state, iterations=args.iterations, seed=i, top_k=None)
        counts["search_seconds"] += time.perf_counter() - searched
        counts["probe_seconds"] += analysis.root.probe_seconds
        counts["proven"] += analysis.proof == "win"
        true_cards = sm.analyze(state, iterations=args.iterations, seed=i, top_k=None, perfect_information=True)
        counts["proven_true_cards"] += true_cards.proof == "win"
        wins = _core.forced_win(state, 2, args.max_nodes, analysis.best_action)
        counts["winning_move"] += wins is True
        counts["move_undecided"] += wins is None
        for move in (m for m in analysis.moves if m.proof):
            if move.proof == "loss":
                counts["false_proofs"] += 1
                continue
            holds = _core.forced_win(state, own_turns(move.proof_turns), args.max_nodes, move.action)
            counts["false_proofs"] += holds is False
    counts["seconds"] = round(time.perf_counter() - start, 1)
    counts["search_seconds"] = round(counts["search_seconds"], 2)
    counts["probe_seconds"] = round(counts["probe_seconds"], 2)
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=60, help="random games per game")
    ap.add_argument("--last", type=int, default=8, help="decisions taken from each game's end")
    ap.add_argument("--iterations", type=int, default=20_000, help="search iterations per position")
    ap.add_argument("--max-nodes", type=int, default=2_000_000, help="positions one exhaustive check may visit")
    ap.add_argument("--game", choices=[name for name, _ in GAMES], action="append",
                    help="only this game (repeatable; default: both)")
    args = ap.parse_args()
    print("| game | positions | win in one | win in two (not one) | no win in two | undecided | "
          "search proves | search plays a winning move | false proofs | proven with the true cards | "
          "search seconds (probe) | seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    false_proofs = 0
    for name, variant in GAMES:
        if args.game and name not in args.game:
            continue
        game = sm.load_game(name, **variant)
        c = measure(game, args)
        false_proofs += c["false_proofs"]
        move = f"{c['winning_move']}" + (f" (+{c['move_undecided']} undecided)" if c["move_undecided"] else "")
        print(f"| {name} {game.num_players()}p | {c['positions']} | {c['in_one']} | {c['in_two']} | {c['no_win']} | "
              f"{c['undecided']} | {c['proven']} | {move} | {c['false_proofs']} | "
              f"{c['proven_true_cards']} | {c['search_seconds']} ({c['probe_seconds']}) | {c['seconds']} |", flush=True)
    return 1 if false_proofs else 0


if __name__ == "__main__":
    sys.exit(main())
