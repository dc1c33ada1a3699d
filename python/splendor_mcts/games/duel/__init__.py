"""Splendor Duel (2 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side, each part named by the
entry: the variant and the web page's data (``config``), the board drawn with rich (``board``),
the terminal play table (``table``), the observation tensor's layout (``observation_layout``)
and how the table shows a seat's bought cards (``bought``). Its SVG board is
``pictures/<game>_board.py`` (a picture, in the layer of the pictures: docs/layers.md).
"""
from __future__ import annotations

from ... import _core
from ..registry import GameEntry, NetworkFamily
from .config import LEGEND, WEB_PAGE, DuelConfig

GAME = GameEntry.from_engine(
    "duel", "Splendor Duel", DuelConfig, card_tables={"royals": _core.duel_royals}, legend=LEGEND,
    board="splendor_mcts.games.duel.board:draw_duel_board",
    play_table="splendor_mcts.games.duel.table:DuelTable",
    picture="splendor_mcts.pictures.duel_board:PICTURE",
    observation_layout="splendor_mcts.games.duel.observation_layout:LAYOUT",
    bought_summary="splendor_mcts.games.duel.bought:shown",
    network_families={"duel": NetworkFamily(players=(2,), selfplay_games=500, gate_games=400)},
    bench_positions=(("duel", 1, 0), ("duel", 2, 25)),
    web_page=WEB_PAGE)
