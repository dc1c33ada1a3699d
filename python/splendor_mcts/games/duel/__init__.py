"""Splendor Duel (2 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side: the variant
(``config``), the board drawn with rich (``board``) and the terminal play table (``table``).
"""
from __future__ import annotations

from ... import _core
from ..registry import GameEntry
from .config import DuelConfig

GAME = GameEntry(
    name="duel",
    title="Splendor Duel",
    config=DuelConfig,
    state=_core.DuelState,
    searcher=_core.DuelSearcher,
    random_playouts=_core.duel_random_playouts,
    num_distinct_actions=_core.DUEL_NUM_DISTINCT_ACTIONS,
    observation_size=_core.DUEL_OBSERVATION_SIZE,
    cards=_core.duel_cards,
    card_from_text=_core.duel_card_from_text,
    card_tables={"royals": _core.duel_royals},
    board="splendor_mcts.games.duel.board:draw_duel_board",
    play_table="splendor_mcts.games.duel.table:DuelTable",
)
