"""Exit codes of the ``splendor-mcts`` command and its tools (hint, analyze, review, play).

They are part of the interface (docs/hints.md): scripts may rely on them.
"""
OK = 0
FAILURE = 1          # a run that cannot go on (e.g. a lost tournament worker, a full disk); the message says why
USAGE = 2            # bad command line or option value (argparse uses 2 as well), or a file to write where
                     # none can be (a missing folder, no permission)
INVALID_INPUT = 3    # the position or game record is not valid (every problem is printed)
NO_DECISION = 4      # nothing to analyze: the game is over or a card must be revealed first
INTERRUPTED = 130    # Ctrl-C (128 + SIGINT)
BROKEN_PIPE = 141    # the reader of the output went away (128 + SIGPIPE), as Unix tools do
