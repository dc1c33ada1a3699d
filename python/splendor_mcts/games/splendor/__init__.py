"""Splendor (base game, 2-4 players): its registry entry.

The rules are the engine's (``_core``); this package holds the Python side, each part named by the
entry: the variant and the web page's data (``config``), the board drawn with rich (``board``),
the terminal play table (``table``), the observation tensor's layout (``observation_layout``)
and how the table shows a seat's bought cards (``bought``). Its SVG board is
``pictures/<game>_board.py`` (a picture, in the layer of the pictures: docs/layers.md).
"""
from __future__ import annotations

from ... import _core
from ..registry import GameEntry, NetworkFamily
from .config import LEGEND, WEB_PAGE, SplendorConfig

GAME = GameEntry.from_engine(
    "splendor", "Splendor", SplendorConfig, card_tables={"nobles": _core.splendor_nobles}, legend=LEGEND,
    board="splendor_mcts.games.splendor.board:draw_board",
    play_table="splendor_mcts.games.splendor.table:SplendorTable",
    picture="splendor_mcts.pictures.splendor_board:PICTURE",
    observation_layout="splendor_mcts.games.splendor.observation_layout:LAYOUT",
    bought_summary="splendor_mcts.games.splendor.bought:shown",
    network_families={"splendor-2p": NetworkFamily(players=(2,), selfplay_games=2500, gate_games=400),
                      "splendor-3-4p": NetworkFamily(players=(3, 4), selfplay_games=1500, gate_games=300)},
    bench_positions=(("splendor(players=2)", 1, 0), ("splendor(players=2)", 2, 20), ("splendor(players=3)", 3, 10),
                     ("splendor(players=4)", 4, 30)),
    web_page=WEB_PAGE)
