"""``splendor-mcts hint`` through the real command (subprocess), on the example positions."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import splendor_mcts as sm
from splendor_mcts.games.positions import read_position

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VIEWS = sorted(EXAMPLES.glob("splendor-*p-view.json"))


def hint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("decisions", [False, True], ids=["turns", "decisions"])
@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_hint_prints_a_table_of_legal_moves(path, decisions):
    run = hint(str(path), "--iterations", "400", "--threads", "1", "--top", "3", *(["--decisions"] if decisions else []))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    data = json.loads(path.read_text())
    assert f"seat {data['to_move'] + 1} to move" in lines[0]  # people count seats from 1; the JSON from 0
    assert "400 iterations" in lines[0]
    header = next(line for line in lines if "visits" in line)
    for column in ("move" if decisions else "turn", "visits", "win % (95% interval)", "principal variation"):
        assert column in header
    state = read_position(path.read_text()).state
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    rows = [line for line in lines[lines.index(header) + 1:] if line.strip()[:1].isdigit()]
    assert len(rows) == 3
    for row in rows:
        move = [cell.strip() for cell in row.split("│")][1]
        assert any(move.startswith(text) for text in legal), row


def test_hint_json_matches_the_api_for_the_same_seed():
    path = VIEWS[0]
    run = hint(str(path), "--iterations", "600", "--threads", "1", "--seed", "4", "--json", "--top", "4")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    state = read_position(path.read_text()).state
    api = sm.analyze(state, iterations=600, threads=1, seed=4, top_k=4, analysis_moves=4)  # hint: k = --top
    assert [m["action"] for m in out["moveInfos"]] == [m.action for m in api.moves]
    assert [m["visits"] for m in out["moveInfos"]] == [m.visits for m in api.moves]
    assert out["toMove"] == state.current_player()
    assert all(m["label"].startswith(m["move"]) for m in out["moveInfos"])


def test_hint_reads_standard_input():
    run = hint("-", "--iterations", "200", "--threads", "1", "--json", stdin=VIEWS[1].read_text())
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["rootInfo"]["iterations"] == 200


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_hint_from_a_view_does_not_depend_on_the_hidden_cards(path):
    """Two samplings of the unseen cards (deck order, opponents' blind reserves), same answer."""
    text = path.read_text()
    a = read_position(text, seed=1).state
    b = read_position(text, seed=99).state
    assert a.to_json() != b.to_json()  # the hidden cards differ...
    ra = sm.analyze(a, iterations=1500, threads=1, seed=7, top_k=None)
    rb = sm.analyze(b, iterations=1500, threads=1, seed=7, top_k=None)
    assert ra.to_dict()["moveInfos"] == rb.to_dict()["moveInfos"]  # ...the analysis does not


def test_hint_time_limit_and_bad_limits():
    run = hint(str(VIEWS[0]), "--time", "0.3", "--threads", "2", "--json")
    assert run.returncode == 0, run.stderr
    assert 0.2 < json.loads(run.stdout)["rootInfo"]["seconds"] < 2.0
    run = hint(str(VIEWS[0]), "--iterations", "-5")
    assert run.returncode == 2 and "--iterations: iterations must be >= 0, got -5" in run.stderr


def test_hint_takes_every_search_setting():
    run = hint(str(VIEWS[0]), "--iterations", "300", "--threads", "1", "--exploration", "0.7", "--evaluator", "random",
               "--rollout-cutoff", "3", "--memory-limit", "4000000", "--perfect-information", "--no-solver",
               "--no-policy-cache", "--json")
    assert run.returncode == 0, run.stderr
    params = json.loads(run.stdout)["params"]
    assert (params["exploration"], params["evaluator"], params["rolloutCutoff"], params["memoryLimit"],
            params["perfectInformation"], params["maxIterations"], params["solver"], params["policyCache"]) == (
        0.7, "random", 3, 4_000_000, True, 300, False, False)


def test_hint_parallelism_reaches_the_search_and_bad_values_are_refused():
    run = hint(str(VIEWS[0]), "--iterations", "2000", "--threads", "2", "--parallelism", "tree", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["params"]["parallelism"] == "tree" and out["params"]["threads"] == 2
    assert out["rootInfo"]["iterations"] == 2000
    assert json.loads(hint(str(VIEWS[0]), "--iterations", "200", "--json").stdout)["params"]["parallelism"] == "root"
    run = hint(str(VIEWS[0]), "--parallelism", "leaf")
    assert run.returncode == 2 and "--parallelism" in run.stderr and "'leaf'" in run.stderr
