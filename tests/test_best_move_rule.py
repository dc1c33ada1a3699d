"""The best-move rule and analysis mode (docs/search.md, "Best move"): one order for the
move played and the moves shown, each move's 95% interval, the share of the visits the
moves shown keep, the search for play unchanged, and bad values refused at every door."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

import splendor_mcts as sm
from search_helpers import random_position
from splendor_mcts.games.positions import read_position
from splendor_mcts.tournament.agents import parse_agent_spec

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHARE = sm._core.ANALYSIS_SHARE


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def check_rule_order(analysis: sm.Analysis) -> None:
    """The rule, restated: moves with the share by lower bound, then the others by visits."""
    lcb_visits = math.ceil(SHARE * analysis.root.visits) if analysis.params.analysis_moves else math.inf
    unproven = [m for m in analysis.moves if m.proof is None]
    ranked = [m for m in unproven if m.visits >= lcb_visits]
    rest = unproven[len(ranked):]
    assert all(m.visits < lcb_visits for m in rest)
    assert all(a.lcb >= b.lcb for a, b in zip(ranked, ranked[1:]))
    assert all(a.visits >= b.visits for a, b in zip(rest, rest[1:]))
    assert analysis.best_action == analysis.moves[0].action
    infos = analysis.to_dict()["moveInfos"]
    assert [m["action"] for m in infos] == [m.action for m in analysis.moves]
    assert [m["order"] for m in infos] == list(range(len(infos)))


def test_the_lower_bound_passes_the_most_visited_move():
    """A fixed case (Duel, two threads' trees merged, the search without a network) where the
    move with the highest lower bound is not the most visited: analysis mode plays it and
    lists it first; the search for play keeps the most visited."""
    state = random_position(sm.load_game("duel"), 20, 20)
    on = sm.analyze(state, iterations=4000, threads=2, seed=20, top_k=None, analysis_moves=5, network="none")
    most = max(on.moves, key=lambda m: m.visits)
    first = on.moves[0]
    assert first.action != most.action and first.visits < most.visits
    assert first.lcb > most.lcb and first.visits >= SHARE * on.root.visits
    check_rule_order(on)
    off = sm.analyze(state, iterations=4000, threads=2, seed=20, top_k=None, network="none")
    assert off.best_action == max(off.moves, key=lambda m: (m.visits, m.win_rate)).action
    check_rule_order(off)


@pytest.mark.parametrize("spec, seed", [("splendor", 3), ("splendor(players=3)", 5), ("duel", 2)])
def test_moves_shown_keep_their_share_in_analysis_mode(spec, seed):
    state = random_position(sm.load_game(spec), seed, 12)
    for k in (3, 5):
        analysis = sm.analyze(state, iterations=8000, threads=1, seed=seed, top_k=k, analysis_moves=k)
        assert len(analysis.moves) == min(k, len(state.legal_actions()))
        for m in analysis.moves:
            assert m.proof is not None or m.visits >= SHARE * analysis.root.visits, (m.text, m.visits)
            assert m.lcb <= m.win_rate <= m.ucb
        check_rule_order(analysis)


@pytest.mark.parametrize("spec", ["splendor", "duel"])
def test_analysis_mode_off_is_the_search_for_play(spec):
    """Off (the default of sm.analyze and the bots): the same search, move for move, as
    without the setting; on: the same budget, spent differently."""
    state = random_position(sm.load_game(spec), 4, 10)
    plain = sm.analyze(state, iterations=3000, threads=1, seed=9, top_k=None).to_dict()
    off = sm.analyze(state, iterations=3000, threads=1, seed=9, top_k=None, analysis_moves=0).to_dict()
    on = sm.analyze(state, iterations=3000, threads=1, seed=9, top_k=None, analysis_moves=5).to_dict()
    for d in (plain, off, on):
        for key in ("seconds", "iterationsPerSecond"):
            d["rootInfo"].pop(key)
    assert plain == off
    assert [(m["action"], m["visits"]) for m in on["moveInfos"]] != [(m["action"], m["visits"]) for m in off["moveInfos"]]
    assert on["rootInfo"]["iterations"] == off["rootInfo"]["iterations"] == 3000
    assert on["params"]["analysisMoves"] == 5 and off["params"]["analysisMoves"] == 0


def test_bots_play_without_analysis_mode():
    game = sm.load_game("splendor")
    assert sm.MCTSBot(game, iterations=10).params.analysis_moves == 0
    assert sm.MCTSBot(game, iterations=10, analysis_moves=3).params.analysis_moves == 3


def test_hint_shows_each_win_rate_with_its_interval():
    path = EXAMPLES / "splendor-2p-view.json"
    run = cli("hint", str(path), "--iterations", "3000", "--threads", "1", "--top", "4")
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.strip()[:1].isdigit() and "│" in line]
    assert len(rows) == 4
    for row in rows:
        low, win, high = (float(x) for x in re.search(r"(\d+\.\d)% \((\d+\.\d)-(\d+\.\d)\)", row).group(2, 1, 3))
        assert low <= win <= high
    state = read_position(path.read_text()).state
    api = sm.analyze(state, iterations=3000, threads=1, seed=0, top_k=4, analysis_moves=4)  # hint's k is --top
    assert [row.split("│")[1].strip() for row in rows] == [m.label for m in api.moves]


def test_protocol_answers_in_analysis_mode_with_intervals():
    query = {"id": "q", "position": json.loads((EXAMPLES / "splendor-2p-view.json").read_text()),
             "maxIterations": 3000, "topK": 3}
    off = {**query, "id": "off", "analysisMoves": 0}
    run = cli("analyze", stdin=json.dumps(query) + "\n" + json.dumps(off) + "\n")
    assert run.returncode == 0, run.stderr
    answers = {a["id"]: a for a in map(json.loads, run.stdout.splitlines())}
    state = read_position(json.dumps(query["position"])).state
    for key, k in (("q", 3), ("off", 0)):
        api = sm.analyze(state, iterations=3000, threads=1, seed=0, top_k=3, analysis_moves=k)
        infos = answers[key]["moveInfos"]
        assert [(m["action"], m["visits"]) for m in infos] == [(m.action, m.visits) for m in api.moves]
        assert all(m["lcb"] <= m["winrate"] <= m["ucb"] for m in infos)
    assert all(m["visits"] >= SHARE * answers["q"]["rootInfo"]["visits"] for m in answers["q"]["moveInfos"])


BAD = [(11, "analysis_moves must be between 0 (off) and 10, got 11"),
       (-1, "analysis_moves must be between 0 (off) and 10, got -1")]


@pytest.mark.parametrize("value, message", BAD)
def test_bad_analysis_moves_are_refused_at_every_door(value, message):
    state = sm.load_game("splendor").new_initial_state(seed=1)
    with pytest.raises(ValueError, match=re.escape(message)):
        sm.analyze(state, iterations=10, analysis_moves=value)
    with pytest.raises(ValueError, match=re.escape(message)):
        sm.MCTSBot(sm.load_game("splendor"), iterations=10, analysis_moves=value)
    with pytest.raises(ValueError, match=re.escape(f"parameter 'analysis_moves': {message}")):
        parse_agent_spec(f"mcts:iterations=10,analysis_moves={value}")
    for command in (["hint", "missing.json"], ["review", "missing.json"], ["play"]):
        run = cli(*command, "--analysis-moves", str(value))
        assert run.returncode == 2 and f"--analysis-moves: {message}" in run.stderr, run.stderr
    query = {"id": "q", "position": json.loads((EXAMPLES / "splendor-2p-view.json").read_text()), "analysisMoves": value}
    answer = json.loads(cli("analyze", stdin=json.dumps(query) + "\n").stdout)
    assert answer["field"] == "analysisMoves" and message in answer["error"]
    with pytest.raises(ValueError, match="analysis_moves must be an integer"):
        sm.analyze(state, iterations=10, analysis_moves=2.5)
