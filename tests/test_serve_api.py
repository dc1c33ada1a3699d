"""The web board's endpoints (splendor-mcts serve) through Starlette's test client, bad input
included, and a hint whose page goes away (its search stops)."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import splendor_mcts as sm  # noqa: E402
from splendor_mcts.games import registry  # noqa: E402
from splendor_mcts.play.random_game import random_record  # noqa: E402
from splendor_mcts.play.hidden import unseen_cards  # noqa: E402
from splendor_mcts.serve.app import make_app  # noqa: E402
from splendor_mcts.serve.settings import ServeSettings  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture()
def client() -> TestClient:
    return TestClient(make_app(ServeSettings(threads=1, max_body=64 * 1024, max_search_seconds=5)))


def example(name: str) -> str:
    return (EXAMPLES / name).read_text()


def start(client: TestClient, **body: object) -> dict:
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def events(response) -> list[dict]:
    return [json.loads(line[len("data: "):]) for line in response.iter_lines() if line.startswith("data: ")]


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'src="/static/app.js"' in page.text
    for name, kind in (("app.js", "javascript"), ("common.js", "javascript"), ("hint.js", "javascript"),
                       ("picker.js", "javascript"), ("setup.js", "javascript"), ("board.css", "css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and kind in response.headers["content-type"]
    assert client.get("/static/../serve/app.py").status_code == 404


def test_games_and_card_pictures(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["splendor"]["players"] == [2, 3, 4] and games["duel"]["players"] == [2]
    splendor = client.get("/api/cards/splendor").json()
    assert len(splendor["cards"]) == 90 and len(splendor["nobles"]) == 10
    assert splendor["cards"][0]["svg"].startswith("<svg") and 'data-card="1"' in splendor["cards"][0]["svg"]
    duel = client.get("/api/cards/duel").json()
    assert len(duel["cards"]) == 67 and len(duel["royals"]) == 4
    bad = client.get("/api/cards/chess")
    assert bad.status_code == 400 and "unknown game 'chess'" in bad.json()["error"]


def test_new_game_board_moves_and_move(client):
    data = start(client, game="splendor", players=3, seed=4, mode="analyze")
    assert data["players"] == 3 and data["waiting"] == "move" and data["svg"].startswith("<svg")
    ident = data["id"]
    moves = client.get(f"/api/sessions/{ident}/moves").json()["moves"]
    take = next(m for m in moves if m["text"].startswith("take "))
    played = client.post(f"/api/sessions/{ident}/move", json={"move": take["text"]}).json()
    assert played["played"] == take["label"] and played["toMove"] == 1
    by_id = client.post(f"/api/sessions/{ident}/move", json={"action": moves[0]["action"]})
    assert by_id.status_code in (200, 400)  # the same id may not be legal for seat 2; either way an answer
    svg = client.get(f"/api/sessions/{ident}/board.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and 'id="seat-2"' in svg.text


def test_legal_turns_are_whole_turns(client):
    position = json.loads(example("splendor-return-view.json"))
    ident = client.post("/api/sessions/position", json={"position": position}).json()["id"]
    data = client.get(f"/api/sessions/{ident}/moves?turns=1").json()
    assert data["truncated"] is False
    labels = [t["label"] for t in data["turns"]]
    assert any(label.startswith("take R, return") for label in labels)
    assert all(len(t["actions"]) >= 1 for t in data["turns"])


def test_illegal_and_unreadable_moves_get_the_engines_reason(client):
    ident = start(client, game="splendor", players=2, seed=5, mode="analyze")["id"]
    bad = client.post(f"/api/sessions/{ident}/move", json={"move": "buy 3.1"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("buy 3.1: ")
    unread = client.post(f"/api/sessions/{ident}/move", json={"move": "fly away"})
    assert unread.status_code == 400 and unread.json()["error"]
    missing = client.post(f"/api/sessions/{ident}/move", json={})
    assert missing.status_code == 400 and missing.json()["error"] == "move: missing"
    wrong_type = client.post(f"/api/sessions/{ident}/move", json={"action": "7"})
    assert wrong_type.status_code == 400 and "action: expected int" in wrong_type.json()["error"]
    no_id = client.post(f"/api/sessions/{ident}/move", json={"action": 99999})
    assert no_id.status_code == 400 and "does not exist" in no_id.json()["error"]
    assert client.get("/api/sessions/nope/moves").status_code == 404


def test_bad_positions_get_the_path_named_problems_of_the_command_line(client):
    position = json.loads(example("splendor-3p-view.json"))
    position["players"][2]["points"] = 9
    position["players"][0]["bonuses"]["white"] = 3
    response = client.post("/api/sessions/position", json={"position": position})
    assert response.status_code == 400
    problems = response.json()["problems"]
    expected = [dict(p) for p in pytest.raises(sm.games.positions.PositionError,
                                               sm.games.positions.read_position, json.dumps(position)).value.problems]
    assert problems == expected
    assert any(p["path"] == "players[2].points" for p in problems)
    preview = client.post("/api/preview", json={"position": position}).json()
    assert preview["valid"] is False and preview["problems"] == expected
    not_json = client.post("/api/sessions/position", json={"position": "{nope"})
    assert not_json.status_code == 400 and not_json.json()["problems"][0]["message"].startswith("line 1")
    body = client.post("/api/sessions/position", content=b"[1, 2", headers={"content-type": "application/json"})
    assert body.status_code == 400 and "not JSON" in body.json()["error"]


def test_oversize_requests_are_refused_unread(client):
    big = {"position": "x" * (70 * 1024)}
    response = client.post("/api/sessions/position", json=big)
    assert response.status_code == 413 and "65,536 bytes" in response.json()["error"]

    def chunks():  # no content-length: counted as it comes
        for _ in range(80):
            yield b"x" * 1024

    streamed = client.post("/api/preview", content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413


def test_undo_and_engine_turns_in_play_mode(client):
    data = start(client, game="splendor", players=3, seed=2, mode="play", seat=0)
    ident = data["id"]
    assert data["canUndo"] is False
    assert client.post(f"/api/sessions/{ident}/undo", json={}).json()["error"] == "nothing to undo"
    first = client.get(f"/api/sessions/{ident}/moves").json()["moves"][0]["text"]
    after = client.post(f"/api/sessions/{ident}/move", json={"move": first}).json()
    assert after["waiting"] == "engine"
    refused = client.post(f"/api/sessions/{ident}/move", json={"move": first})
    assert refused.status_code == 400 and "the engine's" in refused.json()["error"]
    played = client.post(f"/api/sessions/{ident}/engine", json={"iterations": 50}).json()
    assert [t["seat"] for t in played["engineTurns"]] == [1, 2] and played["toMove"] == 0
    assert client.post(f"/api/sessions/{ident}/engine", json={"iterations": 50}).status_code == 400
    undone = client.post(f"/api/sessions/{ident}/undo", json={}).json()
    assert undone["history"] == [] and undone["toMove"] == 0
    too_strong = client.post(f"/api/sessions/{ident}/engine", json={"iterations": 10**9})
    assert too_strong.status_code == 400 and "iterations" in too_strong.json()["error"]


def test_follow_mode_reveals_typed_as_seen(client):
    position = example("splendor-3p-view.json")
    data = client.post("/api/sessions/position", json={"position": position, "mode": "follow"}).json()
    ident = data["id"]
    assert data["seat"] == 2 and data["waiting"] == "move"
    shown = json.loads(sm.games.positions.read_position(position).state.observation_json(2))
    seen = {c for row in shown["table"] for c in row}
    after = client.post(f"/api/sessions/{ident}/move", json={"move": "reserve 1.1"}).json()
    assert after["waiting"] == "reveal" and "revealed" in after["revealPrompt"]
    cards = sm.load_game("splendor", players=3).cards()
    unseen = [c["id"] for c in cards if c["level"] == 1 and c["id"] not in seen
              and c["id"] not in {13, 24, 36, 15, 30, 32}]
    wrong = client.post(f"/api/sessions/{ident}/move", json={"move": f"#{shown['table'][1][0]}"})
    assert wrong.status_code == 400
    revealed = client.post(f"/api/sessions/{ident}/move", json={"move": f"#{unseen[0]}"}).json()
    assert revealed["waiting"] == "move" and revealed["toMove"] == 0
    assert json.loads(client.get(f"/api/sessions/{ident}/position").text)["table"][0][0] == unseen[0]
    undone = client.post(f"/api/sessions/{ident}/undo", json={}).json()
    assert undone["waiting"] == "reveal"


def test_hint_streams_updates_then_the_final_turns(client):
    ident = client.post("/api/sessions/position", json={"position": example("splendor-2p-view.json")}).json()["id"]
    with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=1") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        reports = events(response)
    assert reports[-1]["final"] is True and all(not r["final"] for r in reports[:-1])
    assert len(reports) >= 5  # ten a second for one second (at least 4 asked), then the final one
    best = reports[-1]["turns"][0]
    assert 0 <= best["lcb"] <= best["winRate"] <= best["ucb"] <= 1 and best["words"].endswith(")")
    assert best["marks"] and best["pv"] and {"seat", "label", "card"} <= set(best["pv"][0])
    assert reports[-1]["words"].startswith("seat 2 ")
    marked = client.get(f"/api/sessions/{ident}/board.svg?actions={','.join(map(str, best['actions']))}")
    assert 'class="mark"' in marked.text
    assert client.get(f"/api/sessions/{ident}/board.svg?actions=9999").status_code == 400
    assert client.get(f"/api/sessions/{ident}/hint?seconds=-1").status_code == 400


def test_searches_per_client_are_capped():
    app = make_app(ServeSettings(threads=1, searches_per_client=1, max_search_seconds=5))
    client = TestClient(app)
    ident = start(client, game="duel", seed=1, mode="analyze")["id"]
    me = next(iter(client.cookies.values()))  # the client's identity (its cookie)
    app.state.board.slots.acquire(me)  # one search already running for this client
    refused = client.get(f"/api/sessions/{ident}/hint?seconds=1")
    assert refused.status_code == 429 and "at most 1 searches" in refused.json()["error"]
    app.state.board.slots.release(me)
    assert client.get("/api/status").json()["searches"] == 0


def test_a_hint_whose_page_goes_away_stops_its_search():
    import httpx

    from board_server import running_board

    with running_board(ServeSettings(threads=1, max_search_seconds=30)) as (url, app):
        with httpx.Client(base_url=url, timeout=10) as http:
            ident = http.post("/api/sessions", json={"game": "splendor", "players": 2, "seed": 1,
                                                     "mode": "analyze"}).json()["id"]
            with http.stream("GET", f"/api/sessions/{ident}/hint?seconds=30") as response:
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        break  # one update, then the page goes
            started = time.monotonic()
            while http.get("/api/status").json()["searches"] and time.monotonic() - started < 5:
                time.sleep(0.05)
            assert http.get("/api/status").json()["searches"] == 0
            assert time.monotonic() - started < 5  # stopped long before its 30 s


def test_records_load_review_and_export(client):
    game = sm.load_game("splendor", players=2)
    record = random_record(game, seed=7)
    data = client.post("/api/sessions/record", json={"record": record.to_json()}).json()
    ident = data["id"]
    assert len(data["history"]) == len(record.actions) and data["waiting"] == "over"
    exported = client.get(f"/api/sessions/{ident}/record").json()
    assert exported["actions"] == list(record.actions)
    assert client.get(f"/api/sessions/{ident}/board.svg?ply=3&mark=best").status_code == 400  # not reviewed yet
    review = client.post(f"/api/sessions/{ident}/review", json={"iterations": 20}).json()
    assert review["graph"].startswith("<svg") and 'class="point"' in review["graph"]
    decisions = review["decisions"]
    assert decisions and all(0 <= d["drop"] <= 1 for d in decisions)
    first = decisions[0]["action_number"]
    marked = client.get(f"/api/sessions/{ident}/board.svg?ply={first}&mark=best")
    assert marked.status_code == 200 and 'class="mark"' in marked.text
    assert client.get(f"/api/sessions/{ident}/board.svg?ply=100000").status_code == 400
    bad = client.post("/api/sessions/record", json={"record": '{"game": "splendor"}'})
    assert bad.status_code == 400 and bad.json()["error"]
    too_many = client.post(f"/api/sessions/{ident}/review", json={"iterations": 10**6})
    assert too_many.status_code == 400


def test_a_review_streams_its_progress_then_the_review(client):
    record = random_record(sm.load_game("splendor", players=2), seed=7)
    ident = client.post("/api/sessions/record", json={"record": record.to_json()}).json()["id"]
    # long enough (about 1 s unloaded) that progress is sent before the review ends on any load
    with client.stream("POST", f"/api/sessions/{ident}/review", json={"iterations": 1500},
                       headers={"Accept": "text/event-stream"}) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        reports = events(response)
    progress, final = reports[:-1], reports[-1]
    assert progress and all(not r["final"] for r in progress)
    steps = [r["decision"] for r in progress]
    assert steps == sorted(steps) and len(set(steps)) == len(steps) and steps[0] >= 1
    total = len(final["decisions"])
    assert final["final"] and {r["of"] for r in progress} == {total} and steps[-1] <= total
    assert final["graph"].startswith("<svg")
    assert client.get("/api/status").json()["searches"] == 0  # its search slot is given back
    refused = client.post(f"/api/sessions/{ident}/review", json={"iterations": 0}, headers={"Accept": "text/event-stream"})
    assert refused.status_code == 400 and "iterations" in refused.json()["error"]


def test_positions_export_as_views_that_read_back(client):
    position = example("duel-view.json")
    ident = client.post("/api/sessions/position", json={"position": position}).json()["id"]
    exported = client.get(f"/api/sessions/{ident}/position")
    assert exported.headers["content-disposition"].startswith("attachment")
    back = sm.games.positions.read_position(exported.text)
    assert back.game.name == "duel"
    assert client.get(f"/api/sessions/{ident}/record").status_code == 400  # a position has no record


def test_no_request_reads_a_file_it_names(client, tmp_path):
    secret = tmp_path / "position.json"
    secret.write_text(example("splendor-2p-view.json"))
    response = client.post("/api/sessions/position", json={"position": str(secret)})
    assert response.status_code == 400 and response.json()["problems"][0]["message"].startswith("line 1")
    assert client.post("/api/sessions/record", json={"record": str(secret)}).status_code == 400


def test_new_position_for_the_setup_editor(client):
    view = client.post("/api/new-position", json={"game": "splendor", "players": 3, "seed": 1}).json()["position"]
    assert len(view["players"]) == 3 and view["decks"] == [36, 26, 16]
    preview = client.post("/api/preview", json={"position": view}).json()
    assert preview["valid"] and 'id="card-1.1"' in preview["svg"]
    bad = client.post("/api/new-position", json={"game": "splendor", "players": 7})
    assert bad.status_code == 400 and "players" in bad.json()["error"]
    # Duel is for two: another count is refused, not quietly dealt for two.
    bad = client.post("/api/new-position", json={"game": "duel", "players": 3})
    assert bad.status_code == 400 and "players must be 2, got 3" in bad.json()["error"]
    assert len(client.post("/api/new-position", json={"game": "duel", "players": 2}).json()["position"]["players"]) == 2


def test_each_games_page_data_comes_from_its_registry_entry(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    for name in ("splendor", "duel"):
        entry = registry.game_entry(name)
        page = games[name]["page"]
        assert {key: page[key] for key in entry.web_page} == dict(entry.web_page)
        view = json.loads(sm.load_game(name).new_initial_state(seed=0).observation_json(0))
        assert page["token_kinds"] == list(view["players"][0]["tokens"])
        assert page["face_up"] in view and all(key in view for key in page["derived"])
    assert games["duel"]["page"]["token_kinds"][-2:] == ["pearl", "gold"] and games["duel"]["page"]["cells"]
    assert not games["splendor"]["page"]["cells"] and games["splendor"]["page"]["bought_summary"]


def test_serve_command_listens_locally_unless_told_and_then_warns(monkeypatch, capsys):
    import uvicorn
    import webbrowser

    from splendor_mcts.cli import main

    runs: list[dict] = []
    opened: list[str] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append(options))
    monkeypatch.setattr(webbrowser, "open", opened.append)
    assert main(["serve"]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err and "http://127.0.0.1:8765/" in err
    assert runs[-1] == {"host": "127.0.0.1", "port": 8765, "log_level": "warning"}
    assert main(["serve", "--host", "0.0.0.0", "--port", "9000"]) == 0
    assert "reachable from the network" in capsys.readouterr().err and runs[-1]["host"] == "0.0.0.0"
    assert opened == []  # nothing opened without --open
    assert main(["serve", "--port", "0"]) == 2
    assert "--port must be a whole number from 1 to 65535, got 0" in capsys.readouterr().err


def test_a_proven_win_is_said_in_words(client):
    from search_helpers import find_win_in_one

    state, wins = find_win_in_one(sm.load_game("splendor", players=2), seed=1)
    ident = client.post("/api/sessions/position", json={"position": state.to_json()}).json()["id"]
    with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=1") as response:
        final = events(response)[-1]
    best = final["turns"][0]
    assert best["proof"] == "win" and best["words"] == "wins now" and best["actions"][0] in wins
    assert "proven: " in final["words"]


def test_a_review_whose_page_goes_away_stops():
    import httpx

    from board_server import running_board

    record = random_record(sm.load_game("splendor", players=2), seed=7)
    with running_board(ServeSettings(threads=1, max_search_seconds=30)) as (url, app):
        with httpx.Client(base_url=url, timeout=10) as http:
            ident = http.post("/api/sessions/record", json={"record": record.to_json()}).json()["id"]
            with pytest.raises(httpx.ReadTimeout):  # the page gives up long before the review's end
                http.post(f"/api/sessions/{ident}/review", json={"iterations": 5000}, timeout=0.5)
            started = time.monotonic()
            while http.get("/api/status").json()["searches"] and time.monotonic() - started < 5:
                time.sleep(0.05)
            assert http.get("/api/status").json()["searches"] == 0
            assert app.state.board.sessions[ident].review is None
            # The same with its progress streamed: one report, then the page goes.
            with http.stream("POST", f"/api/sessions/{ident}/review", json={"iterations": 5000},
                             headers={"Accept": "text/event-stream"}) as response:
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        assert json.loads(line[len("data: "):])["final"] is False
                        break
            started = time.monotonic()
            while http.get("/api/status").json()["searches"] and time.monotonic() - started < 5:
                time.sleep(0.05)
            assert http.get("/api/status").json()["searches"] == 0
            assert app.state.board.sessions[ident].review is None


def test_search_time_is_capped():
    client = TestClient(make_app(ServeSettings(threads=1, max_search_seconds=0.5)))
    ident = start(client, game="splendor", players=2, seed=1, mode="analyze")["id"]
    started = time.monotonic()
    with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=1000") as response:
        final = events(response)[-1]
    assert final["final"] and final["seconds"] <= 0.7 and time.monotonic() - started < 5


def test_a_duel_hint_marks_cells_and_cards(client):
    ident = client.post("/api/sessions/position", json={"position": example("duel-view.json")}).json()["id"]
    with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=0.5") as response:
        final = events(response)[-1]
    assert final["final"] and final["turns"]
    for turn in (t for t in final["turns"] if t["complete"]):
        assert turn["marks"], turn["label"]  # every whole Duel turn takes, buys or reserves on the board
        assert all(m.startswith(("cell-", "card-", "deck-", "seat-", "royal-")) for m in turn["marks"])


def follow_session(client, **changes: object) -> tuple[str, object]:
    """The 3-player example followed from seat 3, with ``changes`` to its JSON."""
    position = {**json.loads(example("splendor-3p-view.json")), **changes}
    position = {key: value for key, value in position.items() if value is not None}
    data = client.post("/api/sessions/position", json={"position": position, "mode": "follow"})
    assert data.status_code == 200, data.text
    ident = data.json()["id"]
    return ident, client.app.state.board.sessions[ident]


def test_follow_names_an_opponents_hidden_reserve_when_it_is_bought(client):
    position = json.loads(example("splendor-3p-view.json"))
    del position["bank"]
    position["players"][0]["tokens"]["gold"] = 5
    ident, session = follow_session(client, bank=None, to_move=0, players=position["players"])
    hidden = json.loads(session.state.to_json())["players"][0]["reserved"][0]["card"]
    candidates = sorted(unseen_cards(session.game, session.state, session.seat) - {hidden})
    levels = {c["id"]: c["level"] for c in session.game.cards()}
    assert levels[hidden] == 2
    wrong_level = next(c for c in candidates if levels[c] == 1)
    refused = client.post(f"/api/sessions/{ident}/move", json={"move": f"buy reserved 1 #{wrong_level}"})
    assert refused.status_code == 400 and "level" in refused.json()["error"]
    seen = json.loads(session.state.observation_json(2))["table"][1][0]
    refused = client.post(f"/api/sessions/{ident}/move", json={"move": f"buy reserved 1 #{seen}"})
    assert refused.status_code == 400 and "cannot be a hidden card" in refused.json()["error"]
    bought = None
    for card in (c for c in candidates if levels[c] == 2):
        response = client.post(f"/api/sessions/{ident}/move", json={"move": f"buy reserved 1 #{card}"})
        if response.status_code == 200:
            bought = card
            break
        assert json.loads(session.state.to_json())["players"][0]["reserved"][0]["card"] == hidden  # put back
    assert bought is not None
    assert bought in json.loads(client.get(f"/api/sessions/{ident}/position").text)["players"][0]["cards"]


def test_follow_reveals_a_card_the_game_had_dealt_unseen(client):
    ident, session = follow_session(client)
    hidden = json.loads(session.state.to_json())["players"][0]["reserved"][0]["card"]
    assert client.post(f"/api/sessions/{ident}/move", json={"move": "reserve 2.1"}).json()["waiting"] == "reveal"
    revealed = client.post(f"/api/sessions/{ident}/move", json={"move": f"#{hidden}"})
    assert revealed.status_code == 200, revealed.text
    full = json.loads(session.state.to_json())
    assert full["table"][1][0] == hidden and full["players"][0]["reserved"][0]["card"] != hidden


def test_follow_reveals_a_card_the_position_had_among_bought_cards_by_colour(client):
    # Seat 2's red cards are given only as 2 cards and 3 points: the position draws them from
    # the unseen cards. When seat 3 buys slot 1.1, the table shows one of the drawn cards: it
    # is drawn again elsewhere (as play --follow does), and the board shows the reveal.
    data = client.post("/api/sessions/position", json={"position": example("splendor-3p-table-view.json"),
                                                       "mode": "follow"}).json()
    ident = data["id"]
    session = client.app.state.board.sessions[ident]
    sampled = json.loads(session.state.to_json())["players"][1]["sampled_cards"]
    levels = {c["id"]: c["level"] for c in session.game.cards()}
    revealed = next(c for c in sampled if levels[c] == 1)
    assert client.post(f"/api/sessions/{ident}/move", json={"move": "buy 1.1"}).json()["waiting"] == "reveal"
    answer = client.post(f"/api/sessions/{ident}/move", json={"move": f"#{revealed}"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["waiting"] == "move" and answer.json()["toMove"] == 0
    full = json.loads(session.state.to_json())
    assert full["table"][0][0] == revealed and revealed not in full["players"][1]["sampled_cards"]
    assert answer.json()["history"][0]["label"].startswith("buy 1.1") and len(answer.json()["history"]) == 2
    assert client.post(f"/api/sessions/{ident}/undo", json={}).json()["waiting"] == "reveal"
    again = client.post(f"/api/sessions/{ident}/move", json={"move": f"#{revealed}"})
    assert again.status_code == 200, again.text


def test_asking_again_continues_the_search(client):
    ident = client.post("/api/sessions/position", json={"position": example("splendor-3p-view.json")}).json()["id"]
    finals = []
    for _ in range(2):
        with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=0.5") as response:
            finals.append(events(response)[-1])
    assert finals[0]["reused"] == 0
    assert finals[1]["reused"] == finals[0]["visits"] and finals[1]["visits"] > finals[0]["visits"]


def test_only_the_last_sessions_keep_their_search_trees():
    client = TestClient(make_app(ServeSettings(threads=1, kept_trees=2)))
    board = client.app.state.board
    idents = [start(client, game="splendor", players=2, seed=s, mode="analyze")["id"] for s in range(3)]
    for ident in idents:
        with client.stream("GET", f"/api/sessions/{ident}/hint?seconds=0.2") as response:
            assert events(response)[-1]["final"]
    assert [board.sessions[i].hint_searcher is not None for i in idents] == [False, True, True]


@pytest.mark.parametrize("query", ["seconds=1e400", "seconds=nan", "seconds=inf", "seconds=1_000", "seconds=0",
                                   "seconds=" + "9" * 400])
def test_a_hint_query_number_is_read_by_the_shared_range_or_refused_naming_it(client, query):
    ident = start(client, game="splendor")["id"]
    response = client.get(f"/api/sessions/{ident}/hint?{query}")
    assert response.status_code == 400 and response.json()["error"].startswith("seconds must be a number of seconds")


@pytest.mark.parametrize("ply", ["1_0", "-1", "1e3", "9" * 400])
def test_a_board_picture_ply_is_a_whole_number_from_0(client, ply):
    ident = start(client, game="splendor")["id"]
    response = client.get(f"/api/sessions/{ident}/board.svg?ply={ply}")
    assert response.status_code == 400 and response.json()["error"].startswith("ply must be a whole number")
