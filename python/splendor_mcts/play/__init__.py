"""``splendor-mcts play``: play against the engine in a terminal, or follow a game on a real table.

``board`` draws a player's view with rich; ``session`` holds the game, the record and the
commands (moves in the notation, hint, undo, save, load); ``cli`` registers the command.
"""
from .session import PlaySession

__all__ = ["PlaySession"]
