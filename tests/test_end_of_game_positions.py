"""One legal-position rule for the end of a Splendor game, whatever the seat to move.

The game ends when a round closes (after the last seat's turn) with someone at points_to_win,
and points change only on their owner's turn. So the seats still to play in the round (the
seat to move, until its main action is made, and those after it) last played in an earlier
round: one of them at points_to_win means the game is over already. The seats that played in
this round may hold them: the round goes on to its end. Full positions and views alike.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from splendor_positions import Position

from splendor_mcts.games.positions import PositionError, read_position

LATER = "but this seat has not played yet in this round: the game ended when the round before closed"


def holding(players: int, points: dict[int, int], **fields: object) -> Position:
    """A deal of ``players`` with seat s owning cards worth ``points[s]`` exactly, the largest first."""
    p = Position(players=players)
    cards = sorted(p.cards.values(), key=lambda c: c["id"])
    used: set[int] = set()
    for seat, want in points.items():
        chosen, total = [], 0
        for value in (5, 4, 3, 2, 1):
            for card in cards:
                if card["points"] == value and card["id"] not in used and total + value <= want:
                    chosen.append(card["id"])
                    used.add(card["id"])
                    total += value
        assert total == want, (seat, want, total)
        p.give_cards(seat, *chosen)
    return p.set(**fields)


def problems(text: str) -> list[tuple[str, str]]:
    with pytest.raises(PositionError) as err:
        read_position(text)
    return [(p["path"], p["message"]) for p in err.value.problems]


@pytest.mark.parametrize("players,points,to_move,refused", [
    (2, {1: 16}, 1, [1]),            # the 2-player case: seat 1 at 16 and to move
    (3, {2: 16}, 1, [2]),            # the 3-player case: seat 2 at 16, seat 1 to move
    (3, {1: 15, 2: 16}, 1, [1, 2]),  # every seat still to play is named
    (4, {0: 18, 3: 15}, 2, [3]),
])
def test_a_seat_still_to_play_at_points_to_win_is_refused(players, points, to_move, refused):
    got = problems(holding(players, points, to_move=to_move).text())
    assert got == [(f"players[{seat}]", f"{points[seat]} points reach points_to_win (15), {LATER}") for seat in refused]


def test_at_the_start_of_a_round_the_game_is_over():
    got = problems(holding(3, {1: 16}, to_move=0).text())
    assert got == [("players[1]", '16 points reach points_to_win (15) and the round is complete: the game is over '
                                  '(set "phase": "over")')]
    assert read_position(holding(3, {1: 16}, to_move=0, phase="over").text()).state.is_terminal()


@pytest.mark.parametrize("players,points,to_move", [
    (2, {0: 16}, 1),           # seat 0 reached it this round: seat 1 has its last turn
    (3, {1: 16}, 2),
    (3, {0: 15, 1: 20}, 2),
    (4, {0: 15, 2: 17}, 3),
    (3, {0: 9, 2: 14}, 1),     # nobody there yet
])
def test_the_round_going_on_after_a_seat_reached_points_to_win_is_legal(players, points, to_move):
    state = read_position(holding(players, points, to_move=to_move).text()).state
    assert not state.is_terminal() and state.current_player() == to_move and state.legal_actions()


def test_the_seat_to_move_may_reach_points_to_win_in_its_own_turn():
    # Returning tokens: the mover's main action is made, so it has played in this round.
    p = holding(2, {1: 16}, to_move=1, phase="return_tokens").tokens(1, white=4, blue=4, green=3)
    state = read_position(p.text()).state
    assert not state.is_terminal() and state.current_player() == 1


def test_views_follow_the_same_rule():
    over = read_position(holding(2, {1: 16}, phase="over").text()).state
    view = json.loads(over.observation_json(0))
    for to_move in (0, 1):
        with pytest.raises(PositionError, match=r"players\[1\]: 16 points reach points_to_win") as err:
            read_position(json.dumps({**view, "phase": "main", "to_move": to_move}))
        assert [p["path"] for p in err.value.problems] == ["players[1]"]
    going_on = read_position(holding(2, {0: 16}, to_move=1).text()).state
    for seat in (0, 1):
        seen = read_position(going_on.observation_json(seat))
        assert seen.observer == seat and seen.state.observation_json(seat) == going_on.observation_json(seat)


def test_hint_refuses_a_finished_position_with_exit_code_3(tmp_path):
    path = tmp_path / "over.json"
    path.write_text(holding(2, {1: 16}, to_move=1).text())
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", str(path), "--iterations", "20"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 3, run.stdout + run.stderr
    assert f"players[1]: 16 points reach points_to_win (15), {LATER}" in run.stderr
