"""Splendor (base game, 2-4 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side: the variant
(``config``), the board drawn with rich (``board``) and the terminal play table (``table``).
"""
from __future__ import annotations

from ... import _core
from ..registry import GameEntry
from .config import LEGEND, SplendorConfig

GAME = GameEntry.from_engine(
    "splendor", "Splendor", SplendorConfig, card_tables={"nobles": _core.splendor_nobles},
    board="splendor_mcts.games.splendor.board:draw_board", play_table="splendor_mcts.games.splendor.table:SplendorTable",
    legend=LEGEND)
