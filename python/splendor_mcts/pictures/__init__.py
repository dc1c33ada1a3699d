"""Pictures of the games: the board as SVG (:mod:`.board`), drawn from the card data.

Used by ``splendor-mcts hint --svg`` and by the web board (``splendor-mcts serve``).
"""
