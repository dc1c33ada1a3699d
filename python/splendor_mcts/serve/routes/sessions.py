"""A game on the board: made new, from a position or from a record (kept for the client
that made it); its state, board picture and legal moves; a move, undo; its exports; and the
board's status."""
from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...games.registry import DEFAULT_GAME
from ...pictures.board import board_svg, turn_marks
from ...ranges import Whole
from ..reading import field, json_body, query_number, text_field
from ..sessions import new_game_session, position_session, record_session
from ..state import board_of
from ..web import HttpError, endpoint, session_json
from .reviews import decision_actions, review_decision


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


@endpoint
async def create(request: Request) -> Any:
    body = await json_body(request)
    session = new_game_session(field(body, "game", str, DEFAULT_GAME), field(body, "players", int),
                               field(body, "seed", int, 0), field(body, "mode", str, "play"), field(body, "seat", int, 0))
    return session_json(board_of(request).add(request, session))


@endpoint
async def from_position(request: Request) -> Any:
    body = await json_body(request)
    session = position_session(text_field(body, "position"), field(body, "mode", str, "analyze"),
                               field(body, "seat", int))
    return session_json(board_of(request).add(request, session))


@endpoint
async def from_record(request: Request) -> Any:
    body = await json_body(request)
    session = record_session(text_field(body, "record"), field(body, "mode", str, "analyze"), field(body, "seat", int, 0))
    return session_json(board_of(request).add(request, session))


@endpoint
async def show(request: Request) -> Any:
    return session_json(board_of(request).session(request))


@endpoint
async def board_picture(request: Request) -> Any:
    session = board_of(request).session(request)
    ply = query_number(request, "ply", Whole(0, len(session.history)), len(session.history))
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


@endpoint
async def moves(request: Request) -> Any:
    session = board_of(request).session(request)
    out: dict[str, Any] = {"moves": session.legal_moves()}
    if request.query_params.get("turns") in ("1", "true"):
        out["turns"], out["truncated"] = await asyncio.to_thread(session.legal_turns)
    return out


@endpoint
async def move(request: Request) -> Any:
    board = board_of(request)
    session = board.session(request)
    body = await json_body(request)
    played: str | int
    if "action" in body:
        played = field(body, "action", int, required=True)
    else:
        played = field(body, "move", str, required=True)
    with board.lock:
        label = session.play(played)
    return {"played": label, **session_json(session)}


@endpoint
async def undo(request: Request) -> Any:
    board = board_of(request)
    session = board.session(request)
    with board.lock:
        label = session.undo()
    return {"undid": label, **session_json(session)}


@endpoint
async def position(request: Request) -> Any:
    session = board_of(request).session(request)
    return Response(session.position_json(), media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="position.json"'})


@endpoint
async def record(request: Request) -> Any:
    session = board_of(request).session(request)
    return Response(session.record().to_json(), media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="record.json"'})


@endpoint
async def status(request: Request) -> Any:
    board = board_of(request)
    return {"searches": board.slots.total(), "sessions": len(board.sessions)}


# The paths of sessions made from a position or a record come before the one naming a session.
ROUTES: list[BaseRoute] = [
    Route("/api/sessions", create, methods=["POST"]),
    Route("/api/sessions/position", from_position, methods=["POST"]),
    Route("/api/sessions/record", from_record, methods=["POST"]),
    Route("/api/sessions/{id}", show),
    Route("/api/sessions/{id}/board.svg", board_picture),
    Route("/api/sessions/{id}/moves", moves),
    Route("/api/sessions/{id}/move", move, methods=["POST"]),
    Route("/api/sessions/{id}/undo", undo, methods=["POST"]),
    Route("/api/sessions/{id}/position", position),
    Route("/api/sessions/{id}/record", record),
    Route("/api/status", status),
]
