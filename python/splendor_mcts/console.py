"""The rich console every command prints its human-readable output on, and the progress line
of the commands that work through known steps (:class:`StepProgress`).

On a terminal, rich fits the output to the window as usual. Piped or redirected, the output
is read by programs or kept in files: rich then assumes 80 columns, wraps long headers
mid-sentence and splits table cells over several lines. ``make_console`` is the one place
that decides: when the stream is not a terminal, lines are never wrapped and tables take
the width their rows need (and rich itself leaves out colours and cursor codes).
"""
from __future__ import annotations

import sys
import time
from typing import Any

from rich.console import Console

# Wide enough for any row a command prints: no table is narrowed to fit it.
UNWRAPPED_WIDTH = 100_000


class _Console(Console):
    """rich's console, but a closed pipe is the command line's to handle (``splendor_mcts.cli``:
    quietly, exit code 141), not rich's exit with code 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def make_console(stderr: bool = False, **options: Any) -> Console:
    """A console on standard output (or standard error); ``options`` go to rich's ``Console``."""
    stream = sys.stderr if stderr else sys.stdout
    if stream is not None and stream.isatty():
        return _Console(stderr=stderr, **options)
    return _Console(stderr=stderr, width=UNWRAPPED_WIDTH, soft_wrap=True, **options)


def note_reading_stdin(command: str, what: str) -> None:
    """Say on standard error that ``command`` waits for ``what`` typed at the terminal, so that
    it never waits in silence; nothing is said when standard input is a pipe or a file."""
    if sys.stdin is not None and sys.stdin.isatty():
        print(f"splendor-mcts {command}: reading {what} from standard input (Ctrl-D to end)", file=sys.stderr,
              flush=True)


class StepProgress:
    """Progress of a command that works through known steps (review's decisions, bench's
    positions, perft's root moves), on standard error: a live line on a terminal, redrawn at
    each step and erased at the end; off a terminal (a log, CI), a plain line now and then,
    as the tournament's progress does; nothing when ``enabled`` is false."""

    def __init__(self, command: str, enabled: bool = True, live: bool = True, every: float = 5.0,
                 first_at_once: bool = True) -> None:
        on_terminal = sys.stderr is not None and sys.stderr.isatty()
        self.command = command
        self.live = enabled and live and on_terminal
        self.plain = enabled and not on_terminal
        self.every = every
        self._last = -every if first_at_once else time.monotonic()  # a run shorter than `every` prints nothing

    def step(self, live_text: str, plain_text: str | None = None) -> None:
        """Show the step now under way (``plain_text``, default ``live_text``, for the plain line)."""
        if self.live:
            sys.stderr.write(f"\r\x1b[K{live_text}")
            sys.stderr.flush()
        elif self.plain and time.monotonic() - self._last >= self.every:
            self._last = time.monotonic()
            print(f"splendor-mcts {self.command}: {plain_text or live_text}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Erase the live line, so the output that follows starts clean."""
        if self.live:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
