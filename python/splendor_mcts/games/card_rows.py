"""The face-up card rows of a board, drawn with rich: shared by the games' boards."""
from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text


def print_card_rows(console: Console, rows: list[list[int | None]], decks: list[int],
                    describe: Callable[[int], Text]) -> None:
    """The face-up cards, level 3 first, each with its slot name (``2.1``) and deck count."""
    for level in (3, 2, 1):
        row = Text(f"level {level} ({decks[level - 1]:>2} left)  ", style="bold")
        for slot, card in enumerate(rows[level - 1], start=1):
            row.append(f"{level}.{slot} ", style="dim")
            row.append_text(describe(card) if card else Text("(empty)", style="dim"))
            row.append("   ")
        console.print(row)
