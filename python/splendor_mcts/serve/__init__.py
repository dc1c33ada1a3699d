"""``splendor-mcts serve``: the web board (docs/board.md).

:mod:`.sessions` holds a game on the board (no web code), :mod:`.store` keeps each for the
client that made it, :mod:`.live` runs searches for it, :mod:`.guard` refuses what another
site could send; :mod:`.app` makes the Starlette app of the endpoints in :mod:`.routes` (by
concern), which read requests with :mod:`.reading`, answer with :mod:`.web` and find the
board's :mod:`.state`; :mod:`.cli` is the command. The page itself is plain HTML, ES
modules and CSS in ``static/`` (no build step).
"""
