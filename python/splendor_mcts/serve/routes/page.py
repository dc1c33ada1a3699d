"""The page and its static files (plain HTML, ES modules and CSS: no build step)."""
from __future__ import annotations

from importlib import resources

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

STATIC = resources.files("splendor_mcts.serve") / "static"


async def index(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


ROUTES: list[BaseRoute] = [
    Route("/", index),
    Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
]
