"""The web board's cross-site rules and its clients kept apart (issue 49, item 1), without a
browser: what another site's page could send (another origin, a foreign ``Host``, a body
that is not JSON) is refused with 403 and changes nothing; sessions belong to the client
(the cookie) that made them, and one client's many sessions never drop another's."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from splendor_mcts.serve.app import make_app  # noqa: E402
from splendor_mcts.serve.settings import ServeSettings  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NEW_GAME = {"game": "splendor", "players": 2, "seed": 3, "mode": "analyze"}


def board(**settings: object) -> TestClient:
    return TestClient(make_app(ServeSettings(threads=1, max_search_seconds=1, **settings)))  # type: ignore[arg-type]


def start(client: TestClient) -> str:
    response = client.post("/api/sessions", json=NEW_GAME)
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


def refused(response, *words: str) -> None:
    assert response.status_code == 403, response.text
    error = response.json()["error"]
    assert all(word in error for word in words), error


def test_a_cross_origin_text_plain_post_is_refused_and_changes_nothing():
    client = board()
    ident = start(client)
    sessions = client.app.state.board.sessions
    before = len(sessions), client.get(f"/api/sessions/{ident}").json()
    body = json.dumps(NEW_GAME)
    # What a page of another site sends with fetch(..., {mode: "no-cors"}) or a form: no preflight.
    refused(client.post("/api/sessions", content=body, headers={"Origin": "http://evil.example",
                                                                "Content-Type": "text/plain"}), "http://evil.example")
    # The same body from no page at all, or as a form: still not JSON.
    refused(client.post("/api/sessions", content=body, headers={"Content-Type": "text/plain;charset=UTF-8"}),
            "application/json", "text/plain")
    refused(client.post("/api/sessions", content=b"game=splendor",
                        headers={"Content-Type": "application/x-www-form-urlencoded"}), "application/json")
    refused(client.post("/api/sessions", content=body), "none")
    # JSON, but from another page: another site, a sandboxed frame ("null"), another port of this host.
    for origin in ("http://evil.example", "null", "http://testserver:8080", "https://testserver"):
        refused(client.post("/api/sessions", json=NEW_GAME, headers={"Origin": origin}), origin)
    refused(client.post("/api/sessions", json=NEW_GAME, headers={"Referer": "http://evil.example/page"}), "evil.example")
    refused(client.post("/api/sessions", json=NEW_GAME, headers={"Sec-Fetch-Site": "cross-site"}), "cross-site")
    # Nor may another page play, undo, search or read the user's game.
    move = client.get(f"/api/sessions/{ident}/moves").json()["moves"][0]["text"]
    evil = {"Origin": "http://evil.example"}
    refused(client.post(f"/api/sessions/{ident}/move", content=json.dumps({"move": move}),
                        headers={**evil, "Content-Type": "text/plain"}))
    refused(client.post(f"/api/sessions/{ident}/undo", json={}, headers=evil))
    refused(client.get(f"/api/sessions/{ident}/hint?seconds=1", headers=evil))
    refused(client.get(f"/api/sessions/{ident}/position", headers={"Referer": "http://evil.example/"}))
    assert client.app.state.board.slots.total() == 0
    assert (len(sessions), client.get(f"/api/sessions/{ident}").json()) == before
    # The board's own page is served: its origin, its pages as referrer, or no page (a script).
    assert client.post("/api/sessions", json=NEW_GAME, headers={"Origin": "http://testserver"}).status_code == 200
    assert client.post("/api/sessions", json=NEW_GAME, headers={"Referer": "http://testserver/",
                                                                "Sec-Fetch-Site": "same-origin"}).status_code == 200
    assert client.post("/api/sessions", content=body,
                       headers={"Content-Type": "application/json; charset=utf-8"}).status_code == 200
    assert len(sessions) == before[0] + 3


def test_a_foreign_host_is_refused_and_changes_nothing():
    client = board()
    ident = start(client)
    sessions = client.app.state.board.sessions
    before = len(sessions), client.get(f"/api/sessions/{ident}").json()
    # A site whose name was made to resolve to this machine (DNS rebinding) is its own origin,
    # so only its Host tells it apart.
    rebound = {"Host": "evil.example", "Origin": "http://evil.example"}
    refused(client.post("/api/sessions", json=NEW_GAME, headers=rebound), "evil.example")
    refused(client.get(f"/api/sessions/{ident}", headers=rebound), "evil.example")
    refused(client.get("/api/games", headers={"Host": "evil.example"}), "Host 'evil.example'")
    refused(client.get("/", headers={"Host": "testserver.evil.example"}))
    refused(client.get("/static/app.js", headers={"Host": "testserver:81"}))
    assert (len(sessions), client.get(f"/api/sessions/{ident}").json()) == before


def test_a_real_server_answers_to_its_address_and_localhost_only():
    import httpx

    from board_server import running_board

    with running_board() as (url, app):
        port = url.rsplit(":", 1)[1]
        with httpx.Client(base_url=url, timeout=10) as http:
            assert http.get("/api/games").status_code == 200
            assert http.get("/api/games", headers={"Host": f"localhost:{port}"}).status_code == 200
            for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{int(port) + 1}", f"127.0.0.2:{port}"):
                response = http.post("/api/sessions", json=NEW_GAME, headers={"Host": host})
                assert response.status_code == 403 and host in response.json()["error"], (host, response.text)
            assert len(app.state.board.sessions) == 0
            ok = http.post("/api/sessions", json=NEW_GAME, headers={"Origin": url})
            assert ok.status_code == 200 and len(app.state.board.sessions) == 1


def test_the_page_opens_from_a_link_but_may_not_be_framed():
    client = board()
    # A link from another site opens the board (the page holds nothing of the user's) ...
    page = client.get("/", headers={"Referer": "https://docs.example/board", "Sec-Fetch-Site": "cross-site"})
    assert page.status_code == 200 and 'src="/static/app.js"' in page.text
    # ... but no other site's page may frame it, and the client's cookie is not for scripts or other sites.
    assert page.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in page.headers["content-security-policy"]
    cookie = page.headers["set-cookie"]
    assert cookie.startswith("splendor_board") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "set-cookie" not in client.get("/api/games").headers  # the client keeps the one it was given


def test_200_sessions_of_one_client_leave_another_clients_game_intact():
    app = make_app(ServeSettings(threads=1))
    mine, theirs = TestClient(app), TestClient(app)
    ident = start(mine)
    move = mine.get(f"/api/sessions/{ident}/moves").json()["moves"][0]["text"]
    assert mine.post(f"/api/sessions/{ident}/move", json={"move": move}).status_code == 200
    game = mine.get(f"/api/sessions/{ident}").json()
    made = [start(theirs) for _ in range(200)]
    # The other client's own oldest sessions were dropped, never this one.
    assert mine.get(f"/api/sessions/{ident}").json() == game
    assert mine.get(f"/api/sessions/{ident}/moves").status_code == 200
    assert app.state.board.sessions.of(next(iter(theirs.cookies.values()))) == app.state.board.settings.sessions_per_client
    assert theirs.get(f"/api/sessions/{made[-1]}").status_code == 200
    assert theirs.get(f"/api/sessions/{made[0]}").status_code == 404
    # Nor may a client read, play or undo in another's session: it answers as one that does not exist.
    for response in (theirs.get(f"/api/sessions/{ident}"), theirs.get(f"/api/sessions/{ident}/record"),
                     theirs.post(f"/api/sessions/{ident}/undo", json={}),
                     theirs.get(f"/api/sessions/{ident}/hint?seconds=1")):
        assert response.status_code == 404 and "no session" in response.json()["error"], response.text
    assert mine.get(f"/api/sessions/{made[-1]}").status_code == 404
    assert mine.get(f"/api/sessions/{ident}").json() == game


def test_a_full_board_refuses_a_new_client_and_drops_only_a_clients_own_sessions():
    app = make_app(ServeSettings(threads=1, sessions_per_client=2, max_sessions=3))
    first, second, third = TestClient(app), TestClient(app), TestClient(app)
    a1, a2, b1 = start(first), start(first), start(second)
    response = third.post("/api/sessions", json=NEW_GAME)
    assert response.status_code == 503 and "at most 3 sessions" in response.json()["error"]
    a3 = start(first)  # the board is full: the first client's own oldest makes room
    assert [first.get(f"/api/sessions/{i}").status_code for i in (a1, a2, a3)] == [404, 200, 200]
    assert second.get(f"/api/sessions/{b1}").status_code == 200
    b2 = start(second)  # still full: the second client's own oldest makes room, not the first's
    assert [first.get(f"/api/sessions/{i}").status_code for i in (a2, a3)] == [200, 200]
    assert [second.get(f"/api/sessions/{i}").status_code for i in (b1, b2)] == [404, 200]


def test_searches_are_counted_per_client_and_on_the_whole_board():
    app = make_app(ServeSettings(threads=1, searches_per_client=1, max_searches=2, max_search_seconds=1))
    first, second = TestClient(app), TestClient(app)
    ident, other = start(first), start(second)
    slots = app.state.board.slots
    slots.acquire(next(iter(first.cookies.values())))  # a search of the first client's running
    refused_first = first.get(f"/api/sessions/{ident}/hint?seconds=0.2")
    assert refused_first.status_code == 429 and "per client" in refused_first.json()["error"]
    with second.stream("GET", f"/api/sessions/{other}/hint?seconds=0.2") as response:  # another client may
        assert response.status_code == 200 and '"final": true' in response.read().decode()
    slots.acquire("someone else")  # the board's two now run
    refused_second = second.get(f"/api/sessions/{other}/hint?seconds=0.2")
    assert refused_second.status_code == 429 and "at most 2 searches" in refused_second.json()["error"]
