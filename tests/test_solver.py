"""The solver inside the search (docs/search.md, "Proven results"): from random games
of every game and player count, a move that wins at once is chosen at the default
settings and 1,000 iterations and reported proven; a position lost whatever the player
does is reported lost; no proof is false for the true cards; hint says it in words.
bench/win_in_one.py runs the same check on hundreds of positions."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from search_helpers import final_moves, win_in_one_positions

GAMES = [sm.load_game("splendor", players=n) for n in (2, 3, 4)] + [sm.load_game("duel")]


def check_proofs_hold(state: object, analysis: sm.Analysis) -> None:
    """Each proven move does what its proof says: at once, for the true cards, or (the root
    probe's proofs) within the player's turns of its distance, by the exhaustive check."""
    wins, losses, _ = final_moves(state)
    for move in analysis.moves:
        if move.proof == "win" and move.action not in wins:
            own = (move.proof_turns - 1) // state.num_players() + 1
            assert _core.forced_win(state, own, 1_000_000, move.action) is True, move
        elif move.proof == "win":
            assert move.proof_turns == 1, move
        elif move.proof == "loss":
            assert move.action in losses and move.proof_turns == 1, move


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec)
def test_win_in_one_is_chosen_and_proven(game):
    positions = win_in_one_positions(game, range(40, 52), per_game=3)
    assert len(positions) >= 8
    for state, wins in positions:
        analysis = sm.analyze(state, iterations=1000, seed=7, top_k=None)
        assert analysis.best_action in wins
        assert (analysis.proof, analysis.proof_turns) == ("win", 1)
        assert analysis.moves[0].proof == "win" and analysis.moves[0].action == analysis.best_action
        assert analysis.moves[0].win_rate == analysis.moves[0].lcb == 1.0  # a known result, no interval
        assert analysis.root.iterations < 1000  # a proven root is not searched further
        check_proofs_hold(state, analysis)
        assert analysis.to_dict()["proof"] == "win" and analysis.to_dict()["moveInfos"][0]["proofTurns"] == 1


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec)
def test_solver_off_proves_nothing_and_searches_its_budget(game):
    """solver=False: the search as before the solver. Nothing is proven, the whole
    budget runs, and the moves are ordered by visits alone."""
    state, _ = win_in_one_positions(game, range(40, 52), per_game=1)[0]
    off = sm.analyze(state, iterations=600, seed=3, top_k=None, solver=False)
    assert off.params.solver is False and off.to_dict()["params"]["solver"] is False
    assert off.proof is None and off.proof_turns == 0 and off.root.iterations == 600
    assert all(m.proof is None and m.proof_turns == 0 for m in off.moves)
    visits = [m.visits for m in off.moves]
    assert visits == sorted(visits, reverse=True)
    again = sm.analyze(state, iterations=600, seed=3, top_k=None, solver=False)
    assert [(m.action, m.visits) for m in again.moves] == [(m.action, m.visits) for m in off.moves]
    on = sm.analyze(state, iterations=600, seed=3, top_k=None)
    assert on.params.solver is True and on.proof == "win" and on.root.iterations < 600


def test_the_solver_setting_at_every_door():
    game = sm.load_game("splendor", players=2)
    assert sm.MCTSBot(game, iterations=10, solver=False).params.solver is False
    assert sm.MCTSBot(game, iterations=10).params.solver is True  # on by default
    for bad in ("off", 0, 1):
        with pytest.raises(ValueError, match="solver must be true or false"):
            sm.MCTSBot(game, iterations=10, solver=bad)


def lost_position(game: sm.Game) -> object:
    """A position of a random game where every legal move ends it with a loss."""
    for deal in range(200):
        state, rng = game.new_initial_state(seed=deal), random.Random(deal)
        while not state.is_terminal():
            if len(final_moves(state)[1]) == len(state.legal_actions()):
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no lost position found")


def test_lost_whatever_you_do():
    state = lost_position(sm.load_game("splendor", players=2))
    analysis = sm.analyze(state, iterations=1000, top_k=None)
    assert (analysis.proof, analysis.proof_turns) == ("loss", 1)
    assert {m.proof for m in analysis.moves} == {"loss"} and len(analysis.moves) == len(state.legal_actions())
    check_proofs_hold(state, analysis)


def last_positions(game: sm.Game, deal: int, n: int) -> list[object]:
    """The last ``n`` positions of a random game from deal ``deal``."""
    state, rng, history = game.new_initial_state(seed=deal), random.Random(deal), []
    while not state.is_terminal():
        history.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return history[-n:]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.spec)
def test_no_false_proof_near_the_end(game):
    """The last plies of random games, where proofs are found: each one holds."""
    for deal in range(3):
        for position in last_positions(game, deal, 12):
            check_proofs_hold(position, sm.analyze(position, iterations=300, seed=deal, top_k=None))


def test_hint_says_wins_now(tmp_path):
    state, _ = win_in_one_positions(sm.load_game("splendor", players=2), range(40, 41))[0]
    path = tmp_path / "win.json"
    path.write_text(state.to_json())
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", str(path), "--iterations", "1000",
                          "--threads", "1"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "seat 2 proven: wins now" in " ".join(run.stdout.split())  # the title may wrap
    assert "wins now" in next(line for line in run.stdout.splitlines() if line.strip().startswith("1 "))


def forced_result(state: object, seat: int, want: float, plies: int) -> bool:
    """Within ``plies`` plies, ``seat``'s return is ``want`` at the end whatever the
    others do, ``seat`` choosing its moves (exhaustive; explicit chance off, so the
    true deck is revealed)."""
    if state.is_terminal():
        return state.returns()[seat] == want
    if plies == 0:
        return False
    mine = state.current_player() == seat
    outcomes = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        outcomes.append(forced_result(child, seat, want, plies - 1))
        if outcomes[-1] == (mine == (want == 1.0)):
            break  # a choice that decides it
    return any(outcomes) if mine == (want == 1.0) else all(outcomes)


def test_perfect_information_proofs_over_several_turns():
    """With one sample (perfect_information) every node is exact: wins and losses over
    several turns are proven, and each holds by exhaustive search."""
    game = sm.load_game("splendor", players=2)
    longest = 0
    for deal in range(4):
        for position in last_positions(game, deal, 5):
            analysis = sm.analyze(position, iterations=3000, seed=1, perfect_information=True, top_k=None)
            for move in (m for m in analysis.moves if m.proof):
                child = position.clone()
                child.apply_action(move.action)
                assert forced_result(child, position.current_player(), 1.0 if move.proof == "win" else 0.0, 10), move
                longest = max(longest, move.proof_turns)
    assert longest >= 3
