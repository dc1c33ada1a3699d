"""Reading the web board's requests: a body capped in size (:class:`BodyLimit`), read as a
JSON object, its fields and the query's numbers, each problem a 400 naming it."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..json_input import JsonInputError, read_json
from ..ranges import Number, NumberError, Whole
from .web import HttpError


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


async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = read_json(raw or b"{}", "the request body")
    except JsonInputError as exc:
        raise HttpError(400, str(exc)) from None
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


def query_number(request: Request, name: str, within: Whole | Number, default: Any) -> Any:
    """The query's ``name`` read by the shared range ``within`` (``default`` when absent); a 400
    naming it and its range otherwise (so ``1e400``, ``nan``, ``inf`` or ``1_000`` never pass)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return within.parse(raw, name)
    except NumberError as exc:
        raise HttpError(400, str(exc)) from None
