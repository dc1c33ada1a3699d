"""``splendor-mcts serve``: the web board (docs/board.md).

:mod:`.sessions` holds a game on the board (no web code), :mod:`.store` keeps each for the
client that made it, :mod:`.live` runs searches for it, :mod:`.guard` refuses what another
site could send, :mod:`.app` is the Starlette app of JSON endpoints, :mod:`.cli` the
command; the page itself is plain HTML, ES modules and CSS in ``static/`` (no build step).
"""
