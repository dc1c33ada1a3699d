"""splendor_mcts: Splendor and Splendor Duel engines with Monte Carlo tree search.

The public API (see DESIGN.md section 3)::

    import splendor_mcts as sm
    game = sm.load_game("splendor", players=3)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
"""
from __future__ import annotations

from . import _core
from ._core import CHANCE, TERMINAL
from .game import Game, load_game
from .bots import Bot, GreedyBot, MCTSBot, RandomBot
from .playouts import PlayoutResults, perft, random_playouts
from .search import Analysis, MoveInfo, RootInfo, analyze
from .variants import DuelConfig, SplendorConfig

InvalidInput = _core.InvalidInput

__all__ = [
    "Analysis",
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "MoveInfo",
    "RandomBot",
    "RootInfo",
    "analyze",
    "CHANCE",
    "DuelConfig",
    "TERMINAL",
    "Game",
    "InvalidInput",
    "PlayoutResults",
    "SplendorConfig",
    "load_game",
    "perft",
    "random_playouts",
]
__version__ = "0.1.0"
