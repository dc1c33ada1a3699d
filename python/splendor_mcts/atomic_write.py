"""Files written whole or not at all: a temporary file beside the target, renamed over it when complete.

For every file a command may overwrite (a saved game, an export, a run's shards and state): a full
disk or an interrupt mid-write must not destroy the previous copy. A file that cannot be written
(a missing folder, a full disk) raises :class:`WriteError` naming the file asked for, never its
temporary: the command line turns it into one line and its exit code (``splendor_mcts.cli``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, TextIO

from .stopping import deferred_interrupts


class WriteError(OSError):
    """*filename* (the file a command was asked to write) could not be written: ``errno`` and
    ``strerror`` say why. The previous content of the file, if any, is whole. Raised as a
    subclass of the system's own error too (``FileNotFoundError``, ...), so code that catches
    that one still does."""


_KINDS: dict[type[OSError], type[WriteError]] = {}


def write_error(exc: OSError, name: str) -> WriteError:
    """``exc`` as a :class:`WriteError` naming *name* (a file, or ``standard output``)."""
    kind = type(exc)
    if issubclass(kind, WriteError):
        kind = next(k for k in kind.__mro__[1:] if not issubclass(k, WriteError))
    if kind not in _KINDS:
        _KINDS[kind] = WriteError if kind is OSError else type(f"Write{kind.__name__}", (WriteError, kind), {})
    return _KINDS[kind](exc.errno, exc.strerror or str(exc), name)


@contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Yield a binary file to fill; when the block ends normally it replaces *path*, flushed to disk.

    Ctrl-C and SIGTERM wait until the file is renamed (:func:`~splendor_mcts.stopping.deferred_interrupts`);
    an exception inside the block, or a second interrupt, removes the temporary file. So *path* is
    always the new content or the previous one, never half of either.
    """
    with _replacing(path, "wb") as out:
        yield out


@contextmanager
def atomic_write_text(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """:func:`atomic_write` for UTF-8 text."""
    with _replacing(path, "w", encoding="utf-8") as out:
        yield out


@contextmanager
def _replacing(path: str | os.PathLike[str], mode: str, encoding: str | None = None) -> Iterator[Any]:
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()  # the file it names is replaced, the link kept
    try:
        if target.exists() and not target.is_file() and not target.is_dir():
            with open(target, mode, encoding=encoding) as device:  # a device or a pipe (/dev/stdout): nothing to replace
                yield device
            return
        temporary = target.with_name(target.name + ".tmp")
        with deferred_interrupts():
            # Opened before the try: a temporary that cannot be opened (a directory of that name) is not ours to remove.
            out: IO[Any] = open(temporary, mode, encoding=encoding)  # noqa: SIM115
            try:
                with out:
                    yield out
                    out.flush()
                    os.fsync(out.fileno())
                os.replace(temporary, target)
            except BaseException:
                temporary.unlink(missing_ok=True)
                raise
    except WriteError:
        raise
    except OSError as exc:
        # Named by the file asked for. An error naming another file (one the caller reads while
        # writing, as copy_atomically does) is that file's, and left as it is.
        if exc.filename is None or Path(exc.filename) in (target, target.with_name(target.name + ".tmp")):
            raise write_error(exc, str(target)) from None
        raise


def copy_atomically(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Copy *source* over *target* so that *target* is never seen half copied."""
    with open(source, "rb") as read, atomic_write(target) as out:
        shutil.copyfileobj(read, out)


__all__ = ["WriteError", "atomic_write", "atomic_write_text", "copy_atomically", "write_error"]
