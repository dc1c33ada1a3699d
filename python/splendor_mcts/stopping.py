"""How a command is stopped from outside: SIGTERM (what ``kill`` and ``timeout`` send) raises
:class:`Terminated`, a ``KeyboardInterrupt``, so every clean-up written for Ctrl-C (workers
closed, finished work kept, exit code ``exit_codes.INTERRUPTED``) runs for it too; and
:func:`deferred_interrupts` holds both over steps that must not be cut in half.

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


_DEFERRED = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block ends, then act on them as if they had come just after.

    For a few steps that must finish together (a file written and renamed, a shard and the manifest
    that lists it): an interrupt in between would leave a half-written file or a shard nobody lists.
    A second signal while held acts at once, so a write stuck on a broken disk can still be stopped.
    Off the main thread (where handlers cannot be set) the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in _DEFERRED}
    previous = {signum: handler for signum, handler in previous.items() if handler is not None}  # None: set outside Python
    held: list[int] = []

    def restore() -> None:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

    def deliver(signum: int) -> None:
        handler = previous[signum]
        if callable(handler):
            handler(signum, None)
        else:  # the default action or none, as the process had before the block
            signal.raise_signal(signum)

    def act() -> None:  # stop holding; every signal held acts, in the order it came
        restore()
        pending = held[:]
        held.clear()
        for signum in pending:
            deliver(signum)

    def hold(signum: int, frame: Any) -> None:
        held.append(signum)
        if len(held) > 1:  # asked twice
            act()

    for signum in previous:
        signal.signal(signum, hold)
    try:
        yield
    finally:
        act()
