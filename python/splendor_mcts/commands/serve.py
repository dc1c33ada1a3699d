"""``splendor-mcts serve``: the web board on this machine (:mod:`splendor_mcts.serve`, docs/board.md).

Listens on 127.0.0.1 unless ``--host`` says otherwise (then it warns that the board is
reachable from the network), opens a browser only with ``--open``. Needs the ``serve``
extra (``pip install ".[serve]"`` in the project's folder: Starlette and uvicorn).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import exit_codes
from ..ranges import WHOLE, Whole
from ..wording import install_hint
from .options import add, arg, command_parser

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
PORT = Whole(1, 65535)

EXAMPLES = """examples:
  splendor-mcts serve                      # http://127.0.0.1:8765/
  splendor-mcts serve --port 9000 --open
  splendor-mcts serve --max-search-seconds 20 --searches-per-client 1

exit codes: 0 stopped, 1 Starlette or uvicorn missing, 2 bad option (pip install ".[serve]" in the project's folder).
"""


def register(subparsers: Any) -> None:
    """Add ``serve`` to the ``splendor-mcts`` parser."""
    from ..serve.settings import RANGES, ServeSettings

    defaults = ServeSettings()
    p = command_parser(subparsers, 
        "serve", help="a board in the browser: set up, hint, play, follow and review (local web app)",
        description="Serve the web board: set up a position by clicking, live hints, play against the engine, "
        "follow a real table, review a record with its win-rate graph, export SVG/PNG/JSON.",
        epilog=EXAMPLES)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=arg(WHOLE), default=8765, help=f"port (default 8765; {PORT.words()})")
    p.add_argument("--open", action="store_true", help="open the board in a browser")
    p.add_argument("--max-search-seconds", type=arg(RANGES["max_search_seconds"]), default=defaults.max_search_seconds,
                   metavar="S", help=f"longest search a request may ask for (default {defaults.max_search_seconds:g}; "
                   f"{RANGES['max_search_seconds'].words()})")
    p.add_argument("--searches-per-client", type=arg(RANGES["searches_per_client"]),
                   default=defaults.searches_per_client, metavar="N",
                   help=f"searches one client may run at once (default {defaults.searches_per_client}; "
                   f"{RANGES['searches_per_client'].words()})")
    p.add_argument("--max-body", type=arg(RANGES["max_body"]), default=defaults.max_body, metavar="BYTES",
                   help=f"largest request body (default {defaults.max_body:,}; {RANGES['max_body'].words()})")
    add(p, "threads", type=arg(RANGES["threads"]), default=defaults.threads,
        cores=f"at most 2; {RANGES['threads'].words()}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve the board until Ctrl-C; the exit code."""
    from ..serve.settings import ServeSettings

    PORT.check(args.port, "--port")
    # The options were read with their ranges (RANGES); the settings check them again for callers of the API.
    settings = ServeSettings(max_body=args.max_body, max_search_seconds=args.max_search_seconds,
                             searches_per_client=args.searches_per_client, threads=args.threads)
    try:
        import uvicorn

        from ..serve.app import make_app
    except ImportError as exc:
        print(f"splendor-mcts serve: {exc.name} is missing: {install_hint('serve')}", file=sys.stderr)
        return exit_codes.FAILURE
    if args.host not in LOCAL_HOSTS:
        print(f"splendor-mcts serve: warning: listening on {args.host}: the board (and its searches) is reachable "
              "from the network, without a password", file=sys.stderr)
    url = f"http://{'[' + args.host + ']' if ':' in args.host else args.host}:{args.port}/"
    print(f"splendor-mcts serve: the board is at {url} (Ctrl-C stops)", file=sys.stderr)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(make_app(settings), host=args.host, port=args.port, log_level="warning")
    return exit_codes.OK
