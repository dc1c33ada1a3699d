"""The exhaustive forced-win check (_core.forced_win, cpp/core/forced_win.hpp): what the
search's root probe runs (tests/test_solver_probe.py), and what bench/forced_wins.py
compares the search's proofs with."""
from __future__ import annotations

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from search_helpers import end_positions, final_moves, sees_every_held_card, win_in_one_positions

SPLENDOR = sm.load_game("splendor", players=2)
DUEL = sm.load_game("duel")
NODES = 300_000


@pytest.mark.parametrize("game", [SPLENDOR, DUEL], ids=lambda g: g.name)
def test_a_move_that_wins_at_once_is_a_forced_win_in_one(game):
    positions = [(s, w) for s, w in win_in_one_positions(game, range(30)) if sees_every_held_card(s)]
    assert len(positions) >= 5
    for state, wins in positions:
        assert _core.forced_win(state, 1, NODES) is True
        for action in wins:
            assert _core.forced_win(state, 1, NODES, action) is True
        for action in final_moves(state)[1]:  # ends the game with a loss
            assert _core.forced_win(state, 2, NODES, action) is False


@pytest.mark.parametrize("game", [SPLENDOR, DUEL], ids=lambda g: g.name)
def test_nobody_wins_from_the_deal_in_two_turns(game):
    assert _core.forced_win(game.new_initial_state(seed=1), 2, NODES) is False


def test_a_win_in_two_turns_and_its_winning_moves():
    """Splendor deal 3, seat 1 (the last seat): no move wins this turn, but some win by the
    end of the next round whatever the opponent does and whatever is revealed. The check
    with a first move given agrees with the check over every move."""
    in_two = [s for s in end_positions(SPLENDOR, range(3, 4), 8)
              if _core.forced_win(s, 1, NODES) is False and _core.forced_win(s, 2, NODES) is True]
    assert in_two
    state = in_two[0]
    assert state.current_player() == 1
    verdicts = {a: _core.forced_win(state, 2, NODES, a) for a in state.legal_actions()}
    assert None not in verdicts.values()
    assert any(verdicts.values()) and not all(verdicts.values())
    assert _core.forced_win(state, 3, NODES) is True  # more turns never lose a win


def test_a_node_limit_leaves_it_undecided():
    state = SPLENDOR.new_initial_state(seed=1)
    assert _core.forced_win(state, 2, 10) is None


def test_bad_requests_are_refused():
    state = SPLENDOR.new_initial_state(seed=1)
    with pytest.raises(ValueError, match="turns must be >= 1"):
        _core.forced_win(state, 0, NODES)
    illegal = next(a for a in range(61) if not state.is_legal(a))
    with pytest.raises(ValueError, match="is not legal here"):
        _core.forced_win(state, 1, NODES, illegal)
    with pytest.raises(ValueError, match="out of range"):
        _core.forced_win(state, 1, NODES, 10_000)
    chance = SPLENDOR.new_initial_state(seed=1)
    chance.set_explicit_chance(True)
    chance.apply_action(chance.string_to_action("reserve 1.1"))  # the table card is replaced: a reveal
    assert chance.is_chance_node()
    with pytest.raises(ValueError, match="no seat is to move"):
        _core.forced_win(chance, 1, NODES)
