"""The ``splendor-mcts`` command: one entry point, one subcommand per tool.

Each tool registers its subcommands with ``register(subparsers)`` and sets ``func`` on its parser;
``func(args)`` returns the exit code. A ``ValueError`` from a tool is bad input: it is printed as
``splendor-mcts <command>: error: ...`` with exit code ``exit_codes.USAGE``. SIGTERM (what ``kill``
and ``timeout`` send) stops a command as Ctrl-C does: it raises ``Terminated``, a
``KeyboardInterrupt``, so each command's clean-up on Ctrl-C (workers closed, finished work kept)
runs for it too, and the exit code is ``exit_codes.INTERRUPTED`` (``stopping``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import exit_codes
from .stopping import sigterm_interrupts
from .version import __version__


def _registrars() -> list[Callable[[Any], None]]:
    from .analysis.hint import register as register_hint
    from .analysis.protocol import register as register_analyze
    from .analysis.review import register as register_review
    from .engines.cli import register as register_engine
    from .games.perft_cli import register as register_perft
    from .learning.cli import register_pipeline, register_selfplay
    from .learning.train import register as register_train
    from .play.cli import register as register_play
    from .play.random_game import register as register_random_game
    from .search.bench import register as register_bench
    from .serve.cli import register as register_serve
    from .splendor_tools.agent_cli import register as register_splendor_tools_agent
    from .tournament.cli import register as register_tournament

    return [register_hint, register_analyze, register_review, register_play, register_random_game, register_tournament,
            register_bench, register_perft, register_splendor_tools_agent, register_engine, register_serve,
            register_selfplay, register_train, register_pipeline]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="splendor-mcts", description="Splendor and Splendor Duel engine tools")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in _registrars():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if sys.stdout is None:  # started with standard output closed: nowhere to answer
        print(f"splendor-mcts {args.command}: standard output is closed", file=sys.stderr)
        return exit_codes.BROKEN_PIPE
    try:
        with sigterm_interrupts():
            code = int(args.func(args) or 0)
        if code == exit_codes.BROKEN_PIPE:
            _quiet_stdout()
        return code
    except ValueError as exc:
        print(f"splendor-mcts {args.command}: error: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    except RuntimeError as exc:  # a run that cannot go on (e.g. a lost worker); its message says what to do
        print(f"splendor-mcts {args.command}: {exc}", file=sys.stderr)
        return exit_codes.FAILURE
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        _quiet_stdout()
        return exit_codes.BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"splendor-mcts {args.command}: interrupted", file=sys.stderr)
        return exit_codes.INTERRUPTED


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail."""
    import os

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
