"""The ``splendor-mcts`` command: one entry point, one subcommand per tool.

Each subcommand is a module of :mod:`splendor_mcts.commands` (docs/commands.md): its
``register(subparsers)`` adds its parser and sets ``func`` to its ``run``; ``run(args)`` returns
the exit code. A ``ValueError`` from a tool is bad input: it is printed as
``splendor-mcts <command>: error: ...`` with exit code ``exit_codes.USAGE``. SIGTERM (what ``kill``
and ``timeout`` send) stops a command as Ctrl-C does: it raises ``Terminated``, a
``KeyboardInterrupt``, so each command's clean-up on Ctrl-C (workers closed, finished work kept)
runs for it too, and the exit code is ``exit_codes.INTERRUPTED`` (``stopping``).

Output that cannot be written is handled here, once for every command: a closed pipe (``| head``)
stops quietly with ``exit_codes.BROKEN_PIPE``; any other ``OSError`` on standard output or on a
file a command writes (``atomic_write.WriteError``: a missing folder, a full disk) is one line
naming the file or stream and the system's reason, exit code :func:`output_error_code`. Files are
written whole or not at all (``atomic_write``), so what was there before is kept.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from . import exit_codes
from .atomic_write import WriteError, write_error
from .stopping import sigterm_interrupts
from .version import __version__

# In the order ``splendor-mcts --help`` lists them: each a module of splendor_mcts.commands (docs/commands.md).
COMMANDS = ("hint", "analyze", "review", "play", "random_game", "tournament", "replay", "export", "bench", "perft",
            "splendor_tools_agent", "engine", "serve", "selfplay", "train", "pipeline")


def command_modules() -> list[ModuleType]:
    """Each subcommand's module, in :data:`COMMANDS` order."""
    return [importlib.import_module(f"{__package__}.commands.{name}") for name in COMMANDS]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="splendor-mcts", description="Splendor and Splendor Duel engine tools")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in command_modules():
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if sys.stdout is None:  # started with standard output closed: nowhere to answer
        print(f"splendor-mcts {args.command}: standard output is closed", file=sys.stderr)
        return exit_codes.BROKEN_PIPE
    try:
        with sigterm_interrupts(), _named_stdout():
            code = int(args.func(args) or 0)
            sys.stdout.flush()  # here, not at exit: a full disk is reported like any other write
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
    except OSError as exc:
        print(f"splendor-mcts {args.command}: {_os_error_text(exc)}", *getattr(exc, "__notes__", ()), sep="; ",
              file=sys.stderr)
        return os_error_code(exc)
    except KeyboardInterrupt:
        print(f"splendor-mcts {args.command}: interrupted", file=sys.stderr)
        return exit_codes.INTERRUPTED


# A place that cannot take the file (a bad option: choose another) rather than a run that cannot
# go on (a full disk, an I/O error: free some space and run again).
_BAD_PLACE = {errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.EPERM, errno.EROFS, errno.ENAMETOOLONG,
              errno.EEXIST, errno.ELOOP}


def os_error_code(exc: OSError) -> int:
    """The exit code of a file or stream that cannot be written (or read): ``USAGE`` when the place
    is wrong (a missing folder, no permission, a read-only file system), ``FAILURE`` otherwise (a
    full disk, an I/O error)."""
    return exit_codes.USAGE if exc.errno in _BAD_PLACE else exit_codes.FAILURE


def _os_error_text(exc: OSError) -> str:
    """``cannot write out/games: the folder out does not exist``, ``cannot write standard output:
    No space left on device``; another error as ``FILE: reason``."""
    reason = exc.strerror or str(exc)
    where = _unwritten(exc)
    if where is None:
        return f"{exc.filename}: {reason}" if exc.filename else reason
    if isinstance(exc, WriteError) and exc.errno == errno.ENOENT:
        reason = f"the folder {Path(where).parent} does not exist"
    return f"cannot write {where}: {reason}"


def _unwritten(exc: OSError) -> str | None:
    """What could not be written (the file a command was asked to write, or standard output), or
    None for an error that is not about output."""
    if not isinstance(exc, WriteError):
        return None
    if exc.filename == STANDARD_OUTPUT:
        _quiet_stdout()  # its unwritten bytes go nowhere: the interpreter's last flush cannot fail again
    return str(exc.filename)


STANDARD_OUTPUT = "standard output"


class _StandardOutput(io.FileIO):
    """Standard output's file descriptor, whose write errors name it (:class:`WriteError`), so
    that an error from any ``print`` is known for what it is; a closed pipe stays itself."""

    def write(self, data: Any) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise write_error(exc, STANDARD_OUTPUT) from None


@contextmanager
def _named_stdout() -> Iterator[None]:
    """Standard output as :class:`_StandardOutput` for the command (when it is the process's own)."""
    original = sys.stdout
    if original is None or original is not sys.__stdout__ or not isinstance(original, io.TextIOWrapper):
        yield
        return
    try:
        raw = _StandardOutput(original.fileno(), "w", closefd=False)
    except (OSError, ValueError):
        yield
        return
    original.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=original.encoding, errors=original.errors,
                                  line_buffering=original.line_buffering)
    try:
        yield
    finally:
        named, sys.stdout = sys.stdout, original
        try:
            named.flush()
        except OSError:
            pass  # already reported (or a closed pipe); standard output then points at /dev/null


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # not a file (a test's capture): nothing is flushed at exit
        pass


if __name__ == "__main__":
    sys.exit(main())
