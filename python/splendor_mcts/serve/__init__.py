"""``splendor-mcts serve``: the web board (docs/board.md).

:mod:`.sessions` holds a game on the board (no web code), :mod:`.live` runs searches for
it, :mod:`.app` is the Starlette app of JSON endpoints, :mod:`.cli` the command; the page
itself is plain HTML, ES modules and CSS in ``static/`` (no build step).
"""
