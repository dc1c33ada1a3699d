"""cmake/StableHeaderCopy.cmake: the build-requirement headers a pip build compiles against
keep their path, bytes and time stamps from one pip build environment to the next, so a
second `pip install` finds the first one's objects up to date (docs/install-time.md).

The helper runs in CMake's script mode (about a second); configuring the whole project
twice to compare its compile commands takes about a minute here, so that check is the
manual one written in docs/install-time.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HELPER = REPO / "cmake" / "StableHeaderCopy.cmake"
OLD = 1_000_000_000  # a time stamp no copy made by the run itself can have

pytestmark = pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake on PATH")


def _package(root: Path, files: dict[str, str]) -> Path:
    """A site-packages-like folder holding `files` (relative path -> text)."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _copy(include_dir: Path, build: Path) -> Path:
    """Run stable_header_copy on include_dir's `pkg` from the build folder; the copy's root."""
    script = build.parent / "run.cmake"
    script.write_text(
        "cmake_minimum_required(VERSION 3.18)\n"
        f'include("{HELPER.as_posix()}")\n'
        'stable_header_copy(copy "${FROM}" pkg pkg)\n'
        'file(WRITE "${RESULT}" "${copy}")\n'
    )
    result = build.parent / "result.txt"
    build.mkdir(exist_ok=True)
    subprocess.run(
        ["cmake", f"-DFROM={include_dir}", f"-DRESULT={result}", "-P", str(script)],
        cwd=build, check=True, capture_output=True, text=True,
    )
    return Path(result.read_text())


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in root.rglob("*") if p.is_file()}


def test_a_new_environment_with_the_same_headers_rewrites_nothing(tmp_path: Path) -> None:
    headers = {"pkg/a.hh": "// a\n", "pkg/detail/b.hh": "// b\n"}
    python = {os.path.join("pkg", "__init__.py"): "", "pkg/__pycache__/x.pyc": "x"}
    env1 = _package(tmp_path / "env1", {**headers, **python})
    build = tmp_path / "build"
    copy = _copy(env1, build)
    assert copy.is_relative_to(build)
    assert _files(copy) == headers  # the Python files of the package are not headers
    for path in copy.rglob("*.hh"):
        os.utime(path, (OLD, OLD))
    # pip's next build environment: the same headers at another path, the first one gone.
    env2 = _package(tmp_path / "env2", headers)
    shutil.rmtree(env1)
    assert _copy(env2, build) == copy
    assert _files(copy) == headers
    assert {p.stat().st_mtime for p in copy.rglob("*.hh")} == {OLD}


def test_a_changed_header_is_rewritten_and_a_dropped_one_removed(tmp_path: Path) -> None:
    build = tmp_path / "build"
    copy = _copy(_package(tmp_path / "env1", {"pkg/a.hh": "// a\n", "pkg/gone.hh": "// gone\n"}), build)
    for path in copy.rglob("*.hh"):
        os.utime(path, (OLD, OLD))
    _copy(_package(tmp_path / "env2", {"pkg/a.hh": "// a, version 2\n"}), build)
    assert _files(copy) == {"pkg/a.hh": "// a, version 2\n"}
    assert (copy / "pkg" / "a.hh").stat().st_mtime != OLD
