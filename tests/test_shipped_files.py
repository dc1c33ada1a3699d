"""What the package ships is what users run: networks/ holds each family's final weights and
the index, nothing else; no file the wheel takes names a folder of the machine that made it;
and where each network came from is kept outside the package, flat and by hash
(bench/networks/<hash>/), back to a run from nothing."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from splendor_mcts.learning.provenance import NETWORK_FILE, read_provenance
from splendor_mcts.search.network_index import INDEX_FILE, read_index

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "splendor_mcts"
NETWORKS = PACKAGE / "networks"
PROVENANCE = ROOT / "bench" / "networks"
RECIPE_RUN = ROOT / "bench" / "recipe-run" / "provenance"
# A folder of some machine: a Unix home, the root's, a work or temporary folder, a macOS user's, a Windows drive.
ABSOLUTE = re.compile(rb"(?<![\w.])/(?:work|root|home|tmp|Users|mnt|opt|srv|var|private|data)/|\b[A-Za-z]:\\\\")
BUILT = {".so", ".pyd", ".dll"}  # the compiled module is built, not committed: its paths are the build's


def shipped_files() -> list[Path]:
    """Every file of the package's folder as the wheel takes it (pyproject.toml: the whole
    folder), but the compiled module and Python's caches."""
    return [p for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in BUILT]


def absolute_paths(path: Path) -> list[bytes]:
    return ABSOLUTE.findall(path.read_bytes())


def test_the_networks_folder_holds_the_final_weights_and_their_index_only():
    index = read_index(NETWORKS)
    assert index, "the package ships no network"
    expected = {INDEX_FILE, *(entry.file for entry in index.values())}
    found = {str(p.relative_to(NETWORKS)) for p in NETWORKS.rglob("*")}
    assert found == expected, f"not a final network or the index: {sorted(found - expected)}"
    for family, entry in index.items():
        assert hashlib.sha256((NETWORKS / entry.file).read_bytes()).hexdigest() == entry.sha256, family


def test_no_shipped_file_names_a_folder_of_a_machine():
    files = shipped_files()
    assert any(p.suffix == ".smnet" for p in files) and any(p.suffix == ".py" for p in files)
    found = {str(p.relative_to(ROOT)): absolute_paths(p) for p in files}
    assert {name: paths for name, paths in found.items() if paths} == {}


def test_the_check_finds_a_path_in_a_header():
    """The pattern sees the paths a header used to carry, and not the text that is no path."""
    header = b'{"training": {"data": [{"file": "/work/strength/s15/gen-001/selfplay-2p/shard-00000.npz"}]}}'
    for text in (header, b"/home/me/x", b"/tmp/pytest-1/a", b"/root/.pyenv/x", b'"C:\\\\Users\\\\me"', b"/Users/me/x"):
        assert ABSOLUTE.search(text), text
    for text in (b"+/- 48.8", b"1/3 of the games", b"gen-001/" + b"gate.txt", b"docs/training.md", b"w/l"):
        assert not ABSOLUTE.search(text), text


@pytest.mark.parametrize("store", [PROVENANCE, RECIPE_RUN], ids=["bench-networks", "recipe-run"])
def test_provenance_is_flat_small_path_free_and_chained_by_hash(store):
    """Each folder is a network's short hash and holds its network.json, the run's
    pipeline.json and pipeline.log and each generation's gate.txt: no nested start/, no
    training rows, manifests or weights; its parent, by hash, is beside it."""
    folders = sorted(p for p in store.iterdir() if p.is_dir())
    assert folders and all(re.fullmatch(r"[0-9a-f]{8}", p.name) for p in folders)
    for where in folders:
        files = sorted(str(p.relative_to(where)) for p in where.rglob("*") if p.is_file())
        gates = [f for f in files if re.fullmatch(r"gen-\d{3}/gate\.txt", f)]
        assert files == sorted([NETWORK_FILE, "pipeline.json", "pipeline.log", *gates]), where.name
        record = read_provenance(where)
        assert record["sha256"][:8] == where.name
        parent = record["training"]["parent"]
        assert parent is None or (store / parent).is_dir(), f"{where.name}: its parent {parent} is not kept"
        assert json.loads((where / "pipeline.json").read_text())["current"].startswith("gen-")
        for path in where.rglob("*"):
            assert not path.is_file() or not absolute_paths(path), path
    assert sum(p.stat().st_size for p in store.rglob("*") if p.is_file()) < 1_000_000


def test_every_shipped_network_has_its_provenance():
    for family, entry in read_index(NETWORKS).items():
        record = read_provenance(PROVENANCE / entry.sha256[:8])
        assert record["family"] == family and record["sha256"] == entry.sha256
        header = json.loads((NETWORKS / entry.file).read_bytes()[12:12 + int.from_bytes(
            (NETWORKS / entry.file).read_bytes()[8:12], "little")])
        assert header["training"] == record["training"]  # the header says what its provenance says
