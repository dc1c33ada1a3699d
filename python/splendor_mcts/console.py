"""The rich console every command prints its human-readable output on.

On a terminal, rich fits the output to the window as usual. Piped or redirected, the output
is read by programs or kept in files: rich then assumes 80 columns, wraps long headers
mid-sentence and splits table cells over several lines. ``make_console`` is the one place
that decides: when the stream is not a terminal, lines are never wrapped and tables take
the width their rows need (and rich itself leaves out colours and cursor codes).
"""
from __future__ import annotations

import sys
from typing import Any

from rich.console import Console

# Wide enough for any row a command prints: no table is narrowed to fit it.
UNWRAPPED_WIDTH = 100_000


def make_console(stderr: bool = False, **options: Any) -> Console:
    """A console on standard output (or standard error); ``options`` go to rich's ``Console``."""
    stream = sys.stderr if stderr else sys.stdout
    if stream is not None and stream.isatty():
        return Console(stderr=stderr, **options)
    return Console(stderr=stderr, width=UNWRAPPED_WIDTH, soft_wrap=True, **options)


def note_reading_stdin(command: str, what: str) -> None:
    """Say on standard error that ``command`` waits for ``what`` typed at the terminal, so that
    it never waits in silence; nothing is said when standard input is a pipe or a file."""
    if sys.stdin is not None and sys.stdin.isatty():
        print(f"splendor-mcts {command}: reading {what} from standard input (Ctrl-D to end)", file=sys.stderr,
              flush=True)
