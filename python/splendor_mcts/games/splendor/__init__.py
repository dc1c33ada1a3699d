"""Splendor (base game, 2-4 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side: the variant
(``config``), the board drawn with rich (``board``) and the terminal play table (``table``).
"""
from __future__ import annotations

import re

from ... import _core
from ..registry import CardMoves, GameEntry, engine_parts
from .config import SplendorConfig

GAME = GameEntry(
    name="splendor",
    title="Splendor",
    config=SplendorConfig,
    **engine_parts("splendor"),
    cards=_core.splendor_cards,
    card_from_text=_core.splendor_card_from_text,
    card_tables={"nobles": _core.splendor_nobles},
    card_moves=CardMoves(slot=re.compile(r"^(?:buy|reserve) (?P<level>\d)\.(?P<slot>\d)$"),
                         reserved=re.compile(r"^buy reserved (?P<index>\d)$"),
                         reveal=re.compile(r"^reveal #(?P<id>\d+)$"), rows="table"),
    board="splendor_mcts.games.splendor.board:draw_board",
    play_table="splendor_mcts.games.splendor.table:SplendorTable",
)
