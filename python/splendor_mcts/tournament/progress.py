"""Live progress for the command line: a bar with ETA and the standings, or plain lines when not a TTY."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .report import format_sprt
from .runner import Progress


def _standings(p: Progress, limit: int = 8) -> list[tuple[str, str, str]]:
    table = p.table()
    return [(r.name, f"{r.rating:+.0f} +/- {r.error:.0f}" if table.kind == "elo" else f"{r.rating:.1f} +/- {r.error:.1f}",
             f"{100 * r.score:.1f}%") for r in table.rows[:limit]]


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


class PlainProgress:
    """One line every ``every`` seconds (and at the end) on a stream: for logs and CI."""

    def __init__(self, stream: TextIO | None = None, every: float = 5.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self._last = 0.0
        self._latest: Progress | None = None

    def __call__(self, p: Progress) -> None:
        self._latest = p
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            self._print(p)

    def _print(self, p: Progress) -> None:
        eta = "?" if p.played_now == 0 else _clock(p.elapsed / p.played_now * (p.todo - p.played_now))
        line = f"[{len(p.games)}/{p.total}] elapsed {_clock(p.elapsed)} ETA {eta}"
        if p.games:
            line += " | " + ", ".join(f"{n} {r} ({s})" for n, r, s in _standings(p, 4))
        if p.sprt:
            line += f" | llr {p.sprt.llr:.2f}"
        print(line, file=self.stream, flush=True)

    def close(self) -> None:
        if self._latest is not None and self._latest.played_now:
            self._print(self._latest)


class RichProgress:
    """A rich progress bar (games done, ETA) above a live standings table."""

    def __init__(self, refresh: float = 1.0) -> None:
        from rich.console import Console, Group
        from rich.live import Live
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn, TimeRemainingColumn
        from rich.progress import TaskID

        self._group = Group
        self.console = Console(stderr=True)
        self.bar = Bar(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       TextColumn("ETA"), TimeRemainingColumn(), console=self.console)
        self.task: TaskID | None = None  # made at the first report, counting the games already stored
        self.live = Live(self.bar, console=self.console, refresh_per_second=4)
        self.live.start()
        self.refresh = refresh
        self._last = 0.0

    def __call__(self, p: Progress) -> None:
        # The bar counts every stored game (45/60 when resuming), and its ETA only this run's games:
        # the task starts at the stored count, so that count is not taken for this run's speed.
        if self.task is None:
            self.task = self.bar.add_task("games", total=p.total, completed=len(p.games))
        self.bar.update(self.task, total=p.total, completed=len(p.games))
        now = time.monotonic()
        if p.games and (now - self._last >= self.refresh or p.played_now == p.todo):
            self._last = now
            from rich.table import Table

            table = Table(box=None, show_header=True, header_style="bold")
            for column in ("Name", "Rating", "Score"):
                table.add_column(column)
            for row in _standings(p):
                table.add_row(*row)
            parts: list[object] = [self.bar, table]
            if p.sprt:
                parts.append(format_sprt(p.sprt))
            self.live.update(self._group(*parts))

    def close(self) -> None:
        self.live.stop()


def make_progress(enabled: bool) -> PlainProgress | RichProgress | None:
    """Rich display on a terminal, plain lines otherwise, nothing when disabled."""
    if not enabled:
        return None
    if sys.stderr.isatty():
        return RichProgress()
    return PlainProgress()
