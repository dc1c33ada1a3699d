"""Files written whole or not at all: a temporary file beside the target, renamed over it when complete."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..stopping import deferred_interrupts


@contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Yield a binary file to fill; when the block ends normally it replaces *path*, flushed to disk.

    Ctrl-C and SIGTERM wait until the file is renamed (:func:`~splendor_mcts.stopping.deferred_interrupts`);
    an exception inside the block, or a second interrupt, removes the temporary file. So a resumed run
    never meets a half-written file: *path* is always the new content or the previous one.
    """
    target = Path(path)
    temporary = target.with_name(target.name + ".tmp")
    with deferred_interrupts():
        out = open(temporary, "wb")  # before the try: a temporary that cannot be opened is not ours to remove
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


__all__ = ["atomic_write", "copy_atomically"]
