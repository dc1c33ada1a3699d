"""The play helpers of a game (``games/play_table.py``'s :class:`Table`, filled in by each game's
``games/<game>/table.py``), found through its registry entry."""
from __future__ import annotations

from typing import Any

from ..games.play_table import Table
from ..games.registry import game_entry, load_attribute


def table_for(game: Any) -> Table:
    """The play helpers of ``game`` (its registry entry names them)."""
    entry = game_entry(game.name)
    if entry.play_table is None:
        raise ValueError(f"{entry.title} cannot be played in the terminal yet (it has no play table)")
    return load_attribute(entry.play_table)(game)  # type: ignore[no-any-return]
