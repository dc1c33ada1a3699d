"""Set up cestpasphoto/alpha-zero-general's Splendor player for our tournaments (docs/peer-alphazero.md).

    python3 tools/peer/setup_peer.py PEER_CHECKOUT [--venv DIR] [--python PYTHON]

Given a checkout of the peer that you made (nothing is fetched here but the PyPI packages
below), this creates the peer's own virtual environment (default ``PEER_CHECKOUT/.venv``),
installs the pinned packages into it, and checks that the 2, 3 and 4-player pretrained
networks load and search (``peer_side.py --check``, which also prints the settings the
peer's ``pit`` script restores from each). Nothing of the peer is copied into this repository.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peer_side import missing_files  # noqa: E402 - standard library only at import

# What the peer's Splendor player imports, at the versions checked here (its commit 5d6d1f1).
# torch is pinned exactly: 2.13.0's CPU build is on the project's machines' local disk; an open
# range would download a CUDA build of several GB. torchvision is left out on purpose: its
# wheel does not load with this torch, and peer_side.py supplies the one helper it needs.
PINS = ("torch==2.13.0", "onnxruntime==1.32.0", "onnx==1.23.2", "onnxscript==0.7.2", "numba==0.68.1",
        "numpy==2.4.6", "tqdm==4.70.1", "colorama==0.4.6", "coloredlogs==15.0.1")


def run(command: list[str]) -> None:
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a checkout of cestpasphoto/alpha-zero-general (commit 5d6d1f1 checked)")
    parser.add_argument("--venv", help="where to make the peer's virtual environment (default: CHECKOUT/.venv)")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python that makes the venv (3.11 for the pinned torch; default: this one)")
    args = parser.parse_args(argv)
    checkout = os.path.abspath(args.checkout)
    if not os.path.isdir(checkout):
        print(f"setup_peer: {checkout} is not a directory", file=sys.stderr)
        return 2
    missing = missing_files(checkout)
    if missing:
        print(f"setup_peer: {checkout} is not a checkout of alpha-zero-general with its Splendor player: "
              f"missing {', '.join(missing)}", file=sys.stderr)
        return 2
    venv = os.path.abspath(args.venv or os.path.join(checkout, ".venv"))
    python = os.path.join(venv, "bin", "python")
    try:
        if not os.access(python, os.X_OK):
            run([args.python, "-m", "venv", venv])
        run([python, "-m", "pip", "install", "--quiet", *PINS])
        run([python, str(HERE / "peer_side.py"), "--checkout", checkout, "--check"])
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"setup_peer: {exc}", file=sys.stderr)
        return 1
    print(f"The peer is ready: seat it with engine:cmd=\"python3 {HERE / 'peer_engine.py'} --checkout {checkout}"
          + ("" if args.venv is None else f" --venv {venv}") + "\" (docs/peer-alphazero.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
