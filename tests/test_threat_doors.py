"""Threats and the plan through every door: hint --json and text, the analysis protocol's
final response (not the partial ones), the web board's final report, and review's
blunders (docs/hints.md, "Threats", "The plan")."""
from __future__ import annotations

import json
import subprocess
import sys

import splendor_mcts as sm
from splendor_mcts.analysis.review import Decision, Review, allowed_threat
from splendor_mcts.serve.live import hint_json as board_report

from threat_reference import threat_position

WORDS = "seat 2 wins next turn with buy 2.1 (blue 2pt U5)"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300)


def test_hint_json_and_text_name_the_threat_and_the_plan(tmp_path):
    path = tmp_path / "threat.json"
    path.write_text(threat_position().text())
    run = cli("hint", str(path), "--iterations", "3000", "--threads", "1", "--top", "3", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    by_turn = {t["turn"]: t["threat"] for t in out["turnInfos"]}
    assert by_turn["reserve 2.1"] == {"status": "none", "words": "no win next turn for the seat after you"}
    allowing = [t for t, threat in by_turn.items() if threat["status"] == "wins"]
    assert allowing and all(by_turn[t]["words"] == WORDS and by_turn[t]["moves"] == ["buy 2.1"] for t in allowing)
    [summary] = out["threats"]
    assert summary["stoppedBy"] == ["reserve 2.1"] and sorted(summary["allowedBy"]) == sorted(allowing)
    assert out["plan"]["turn"] == out["turnInfos"][0]["label"] and out["plan"]["words"]
    text = cli("hint", str(path), "--iterations", "3000", "--threads", "1", "--top", "3")
    assert f"Threat: {summary['summary']}" in text.stdout
    assert f"Plan: {out['plan']['words']}" in text.stdout


def test_the_protocol_gives_threats_in_the_final_response_only():
    query = {"id": "t", "position": json.loads(threat_position().text()), "maxIterations": 3000, "topK": 3,
             "includeTurns": True, "reportDuringSearchEvery": 0.001}
    run = cli("analyze", "--threads", "1", stdin=json.dumps(query) + "\n")
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    final = [a for a in answers if not a["isDuringSearch"]]
    assert len(final) == 1 and final[0]["threats"][0]["stoppedBy"] == ["reserve 2.1"]
    assert all("threat" in t for t in final[0]["turnInfos"]) and final[0]["plan"]["words"]
    assert all("threats" not in a and "plan" not in a for a in answers if a["isDuringSearch"])
    moves_only = dict(query, includeTurns=False, id="m")
    run = cli("analyze", "--threads", "1", stdin=json.dumps(moves_only) + "\n")
    assert "threats" not in json.loads(run.stdout.splitlines()[-1])  # threats are about whole turns


def test_the_board_report_has_them_when_final():
    state = threat_position().state()
    analysis = sm.analyze(state, iterations=3000, threads=1, seed=1, top_k=3, turns=True, analysis_moves=3)
    final = board_report(state, analysis, final=True)
    assert final["threats"][0]["words"] == WORDS and final["plan"]["words"]
    assert {t["threat"]["status"] for t in final["turns"]} == {"wins", "none"}
    partial = board_report(state, analysis, final=False)
    assert partial["threats"] == [] and partial["plan"] is None and all("threat" not in t for t in partial["turns"])


class _Turn:
    def __init__(self, state, text: str) -> None:
        self.actions, self.complete = [state.string_to_action(text)], True


def test_review_calls_a_turn_that_allows_a_stoppable_win_a_blunder():
    state = threat_position().state()
    take = [state.string_to_action("take WGR")]
    threat, blunder = allowed_threat(state, take, _Turn(state, "reserve 2.1"))
    assert blunder and threat is not None and threat["words"] == WORDS
    threat, blunder = allowed_threat(state, take, _Turn(state, "take GRK"))  # the best one allows it too
    assert threat is not None and not blunder
    assert allowed_threat(state, [state.string_to_action("reserve 2.1")], _Turn(state, "take WGR")) == (None, False)
    decision = Decision(turn_number=0, action_number=0, seat=0, played_turn="take WGR", played_actions=take,
                        best_turn="reserve 2.1", best_actions=[], best_win_rate=0.1, played_win_rate=0.1, drop=0.0,
                        position_win_rate=0.1, win_rates=[0.1, 0.9], threat=threat, blunder=True)
    review = Review(game="splendor", seats=["a", "b"], decisions=[decision], threshold=0.05)
    assert review.mistakes(0) == [decision]  # a blunder is a mistake whatever its drop
    assert review.to_dict()["players"][0]["worst"][0]["blunder"] is True
