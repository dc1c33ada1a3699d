"""What the solver changes in a tournament's games: its records replayed, decision by decision.

    python bench/solver_choices.py --db bench/strength-solver-duel.sqlite --wins-only
    python bench/solver_choices.py --db bench/strength-solver-duel.sqlite --first 200 --games 40 --iterations 1000
    python bench/solver_choices.py --db bench/strength-solver-duel.sqlite --first 400 --games 12 --time 0.02
    python bench/solver_choices.py --db /work/strength-dbs/solver-probe-splendor.sqlite --switch probe --games 40

``--switch probe``: the same comparison with the solver on both sides and only its root
probe switched (on against off): choices at roots the probe did not prove, and what the
probe cost (its seconds and positions per decision where it ran).

``--wins-only``: at every decision of the stored games, whether the seat to move had a move
that wins at once (checked on the true cards) and whether its agent played one, per agent;
of the misses, how many turns still ended the game (won a decision later, e.g. after a
Duel privilege) and how many let the game go on, and how many games an agent lost after
letting a win go. No search.

Otherwise a solver-on and a solver-off ``MCTSBot`` per seat (tree reuse as in a tournament,
the same seeds) are asked at every decision of the replayed games, the game going on with
the recorded move: how often they choose differently, and whether the solver-on search had
proven its root then (or earlier in that game: its early stop leaves a smaller tree to
reuse). With ``--iterations`` (default 1000) every other difference would be a change the
solver makes where it proves nothing. With ``--time`` the searches are not deterministic, so
choices differ anywhere; what counts then is the iterations each side ran, summed over the
decisions before any proof (the bots are asked alternately, so the load falls on both alike).
"""
from __future__ import annotations

import argparse
import collections
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import splendor_mcts as sm
from splendor_mcts.bots import MCTSBot
from splendor_mcts.records import GameRecord


def stored_games(db: Path, first: int, games: int) -> Iterator[tuple[int, list[int], GameRecord]]:
    """(game id, agent index at each seat, record) of the stored games from id ``first`` on."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT game_id, seats, record FROM games WHERE game_id >= ? ORDER BY game_id LIMIT ?",
                           (first, games)).fetchall()
    finally:
        con.close()
    for game_id, seats, record in rows:
        yield game_id, json.loads(seats), GameRecord.from_json(record)


def wins_at_once(state: Any) -> list[int]:
    """The moves that end the game at once with the seat to move the sole winner (true cards)."""
    seat = state.current_player()
    winning = []
    for move in state.legal_actions():
        after = state.clone()
        after.apply_action(move)
        while after.is_chance_node() and not after.is_terminal():  # a reveal after the last move
            after.apply_action(after.chance_outcomes()[0][0])
        if after.is_terminal() and after.returns()[seat] == 1.0:
            winning.append(move)
    return winning


def decisions(record: GameRecord) -> Iterator[tuple[Any, int]]:
    """(state, recorded move) at every decision of a replayed record (chance steps applied)."""
    state = sm.load_game(record.game).new_initial_state(seed=record.seed, explicit_chance=record.explicit_chance)
    for move in record.actions:
        if not state.is_chance_node():
            yield state, move
        state.apply_action(move)


def count_wins(db: Path, first: int, games: int) -> collections.Counter[str]:
    """Wins in one available, played and missed, per agent (agent 0 is --a of bench/strength.py)."""
    out: collections.Counter[str] = collections.Counter()
    for _, seats, record in stored_games(db, first, games):
        missed = set()
        pending = -1  # the seat that passed over a win in one, until another seat moves
        for state, move in decisions(record):
            seat = state.current_player()
            if pending >= 0 and seat != pending:  # the turn ended without the game's end
                out[f"agent {seats[pending]}: ... and the game went on"] += 1
                missed.add(seats[pending])
                pending = -1
            winning = wins_at_once(state)
            if winning:
                agent = seats[seat]
                out[f"agent {agent}: a win in one"] += 1
                out[f"agent {agent}: played it" if move in winning else f"agent {agent}: missed it"] += 1
                if move not in winning:
                    pending = seat
        if pending >= 0:  # the game ended in the same turn: won a decision later
            out[f"agent {seats[pending]}: ... but won later in that turn"] += 1
        for agent in missed:
            out[f"agent {agent}: games with a missed win"] += 1
            out[f"agent {agent}: ... of them lost"] += record.result is not None and record.result[seats.index(agent)] == 0.0
    return out


def compare(db: Path, first: int, games: int, iterations: int | None, seconds: float | None,
            switch: str = "solver") -> collections.Counter[str]:
    """``switch`` (the solver, or its root probe with the solver on) on against off at each
    decision of the stored games (module docstring). The counts say "solver on/off" for
    the side with ``switch`` on/off."""
    out: collections.Counter[str] = collections.Counter()
    for game_id, _, record in stored_games(db, first, games):
        game = sm.load_game(record.game)
        settings = {on: {"solver": on, "probe": on} if switch == "solver" else {"solver": True, "probe": on}
                    for on in (True, False)}
        bots = {on: [MCTSBot(game, iterations=iterations, time_limit=seconds, seed=10 * game_id + seat, **settings[on])
                     for seat in range(len(record.seats))] for on in (True, False)}
        proven_before = [False] * len(record.seats)
        for n, (state, _) in enumerate(decisions(record)):
            seat = state.current_player()
            chosen, analysis = {}, {}
            for on in ((True, False) if n % 2 == 0 else (False, True)):
                chosen[on] = bots[on][seat].step(state)
                analysis[on] = bots[on][seat].last_analysis
            winning = wins_at_once(state)
            out["decisions"] += 1
            if winning:
                out["a win in one"] += 1
                out["solver on played one"] += chosen[True] in winning
                out["solver off played one"] += chosen[False] in winning
            proven = analysis[True].proof is not None
            if proven:
                out[f"solver on: root proven {analysis[True].proof}"] += 1
                out["... and it holds on the true cards"] += analysis[True].proof == "win" and chosen[True] in winning
            if chosen[True] != chosen[False]:
                why = "at a proven root" if proven else "after a proof in this game" if proven_before[seat] else "otherwise"
                out[f"different choices, {why}"] += 1
            if seconds is not None and not proven and not proven_before[seat]:
                out["decisions before any proof"] += 1
                for on, name in ((True, "on"), (False, "off")):
                    out[f"iterations, solver {name}"] += analysis[on].root.iterations
            probed = analysis[True].root
            if probed.probe_nodes:
                out["probe ran"] += 1
                out["probe positions"] += probed.probe_nodes
                out["probe microseconds"] += round(1e6 * probed.probe_seconds)
                out["search microseconds where the probe ran"] += round(1e6 * probed.seconds)
                out["... where it proved nothing"] += not proven
            proven_before[seat] = proven_before[seat] or proven
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, required=True, help="a tournament database (bench/strength.py --db)")
    ap.add_argument("--first", type=int, default=0, help="first game id (default 0)")
    ap.add_argument("--games", type=int, default=10**9, help="games to replay (default all)")
    ap.add_argument("--wins-only", action="store_true", help="only the wins in one of the recorded moves (no search)")
    ap.add_argument("--switch", choices=("solver", "probe"), default="solver",
                    help="what differs between the two bots: the solver (default; the probe with it) "
                         "or only the solver's root probe")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, help="iterations per search (default 1000)")
    budget.add_argument("--time", type=float, help="seconds per search instead")
    args = ap.parse_args()
    if not args.db.is_file():
        ap.error(f"--db must name an existing tournament database, got {str(args.db)!r}")
    if args.first < 0 or args.games < 1:
        ap.error(f"--first must be >= 0 and --games >= 1, got {args.first} and {args.games}")
    if (args.iterations is not None and args.iterations < 1) or (args.time is not None and not args.time > 0):
        ap.error("--iterations must be at least 1 and --time above 0")
    if args.wins_only:
        counts = count_wins(args.db, args.first, args.games)
    else:
        iterations = args.iterations if args.iterations is not None or args.time is not None else 1000
        counts = compare(args.db, args.first, args.games, iterations, args.time, args.switch)
    for key, value in sorted(counts.items()):
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
