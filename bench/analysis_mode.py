"""Analysis mode on a position, as ``splendor-mcts hint`` runs it: the share of the root's
visits each shown move got, and how often the best move changes between seeds.

    python bench/analysis_mode.py examples/splendor-2p-view.json --seeds 1 2 3
    python bench/analysis_mode.py examples/splendor-2p-view.json --seeds 1 2 3 --analysis-moves 0   # off

Each seed is one ``splendor-mcts hint POSITION --json --seed S`` at the hint's default
budget (or ``--hint-args``), so the command's own defaults are measured.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys


def hint(position: str, seed: int, extra: list[str]) -> dict:
    """One hint's JSON answer."""
    run = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "hint", position, "--json", "--seed", str(seed),
                          *extra], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("position")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--analysis-moves", type=int, help="passed to hint (0: analysis mode off)")
    ap.add_argument("--hint-args", default="", help="more hint options, e.g. '--threads 1 --iterations 100000'")
    args = ap.parse_args()
    extra = args.hint_args.split()
    if args.analysis_moves is not None:
        extra += ["--analysis-moves", str(args.analysis_moves)]
    best = []
    for seed in args.seeds:
        out = hint(args.position, seed, extra)
        root = out["rootInfo"]
        shares = [m["visits"] / root["visits"] for m in out["moveInfos"]]
        best.append(out["bestMove"])
        print(f"seed {seed}: {root['iterations']:,} iterations, best {out['bestMove']}; shown moves "
              + ", ".join(f"{m['move']} {m['visits']:,} ({100 * s:.1f}%, win {100 * m['winrate']:.1f} "
                          f"[{100 * m['lcb']:.1f}-{100 * m['ucb']:.1f}])" for m, s in zip(out["moveInfos"], shares))
              + f"; smallest share {100 * min(shares):.1f}%")
    changes = sum(1 for a, b in zip(best, best[1:]) if a != b)
    print(f"best move changes {changes} times over {len(best)} runs ({len(set(best))} distinct: {', '.join(sorted(set(best)))})")


if __name__ == "__main__":
    main()
