"""The searches a session asks for as it is played: the engine's turns, and the live hint
(server-sent events, its search stopped when the page goes away). Each counts against its
client's searches (:class:`~splendor_mcts.serve.live.SearchSlots`)."""
from __future__ import annotations

import asyncio
import threading
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ...analysis.running import SearchLimits, decision_problem, run_search
from ...ranges import SECONDS
from ..guard import client_of
from ..live import search_events, sse
from ..reading import field, json_body, query_number
from ..sessions import BoardSession
from ..state import Board, board_of
from ..web import HttpError, endpoint, session_json

EVENTS_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


async def session_and_iterations(request: Request, default: int, cap: int) -> tuple[BoardSession, int]:
    """The session a request names and the ``iterations`` of its body, checked against ``cap``."""
    session = board_of(request).session(request)
    iterations = field(await json_body(request), "iterations", int, default)
    if not 1 <= iterations <= cap:
        raise HttpError(400, f"iterations: must be 1-{cap:,}, got {iterations}")
    return session, iterations


@endpoint
async def engine(request: Request) -> Any:
    board = board_of(request)
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
    return {"engineTurns": turns, **session_json(session)}


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


@endpoint
async def hint(request: Request) -> Response:
    board = board_of(request)
    session = board.session(request)
    seconds = query_number(request, "seconds", SECONDS, board.settings.max_search_seconds)
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

    return StreamingResponse(stream(), media_type="text/event-stream", headers=EVENTS_HEADERS)


ROUTES: list[BaseRoute] = [
    Route("/api/sessions/{id}/engine", engine, methods=["POST"]),
    Route("/api/sessions/{id}/hint", hint),
]
