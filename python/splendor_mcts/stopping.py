"""How a command is stopped from outside: SIGTERM (what ``kill`` and ``timeout`` send) raises
:class:`Terminated`, a ``KeyboardInterrupt``, so every clean-up written for Ctrl-C (workers
closed, finished work kept, exit code ``exit_codes.INTERRUPTED``) runs for it too.

Its own module, not ``cli``: ``python -m splendor_mcts.cli`` runs that one as ``__main__``,
where a class defined there would not be the one the commands import.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop as for Ctrl-C, but never ask whether to go on."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """While it lasts, SIGTERM raises :class:`Terminated` (signal handlers live on the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
