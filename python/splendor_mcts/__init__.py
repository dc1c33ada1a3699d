"""splendor_mcts: Splendor and Splendor Duel engines with Monte Carlo tree search.

The public API (README, "Using it from Python")::

    import splendor_mcts as sm
    game = sm.load_game("splendor", players=3)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])

Where things live: ``games/`` (the registry, ``Game``, variants, positions, playouts and
perft, each game's Python side), ``search/`` (``analyze``, its defaults and results),
``bots``, ``analysis/`` (hint, review, the analysis protocol), ``play/``, ``tournament/``,
``envs/``.
"""
from __future__ import annotations

from . import _core
from ._core import CHANCE, TERMINAL
from .bots import Bot, GreedyBot, MCTSBot, RandomBot
from .games.duel.config import DuelConfig
from .games.game import Game, load_game
from .games.splendor.config import SplendorConfig
from .games.playouts import PlayoutResults, perft, perft_divide, random_playouts
from .search.analyze import Analysis, MoveInfo, RootInfo, TurnInfo, analyze
from .version import __version__

InvalidInput = _core.InvalidInput

__all__ = [
    "Analysis",
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "MoveInfo",
    "RandomBot",
    "RootInfo",
    "TurnInfo",
    "analyze",
    "CHANCE",
    "DuelConfig",
    "TERMINAL",
    "Game",
    "InvalidInput",
    "PlayoutResults",
    "SplendorConfig",
    "__version__",
    "load_game",
    "perft",
    "perft_divide",
    "random_playouts",
]
