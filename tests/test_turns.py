"""Whole turns (issue 12 item 3): a seat's consecutive decisions until another seat is to
move, cut by the engine (State.split_turns), counted from the per-decision tree
(Analysis.turns), written so they read back (analysis.turns.parse_turn), and principal
variations marked by seat and turn."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

import splendor_mcts as sm
from splendor_mcts import _core
from splendor_mcts.analysis.turns import SEPARATOR, parse_turn, pv_turns_text, turn_label, turn_text


def verb(state: Any, action: int) -> str:
    return str(state.action_to_string(action).split()[0])


def turn_with(state: Any, pattern: Sequence[str]) -> list[int] | None:
    """A whole turn of the seat to move whose moves' verbs are ``pattern``, or None."""
    seat = state.current_player()

    def extend(st: Any, depth: int) -> list[int] | None:
        for action in st.legal_actions():
            if verb(st, action) != pattern[depth]:
                continue
            child = st.clone()
            child.apply_action(action)
            same_seat = not child.is_terminal() and child.current_player() == seat
            if depth + 1 == len(pattern):
                if not same_seat:
                    return [action]
            elif same_seat:
                rest = extend(child, depth + 1)
                if rest is not None:
                    return [action, *rest]
        return None

    return extend(state, 0)


def find_turn_line(game_name: str, pattern: Sequence[str]) -> tuple[int, list[int], Any, list[int]]:
    """The first position of seeded random games (explicit chance off) where the seat to
    move has a turn of ``pattern``: the deal's seed, the moves that reach it, the
    position and the turn."""
    game = sm.load_game(game_name)
    for seed in range(80):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        history: list[int] = []
        for _ in range(220):
            if state.is_terminal():
                break
            turn = turn_with(state, pattern)
            if turn is not None:
                return seed, history, state, turn
            history.append(rng.choice(state.legal_actions()))
            state.apply_action(history[-1])
    raise AssertionError(f"no {pattern} turn in 80 random {game_name} games")


def find_turn(game_name: str, pattern: Sequence[str]) -> tuple[Any, list[int]]:
    """The position and the turn of :func:`find_turn_line`."""
    _, _, state, turn = find_turn_line(game_name, pattern)
    return state, turn


PATTERNS = [
    ("splendor", ("take", "return")),
    ("splendor", ("buy", "noble")),
    ("duel", ("privilege", "take")),
    ("duel", ("privilege", "buy", "token")),
    ("duel", ("take", "discard")),
]


@pytest.mark.parametrize("game_name, pattern", PATTERNS, ids=lambda p: "+".join(p) if isinstance(p, tuple) else p)
def test_a_turn_is_one_seats_decisions_and_its_text_reads_back(game_name, pattern):
    state, turn = find_turn(game_name, pattern)
    seat = state.current_player()
    after = state.clone()
    for action in turn:
        after.apply_action(action)
    line = list(turn)
    if not after.is_terminal():
        line.append(after.legal_actions()[0])
    split = state.split_turns(line)
    assert split[0] == (seat, turn)
    if len(line) > len(turn):
        assert split[1] == (after.current_player(), line[len(turn):]) and split[1][0] != seat
    text = turn_text(state, turn)
    assert text.count(SEPARATOR) == len(turn) - 1
    assert [t.split()[0] for t in text.split(SEPARATOR)] == list(pattern)
    assert parse_turn(state, text) == turn
    assert turn_label(state, turn).startswith(state.action_label(turn[0]))


def test_split_turns_keeps_a_reveal_in_its_turn_and_stops_at_an_illegal_move():
    game = sm.load_game("splendor")
    state, turn = find_turn("splendor", ("buy", "noble"))
    explicit = state.clone()
    explicit.set_explicit_chance(True)
    line = [turn[0]]
    probe = explicit.clone()
    probe.apply_action(turn[0])
    assert probe.is_chance_node()  # the bought card's slot is refilled before the noble comes
    while probe.is_chance_node() or probe.current_player() == state.current_player():
        action = probe.dealt_outcome() if probe.is_chance_node() else probe.legal_actions()[0]
        line.append(action)
        probe.apply_action(action)
    assert explicit.split_turns(line)[0] == (state.current_player(), line)
    decisions = [a for a in line if a < _core.SPLENDOR_NUM_DISTINCT_ACTIONS and verb(state, a) in ("buy", "noble")]
    assert "reveal" not in turn_label(explicit, line) and turn_text(explicit, line) == turn_text(state, decisions)
    illegal = next(a for a in range(_core.SPLENDOR_NUM_DISTINCT_ACTIONS) if not probe.is_legal(a))
    assert explicit.split_turns([*line, illegal]) == [(state.current_player(), line)]
    assert game.num_players() == 2
    with pytest.raises(ValueError, match="not a turn"):
        parse_turn(state, "take WUG, ")
    with pytest.raises(ValueError, match=r"the turn is over after"):
        parse_turn(state, SEPARATOR.join([*turn_text(state, turn).split(SEPARATOR), "take WUG"]))
    refused = next(a for a in range(_core.SPLENDOR_NUM_DISTINCT_ACTIONS)
                   if not state.is_legal(a) and verb(state, a) in ("take", "buy"))
    with pytest.raises(ValueError) as info:
        parse_turn(state, state.action_to_string(refused))
    assert str(info.value) == f"{state.action_to_string(refused)}: {state.why_illegal(refused)}"


def check_turns(state: Any, analysis: Any, exact: bool) -> None:
    """Per-turn statistics agree with the per-decision tree; ``exact``: the turns read
    back and end on the true state (no chance step inside them)."""
    seat = state.current_player()
    moves = {m.action: m for m in analysis.moves}
    assert analysis.turns, "a search with turns=True reports turns"
    # A turn is every line reaching its position (search/turns.hpp): its visits may pass those of
    # the first decision it is shown with (Splendor's take GK is take GRK, return R), never the root's.
    assert sum(turn.visits for turn in analysis.turns) <= sum(m.visits for m in analysis.moves)
    for turn in analysis.turns:
        first = moves[turn.actions[0]]
        assert 0 < turn.visits
        assert 0.0 <= turn.lcb <= turn.win_rate <= 1.0
        assert turn.text == SEPARATOR.join(turn.moves) and len(turn.moves) == len(turn.actions)
        assert turn.pv_actions[:len(turn.actions)] == turn.actions and turn.pv[:len(turn.moves)] == turn.moves
        assert turn.pv_turns[0]["seat"] == seat and turn.pv_turns[0]["turn"] == 1
        if len(turn.actions) == 1 and turn.complete:  # a one-decision turn is that decision, other lines to its position added
            assert turn.visits >= first.visits
            if turn.visits == first.visits:
                assert turn.win_rate == first.win_rate
        if exact:
            assert parse_turn(state, turn.text) == turn.actions
            after = state.clone()
            for action in turn.actions:
                after.apply_action(action)
            assert turn.complete == (after.is_terminal() or after.current_player() != seat)
            if turn.complete:
                assert turn.pv_turns[0]["moves"] == turn.moves


@pytest.mark.parametrize("game_name, pattern", PATTERNS, ids=lambda p: "+".join(p) if isinstance(p, tuple) else p)
def test_search_turns_agree_with_the_decision_tree(game_name, pattern):
    state, _ = find_turn(game_name, pattern)
    analysis = sm.analyze(state, iterations=3000, threads=1, seed=1, top_k=None, turns=True)
    check_turns(state, analysis, exact=game_name == "splendor")
    # Several decisions in one line: the pattern's kind of turn is among them.
    multi = [t for t in analysis.turns if len(t.actions) > 1 and t.complete]
    assert multi
    if game_name == "splendor" and pattern[0] == "take":
        assert any(t.moves[0].startswith("take") and t.moves[-1].startswith("return") for t in multi)


def test_root_parallel_turns_merge_over_trees_and_partial_reports_have_them():
    state, _ = find_turn("duel", ("privilege", "take"))
    analysis = sm.analyze(state, iterations=2000, threads=2, seed=3, top_k=None, turns=True)
    check_turns(state, analysis, exact=False)
    assert len({tuple(t.actions) for t in analysis.turns}) == len(analysis.turns)  # merged by their moves
    partials = []
    sm.analyze(state, time_limit=0.6, threads=1, turns=True, progress=partials.append, progress_interval=0.1)
    assert partials and all(p.turns is not None for p in partials)
    assert sm.analyze(state, iterations=200, threads=1).turns is None
    with pytest.raises(ValueError, match="turns must be True or False"):
        sm.analyze(state, iterations=10, turns="yes")


def test_principal_variations_are_marked_by_seat_and_turn():
    state, _ = find_turn("splendor", ("take", "return"))
    analysis = sm.analyze(state, iterations=4000, threads=1, seed=2, top_k=5, turns=True)
    for info in [*analysis.moves, *analysis.turns]:
        marks = info.pv_turns
        assert [m for t in marks for m in t["moves"]] == info.pv
        assert [t["turn"] for t in marks] == list(range(1, len(marks) + 1))
        assert marks[0]["seat"] == state.current_player()
        assert all(a["seat"] != b["seat"] for a, b in zip(marks, marks[1:]))
        text = pv_turns_text(marks, shown=len(marks))
        assert text == " | ".join(f"seat {t['seat'] + 1}: {SEPARATOR.join(t['moves'])}" for t in marks)
    data = analysis.to_dict()
    assert [t["turn"] for t in data["turnInfos"]] == [t.text for t in analysis.turns]
    assert data["turnInfos"][0]["pvTurns"] == analysis.turns[0].pv_turns
    assert data["moveInfos"][0]["pvTurns"] == analysis.moves[0].pv_turns
    assert "turnInfos" not in sm.analyze(state, iterations=100, threads=1).to_dict()


def test_hint_progress_line_names_the_best_turn():
    import io

    from splendor_mcts.analysis.hint import ProgressLine

    state, _ = find_turn("splendor", ("take", "return"))
    out = io.StringIO()
    analysis = sm.analyze(state, iterations=2000, threads=1, seed=1, turns=True)
    ProgressLine(state, out)(analysis)
    assert f"best so far {analysis.turns[0].text} ({100 * analysis.turns[0].win_rate:.1f}%)" in out.getvalue()
    out = io.StringIO()
    decisions = sm.analyze(state, iterations=2000, threads=1, seed=1)
    ProgressLine(state, out)(decisions)
    assert f"best so far {decisions.moves[0].text} (" in out.getvalue()


@pytest.mark.parametrize("example", ["duel-privilege-view.json", "splendor-return-view.json", "splendor-2p-view.json"])
@pytest.mark.parametrize("analysis_moves", [0, 4])
def test_the_first_turn_begins_with_the_move_played_and_the_rest_follow_the_rule(example, analysis_moves):
    """The turn table never contradicts the choice: its first row starts with best_action."""
    from pathlib import Path

    from splendor_mcts.games.positions import read_position

    path = Path(__file__).resolve().parents[1] / "examples" / example
    state = read_position(path.read_text()).state
    analysis = sm.analyze(state, iterations=6000, threads=1, seed=3, top_k=None, turns=True,
                          analysis_moves=analysis_moves)
    turns = analysis.turns
    assert turns and turns[0].actions[0] == analysis.best_action
    rest = turns[1:]
    if analysis_moves == 0:  # without analysis mode: by visits, as the moves
        assert [t.visits for t in rest] == sorted((t.visits for t in rest), reverse=True)
    else:  # turns with 5% of the most visited turn's visits rank by their lower bound, first
        floor = 0.05 * max(t.visits for t in turns)
        ranked = [t for t in rest if t.visits >= floor and not t.proof]
        assert [t.lcb for t in ranked] == sorted((t.lcb for t in ranked), reverse=True)
