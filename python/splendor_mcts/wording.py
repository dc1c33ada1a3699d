"""Words for people: seats and turns as people number them (``seat 1`` is the first player,
index 0; turn 1 is turn number 0) and counts with their plural (``1 decision``, ``2 decisions``).

Every human-facing output (boards, prompts, hint and review text, random-game, tournament
reports) names seats with :func:`seat_name`; JSON, the Python API and options such as
``play --seat`` keep the 0-based index (docs/hints.md, "Seat numbering")."""
from __future__ import annotations


def seat_name(index: int) -> str:
    """``seat 1`` for index 0: the seat as printed for people."""
    return f"seat {index + 1}"


def seats_named(indexes: list[int] | tuple[int, ...]) -> str:
    """``seat 1``, ``seats 1 and 3``: several seats as printed for people."""
    numbers = [str(i + 1) for i in indexes]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def turn_name(turn_number: int) -> str:
    """``1`` for turn number 0: a turn as printed for people. Turn numbers count turns as
    players do (analysis/numbering.py) from 0, as the analysis protocol and JSON give them."""
    return str(turn_number + 1)


def counted(number: int, noun: str) -> str:
    """``1 decision``, ``2 decisions``, ``1,200 games``: a count with its noun, plural right."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def install_hint(extra: str) -> str:
    """How to install an optional part (a ``pyproject.toml`` extra such as ``serve``):
    the project is installed from its folder, not from PyPI (where ``splendor-mcts`` is
    not published), so the hint names the folder's extra."""
    return f'pip install ".[{extra}]" (in the project\'s folder)'
