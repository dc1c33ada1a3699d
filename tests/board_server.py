"""The web board served by uvicorn in a thread of the test process (for tests that need a
real connection: a client going away, a browser)."""
from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from splendor_mcts.serve.app import make_app
from splendor_mcts.serve.settings import ServeSettings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running_board(settings: ServeSettings | None = None) -> Iterator[tuple[str, object]]:
    """The base URL of a board served on a free local port, and its app; stopped after."""
    import uvicorn

    app = make_app(settings or ServeSettings(threads=1))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the board's server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=10)
