"""Threats (docs/hints.md, "Threats"): the engine's check (``_core.threat_after``) against
an exhaustive one written from the definition (tests/threat_reference.py), and the hint,
protocol and review words on hand-made positions where the threat is known."""
from __future__ import annotations

import pytest
import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.analysis.threats import NONE, UNKNOWN, WINS, Threat, summarize, threat_after, turn_threats

from threat_reference import engine_threat, late_positions, reference_threat, threat_position, whole_turns

# Duel's reference is slow (a turn of privileges, takes and abilities is a large tree, walked
# in Python for every reveal, remembered by hash): few of its positions here, more in
# bench/threats.py.
@pytest.mark.parametrize("name, variant, deals, turns", [("splendor", {"players": 2}, range(12), 6),
                                                          ("splendor", {"players": 3}, range(4), 6),
                                                          ("duel", {}, range(1), 2)])
def test_the_engine_names_every_threat_and_no_other(name, variant, deals, turns):
    game = sm.load_game(name, **variant)
    threats = compared = 0
    for i, state in enumerate(late_positions(game, deals, 6)):
        for turn in whole_turns(state, turns, seed=i):
            expected, expected_seat, expected_moves = reference_threat(state, turn, remember=name == "duel")
            if expected is None:
                continue  # too many reveals for the reference (a Duel replenish before a threat)
            found, seat, moves = engine_threat(state, turn)
            assert (found, seat, moves) == (expected, expected_seat, expected_moves), (state.to_json(), turn)
            threats += expected
            compared += 1
    assert compared > 10 and 0 < threats < compared  # the positions hold threats to find, and turns without


def texts(state, *moves: str) -> list[int]:
    return [state.string_to_action(m) for m in moves]


def test_a_threat_on_the_table_is_named_and_stopped_by_taking_the_card():
    state = threat_position().state()
    threat = threat_after(state, texts(state, "take WGR"))
    assert (threat.status, threat.seat, threat.moves) == (WINS, 1, ["buy 2.1"])
    assert threat.labels == ["buy 2.1 (blue 2pt U5)"]
    assert threat.words() == "seat 2 wins next turn with buy 2.1 (blue 2pt U5)"
    assert threat_after(state, texts(state, "reserve 2.1")).status == NONE  # whatever comes to 2.1


def test_an_open_reserve_is_a_threat_and_a_blind_one_is_not():
    state = threat_position("open").state()
    threat = threat_after(state, texts(state, "take WGR"))
    assert (threat.status, threat.moves) == (WINS, ["buy reserved 1"])
    blind = threat_position("blind").state()
    assert threat_after(blind, texts(blind, "take WGR")).status == NONE  # seat 1 cannot see that card
    # ...though seat 2 does win with it: the check leaves it out on purpose
    assert _core.forced_win(_after_turn(blind, "take WGR"), 1, 10**6) is True


def _after_turn(state, *moves: str):
    s = state.clone()
    for m in moves:
        s.apply_action(s.string_to_action(m))
    return s


def test_threats_summarized_with_the_turns_that_stop_them():
    state = threat_position().state()

    class Turn:  # the fields of a TurnInfo the summary reads
        def __init__(self, text: str) -> None:
            self.text, self.actions, self.complete = text, texts(state, text), True

    turns = [Turn("take WGR"), Turn("reserve 2.1"), Turn("take GRK")]
    threats = turn_threats(state, turns)
    assert [t.status for t in threats] == [WINS, NONE, WINS]
    [summary] = summarize(turns, threats)
    assert summary.allowed_by == ["take WGR", "take GRK"] and summary.stopped_by == ["reserve 2.1"]
    assert summary.words() == ("seat 2 wins next turn with buy 2.1 (blue 2pt U5) after take WGR or take GRK; "
                               "stopped by reserve 2.1")


def test_a_threat_names_three_moves_and_counts_the_rest():
    threat = Threat(WINS, seat=0, moves=["buy 1.1", "buy 1.2", "buy 1.3", "buy 2.1", "buy 2.2"],
                    labels=["a", "b", "c", "d", "e"])
    assert threat.words() == "seat 1 wins next turn with a or b or c (or 2 more)"
    assert threat.to_dict()["labels"] == ["a", "b", "c", "d", "e"]


def test_a_turn_that_is_not_whole_is_undecided():
    state = threat_position().state()

    class Partial:
        text, actions, complete = "take WGR", texts(state, "take WGR"), False

    assert turn_threats(state, [Partial()])[0].status == UNKNOWN


def test_threat_after_refuses_bad_input():
    state = sm.load_game("splendor").new_initial_state(seed=1)
    with pytest.raises(ValueError, match="no decisions"):
        _core.threat_after(state, [], 1000)
    with pytest.raises(ValueError, match="out of range"):
        _core.threat_after(state, [999], 1000)
    assert _core.threat_after(state, [0, 0], 1000)["threat"] is None  # not one whole turn: undecided
