"""The web board's HTTP side: a Starlette app of JSON endpoints and the static page.

Endpoints (docs/board.md lists them with their bodies), by concern in :mod:`.routes`: games
and card pictures, a position's preview, sessions (a new game, a position, a record), a
session's board, legal moves and turns, a move, undo, the engine's turns, a live hint
(server-sent events), a review, and exports (position JSON, record, board SVG).

Safe by default (:class:`ServeSettings`): requests from other sites, under another host
name or not JSON are refused (:mod:`.guard`), request bodies are capped, every search has a
time cap, each client runs at most a few searches at once and sees only its own sessions
(:mod:`.store`), a hint's search stops when its page goes away, and no request names a
file: positions and records come in the request.
"""
from __future__ import annotations

from starlette.applications import Starlette

from .guard import Guard
from .reading import BodyLimit
from .routes import page, positions, reviews, searches, sessions
from .settings import ServeSettings
from .state import Board


def make_app(settings: ServeSettings | None = None) -> Starlette:
    """The web board's ASGI app (``uvicorn`` serves it: ``splendor-mcts serve``)."""
    board = Board(settings or ServeSettings())
    app = Starlette(routes=[*positions.ROUTES, *sessions.ROUTES, *searches.ROUTES, *reviews.ROUTES, *page.ROUTES])
    app.state.board = board
    app.add_middleware(BodyLimit, limit=board.settings.max_body)
    app.add_middleware(Guard)  # outermost: a refused request is not even read
    return app
