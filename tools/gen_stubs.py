"""Regenerate python/splendor_mcts/_core.pyi (type stubs of the C++ module) from the
installed build with pybind11-stubgen, or check that the checked-in stub is current.

    python -m pip install --no-build-isolation ".[test]"   # the module the stub describes
    python tools/gen_stubs.py           # rewrite the stub
    python tools/gen_stubs.py --check   # exit 1 if it differs (tests/test_core_stubs.py does this)

Signatures and docstrings come from the bindings (py::arg names, docstrings in cpp/bindings/):
a binding change regenerates the stub with this one command.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STUB = REPO / "python" / "splendor_mcts" / "_core.pyi"
MODULE = "splendor_mcts._core"
COMMAND = "python tools/gen_stubs.py"
HEADER = f"# Generated from the built {MODULE} by `{COMMAND}` (pybind11-stubgen); do not edit.\n"


def generate() -> str:
    """The stub text pybind11-stubgen writes for the installed module."""
    with tempfile.TemporaryDirectory() as out:
        # Run from the output folder so `splendor_mcts` is the installed package, not python/.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        done = subprocess.run([sys.executable, "-m", "pybind11_stubgen", MODULE, "--exit-code", "-o", out],
                              cwd=out, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"pybind11-stubgen failed on {MODULE}:\n{done.stdout}{done.stderr}")
        return HEADER + (Path(out) / "splendor_mcts" / "_core.pyi").read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the stub is stale")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        if STUB.read_text(encoding="utf-8") != text:
            print(f"{STUB.relative_to(REPO)} differs from the built module: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    STUB.write_text(text, encoding="utf-8")
    print(f"wrote {STUB.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
