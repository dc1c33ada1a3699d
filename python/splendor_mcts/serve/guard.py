"""The web board's door: which requests it serves at all, and which client sent each.

Any web page the user opens can make the browser send requests to the board on
127.0.0.1: a form or a ``fetch`` with ``Content-Type: text/plain`` is sent cross-site
without a CORS preflight, and a site whose name is made to resolve to 127.0.0.1 (DNS
rebinding) even reads the answers. So :class:`Guard`, before any handler, answers 403
(and nothing changes) to a request

* whose ``Host`` is not the address the board serves (the one the connection came to,
  and ``localhost`` when that is a loopback address): DNS rebinding;
* whose ``Origin``, or absent that ``Referer``, is not the board's own origin, or whose
  ``Sec-Fetch-Site`` says another site sent it; the page and its static files are
  exempt (a link from elsewhere opens the board; they hold nothing of the user's and
  may not be framed);
* that is not a GET or HEAD and whose ``Content-Type`` is not ``application/json`` (a
  browser sends a JSON body cross-site only after a preflight, which the rule above
  refuses).

Every client has an identity of its own, since every client on this machine has the same
address: an HttpOnly, SameSite=Strict cookie, made on its first request. Sessions belong
to the client that made them and the per-client limits count by it (:func:`client_of`).
"""
from __future__ import annotations

import ipaddress
import re
import secrets
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = ("GET", "HEAD")
CLIENT_KEY = "splendor_mcts.client"  # where the request's client identity is kept in the ASGI scope
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
DEFAULT_PORTS = {"http": 80, "https": 443}
# Sent with every answer: no page of another site may frame the board (a click on it there
# would be the user's click here).
FRAMING = (("x-frame-options", "DENY"), ("content-security-policy", "frame-ancestors 'none'"),
           ("x-content-type-options", "nosniff"))


def client_of(connection: HTTPConnection) -> str:
    """The identity of the client that sent ``connection`` (set by :class:`Guard`)."""
    return str(connection.scope[CLIENT_KEY])


def served_hosts(scope: Scope) -> set[str] | None:
    """The ``Host`` values that name the address this connection came to (None: any port
    of a loopback name, when the server does not say which address it is)."""
    server = scope.get("server")
    if not server:
        return None
    host, port = str(server[0]).lower(), server[1]
    names = {f"[{host}]" if ":" in host else host}
    if _loopback(host):
        names.update(LOOPBACK_NAMES)
    hosts = {f"{name}:{port}" for name in names}
    if port is None or DEFAULT_PORTS.get(scope.get("scheme", "http")) == port:
        hosts |= names
    return hosts


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def refusal(scope: Scope, headers: Headers) -> str | None:
    """Why the board refuses this request (see the module's text), or None."""
    host = headers.get("host", "").lower()
    served = served_hosts(scope)
    known = host in served if served is not None else host.rsplit(":", 1)[0] in LOOPBACK_NAMES
    if not known:
        shown = ", ".join(sorted(served)) if served else "a loopback address"
        return f"Host {host!r} is not this board's address ({shown}): open the board by its address"
    own = f"{scope.get('scheme', 'http')}://{host}"
    method, path = scope["method"], scope["path"]
    if not (method in SAFE_METHODS and (path == "/" or path.startswith("/static/"))):
        origin = headers.get("origin")
        if origin is not None and origin.lower() != own:
            return f"a request from the page {origin!r} is refused: only the board's own page ({own}) may send one"
        referer = headers.get("referer")
        if origin is None and referer is not None:
            parts = urlsplit(referer)
            if f"{parts.scheme}://{parts.netloc}".lower() != own:
                return f"a request from the page {referer!r} is refused: only the board's own page ({own}) may send one"
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return f"a request sent by another site (Sec-Fetch-Site: {site}) is refused"
    if method not in SAFE_METHODS:
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return (f"a {method} must have Content-Type: application/json, not {kind or 'none'!r} "
                    "(a page of another site can send any other kind without asking)")
    return None


class Guard:
    """ASGI middleware: refuses what :func:`refusal` names with 403 before anything is read,
    and gives each request its client (its cookie, or a new one set on the answer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        problem = refusal(scope, connection.headers)
        if problem is not None:
            response = JSONResponse({"error": problem}, status_code=403)
            await response(scope, receive, self.framed(send, None))
            return
        name = cookie_name(scope)
        client = connection.cookies.get(name, "")
        new = None if TOKEN.fullmatch(client) else secrets.token_urlsafe(18)
        scope[CLIENT_KEY] = new or client
        await self.app(scope, receive, self.framed(send, f"{name}={new}; Path=/; HttpOnly; SameSite=Strict" if new else None))

    @staticmethod
    def framed(send: Send, cookie: str | None) -> Send:
        """``send`` with the framing headers (and ``cookie`` to set) added to the answer."""
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in FRAMING:
                    headers.append(key, value)
                if cookie:
                    headers.append("set-cookie", cookie)
            await send(message)
        return sending


def cookie_name(scope: Scope) -> str:
    """The client cookie's name: with the port, since cookies are shared by every port of a
    host and two boards on one machine must not take each other's clients."""
    server = scope.get("server")
    return f"splendor_board_{server[1]}" if server and server[1] else "splendor_board"
