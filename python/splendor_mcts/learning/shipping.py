"""A pipeline run's accepted network and its provenance copied into a networks folder.

A networks folder is laid out as the package's (``python/splendor_mcts/networks/README.md``):
``<family>/<family>.smnet`` with the run's ``pipeline.json``, ``pipeline.log`` and per
generation its gate report, training log and self-play manifests beside it; the shards and
the gate databases stay behind. A run that began from the network already in the folder
(``pipeline --start shipped``) keeps that network's folder as ``<family>/start/``, so every
network traces back to a run from nothing. ``tools/ship_networks.py`` ships into the
package; ``splendor-mcts pipeline --recipe`` into its own folder.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..search.networks import SUFFIX
from .pipeline import LOG_FILE, START_FILE, STATE_FILE

# Glob patterns under a family's run folder, as path parts.
PROVENANCE = ((STATE_FILE,), (LOG_FILE,), ("gen-*", "gate.txt"), ("gen-*", "candidate.train.jsonl"),
              ("gen-*", "selfplay-*", "manifest.json"))
EARLIER = "start"  # the folder, in the family's, of the network a run began from


def ship(run: Path, family: str, into: Path) -> list[Path]:
    """Copy ``run``'s accepted network of ``family`` and its provenance into ``into/<family>/``,
    in place of what was there; the files written. ``ValueError`` when the run accepted no
    network, or began from a network other than the one in ``into`` (ship the run that made
    that network first). The new folder is built beside the old and swapped in, so an
    interruption leaves one of the two whole."""
    source = run / family
    state = json.loads((source / STATE_FILE).read_text(encoding="utf-8"))
    if state.get("current") in (None, START_FILE):
        raise ValueError(f"{source}: no network was accepted in this run")
    target, staged, old = into / family, into / f".{family}.new", into / f".{family}.old"
    if old.is_dir() and not target.exists():  # interrupted between the two renames below
        old.rename(target)
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    began_from = source / START_FILE
    if began_from.is_file():
        shipped = target / f"{family}{SUFFIX}"
        if not (shipped.is_file() and shipped.read_bytes() == began_from.read_bytes()):
            shutil.rmtree(staged)
            raise ValueError(f"{source}: the run began from a network other than {shipped}; ship the run that "
                             "made that network first, so that its provenance is kept")
        shutil.copytree(target, staged / EARLIER)
    written = [target / f"{family}{SUFFIX}"]
    shutil.copyfile(source / "current.smnet", staged / written[0].name)
    for parts in PROVENANCE:
        for path in sorted(source.glob(str(Path(*parts)))):
            copy = staged / path.relative_to(source)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
            written.append(target / path.relative_to(source))
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    staged.rename(target)
    shutil.rmtree(old, ignore_errors=True)
    return written


def shipped_from(run: Path, family: str, into: Path) -> bool:
    """Whether ``into`` holds ``run``'s network of ``family`` as :func:`ship` left it."""
    source, target = run / family, into / family
    return all((target / name).is_file() and (source / kept).is_file()
               and (target / name).read_bytes() == (source / kept).read_bytes()
               for name, kept in ((f"{family}{SUFFIX}", "current.smnet"), (STATE_FILE, STATE_FILE)))
