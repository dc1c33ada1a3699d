"""A turn is one row (issue 50, item 3): a hint's whole turns are merged by the position they
reach, so no order of the same privileges, returns or picks is listed twice whatever the
threads; a review judges each player's whole turn once, in the CLI and on the web."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import splendor_mcts as sm
from splendor_mcts.analysis.review import review_record, same_position
from splendor_mcts.analysis.running import SearchLimits
from splendor_mcts.analysis.turns import SEPARATOR, turn_label
from splendor_mcts.cli import main
from splendor_mcts.games.positions import read_position_file
from splendor_mcts.play.random_game import random_record
from splendor_mcts.records import GameRecord

from test_turns import find_turn_line

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def same_moves(state: Any, actions: list[int]) -> tuple[int, ...] | None:
    """The moves of a turn in any order, for a turn that reaches one position whatever the order of
    its moves; None for a Duel turn with a replenish, whose bag draw can make two different
    turns reach the same board on one deal (the search tells them apart on its own sample)."""
    if any(state.action_to_string(a) == "replenish" for a in actions if 0 <= a < len(state.legal_actions_mask())):
        return None
    return tuple(sorted(actions))


@pytest.mark.parametrize("threads", [1, 4])
@pytest.mark.parametrize("name", ["duel-view.json", "duel-privilege-view.json", "splendor-return-view.json"])
def test_no_turn_of_a_hint_is_listed_twice_in_another_order(name, threads):
    state = read_position_file(str(EXAMPLES / name)).state
    analysis = sm.analyze(state, iterations=20000, threads=threads, seed=0, top_k=None, turns=True)
    keys = [same_moves(state, list(t.actions)) for t in analysis.turns]
    twice = {k for k, n in Counter(k for k in keys if k is not None).items() if n > 1}
    assert not twice, [t.text for t, k in zip(analysis.turns, keys) if k in twice]
    assert sum(t.visits for t in analysis.turns) <= analysis.root.visits
    assert analysis.turns[0].actions[0] == analysis.best_action  # the first row is still the move played


def test_the_duel_example_lists_its_privileges_in_one_order(capsys, monkeypatch):
    """The issue's case: two privileges spent before a buy, in either order, were rows 1 and 2."""
    monkeypatch.setenv("COLUMNS", "300")
    assert main(["hint", str(EXAMPLES / "duel-view.json"), "--seed", "0", "--threads", "16", "--iterations", "100000",
                 "--top", "10", "--json"]) == 0
    turns = json.loads(capsys.readouterr().out)["turnInfos"]
    kinds = Counter(frozenset(t["moves"]) for t in turns)
    assert all(n == 1 for n in kinds.values()), [t["turn"] for t in turns]


def test_returns_in_another_order_are_the_same_turn():
    _, _, state, turn = find_turn_line("splendor", ("take", "return", "return"))
    after_take = state.clone()
    after_take.apply_action(turn[0])
    returns = after_take.legal_actions()
    assert len(returns) >= 2  # two colours to give back
    a, b = returns[:2]
    assert same_position(state, [turn[0], a, b], [turn[0], b, a])
    assert not same_position(state, [turn[0], a, b], [turn[0], a])
    for c in returns[2:]:
        assert not same_position(state, [turn[0], a, b], [turn[0], a, c])


def record_with(pattern: tuple[str, ...]) -> tuple[GameRecord, list[int], list[int]]:
    """A record whose last turn is a ``pattern`` turn: the record, the moves before it, the turn."""
    seed, history, _, turn = find_turn_line("splendor", pattern)
    record = GameRecord(game="splendor", seed=seed, seats=("a", "b"), actions=tuple(history + turn),
                        result=None, termination="unfinished", explicit_chance=False)
    return record, history, turn


def test_a_review_judges_each_turn_once_in_python_and_the_cli(tmp_path, capsys):
    record, history, turn = record_with(("take", "return", "return"))
    review = review_record(record, SearchLimits(iterations=300, threads=1))
    numbers = [d.turn_number for d in review.decisions]
    assert len(numbers) == len(set(numbers))  # one row per turn
    last = review.decisions[-1]
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=record.seed)
    for action in history:
        state.apply_action(action)
    assert last.action_number == len(history) and last.played_actions == turn
    assert last.played_turn == turn_label(state, turn) and last.played_turn.count(SEPARATOR) == 2
    assert all(len(d.best_actions) >= 1 and 0 <= d.drop <= 1 for d in review.decisions)

    path = tmp_path / "record.json"
    path.write_text(record.to_json())
    assert main(["review", str(path), "--iterations", "300", "--threads", "1", "--json", "--no-progress"]) == 0
    decisions = json.loads(capsys.readouterr().out)["decisions"]
    assert [d["turn_number"] for d in decisions] == sorted({d["turn_number"] for d in decisions})
    assert decisions[-1]["played_turn"] == last.played_turn


def test_the_web_review_has_one_row_per_turn_and_the_records_seat_names():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from splendor_mcts.serve.app import make_app
    from splendor_mcts.serve.settings import ServeSettings

    client = TestClient(make_app(ServeSettings(threads=1, max_search_seconds=5)))
    record = random_record(sm.load_game("splendor", players=2), seed=7)
    assert set(record.seats) == {"random"}
    ident = client.post("/api/sessions/record", json={"record": record.to_json()}).json()["id"]
    review = client.post(f"/api/sessions/{ident}/review", json={"iterations": 30}).json()
    numbers = [d["turn_number"] for d in review["decisions"]]
    assert numbers == sorted(set(numbers))
    assert any(SEPARATOR in d["played_turn"] for d in review["decisions"])  # a take and its return: one row
    assert [p["name"] for p in review["players"]] == ["random", "random"]
    assert "(random)" in review["graph"] and "(human)" not in review["graph"]
    played = next(d for d in review["decisions"] if len(d["played_actions"]) > 1)
    marked = client.get(f"/api/sessions/{ident}/board.svg?ply={played['action_number']}&mark=played")
    assert marked.status_code == 200 and 'class="mark"' in marked.text
    exported = client.get(f"/api/sessions/{ident}/record").json()
    assert exported["seats"] == ["random", "random"]
