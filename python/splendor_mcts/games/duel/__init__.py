"""Splendor Duel (2 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side: the variant
(``config``), the board drawn with rich (``board``) and the terminal play table (``table``).
"""
from __future__ import annotations

from ... import _core
from ..registry import GameEntry
from .config import LEGEND, DuelConfig

GAME = GameEntry.from_engine(
    "duel", "Splendor Duel", DuelConfig, card_tables={"royals": _core.duel_royals},
    board="splendor_mcts.games.duel.board:draw_duel_board", play_table="splendor_mcts.games.duel.table:DuelTable",
    legend=LEGEND)
