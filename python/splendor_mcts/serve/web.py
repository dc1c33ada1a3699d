"""What every endpoint of the web board shares: an error as its JSON answer
(:class:`HttpError`), the wrapper that makes each endpoint's result or error its answer
(:func:`endpoint`), and a session as the page shows it (:func:`session_json`)."""
from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..games.positions import PositionError
from .live import TooManySearches
from .sessions import BoardSession


class HttpError(Exception):
    """An answer other than 200: its status and JSON body."""

    def __init__(self, status: int, message: str, **more: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": message, **more}


def invalid_position(exc: PositionError) -> HttpError:
    return HttpError(400, "not a valid position", problems=[dict(p) for p in exc.problems])


def endpoint(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint answering ``fn``'s result (a response, or JSON) or its error as JSON: 400
    (bad input, or a position's problems), 429 (too many searches) or the ``HttpError``'s."""
    @functools.wraps(fn)
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


def session_json(session: BoardSession) -> dict[str, Any]:
    """A session as the page shows it: its summary and its board."""
    return {**session.summary(), "svg": session.svg()}
