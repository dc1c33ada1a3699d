"""Exit codes of the ``splendor-mcts`` tools for people (hint, analyze, review, play).

They are part of the interface (docs/hints.md): scripts may rely on them.
"""
OK = 0
FAILURE = 1          # the engine could not finish (a bug, or the search is missing)
USAGE = 2            # bad command line or option value (argparse uses 2 as well)
INVALID_INPUT = 3    # the position or game record is not valid (every problem is printed)
NO_DECISION = 4      # nothing to analyze: the game is over or a card must be revealed first
INTERRUPTED = 130    # Ctrl-C (128 + SIGINT)
