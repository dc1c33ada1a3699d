"""Property tests of the analysis protocol's line handler (issue 15): any line, JSON-ish or
garbage, gets exactly one answer when it is not a query or is an action (an error naming the
field, or the action's answer); an analysis query queues its positions or answers an error
(per position it cannot analyze, or one for the whole query); no line raises, every queued
analysis is answered, and the engine reads on. The harness enters at ``Engine.handle_line``
and ``Engine.run`` only, so it does not depend on the query fields the protocol has."""
from __future__ import annotations

import io
import json
import queue
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import splendor_mcts as sm
from splendor_mcts.analysis.protocol import QUERY_FIELDS, Engine

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
POSITIONS = [json.loads((EXAMPLES / name).read_text()) for name in ("splendor-2p-view.json", "duel-view.json")]


def _record() -> dict[str, Any]:
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=2, explicit_chance=True)
    actions = []
    for _ in range(12):
        action = state.dealt_outcome() if state.is_chance_node() else state.legal_actions()[0]
        state.apply_action(action)
        actions.append(action)
    return {"format": "splendor-mcts-record/1", "game": game.spec, "seed": 2, "seats": ["a", "b"],
            "actions": actions, "result": None, "termination": "unfinished"}


RECORD = _record()

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=10))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
KEYS = [*(k for k in QUERY_FIELDS if k != "id"), "action", "terminateId"]  # the id is drawn on its own
# Values a setting may well take (a few iterations, a small seed, a short time), so that
# some queries are valid and queue their analyses.
small_values = st.integers(0, 40) | st.floats(0, 2) | st.sampled_from(["q", "tree", "root", "leaf", "random"])


@st.composite
def queries(draw: st.DrawFn) -> dict[str, Any]:
    """An object with the protocol's own keys (and others), values valid or not."""
    query: dict[str, Any] = {}
    id_kind = draw(st.integers(0, 7))  # mostly a good id, so the fields after it are reached
    if id_kind < 6:
        query["id"] = "q" if id_kind < 5 else "r"
    elif id_kind == 6:
        query["id"] = draw(scalars)
    base = draw(st.sampled_from(["position", "position", "record", "record", "action", "none"]))
    if base == "position":
        position = json.loads(json.dumps(draw(st.sampled_from(POSITIONS))))
        if draw(st.booleans()):  # one of its fields replaced
            position[draw(st.sampled_from(sorted(position)))] = draw(small_values | json_values)
        query["position"] = position
    elif base == "record":
        query["record"] = dict(RECORD)
        if draw(st.booleans()):  # one of its fields replaced: seeds and action ids past the engine's ints too
            query["record"][draw(st.sampled_from(sorted(RECORD)))] = draw(
                st.sampled_from([2**31, 2**64, -1]) | st.lists(st.integers(-1, 2**32), max_size=3) | small_values
                | json_values)
        if draw(st.booleans()):
            query["analyzeTurns"] = draw(st.lists(st.integers(-2, 14), max_size=4) | json_values)
    elif base == "action":
        query["action"] = draw(st.sampled_from(["query_version", "terminate", "terminate_all", "dance"]) | scalars)
    for key in draw(st.lists(st.sampled_from(KEYS) | st.text(max_size=6), max_size=3)):
        query[key] = draw(small_values | json_values)
    return query


def _mutated(text: str, at: int, cut: int, junk: str) -> str:
    at %= len(text) + 1
    return text[:at] + junk + text[at + cut:]


lines = st.one_of(
    st.text(max_size=60),                                                   # garbage
    json_values.map(json.dumps),                                            # any JSON value
    queries().map(json.dumps),                                              # query-shaped objects
    queries().map(json.dumps),
    st.builds(_mutated, queries().map(json.dumps), st.integers(0, 10**6), st.integers(0, 6),
              st.text(alphabet='{}[]",:0123456789.-eE nultrfa\\\x00é', max_size=4)),   # broken JSON
)


def _kind(line: str) -> str:
    """What the protocol makes of a line: "refused" (not a JSON object with an id string),
    "action" or "analysis"."""
    try:
        query = json.loads(line)
    except (ValueError, RecursionError):
        return "refused"
    if not isinstance(query, dict) or not isinstance(query.get("id"), str) or not query["id"]:
        return "refused"
    return "action" if "action" in query else "analysis"


def _answers(engine: Engine, out: io.StringIO, line: str) -> tuple[list[dict[str, Any]], list[Any]]:
    before = len(out.getvalue())
    engine.handle_line(line)
    jobs = []
    while True:
        try:
            jobs.append(engine._jobs.get_nowait())
        except queue.Empty:
            break
    return [json.loads(x) for x in out.getvalue()[before:].splitlines()], jobs


def _check_error(answer: dict[str, Any]) -> None:
    # An error may carry the numbers of the position it is about (docs/analysis-protocol.md).
    assert {"id", "error", "field"} <= set(answer) <= {"id", "error", "field", "turnNumber", "actionNumber"}, answer
    assert isinstance(answer["error"], str) and answer["error"] and "Traceback" not in answer["error"]
    assert answer["field"] is None or isinstance(answer["field"], str)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_every_line_gets_one_answer_or_queues_its_analyses(line: str) -> None:
    out = io.StringIO()
    engine = Engine(out, workers=0)  # nothing runs the queued analyses: the line's own answers are all there are
    answers, jobs = _answers(engine, out, line)
    # A field the engine does not know may be answered with a warning of its own, before the rest.
    warnings = [a for a in answers if "warning" in a]
    for warning in warnings:
        assert set(warning) == {"id", "warning", "field"} and isinstance(warning["field"], str), warning
    rest = [a for a in answers if "warning" not in a]
    kind = _kind(line)
    if kind != "analysis":  # refused or an action: exactly one answer, nothing queued
        assert len(rest) == 1 and not jobs, (rest, jobs)
        if "error" in rest[0]:
            _check_error(rest[0])
        else:
            assert rest[0]["id"] == json.loads(line)["id"]  # an action's answer echoes the query's id
        return
    # An analysis query queues its positions, or answers an error for each it cannot analyze;
    # an error about the whole query (no position numbers) is its only answer.
    assert rest or jobs
    for answer in rest:
        _check_error(answer)
        if "turnNumber" not in answer:
            assert len(rest) == 1 and not jobs, (rest, jobs)


class _NoSearch(Engine):
    """The engine with each analysis answered at once instead of searched."""

    def analyze(self, job: Any) -> None:
        self.send({"id": job.query_id, "analyzed": True})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, min_size=1, max_size=8))
def test_the_engine_reads_on_after_any_lines(batch: list[str]) -> None:
    batch = [line.replace("\n", " ").replace("\r", " ") for line in batch]  # one input line each
    # What each line must produce, from the handler alone (no workers).
    probe_out = io.StringIO()
    probe = Engine(probe_out, workers=0)
    expected = 0
    for line in batch:
        if line.strip():
            answers, jobs = _answers(probe, probe_out, line)
            expected += len(answers) + len(jobs)
    last = json.dumps({"id": "last-line", "action": "query_version"})
    text = "".join(line + "\n" for line in batch) + last + "\n"
    out = io.StringIO()
    assert _NoSearch(out, workers=2).run(io.StringIO(text)) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(answers) == expected + 1
    assert any(a["id"] == "last-line" and a.get("version") == 1 for a in answers)
