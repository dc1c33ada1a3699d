"""The subcommands of ``splendor-mcts``, one module each (docs/commands.md).

Every module here but :mod:`.options` is one subcommand and has the same two functions:
``register(subparsers)`` adds its parser (options, help, examples) and sets ``func=run``;
``run(args)`` turns the parsed options into calls of the library (analysis/, search/, play/,
...) and returns the exit code (:mod:`splendor_mcts.exit_codes`). Options that several
commands take come from :mod:`.options`, the one table of their flags, types, defaults and
help. The library imports no argparse: only this package and ``cli.py`` do. ``cli.py`` lists the
commands (``COMMANDS``) and assembles them.
"""
