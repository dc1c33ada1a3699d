"""The checked-in type stubs of the C++ module (python/splendor_mcts/_core.pyi) match what
pybind11-stubgen makes from the installed build, and the wheel ships them as a typed package."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import splendor_mcts
from tool_modules import load_tool

REPO = Path(__file__).resolve().parents[1]


def _gen_stubs():
    return load_tool("gen_stubs")


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:  # pybind11 is a build requirement, not always installed
        return "(not installed)"


def test_the_checked_in_stub_is_the_built_modules():
    gen_stubs = _gen_stubs()
    generated = gen_stubs.generate()
    assert "def perft_divide(state: SplendorState" in generated and "class SearchParams" in generated
    assert gen_stubs.STUB.read_text(encoding="utf-8") == generated, (
        f"python/splendor_mcts/_core.pyi is stale: install the package, then run `{gen_stubs.COMMAND}` "
        f"(here pybind11 {_version('pybind11')}, numpy {_version('numpy')}: other major versions of these "
        "write some annotations differently)")


def test_the_installed_package_is_typed():
    installed = Path(splendor_mcts.__file__).parent
    assert (installed / "py.typed").is_file()
    assert (installed / "_core.pyi").read_text(encoding="utf-8") == (REPO / "python" / "splendor_mcts" / "_core.pyi").read_text(
        encoding="utf-8")
