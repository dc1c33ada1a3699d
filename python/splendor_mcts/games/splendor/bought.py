"""How the table shows a Splendor seat's bought cards: per bonus colour, the cards and their
points (the ``bought`` summary of docs/position-format.md)."""
from __future__ import annotations

from typing import Any


def shown(bought: dict[str, Any], card: dict[str, Any], entry: Any) -> dict[str, int]:
    """The counts of ``bought`` that ``card`` adds to (its ``cards`` and ``points`` are added
    by the caller)."""
    counts: dict[str, int] = bought.setdefault(card["bonus"], {"cards": 0, "points": 0})
    return counts
