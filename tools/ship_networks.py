"""Copies a pipeline run's accepted networks and their provenance into the package.

    python tools/ship_networks.py RUN_DIR [--families splendor-2p duel]

For each family of ``RUN_DIR`` (made by ``splendor-mcts pipeline --dir RUN_DIR``) with an
accepted network, ``python/splendor_mcts/networks/<family>/`` gets, in place of what was
there: ``<family>.smnet`` (the run's ``current.smnet``), ``pipeline.json``, ``pipeline.log``
and per generation its gate report, its training log and its self-play manifests
(docs/training.md, "Shipping a network"; ``splendor_mcts.learning.shipping``). The shards and
the gate databases stay behind. A run that began from the shipped network (``pipeline --start
shipped``) keeps that network's folder, its weights and provenance, as ``<family>/start/``:
each shipped network can be traced back to a run from nothing.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from splendor_mcts.learning.shipping import ship

PACKAGE_NETWORKS = Path(__file__).resolve().parents[1] / "python" / "splendor_mcts" / "networks"


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
            written = ship(args.run, family, PACKAGE_NETWORKS)
        except (OSError, ValueError) as exc:
            print(f"ship_networks.py: {family}: {exc}", file=sys.stderr)
            return 1
        print(f"{family}: {len(written)} files into {written[0].parent}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
