"""``splendor-mcts analyze`` through a pipe: interleaved queries, reports during search,
bad lines answered without stopping, terminate, records and turns."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

from splendor_positions import dealt_record

import splendor_mcts as sm

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def position(name: str = "splendor-2p-view.json") -> dict:
    return json.loads((EXAMPLES / name).read_text())


def run_engine(lines: list[str], *args: str) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "analyze", *args],
                         input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_interleaved_queries_bad_lines_and_version():
    queries = [
        json.dumps({"id": "a", "position": position(), "maxIterations": 300, "topK": 3}),
        "this is not json",
        json.dumps({"id": "b", "position": position("splendor-3p-view.json"), "maxIterations": 300}),
        json.dumps({"id": "bad", "position": {**position(), "to_move": 7}}),
        json.dumps({"id": "c", "action": "query_version"}),
        json.dumps({"id": "d", "position": position("splendor-4p-view.json"), "maxIterations": 200, "topK": 2}),
        json.dumps({"id": "e", "position": position(), "maxIterations": 0}),
        json.dumps({"id": "f", "position": position(), "colour": "red"}),
        json.dumps({"position": position()}),
        json.dumps({"id": "g", "action": "dance"}),
        json.dumps({"id": "h", "position": position(), "maxIterations": 400, "threads": 2, "parallelism": "tree"}),
        json.dumps({"id": "i", "position": position(), "parallelism": "leaf"}),
        json.dumps({"id": "j", "position": position(), "parallelism": ["tree"]}),
    ]
    out = run_engine(queries)
    by_id: dict = {}
    for r in out:
        by_id.setdefault(r["id"], []).append(r)
    assert {"a", "b", "c", "d", "bad", "e", "f", "g", "h", "i", "j", None} == set(by_id)
    assert by_id["c"][0]["version"] == 1
    for qid, top in (("a", 3), ("b", 5), ("d", 2)):
        final = by_id[qid][-1]
        assert final["isDuringSearch"] is False
        assert len(final["moveInfos"]) == top
        assert final["rootInfo"]["iterations"] in (200, 300)
        for m in final["moveInfos"]:
            assert {"move", "label", "action", "visits", "winrate", "lcb", "pv"} <= set(m)
    assert by_id["bad"][0] == {"id": "bad", "error": "to_move: 7 is more than 1", "field": "position.to_move"}
    assert by_id["e"][0]["field"] == "maxIterations"
    assert by_id["f"][0] == {"id": "f", "field": "colour", "warning": by_id["f"][0]["warning"]}  # ignored, not refused
    assert "unknown field 'colour' is ignored" in by_id["f"][0]["warning"] and by_id["f"][-1]["moveInfos"]
    assert by_id[None][0]["field"] in (None, "id")
    assert by_id["g"][0]["field"] == "action"
    assert by_id["h"][-1]["rootInfo"]["iterations"] == 400 and by_id["h"][-1]["isDuringSearch"] is False
    assert by_id["i"] == [{"id": "i", "error": "parallelism must be 'root' or 'tree', got 'leaf'", "field": "parallelism"}]
    assert by_id["j"] == [{"id": "j", "error": "parallelism must be a string, got ['tree']", "field": "parallelism"}]


def test_a_setting_no_float_holds_is_refused_by_its_field():
    # issue 49: a JSON integer of 400 digits met float() and the whole query was refused unnamed
    huge = int("1" + "0" * 400)
    fields = ("maxTime", "maxIterations", "exploration", "threads", "valueMix")
    out = {r["id"]: r for r in run_engine([json.dumps({"id": f, "position": position(), f: huge}) for f in fields])}
    for field in fields:
        assert out[field]["field"] == field and "is out of range, got 1000" in out[field]["error"], out[field]


def test_every_search_setting_is_a_query_field_checked_before_the_search():
    settings = {"maxIterations": 300, "maxTime": 30, "threads": 2, "parallelism": "tree", "seed": 4,
                "exploration": 0.6, "evaluator": "random", "rolloutCutoff": 5, "perfectInformation": True,
                "memoryLimit": 1 << 22, "solver": False, "probe": True, "policyCache": False}
    bad = [("maxIterations", -1, "iterations must be >= 0"), ("maxTime", "1", "time_limit must be a number"),
           ("threads", 0, "threads must be between 1 and 256"), ("seed", -2, "seed"),
           ("exploration", -1, "exploration must be a finite number >= 0"),
           ("evaluator", "clever", "evaluator \\(rollout\\) must be one of"),
           ("rolloutCutoff", -1, "rollout_cutoff must be >= 0"),
           ("perfectInformation", 1, "perfect_information must be true or false"),
           ("memoryLimit", 10, "memory_limit must be at least 1 MiB"),
           ("solver", "off", "solver must be true or false"), ("probe", 0, "probe must be true or false"),
           ("policyCache", "on", "policy_cache must be true or false")]
    queries = [json.dumps({"id": "all", "position": position(), **settings})]
    queries += [json.dumps({"id": field, "position": position(), field: value}) for field, value, _ in bad]
    out = {r["id"]: r for r in run_engine(queries)}
    assert out["all"]["rootInfo"]["iterations"] == 300 and not out["all"]["isDuringSearch"]
    for field, _, message in bad:
        assert out[field]["field"] == field and re.search(message, out[field]["error"]), out[field]


def test_reports_during_search_then_final():
    query = {"id": "live", "position": position(), "maxTime": 1.0, "reportDuringSearchEvery": 0.2, "topK": 2}
    out = run_engine([json.dumps(query)])
    during = [r for r in out if r["isDuringSearch"]]
    final = [r for r in out if not r["isDuringSearch"]]
    assert len(during) >= 2 and len(final) == 1
    visits = [r["rootInfo"]["visits"] for r in during] + [final[0]["rootInfo"]["visits"]]
    assert visits == sorted(visits) and visits[0] < visits[-1]


def test_terminate_stops_a_long_query():
    lines = [json.dumps({"id": "long", "position": position(), "maxTime": 60, "reportDuringSearchEvery": 0.2}),
             json.dumps({"id": "t", "action": "terminate", "terminateId": "long"})]
    with subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "analyze"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as run:
        assert run.stdin and run.stdout
        run.stdin.write(lines[0] + "\n")
        run.stdin.flush()
        first = json.loads(run.stdout.readline())  # the search has begun, however loaded the machine
        assert first["isDuringSearch"]
        run.stdin.write(lines[1] + "\n")
        run.stdin.close()
        out = [first] + [json.loads(line) for line in run.stdout]
        assert run.wait(timeout=30) == 0
    assert {"id": "t", "action": "terminate", "terminateId": "long", "stopped": 1} in out
    assert any(r["id"] == "long" and r.get("terminated") for r in out)


def test_record_with_turns():
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=3, explicit_chance=True)
    actions = []
    while len(actions) < 40:
        a = state.dealt_outcome() if state.is_chance_node() else state.legal_actions()[0]
        state.apply_action(a)
        actions.append(a)
    record = {"format": "splendor-mcts-record/1", "game": game.spec, "seed": 3, "explicit_chance": True,
              "seats": ["a", "b"], "actions": actions, "result": None, "termination": "unfinished"}
    probe = game.new_initial_state(seed=3, explicit_chance=True)
    chance_turn = 0  # the opening deal is chance
    decision_turns = []
    for i, a in enumerate(actions):
        if not probe.is_chance_node():
            decision_turns.append(i)
        probe.apply_action(a)
    by_actions = {"numbering": "actions"}  # the first numbering: actions applied, chance outcomes counted
    out = run_engine([json.dumps({"id": "r", "record": record, "analyzeTurns": decision_turns[:2], "maxIterations": 100,
                                  **by_actions}),
                      json.dumps({"id": "r2", "record": record, "analyzeTurns": [chance_turn], "maxIterations": 100,
                                  **by_actions}),
                      json.dumps({"id": "r3", "record": record, "analyzeTurns": [999], **by_actions})])
    turns = sorted(r["actionNumber"] for r in out if r["id"] == "r")
    assert turns == decision_turns[:2]
    assert sorted(r["turnNumber"] for r in out if r["id"] == "r") == [0, 1]  # as players count them
    assert [r["field"] for r in out if r["id"] == "r2"] == ["analyzeTurns[0]"]
    assert [r["field"] for r in out if r["id"] == "r3"] == ["analyzeTurns[0]"]


def test_query_parallelism_reaches_the_search(monkeypatch):
    """The query's parallelism is what the search is asked for (the response has no settings)."""
    import io

    from splendor_mcts.analysis import protocol, running

    asked = []
    real = running.analyze

    def spy(state, **kwargs):
        analysis = real(state, **kwargs)
        asked.append(analysis.params.parallelism)
        return analysis

    monkeypatch.setattr(running, "analyze", spy)
    out = io.StringIO()
    queries = [json.dumps({"id": q, "position": position(), "maxIterations": 200, "threads": 2, **extra})
               for q, extra in (("t", {"parallelism": "tree"}), ("r", {}))]
    protocol.Engine(out, workers=1).run(io.StringIO("".join(q + "\n" for q in queries)))
    assert sorted(asked) == ["root", "tree"]
    assert {json.loads(line)["id"] for line in out.getvalue().splitlines()} == {"t", "r"}


def test_a_query_terminated_before_it_starts_is_still_answered():
    from splendor_mcts.analysis.protocol import Engine
    from splendor_mcts.analysis.queries import Job
    from splendor_mcts.analysis.running import SearchLimits

    out = io.StringIO()
    engine = Engine(out, workers=0)
    state = sm.load_game("splendor").new_initial_state(seed=1)
    job = Job("queued", state, 3, 3, 7, SearchLimits(iterations=10), None)
    engine._live["queued"] = [job]
    assert engine.terminate("queued") == 1
    engine._jobs.put(job)
    engine._jobs.put(None)
    engine._work()
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [
        {"id": "queued", "isDuringSearch": False, "turnNumber": 3, "actionNumber": 7, "terminated": True, "noResults": True}]


def test_a_line_nested_too_deeply_is_answered_and_reading_goes_on():
    out = run_engine(["[" * 100_000, json.dumps({"id": "v", "action": "query_version"})])
    assert out[0] == {"id": None, "error": "the line nests arrays or objects too deeply (more than 128 levels)", "field": None}
    assert out[1]["id"] == "v" and out[1]["version"] == 1


def test_a_closed_output_stops_the_engine_quietly_with_the_broken_pipe_code():
    queries = "".join(json.dumps({"id": f"q{i}", "position": position(), "maxIterations": 50}) + "\n" for i in range(40))
    run = subprocess.run(f'"{sys.executable}" -m splendor_mcts.cli analyze | head -c 1 > /dev/null; '
                         'echo "exit ${PIPESTATUS[0]}" >&2', shell=True, executable="/bin/bash", input=queries,
                         capture_output=True, text=True, timeout=60)
    assert run.stderr.strip().splitlines()[-1] == "exit 141", run.stderr
    assert "Traceback" not in run.stderr


def test_no_standard_output_at_all_is_refused_by_name():
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "analyze"], input="", stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, timeout=60,
                         preexec_fn=lambda: __import__("os").close(1))
    assert run.returncode == 141
    assert "standard output is closed" in run.stderr and "Traceback" not in run.stderr



def test_an_illegal_record_action_says_why():
    record = dealt_record(3, "take WUG", "take WW")  # seat 1: only 3 white are left
    actions = record["actions"]
    out = run_engine([json.dumps({"id": "r", "record": record, "analyzeTurns": [len(actions)], "maxIterations": 50})])
    assert out == [{"id": "r", "turnNumber": len(actions), "field": f"record.actions[{len(actions) - 1}]",
                    "error": f"turn {len(actions)} is not reached: record.actions[{len(actions) - 1}]: take WW is not "
                             "legal here: only 3 white left (4 needed to take two)"}]
