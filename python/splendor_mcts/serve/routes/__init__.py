"""The web board's endpoints by concern, each module's ``ROUTES`` (docs/board.md lists them):
:mod:`.page` the page and its static files, :mod:`.positions` games, cards and a position's
preview, :mod:`.sessions` a game on the board (moves, undo, exports), :mod:`.searches` the
engine's turns and the live hint, :mod:`.reviews` a record's review. Each endpoint finds
the board's state with :func:`~splendor_mcts.serve.state.board_of`."""
