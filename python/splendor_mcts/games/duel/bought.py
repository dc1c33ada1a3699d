"""How the table shows a Duel seat's bought cards (the ``bought`` summary of
docs/position-format.md): per colour the coloured cards with their bonuses, points and crowns,
the jokers by the colour they joined, the colourless cards."""
from __future__ import annotations

from typing import Any


def shown(bought: dict[str, Any], card: dict[str, Any], entry: Any) -> dict[str, int]:
    """The counts of ``bought`` that ``card`` (bought as ``entry``) adds to, its bonuses and
    crowns added (its ``cards`` and ``points`` are added by the caller)."""
    counts: dict[str, int]
    if card["bonus"] == "joker":
        counts = bought.setdefault("jokers", {}).setdefault(entry["colour"], {"cards": 0, "points": 0, "crowns": 0})
    elif card["bonus"] == "none":
        counts = bought.setdefault("none", {"cards": 0, "points": 0})
    else:
        counts = bought.setdefault(card["bonus"], {"cards": 0, "bonuses": 0, "points": 0, "crowns": 0})
        counts["bonuses"] += card["bonus_count"]
    if "crowns" in counts:
        counts["crowns"] += card["crowns"]
    return counts
