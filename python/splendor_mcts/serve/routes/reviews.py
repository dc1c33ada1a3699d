"""A session's record reviewed: each turn searched and judged whole as ``splendor-mcts
review`` does, as one JSON answer or its progress as server-sent events; and the turn
marked on the board at a reviewed turn."""
from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from ..guard import client_of
from ..live import sse
from ..sessions import BoardSession
from ..state import Board, board_of
from ..web import HttpError, endpoint
from .searches import EVENTS_HEADERS, session_and_iterations


class ReviewStopped(Exception):
    """The page that asked for a review went away."""


@endpoint
async def review(request: Request) -> Response:
    """The review of the session's record: one JSON answer, or with ``Accept:
    text/event-stream`` server-sent events, ``decision i of n`` as it goes, then the review."""
    board = board_of(request)
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

        return StreamingResponse(stream(), media_type="text/event-stream", headers=EVENTS_HEADERS)
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


def run_review(board: Board, record: Any, iterations: int, stopped: threading.Event, done: list[int]) -> Any:
    """Review ``record``; ``done`` is set to [the decision under review (from 1), how many]."""
    from ...analysis.review import review_record

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
    from ...pictures.graph import win_rate_graph_svg

    return {**result.to_dict(), "graph": win_rate_graph_svg(result)}


def review_decision(session: BoardSession, ply: int) -> Any:
    if session.review is None:
        raise HttpError(400, "mark: review the game first")
    for decision in session.review.decisions:
        if decision.action_number == ply:
            return decision
    raise HttpError(400, f"ply {ply} is not a reviewed decision")


def decision_actions(session: BoardSession, ply: int, decision: Any, which: str) -> list[int]:
    """The decisions of the turn played, or of the best turn found, at a reviewed turn."""
    return list(decision.best_actions if which == "best" else decision.played_actions)


ROUTES: list[BaseRoute] = [
    Route("/api/sessions/{id}/review", review, methods=["POST"]),
]
