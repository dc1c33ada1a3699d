"""The web board's HTTP side: a Starlette app of JSON endpoints and the static page.

Endpoints (docs/board.md lists them with their bodies): games and card pictures, a
position's preview, sessions (a new game, a position, a record), a session's board,
legal moves and turns, a move, undo, the engine's turns, a live hint (server-sent
events), a review, and exports (position JSON, record, board SVG).

Safe by default (:class:`ServeSettings`): requests from other sites, under another host
name or not JSON are refused (:mod:`.guard`), request bodies are capped, every search has a
time cap, each client runs at most a few searches at once and sees only its own sessions
(:mod:`.store`), a hint's search stops when its page goes away, and no request names a
file: positions and records come in the request.
"""
from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ..analysis.running import SearchLimits, decision_problem, run_search
from ..games.game import load_game
from ..games.positions import PositionError, read_position
from ..games.registry import DEFAULT_GAME, game_entry, game_names
from ..pictures.board import board_svg, standalone_card_svg, turn_marks
from .guard import Guard, client_of
from .settings import ServeSettings
from .live import SearchSlots, TooManySearches, continuing_searcher, search_events, sse
from .sessions import BoardSession, new_game_session, position_session, record_session
from .store import BoardFull, SessionStore

STATIC = resources.files("splendor_mcts.serve") / "static"


class HttpError(Exception):
    """An answer other than 200: its status and JSON body."""

    def __init__(self, status: int, message: str, **more: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": message, **more}


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 unread."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self.too_large(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self.too_large(scope, receive, send)
                return
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse({"error": f"the request is larger than the {self.limit:,} bytes allowed"}, status_code=413)
        await response(scope, receive, send)


class Board:
    """The app's state: its settings, the sessions (by client) and the search slots."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.sessions = SessionStore(settings.sessions_per_client, settings.max_sessions)
        self.slots = SearchSlots(settings.searches_per_client, settings.max_searches)
        self.trees: OrderedDict[str, BoardSession] = OrderedDict()  # sessions keeping a hint's tree
        self.lock = threading.Lock()  # one change of a session at a time (engine turns run in threads)

    def add(self, request: Request, session: BoardSession) -> BoardSession:
        """Keep ``session`` for the request's client (its oldest dropped past its cap)."""
        try:
            dropped = self.sessions.add(client_of(request), session)
        except BoardFull as exc:
            raise HttpError(503, str(exc)) from None
        for old in dropped:
            self.trees.pop(old.ident, None)  # its search tree goes with it
        return session

    def session(self, request: Request) -> BoardSession:
        """The session the request's path names, if it is the client's own (404 otherwise:
        another client's session is not told apart from one that does not exist)."""
        ident = request.path_params["id"]
        session = self.sessions.get(client_of(request), ident)
        if session is None:
            raise HttpError(404, f"no session {ident!r} (sessions are kept in memory, each for the browser "
                            "that made it: start a new one)")
        return session

    def limits(self, seconds: float | None = None, iterations: int | None = None, analysis: bool = True,
               top_k: int | None = 5) -> SearchLimits:
        cap = self.settings.max_search_seconds
        return SearchLimits(iterations=iterations, time_limit=min(seconds, cap) if seconds else cap,
                            threads=self.settings.search_threads(), seed=int(time.time() * 1000) % 2**31,
                            top_k=top_k, analysis=analysis, settings={"memory_limit": self.settings.max_tree_bytes})

    def hint_searcher(self, session: BoardSession, seconds: float, limits: SearchLimits) -> Any:
        """The session's searcher for a hint of ``seconds``, which keeps its tree; only the
        ``kept_trees`` sessions that asked last keep theirs (each up to ``max_tree_bytes``)."""
        if session.hint_searcher is None or session.hint_seconds != seconds:
            session.hint_searcher, session.hint_seconds = continuing_searcher(session.state, limits), seconds
        self.trees[session.ident] = session
        self.trees.move_to_end(session.ident)
        while len(self.trees) > self.settings.kept_trees:
            _, oldest = self.trees.popitem(last=False)
            oldest.hint_searcher = None  # freed once no search holds it
        return session.hint_searcher


# ------------------------------------------------------------------ reading requests
async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise HttpError(400, f"the request body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise HttpError(400, "the request body must be a JSON object")
    return body


def field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None,
          required: bool = False) -> Any:
    """``body[name]`` of type ``kind`` (400 naming the field otherwise)."""
    if name not in body or body[name] is None:
        if required:
            raise HttpError(400, f"{name}: missing")
        return default
    value = body[name]
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise HttpError(400, f"{name}: expected a number, got {value!r}")
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise HttpError(400, f"{name}: expected {names}, got {type(value).__name__}")
    return value


def text_field(body: dict[str, Any], name: str) -> str:
    """A position or record given as JSON text or as the object itself."""
    value = field(body, name, (str, dict), required=True)
    return value if isinstance(value, str) else json.dumps(value)


def query_number(request: Request, name: str, kind: type, default: Any) -> Any:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        raise HttpError(400, f"{name}: expected a number, got {raw!r}") from None


def action_list(text: str, state: Any) -> list[int]:
    """``12,40``: a turn's action ids as the page sends them, each legal in turn from ``state``."""
    try:
        actions = [int(part) for part in text.split(",")]
    except ValueError:
        raise HttpError(400, f"actions: expected action ids separated by commas, got {text!r}") from None
    probe = state.clone()
    for action in actions:
        if probe.is_terminal() or probe.is_chance_node() or not 0 <= action < len(probe.legal_actions_mask()) \
                or not probe.is_legal(action):
            raise HttpError(400, f"actions: {action} is not a legal move there")
        probe.apply_action(action)
    return actions


def invalid_position(exc: PositionError) -> HttpError:
    return HttpError(400, "not a valid position", problems=[dict(p) for p in exc.problems])


def session_json(board: Board, session: BoardSession) -> dict[str, Any]:
    return {**session.summary(), "svg": session.svg()}


# ------------------------------------------------------------------ endpoints
def make_app(settings: ServeSettings | None = None) -> Starlette:
    """The web board's ASGI app (``uvicorn`` serves it: ``splendor-mcts serve``)."""
    board = Board(settings or ServeSettings())

    def handler(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            started = time.perf_counter()
            response = await answer(request)
            # The time spent here, for the page's resource timing (bench/board_latency.py reads it).
            response.headers["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - started):.1f}"
            return response

        async def answer(request: Request) -> Response:
            try:
                result = await fn(request)
            except HttpError as exc:
                return JSONResponse(exc.body, status_code=exc.status)
            except PositionError as exc:
                error = invalid_position(exc)
                return JSONResponse(error.body, status_code=error.status)
            except TooManySearches as exc:
                return JSONResponse({"error": str(exc)}, status_code=429)
            except ValueError as exc:
                return JSONResponse({"error": str(exc)}, status_code=400)
            return result if isinstance(result, Response) else JSONResponse(result)
        return wrapped

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    async def games(request: Request) -> Any:
        out = []
        for name in sorted(game_names(), key=lambda n: n != DEFAULT_GAME):
            entry = game_entry(name)
            if entry.play_table is None:
                continue
            players = [2, 3, 4] if name == "splendor" else [2]
            out.append({"name": name, "title": entry.title, "players": players, "legend": entry.legend})
        return {"games": out}

    async def cards(request: Request) -> Any:
        name = request.path_params["game"]
        game = load_game(name)
        from ..pictures.board import noble_svg, royal_svg

        out: dict[str, Any] = {"cards": [{"id": c["id"], "level": c["level"], "text": c["text"],
                                          "svg": standalone_card_svg(game.name, c["id"])} for c in game.cards()]}
        if game.name == "splendor":
            out["nobles"] = [{"id": n["id"], "points": n["points"], "requirement": n["requirement"],
                              "svg": noble_svg(n["id"])} for n in game.nobles()]
        else:
            out["royals"] = [{"id": r["id"], "svg": royal_svg(r["id"])} for r in game.royals()]
        return out

    async def new_position(request: Request) -> Any:
        body = await json_body(request)
        session = new_game_session(field(body, "game", str, "splendor"), field(body, "players", int),
                                   field(body, "seed", int, 0), "analyze", 0)
        return {"position": json.loads(session.state.observation_json(0))}

    async def preview(request: Request) -> Any:
        body = await json_body(request)
        try:
            position = read_position(text_field(body, "position"))
        except PositionError as exc:
            return {"valid": False, "problems": [dict(p) for p in exc.problems]}
        viewer = position.observer if position.observer is not None else None
        return {"valid": True, "problems": [], "svg": board_svg(position.state, viewer=viewer)}

    async def create(request: Request) -> Any:
        body = await json_body(request)
        session = new_game_session(field(body, "game", str, "splendor"), field(body, "players", int),
                                   field(body, "seed", int, 0), field(body, "mode", str, "play"), field(body, "seat", int, 0))
        return session_json(board, board.add(request, session))

    async def from_position(request: Request) -> Any:
        body = await json_body(request)
        session = position_session(text_field(body, "position"), field(body, "mode", str, "analyze"),
                                   field(body, "seat", int))
        return session_json(board, board.add(request, session))

    async def from_record(request: Request) -> Any:
        body = await json_body(request)
        session = record_session(text_field(body, "record"), field(body, "mode", str, "analyze"), field(body, "seat", int, 0))
        return session_json(board, board.add(request, session))

    async def show(request: Request) -> Any:
        return session_json(board, board.session(request))

    async def board_picture(request: Request) -> Any:
        session = board.session(request)
        ply = query_number(request, "ply", int, len(session.history))
        state = session.state_at(ply)
        marks: set[str] = set()
        which = request.query_params.get("mark")
        if which in ("best", "played"):
            decision = review_decision(session, ply)
            actions = decision_actions(session, ply, decision, which)
            marks = turn_marks(state, actions)
        elif which:
            raise HttpError(400, f"mark: expected best or played, got {which!r}")
        elif request.query_params.get("actions"):
            marks = turn_marks(state, action_list(request.query_params["actions"], state))
        svg = board_svg(state, viewer=session.viewer(), marks=marks, names=session.names())
        headers = {"Content-Disposition": 'inline; filename="board.svg"'}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def moves(request: Request) -> Any:
        session = board.session(request)
        out: dict[str, Any] = {"moves": session.legal_moves()}
        if request.query_params.get("turns") in ("1", "true"):
            out["turns"], out["truncated"] = await asyncio.to_thread(session.legal_turns)
        return out

    async def move(request: Request) -> Any:
        session = board.session(request)
        body = await json_body(request)
        played: str | int
        if "action" in body:
            played = field(body, "action", int, required=True)
        else:
            played = field(body, "move", str, required=True)
        with board.lock:
            label = session.play(played)
        return {"played": label, **session_json(board, session)}

    async def undo(request: Request) -> Any:
        session = board.session(request)
        with board.lock:
            label = session.undo()
        return {"undid": label, **session_json(board, session)}

    async def session_and_iterations(request: Request, default: int, cap: int) -> tuple[BoardSession, int]:
        """The session a request names and the ``iterations`` of its body, checked against ``cap``."""
        session = board.session(request)
        iterations = field(await json_body(request), "iterations", int, default)
        if not 1 <= iterations <= cap:
            raise HttpError(400, f"iterations: must be 1-{cap:,}, got {iterations}")
        return session, iterations

    async def engine(request: Request) -> Any:
        session, iterations = await session_and_iterations(request, 2000, board.settings.max_engine_iterations)
        if not session.engine_to_move():
            raise HttpError(400, "it is not the engine's turn")
        client = client_of(request)
        board.slots.acquire(client)
        try:
            limits = board.limits(iterations=iterations, analysis=False, top_k=1)
            turns = await asyncio.to_thread(engine_turns, board, session, limits)
        finally:
            board.slots.release(client)
        return {"engineTurns": turns, **session_json(board, session)}

    async def hint(request: Request) -> Response:
        session = board.session(request)
        seconds = query_number(request, "seconds", float, board.settings.max_search_seconds)
        if not 0 < seconds:
            raise HttpError(400, f"seconds: must be positive, got {seconds}")
        problem = decision_problem(session.state)
        if problem:
            raise HttpError(400, problem)
        client = client_of(request)
        board.slots.acquire(client)
        stopped = threading.Event()
        limits = board.limits(seconds=seconds)
        searcher = board.hint_searcher(session, seconds, limits)
        events = search_events(session.state, searcher, limits.top_k, board.settings.progress_every, stopped)

        async def stream() -> Any:
            try:
                async for report in events:
                    yield sse(report)
            finally:
                stopped.set()
                await events.aclose()
                board.slots.release(client)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def review(request: Request) -> Response:
        """The review of the session's record: one JSON answer, or with ``Accept:
        text/event-stream`` server-sent events, ``decision i of n`` as it goes, then the review."""
        session, iterations = await session_and_iterations(request, 300, board.settings.max_review_iterations)
        record = session.record()
        client = client_of(request)
        board.slots.acquire(client)
        stopped = threading.Event()
        done = [0, 0]  # the decision under review (from 1) and how many there are, written by the review's thread
        job = asyncio.ensure_future(asyncio.to_thread(run_review, board, record, iterations, stopped, done))
        job.add_done_callback(lambda j: j.cancelled() or j.exception())  # a stopped review raises unread

        def result() -> dict[str, Any]:
            session.review = job.result()
            return review_json(session, session.review)

        def release() -> None:
            stopped.set()
            board.slots.release(client)

        if "text/event-stream" in request.headers.get("accept", ""):
            async def stream() -> Any:
                try:  # a page that goes away closes the stream: the review stops
                    shown = (0, 0)
                    while not job.done():
                        await asyncio.wait({job}, timeout=0.1)
                        if tuple(done) != shown and not job.done():
                            shown = (done[0], done[1])
                            yield sse({"final": False, "decision": shown[0], "of": shown[1]})
                    try:
                        yield sse({"final": True, **result()})
                    except ValueError as exc:
                        yield sse({"final": True, "error": str(exc)})
                finally:
                    release()

            return StreamingResponse(stream(), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        try:
            while not job.done():
                await asyncio.wait({job}, timeout=0.1)
                if not job.done() and await request.is_disconnected():
                    stopped.set()
            try:
                return JSONResponse(result())
            except ReviewStopped:
                return JSONResponse({"error": "the review was stopped: its page went away"}, status_code=400)
        finally:
            release()

    async def position(request: Request) -> Any:
        session = board.session(request)
        return Response(session.position_json(), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="position.json"'})

    async def record(request: Request) -> Any:
        session = board.session(request)
        return Response(session.record().to_json(), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="record.json"'})

    async def status(request: Request) -> Any:
        return {"searches": board.slots.total(), "sessions": len(board.sessions)}

    routes = [
        Route("/", index),
        Route("/api/games", handler(games)),
        Route("/api/cards/{game}", handler(cards)),
        Route("/api/new-position", handler(new_position), methods=["POST"]),
        Route("/api/preview", handler(preview), methods=["POST"]),
        Route("/api/sessions", handler(create), methods=["POST"]),
        Route("/api/sessions/position", handler(from_position), methods=["POST"]),
        Route("/api/sessions/record", handler(from_record), methods=["POST"]),
        Route("/api/sessions/{id}", handler(show)),
        Route("/api/sessions/{id}/board.svg", handler(board_picture)),
        Route("/api/sessions/{id}/moves", handler(moves)),
        Route("/api/sessions/{id}/move", handler(move), methods=["POST"]),
        Route("/api/sessions/{id}/undo", handler(undo), methods=["POST"]),
        Route("/api/sessions/{id}/engine", handler(engine), methods=["POST"]),
        Route("/api/sessions/{id}/hint", handler(hint)),
        Route("/api/sessions/{id}/review", handler(review), methods=["POST"]),
        Route("/api/sessions/{id}/position", handler(position)),
        Route("/api/sessions/{id}/record", handler(record)),
        Route("/api/status", handler(status)),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.board = board
    app.add_middleware(BodyLimit, limit=board.settings.max_body)
    app.add_middleware(Guard)  # outermost: a refused request is not even read
    return app


def engine_turns(board: Board, session: BoardSession, limits: SearchLimits) -> list[dict[str, Any]]:
    """Play the engine's seats until the user is to move (or the game ends); each turn played."""
    played: list[dict[str, Any]] = []
    while session.engine_to_move():
        seat = session.state.current_player()
        start = len(session.history)
        while session.engine_to_move() and session.state.current_player() == seat:
            analysis = run_search(session.state, limits)
            with board.lock:
                session.play(analysis.best_action, by="engine")
        labels = [step.label for step in session.history[start:] if step.by == "engine"]
        played.append({"seat": seat, "label": ", ".join(labels)})
    return played


class ReviewStopped(Exception):
    """The page that asked for a review went away."""


def run_review(board: Board, record: Any, iterations: int, stopped: threading.Event, done: list[int]) -> Any:
    """Review ``record``; ``done`` is set to [the decision under review (from 1), how many]."""
    from ..analysis.review import review_record

    deadline = time.monotonic() + board.settings.max_search_seconds * 4

    def on_turn(index: int, total: int) -> None:
        done[:] = [index + 1, total]
        if stopped.is_set():
            raise ReviewStopped("the page went away")
        if time.monotonic() > deadline:
            raise ValueError(f"the review took longer than {board.settings.max_search_seconds * 4:g} s: "
                             "ask for fewer iterations")

    limits = board.limits(iterations=iterations, top_k=None).replace(time_limit=board.settings.max_search_seconds)
    return review_record(record, limits, on_turn=on_turn)


def review_json(session: BoardSession, result: Any) -> dict[str, Any]:
    """A review for the page: each decision with its ply, seat, win % and loss, and the graph."""
    from ..pictures.graph import win_rate_graph_svg

    return {**result.to_dict(), "graph": win_rate_graph_svg(result)}


def review_decision(session: BoardSession, ply: int) -> Any:
    if session.review is None:
        raise HttpError(400, "mark: review the game first")
    for decision in session.review.decisions:
        if decision.action_number == ply:
            return decision
    raise HttpError(400, f"ply {ply} is not a reviewed decision")


def decision_actions(session: BoardSession, ply: int, decision: Any, which: str) -> list[int]:
    """The actions of the turn played, or of the best turn found, at a reviewed decision."""
    from ..analysis.turns import parse_turn

    state = session.state_at(ply)
    text = decision.best_turn if which == "best" else decision.played_turn
    try:
        return parse_turn(state, _plain_turn(text))
    except ValueError:
        return [decision.best_action if which == "best" else decision.played_action]


def _plain_turn(label: str) -> str:
    """A turn's label without the card texts in brackets (``buy 2.1 (green 1pt W2U3K2)`` -> ``buy 2.1``)."""
    import re

    return re.sub(r" \([^)]*\)", "", label)
