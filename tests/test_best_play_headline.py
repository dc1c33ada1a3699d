"""One value for "the best play found" (issue 50, item 2): the hint's headline is the value of
the turn it lists first (or the proven result), not the root's mean over every move searched,
and the same value is in the text, the JSON (``bestWinrate``, beside KataGo's
``rootInfo.winrate``), the analysis protocol and the web board's hint, for every example
position."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from splendor_mcts.analysis.protocol import Engine
from splendor_mcts.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
POSITIONS = sorted(p for p in EXAMPLES.glob("*.json"))
SEARCH = ("--iterations", "3000", "--threads", "1", "--seed", "2", "--top", "3")
HEADLINE = re.compile(r"; seat \d (?:wins (?P<win>\d+\.\d)% with the best play found|proven: (?P<proof>.+))$")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_every_example_position_is_checked():
    assert len(POSITIONS) >= 8 and {p.name for p in POSITIONS} >= {"duel-view.json", "splendor-win-now-view.json"}


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.name)
def test_the_headline_is_the_first_turns_value_in_the_text_and_the_json(path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    data = json.loads(run(capsys, "hint", str(path), *SEARCH, "--json"))
    best = data["turnInfos"][0]
    assert data["rootInfo"]["winrate"] == data["rootInfo"]["winrates"][data["toMove"]]  # KataGo's: the root's mean
    if data["proof"]:
        assert data["bestWinrate"] == (1.0 if data["proof"] == "win" else 0.0) == best["winrate"]
    else:
        assert data["bestWinrate"] == best["winrate"]

    text = run(capsys, "hint", str(path), *SEARCH)
    header = HEADLINE.search(text.splitlines()[0])
    assert header, text
    row = next(line for line in text.splitlines() if line.startswith("1 "))
    if data["proof"]:
        assert header["proof"] and best["proof"] == data["proof"]
    else:
        shown = f"{100 * best['winrate']:.1f}"
        assert header["win"] == shown and f" {shown}% (" in row  # the headline is the first row's win %


@pytest.mark.parametrize("name", ["duel-view.json", "splendor-2p-view.json"])
def test_the_protocol_answers_the_best_plays_value_beside_the_roots_mean(name):
    import io

    position = json.loads((EXAMPLES / name).read_text())
    out = io.StringIO()
    queries = [{"id": "t", "position": position, "maxIterations": 2000, "includeTurns": True},
               {"id": "m", "position": position, "maxIterations": 2000}]
    Engine(out, workers=1).run(io.StringIO("".join(json.dumps(q) + "\n" for q in queries)))
    answers = {a["id"]: a for a in map(json.loads, out.getvalue().splitlines())}
    assert answers["t"]["bestWinrate"] == answers["t"]["turnInfos"][0]["winrate"]
    assert answers["m"]["bestWinrate"] == answers["m"]["moveInfos"][0]["winrate"]
    for answer in answers.values():
        assert answer["proof"] is None and answer["proofTurns"] == 0
        assert answer["rootInfo"]["winrate"] == answer["rootInfo"]["winrates"][answer["rootInfo"]["currentPlayer"]]


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.name)
def test_the_web_boards_headline_is_its_first_turns_value(path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from splendor_mcts.serve.app import make_app
    from splendor_mcts.serve.settings import ServeSettings

    client = TestClient(make_app(ServeSettings(threads=1, max_search_seconds=5)))
    ident = client.post("/api/sessions/position", json={"position": path.read_text()}).json()["id"]
    with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=0.3") as response:
        reports = [json.loads(line[len("data: "):]) for line in response.iter_lines() if line.startswith("data: ")]
    assert reports and reports[-1]["final"]
    for report in reports:
        if not report["turns"]:
            continue
        best = report["turns"][0]
        if report["proof"]:
            assert "proven" in report["words"] and report["bestWinRate"] == (report["proof"] == "win")
        else:
            assert report["bestWinRate"] == best["winRate"]
            assert report["words"].endswith(f"wins {100 * best['winRate']:.1f}% with the best play found")
