"""Property tests of the web board's JSON doors (issue 49, item 5), like those of the analysis
protocol (tests/test_protocol_fuzz.py): any body to any endpoint that reads one, and any query
to those that read a query, is answered 2xx, or 4xx with a JSON ``error`` naming the problem;
never a 500 or a traceback. The bodies are the endpoints' own keys with values valid or not,
any JSON value, and bytes that are not JSON at all (nesting stays shallow: deep nesting is the
shared JSON reader's, tested with it). Each body is sent with an origin and a content type
drawn too: one another site could send (another origin, or not JSON) is refused with 403
and changes nothing (serve/guard.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

import splendor_mcts as sm  # noqa: E402
from splendor_mcts.play.random_game import random_record  # noqa: E402
from splendor_mcts.serve.app import make_app  # noqa: E402
from splendor_mcts.serve.settings import ServeSettings  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
POSITIONS = [json.loads((EXAMPLES / name).read_text())
             for name in ("splendor-2p-view.json", "splendor-3p-view.json", "duel-view.json")]
RECORD = json.loads(random_record(sm.load_game("splendor", players=2), seed=7).to_json())

# Small caps so that the bodies that are valid are answered quickly; sessions enough that the
# ones made below are never dropped for those the bodies make.
CLIENT = TestClient(make_app(ServeSettings(threads=1, max_search_seconds=0.2, max_engine_iterations=20,
                                           max_review_iterations=2, max_body=64 * 1024,
                                           sessions_per_client=10**6, max_sessions=10**6)))
BOARD = CLIENT.app.state.board
OWN = "http://testserver"  # the test client's board's own origin


def _session(path: str, body: dict[str, Any]) -> str:
    response = CLIENT.post(path, json=body)
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


SESSIONS = [
    _session("/api/sessions", {"game": "splendor", "players": 3, "seed": 1, "mode": "play"}),
    _session("/api/sessions", {"game": "duel", "seed": 2, "mode": "analyze"}),
    _session("/api/sessions/record", {"record": RECORD}),
    _session("/api/sessions/position", {"position": POSITIONS[1], "mode": "follow"}),
]

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=10))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
# Values a field may well take, so that some bodies are valid and reach the game.
small_values = (st.integers(-1, 40) | st.floats(0, 3)
                | st.sampled_from(["splendor", "duel", "splendor:players=3", "play", "analyze", "follow",
                                   "take W U K", "buy 1.1", "reserve 1.1", "#53", "green 1pt W2U3K2", ""]))


@st.composite
def documents(draw: st.DrawFn, base: list[dict[str, Any]]) -> Any:
    """One of ``base`` (a position or record) as an object or as JSON text, perhaps with a
    field replaced or removed."""
    doc = json.loads(json.dumps(draw(st.sampled_from(base))))
    change = draw(st.integers(0, 2))
    key = draw(st.sampled_from(sorted(doc)))
    if change == 1:
        doc[key] = draw(small_values | json_values)
    elif change == 2:
        del doc[key]
    return json.dumps(doc) if draw(st.booleans()) else doc


# Each endpoint that reads a body, and the keys it reads (with values that suit them).
ENDPOINTS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "/api/new-position": {"game": small_values, "players": small_values, "seed": small_values},
    "/api/preview": {"position": documents(POSITIONS)},
    "/api/sessions": {"game": small_values, "players": small_values, "seed": small_values, "mode": small_values,
                      "seat": small_values},
    "/api/sessions/position": {"position": documents(POSITIONS), "mode": small_values, "seat": small_values},
    "/api/sessions/record": {"record": documents([RECORD]), "mode": small_values, "seat": small_values},
    **{f"/api/sessions/{{id}}/{name}": keys for name, keys in (
        ("move", {"move": small_values, "action": st.integers(-1, 300) | small_values}),
        ("undo", {}),
        ("engine", {"iterations": small_values}),
        ("review", {"iterations": small_values}),
    )},
}


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, bytes]:
    """An endpoint's path (a session of ours, or one that does not exist) and a body: an
    object of its keys, any JSON value, or bytes that may not be JSON at all."""
    path = draw(st.sampled_from(sorted(ENDPOINTS)))
    keys = ENDPOINTS[path]
    path = path.replace("{id}", draw(st.sampled_from(SESSIONS + ["no-such-session"])))
    kind = draw(st.integers(0, 5))
    if kind <= 2:
        body: dict[str, Any] = {}
        for key in draw(st.lists(st.sampled_from(sorted(keys)), max_size=len(keys), unique=True)) if keys else []:
            body[key] = draw(keys[key] | json_values)
        for key in draw(st.lists(st.text(max_size=6), max_size=2)):
            body[key] = draw(json_values)
        return path, json.dumps(body).encode()
    if kind == 3:
        return path, json.dumps(draw(json_values)).encode()
    if kind == 4:
        text = json.dumps({key: draw(value) for key, value in keys.items()})
        at = draw(st.integers(0, len(text)))  # broken JSON: a few characters cut or put in
        return path, (text[:at] + draw(st.text(alphabet='{}[]",:0123456789.-eE nultrfa\\\x00é', max_size=4))
                      + text[at + draw(st.integers(0, 6)):]).encode()
    return path, draw(st.binary(max_size=40))


def _check(response: Any) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:400])
    if response.status_code >= 400:
        answer = response.json()
        assert isinstance(answer, dict) and isinstance(answer["error"], str) and answer["error"], answer
        assert "Traceback" not in response.text
    else:
        assert response.status_code == 200 and isinstance(response.json(), dict)


def _snapshot() -> tuple[Any, ...]:
    """What a request could change: the sessions kept, and each of ours at its move."""
    return (len(BOARD.sessions), BOARD.slots.total(),
            *((len(BOARD.sessions[i].history), BOARD.sessions[i].state.to_json()) for i in SESSIONS))


origins = st.sampled_from([None, None, None, OWN, "http://evil.example", "null", "http://testserver:8080"])
kinds = st.sampled_from(["application/json", "application/json", "application/json", "Application/JSON; charset=utf-8",
                         "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                         "multipart/form-data; boundary=x", "application/jsonx", None])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), origins, kinds)
def test_every_body_gets_an_answer_or_an_error_naming_the_problem(request: tuple[str, bytes], origin: str | None,
                                                                  kind: str | None) -> None:
    path, body = request
    headers = {key: value for key, value in (("Origin", origin), ("Content-Type", kind)) if value is not None}
    foreign = origin not in (None, OWN) or kind is None or kind.split(";")[0].lower() != "application/json"
    before = _snapshot() if foreign else None
    response = CLIENT.post(path, content=body, headers=headers)
    _check(response)
    if foreign:  # what another site could send: refused, nothing changed
        assert response.status_code == 403, (headers, response.status_code, response.text[:300])
        assert _snapshot() == before


queries = st.dictionaries(st.sampled_from(["seconds", "ply", "actions", "mark", "turns"]),
                          st.text(max_size=8) | st.integers(-5, 200).map(str) | st.floats(allow_nan=True).map(str)
                          | st.sampled_from(["best", "played", "1", "inf", "nan", "1e999", "12,40", "0,0"]),
                          max_size=3)


pages = st.sampled_from([{}, {}, {"Origin": OWN}, {"Referer": OWN + "/"}, {"Sec-Fetch-Site": "same-origin"},
                         {"Origin": "http://evil.example"}, {"Referer": "http://evil.example/x"},
                         {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}, {"Host": "evil.example"}])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["board.svg", "moves", "hint", "", "position", "record"]),
       st.sampled_from(SESSIONS + ["no-such-session"]), queries, pages)
def test_every_query_gets_an_answer_or_an_error_naming_the_problem(name: str, ident: str, query: dict[str, str],
                                                                   page: dict[str, str]) -> None:
    foreign = any(value.startswith(("http://evil", "null", "cross", "evil")) for value in page.values())
    before = _snapshot(), {i: BOARD.sessions[i].hint_searcher for i in SESSIONS}
    response = CLIENT.get(f"/api/sessions/{ident}/{name}".rstrip("/"), params=query, headers=page)
    assert response.status_code < 500, (response.status_code, response.text[:400])
    if response.status_code >= 400:
        answer = response.json()
        assert isinstance(answer["error"], str) and answer["error"] and "Traceback" not in response.text
    if foreign:  # another site's page may not read a game nor start a search: refused, nothing changed
        assert response.status_code == 403, (page, response.status_code, response.text[:300])
        assert (_snapshot(), {i: BOARD.sessions[i].hint_searcher for i in SESSIONS}) == before
