"""Whole turns through the real commands (subprocess): hint's turn table and --decisions,
the protocol's includeTurns, review's played and best turns, play's engine turns."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import splendor_mcts as sm
from splendor_mcts.analysis.turns import SEPARATOR, parse_turn, turn_label
from splendor_mcts.games.positions import read_position
from splendor_mcts.records import GameRecord

from test_turns import find_turn, find_turn_line

ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "160"}


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=300, env=ENV)


def take_return_view(tmp_path: Path) -> Path:
    state, _ = find_turn("splendor", ("take", "return"))
    path = tmp_path / "take-return.json"
    path.write_text(state.observation_json(state.current_player()))
    return path


def rows(stdout: str) -> list[list[str]]:
    lines = stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "visits" in line)
    return [[cell.strip() for cell in line.split("│")] for line in lines[header + 1:] if line.strip()[:1].isdigit()]


def test_hint_shows_whole_turns_by_default_and_decisions_on_request(tmp_path):
    path = take_return_view(tmp_path)
    common = (str(path), "--iterations", "4000", "--threads", "1", "--top", "60")
    turns = cli("hint", *common)
    assert turns.returncode == 0, turns.stderr
    texts = [row[1] for row in rows(turns.stdout)]
    takes = [t for t in texts if t.startswith("take")]
    assert takes and all(f"{SEPARATOR}return " in t for t in takes)  # ten tokens: every take returns some
    decisions = cli("hint", *common, "--decisions")
    assert decisions.returncode == 0, decisions.stderr
    assert all("return" not in row[1] for row in rows(decisions.stdout))

    data = json.loads(cli("hint", *common, "--json").stdout)
    state = read_position(path.read_text()).state
    assert data["turnInfos"] and data["moveInfos"]
    for info in data["turnInfos"]:
        assert parse_turn(state, info["turn"]) == info["actions"]
        assert info["pvTurns"][0]["seat"] == data["toMove"]
    assert any(len(info["actions"]) > 1 for info in data["turnInfos"])


def test_protocol_answers_turn_infos_when_asked(tmp_path):
    position = json.loads(take_return_view(tmp_path).read_text())
    queries = [
        {"id": "t", "position": position, "maxIterations": 1500, "topK": 50, "includeTurns": True},
        {"id": "m", "position": position, "maxIterations": 300},
        {"id": "bad", "position": position, "includeTurns": "yes"},
    ]
    run = cli("analyze", "--workers", "1", stdin="".join(json.dumps(q) + "\n" for q in queries))
    assert run.returncode == 0, run.stderr
    answers = {a["id"]: a for a in map(json.loads, run.stdout.splitlines())}
    turns = answers["t"]["turnInfos"]
    assert 1 <= len(turns) <= 50 and [t["order"] for t in turns] == list(range(len(turns)))
    assert any(t["turn"].startswith("take") and f"{SEPARATOR}return " in t["turn"] for t in turns)
    for t in turns:
        assert t["turn"] == SEPARATOR.join(t["moves"]) and t["pv"][:len(t["moves"])] == t["moves"]
        assert set(t) >= {"label", "complete", "winrate", "lcb", "proof", "proofTurns", "pvTurns", "pvActions"}
    assert sum(t["visits"] for t in turns) <= answers["t"]["rootInfo"]["visits"]
    assert "turnInfos" not in answers["m"] and "pvTurns" in answers["m"]["moveInfos"][0]
    assert answers["bad"] == {"id": "bad", "error": "includeTurns must be true or false", "field": "includeTurns"}


def test_review_names_the_played_and_the_best_whole_turns(tmp_path):
    seed, history, state, turn = find_turn_line("splendor", ("take", "return"))
    record = GameRecord(game="splendor", seed=seed, seats=("a", "b"), actions=tuple(history + turn),
                        result=None, termination="unfinished", explicit_chance=False)
    path = tmp_path / "record.json"
    path.write_text(record.to_json())
    run = cli("review", str(path), "--iterations", "300", "--threads", "1", "--json")
    assert run.returncode == 0, run.stderr
    decisions = {d["action_number"]: d for d in json.loads(run.stdout)["decisions"]}
    played = decisions[len(history)]
    assert played["played_turn"] == turn_label(state, turn) and SEPARATOR in played["played_turn"]
    assert played["played_actions"] == turn
    # the take and its return are one turn, reviewed once, numbered as the analysis protocol numbers turns
    assert len(history) + 1 not in decisions
    asked = [d["turn_number"] for d in decisions.values()]
    assert asked == list(range(len(asked)))  # every turn once, from 0, none skipped
    for d in decisions.values():
        assert d["best_actions"] and d["best_turn"].count(SEPARATOR) >= len(d["best_actions"]) - 1
    table = cli("review", str(path), "--iterations", "300", "--threads", "1", "--threshold", "0")
    assert table.returncode == 0, table.stderr
    assert "played turn" in table.stdout and "best turn" in table.stdout


def test_play_shows_each_engine_turn_whole(tmp_path):
    saved = tmp_path / "game.json"
    moves = [f"take {c}{r}" for r in range(1, 6) for c in "abcde"] * 2  # one token at a time, where there is one
    run = cli("play", "--game", "duel", "--iterations", "80", "--threads", "1", "--deal-seed", "4",
              stdin="".join(f"{line}\n" for line in [*moves, f"save {saved}", "quit"]))
    assert run.returncode == 0, run.stderr
    record = GameRecord.from_json(saved.read_text())
    game = sm.load_game(record.game)
    state = game.new_initial_state(seed=record.seed, explicit_chance=True)
    expected = []
    for seat, actions in state.split_turns(list(record.actions)):
        if seat == 1:
            expected.append(f"seat 2 plays {turn_label(state, actions)}")
        for action in actions:
            state.apply_action(action)
    printed = [line for line in run.stdout.splitlines() if line.startswith("seat 2 plays")]
    assert printed == expected and len(expected) >= 5
