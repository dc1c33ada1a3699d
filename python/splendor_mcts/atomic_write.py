"""Files written whole or not at all: a temporary file beside the target, renamed over it when complete.

For every file a command may overwrite (a saved game, an export, a run's shards and state): a full
disk or an interrupt mid-write must not destroy the previous copy.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, BinaryIO, TextIO

from .stopping import deferred_interrupts


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
    if target.exists() and not target.is_file() and not target.is_dir():
        with open(target, mode, encoding=encoding) as out:  # a device or a pipe (/dev/stdout): nothing to replace
            yield out
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


def copy_atomically(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Copy *source* over *target* so that *target* is never seen half copied."""
    with open(source, "rb") as read, atomic_write(target) as out:
        shutil.copyfileobj(read, out)


__all__ = ["atomic_write", "atomic_write_text", "copy_atomically"]
