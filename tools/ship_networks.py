"""Ships a pipeline run's accepted networks into the package, their provenance into bench/networks/.

    python tools/ship_networks.py RUN_DIR [--families splendor-2p duel] [--step RECIPE/FOLDER/FAMILY]

For each family of ``RUN_DIR`` (made by ``splendor-mcts pipeline --dir RUN_DIR``) with an
accepted network, ``python/splendor_mcts/networks/`` gets its weights as
``<family>-<hash>.smnet`` with a header naming no path, in place of the family's earlier file,
and its entry in ``index.json`` points at it (the entry's search settings kept; a new
family's is off); ``bench/networks/<hash>/`` gets the run's ``pipeline.json``, ``pipeline.log``
and gate reports (docs/training.md, "Shipping a network"; ``splendor_mcts.learning.shipping``).
The shards, manifests, training logs and gate databases stay behind. A run that began from
a network (``pipeline --start shipped``) names it by its hash, whose provenance must already
be in bench/networks/: each shipped network can be traced back to a run from nothing.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from splendor_mcts.learning.shipping import ship

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_NETWORKS = ROOT / "python" / "splendor_mcts" / "networks"
PROVENANCE = ROOT / "bench" / "networks"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="the pipeline's --dir")
    ap.add_argument("--families", nargs="+", help="default: every family in the run")
    ap.add_argument("--step", help="the recipe step that made the run (RECIPE/FOLDER/FAMILY), kept in the header")
    args = ap.parse_args()
    families = args.families or sorted(p.parent.name for p in args.run.glob(str(Path("*", "pipeline.json"))))
    if not families:
        ap.error(f"{args.run}: no family's pipeline.json in this folder")
    for family in families:
        if not (args.run / family / "pipeline.json").is_file():
            ap.error(f"{args.run / family}: no pipeline.json (not a pipeline run of this family)")
        try:
            written = ship(args.run, family, PACKAGE_NETWORKS, PROVENANCE, args.step)
        except (OSError, ValueError) as exc:
            print(f"ship_networks.py: {family}: {exc}", file=sys.stderr)
            return 1
        print(f"{family}: {written.relative_to(ROOT)}, provenance in bench/networks/{written.stem.rsplit('-', 1)[1]}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
