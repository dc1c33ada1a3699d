"""Splendor Duel (2 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side: the variant
(``config``), the board drawn with rich (``board``) and the terminal play table (``table``).
"""
from __future__ import annotations

import re

from ... import _core
from ..registry import CardMoves, GameEntry, engine_parts
from .config import DuelConfig

GAME = GameEntry(
    name="duel",
    title="Splendor Duel",
    config=DuelConfig,
    **engine_parts("duel"),
    cards=_core.duel_cards,
    card_from_text=_core.duel_card_from_text,
    card_tables={"royals": _core.duel_royals},
    card_moves=CardMoves(slot=re.compile(r"^(?:buy|reserve) (?P<level>\d)\.(?P<slot>\d)(?: gold [a-e][1-5])?$"),
                         reserved=re.compile(r"^buy r(?P<index>\d)$"),
                         reveal=re.compile(r"^card (?P<id>\d+)$"), rows="pyramid"),
    board="splendor_mcts.games.duel.board:draw_duel_board",
    play_table="splendor_mcts.games.duel.table:DuelTable",
)
