"""learning.shipping (tools/ship_networks.py, pipeline --recipe): a pipeline run's accepted
network into a networks folder (the final weights, a path-free header, the index entry) and
its provenance, flat and by hash, into a provenance folder."""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_learning_weights import random_network

from splendor_mcts.learning.provenance import read_provenance
from splendor_mcts.learning.shipping import ship, shipped_from
from splendor_mcts.learning.weights import read_network, write_network
from splendor_mcts.search.network_index import read_index, write_index


def make_run(run: Path, current: str | None, seed: int = 1, start: Path | None = None) -> Path:
    """A run of Duel as the pipeline leaves it, its network trained by ``seed``, its files
    naming the run's folder by absolute paths as the trainer and the pipeline write them."""
    family = run / "duel"
    (family / "gen-001" / "selfplay-2p").mkdir(parents=True)
    state = {"settings": {"family": "duel", "generations": 1}, "current": current, "generations": [
        {"generation": 1, "done": ["selfplay", "train", "gate"], "seconds": {"selfplay": 1, "train": 1, "gate": 1}}]}
    if start is not None:
        (family / "start.smnet").write_bytes(start.read_bytes())
    (family / "pipeline.json").write_text(json.dumps(state))
    (family / "pipeline.log").write_text(f"2026-12-02T10:00:00Z wrote {family}/gen-001/candidate.smnet: epoch 1\n")
    network = random_network("duel", (4,), seed)
    network.training = {"settings": {"family": "duel", "data": [str(family / "gen-001" / "selfplay-2p")],
                                     "out": str(family / "gen-001" / "candidate.smnet"), "seed": seed,
                                     "init": str(family / "start.smnet") if start else None},
                        "data": [{"file": str(family / "gen-001" / "selfplay-2p" / "shard-00000.npz"), "rows": 30,
                                  "search": f"mcts:iterations=4,network={family}/start.smnet", "seed": 5}],
                        "losses": [{"epoch": 1}], "version": "0.1.0"}
    write_network(family / "current.smnet", network)
    (family / "gen-001" / "gate.txt").write_text("Elo difference: 94.0 +/- 48.8")
    (family / "gen-001" / "candidate.train.jsonl").write_text("{}\n")
    (family / "gen-001" / "gate.sqlite").write_bytes(b"db")
    (family / "gen-001" / "selfplay-2p" / "manifest.json").write_text("{}")
    (family / "gen-001" / "selfplay-2p" / "shard-00000.npz").write_bytes(b"rows")
    return family / "current.smnet"


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def layers(path: Path) -> list[tuple[str, bytes, bytes]]:
    return [(x.name, x.weight.tobytes(), x.bias.tobytes()) for x in read_network(path).layers]


def test_ships_the_final_weights_with_a_path_free_header_and_the_provenance_by_hash(tmp_path):
    current = make_run(tmp_path / "run", "gen-001/candidate.smnet")
    networks, provenance = tmp_path / "networks", tmp_path / "provenance"
    written = ship(tmp_path / "run", "duel", networks, provenance, "test/first/duel")
    sha = hashlib.sha256(written.read_bytes()).hexdigest()
    assert files(networks) == ["duel-" + sha[:8] + ".smnet", "index.json"]
    entry = read_index(networks)["duel"]
    assert (entry.file, entry.sha256, entry.on) == (written.name, sha, False)  # a new family's entry is off
    assert layers(written) == layers(current)  # not a weight changed
    training = read_network(written).training
    assert training["parent"] is None and training["step"] == "test/first/duel" and training["generation"] == 1
    assert training["settings"] == {"family": "duel", "seed": 1} and training["losses"] == [{"epoch": 1}]
    assert training["data"]["shards"] == 1 and training["data"]["rows"] == 30 and training["data"]["generations"] == [1]
    # The provenance: flat, by hash; no rows, manifests, training logs or databases.
    assert files(provenance) == [f"{sha[:8]}/{name}" for name in
                                 (str(Path("gen-001", "gate.txt")), "network.json", "pipeline.json", "pipeline.log")]
    assert read_provenance(provenance / sha[:8]) == {"family": "duel", "sha256": sha, "training": training}
    assert (provenance / sha[:8] / "pipeline.log").read_text() == \
        "2026-12-02T10:00:00Z wrote gen-001/candidate.smnet: epoch 1\n"
    assert (provenance / sha[:8] / "gen-001" / "gate.txt").read_text() == "Elo difference: 94.0 +/- 48.8"
    for path in [*networks.iterdir(), *(provenance / sha[:8]).rglob("*")]:
        assert path.is_dir() or str(tmp_path).encode() not in path.read_bytes(), path
    assert shipped_from(tmp_path / "run", "duel", networks, provenance, "test/first/duel")
    assert not shipped_from(tmp_path / "run", "duel", networks, provenance, "test/other/duel")


def test_the_data_hash_is_the_same_wherever_the_run_was(tmp_path):
    """Two runs alike but for their folders ship the same bytes: the header names no folder."""
    make_run(tmp_path / "here", "gen-001/candidate.smnet")
    make_run(tmp_path / "elsewhere" / "deeper", "gen-001/candidate.smnet")
    one = ship(tmp_path / "here", "duel", tmp_path / "a", tmp_path / "pa")
    other = ship(tmp_path / "elsewhere" / "deeper", "duel", tmp_path / "b", tmp_path / "pb")
    assert one.read_bytes() == other.read_bytes()


def test_a_run_without_an_accepted_network_is_refused(tmp_path):
    make_run(tmp_path / "run", None)
    with pytest.raises(ValueError, match="no network was accepted in this run"):
        ship(tmp_path / "run", "duel", tmp_path / "networks", tmp_path / "provenance")
    assert not (tmp_path / "networks").exists() and not (tmp_path / "provenance").exists()


def test_a_run_from_the_shipped_network_names_it_by_hash_and_keeps_its_settings(tmp_path):
    networks, provenance = tmp_path / "networks", tmp_path / "provenance"
    make_run(tmp_path / "first", "gen-001/candidate.smnet")
    first = ship(tmp_path / "first", "duel", networks, provenance)
    entries = read_index(networks)
    write_index(networks, {"duel": replace(entries["duel"], on=True, value_mix=0.25, note="measured")})
    make_run(tmp_path / "second", "gen-001/candidate.smnet", seed=2, start=first)
    second = ship(tmp_path / "second", "duel", networks, provenance)
    assert files(networks) == sorted(["index.json", second.name])  # the earlier network is gone from the folder
    entry = read_index(networks)["duel"]
    assert (entry.file, entry.on, entry.value_mix, entry.note) == (second.name, True, 0.25, "")
    parent = read_provenance(provenance / second.stem[-8:])["training"]["parent"]
    assert parent == first.stem[-8:] and (provenance / parent / "pipeline.json").is_file()  # flat: no start/
    assert read_network(second).training["init"] == "start"


def test_a_run_from_a_network_without_provenance_is_refused_and_leaves_the_shipped_one(tmp_path):
    networks, provenance = tmp_path / "networks", tmp_path / "provenance"
    make_run(tmp_path / "first", "gen-001/candidate.smnet")
    first = ship(tmp_path / "first", "duel", networks, provenance)
    other = write_network(tmp_path / "other.smnet", random_network("duel", (4,), 7))
    make_run(tmp_path / "second", "gen-001/candidate.smnet", seed=2, start=other)
    before = {p: p.read_bytes() for p in [*networks.rglob("*"), *provenance.rglob("*")] if p.is_file()}
    with pytest.raises(ValueError, match=r"the run began from the network [0-9a-f]{8}, whose provenance is not in"):
        ship(tmp_path / "second", "duel", networks, provenance)
    assert {p: p.read_bytes() for p in [*networks.rglob("*"), *provenance.rglob("*")] if p.is_file()} == before
    assert read_index(networks)["duel"].file == first.name


def test_shipping_again_after_an_interruption_leaves_one_network_and_no_staged_folder(tmp_path):
    networks, provenance = tmp_path / "networks", tmp_path / "provenance"
    make_run(tmp_path / "run", "gen-001/candidate.smnet")
    written = ship(tmp_path / "run", "duel", networks, provenance)
    (networks / "duel-0123abcd.smnet").write_bytes(b"left by an interrupted ship")
    (provenance / f".{written.stem[-8:]}.new").mkdir()
    assert ship(tmp_path / "run", "duel", networks, provenance) == written
    assert files(networks) == sorted(["index.json", written.name])
    assert sorted(p.name for p in provenance.iterdir()) == [written.stem[-8:]]
