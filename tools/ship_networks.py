"""Copies a pipeline run's accepted networks and their provenance into the package.

    python tools/ship_networks.py RUN_DIR [--families splendor-2p duel]

For each family of ``RUN_DIR`` (made by ``splendor-mcts pipeline --dir RUN_DIR``) with an
accepted network, ``python/splendor_mcts/networks/<family>/`` gets, in place of what was
there: ``<family>.smnet`` (the run's ``current.smnet``), ``pipeline.json``, ``pipeline.log``
and per generation its gate report, its training log and its self-play manifests
(docs/training.md, "Shipping a network"). The shards and the gate databases stay behind.
A run that began from the shipped network (``pipeline --start shipped``) keeps that
network's folder, its weights and provenance, as ``<family>/start/``: each shipped network
can be traced back to a run from nothing.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

PACKAGE_NETWORKS = Path(__file__).resolve().parents[1] / "python" / "splendor_mcts" / "networks"
# Glob patterns under a family's run folder, as path parts.
PROVENANCE = (("pipeline.json",), ("pipeline.log",), ("gen-*", "gate.txt"), ("gen-*", "candidate.train.jsonl"),
              ("gen-*", "selfplay-*", "manifest.json"))
START_FILE = "start.smnet"  # the run's copy of the network it began from (learning.pipeline)
EARLIER = "start"           # the folder, in the family's, of the network a run began from


def ship(run: Path, family: str, into: Path = PACKAGE_NETWORKS) -> list[Path]:
    """Copy one family's accepted network and provenance; the files written."""
    source = run / family
    state = json.loads((source / "pipeline.json").read_text(encoding="utf-8"))
    if state.get("current") in (None, START_FILE):
        raise ValueError(f"{source}: no network was accepted in this run")
    target = into / family
    began_from = source / START_FILE
    if began_from.is_file():
        shipped = target / f"{family}.smnet"
        if not (shipped.is_file() and shipped.read_bytes() == began_from.read_bytes()):
            raise ValueError(f"{source}: the run began from a network other than {shipped}; ship the run that "
                             "made that network first, so that its provenance is kept")
        earlier = into / f".{family}.{EARLIER}"
        shutil.rmtree(earlier, ignore_errors=True)
        target.rename(earlier)
        target.mkdir(parents=True)
        earlier.rename(target / EARLIER)
    else:
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    written = [target / f"{family}.smnet"]
    shutil.copyfile(source / "current.smnet", written[0])
    for parts in PROVENANCE:
        for path in sorted(source.glob(str(Path(*parts)))):
            copy = target / path.relative_to(source)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
            written.append(copy)
    return written


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="the pipeline's --dir")
    ap.add_argument("--families", nargs="+", help="default: every family in the run")
    args = ap.parse_args()
    families = args.families or sorted(p.parent.name for p in args.run.glob(str(Path("*", "pipeline.json"))))
    if not families:
        ap.error(f"{args.run}: no family's pipeline.json in this folder")
    for family in families:
        if not (args.run / family / "pipeline.json").is_file():
            ap.error(f"{args.run / family}: no pipeline.json (not a pipeline run of this family)")
        try:
            written = ship(args.run, family)
        except (OSError, ValueError) as exc:
            print(f"ship_networks.py: {family}: {exc}", file=sys.stderr)
            return 1
        print(f"{family}: {len(written)} files into {written[0].parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
