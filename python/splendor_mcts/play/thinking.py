"""The line ``play`` shows on a terminal while the engine thinks (its move, or a hint):
who thinks, the time and iterations so far against the budget. Rewritten in place about
twice a second and erased when the search ends; nothing is shown off a terminal."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from ..analysis.running import SearchLimits


class ThinkingLine:
    """``seat 1 thinks: 1.2 of 2 s, 3,456 iterations`` (the label, then the progress), written over
    itself on ``out``."""

    def __init__(self, label: str, limits: SearchLimits, out: TextIO) -> None:
        self.label = label
        self.iterations, self.seconds = limits.budget()
        self.out = out
        self.start = time.monotonic()

    def text(self, iterations: int) -> str:
        elapsed = time.monotonic() - self.start
        spent = f"{elapsed:.1f} of {self.seconds:g} s" if self.seconds else f"{elapsed:.1f} s"
        done = f"{iterations:,} of {self.iterations:,} iterations" if self.iterations else f"{iterations:,} iterations"
        return f"{self.label} {spent}, {done}"

    def __call__(self, partial: Any) -> None:
        self.out.write("\r\x1b[K" + self.text(partial.root.iterations))
        self.out.flush()

    def clear(self) -> None:
        self.out.write("\r\x1b[K")
        self.out.flush()


@contextmanager
def thinking_on_terminal(label: str, limits: SearchLimits) -> Iterator[Callable[[Any], None] | None]:
    """The progress callback of a search (a :class:`ThinkingLine` on standard error), or None
    when standard error is not a terminal."""
    if sys.stderr is None or not sys.stderr.isatty():
        yield None
        return
    line = ThinkingLine(label, limits, sys.stderr)
    line.out.write("\r\x1b[K" + line.text(0))
    line.out.flush()
    try:
        yield line
    finally:
        line.clear()
