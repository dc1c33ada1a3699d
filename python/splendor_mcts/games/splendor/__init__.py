"""Splendor (base game, 2-4 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side: the variant
(``config``), the board drawn with rich (``board``) and the terminal play table (``table``).
"""
from __future__ import annotations

from ... import _core
from ..registry import GameEntry
from .config import SplendorConfig

GAME = GameEntry(
    name="splendor",
    title="Splendor",
    config=SplendorConfig,
    state=_core.SplendorState,
    searcher=_core.SplendorSearcher,
    random_playouts=_core.splendor_random_playouts,
    num_distinct_actions=_core.SPLENDOR_NUM_DISTINCT_ACTIONS,
    observation_size=_core.SPLENDOR_OBSERVATION_SIZE,
    cards=_core.splendor_cards,
    card_from_text=_core.splendor_card_from_text,
    card_tables={"nobles": _core.splendor_nobles},
    board="splendor_mcts.games.splendor.board:draw_board",
    play_table="splendor_mcts.games.splendor.table:SplendorTable",
)
