"""learning.shipping (tools/ship_networks.py, pipeline --recipe): a pipeline run's accepted network and
provenance into a networks folder."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from splendor_mcts.learning.shipping import ship


def make_run(run: Path, current: str | None) -> None:
    family = run / "duel"
    (family / "gen-001" / "selfplay-2p").mkdir(parents=True)
    (family / "pipeline.json").write_text(json.dumps({"current": current, "generations": []}))
    (family / "pipeline.log").write_text("2026-12-02T10:00:00Z duel: generation 1: selfplay\n")
    (family / "current.smnet").write_bytes(b"weights")
    (family / "gen-001" / "gate.txt").write_text("gate report")
    (family / "gen-001" / "candidate.train.jsonl").write_text("{}\n")
    (family / "gen-001" / "gate.sqlite").write_bytes(b"db")
    (family / "gen-001" / "selfplay-2p" / "manifest.json").write_text("{}")
    (family / "gen-001" / "selfplay-2p" / "shard-00000.npz").write_bytes(b"rows")


def test_ships_the_network_and_its_provenance_not_the_data(tmp_path):
    make_run(tmp_path / "run", "gen-001/candidate.smnet")
    into = tmp_path / "networks"
    (into / "duel").mkdir(parents=True)
    (into / "duel" / "stale.txt").write_text("from an older run")
    written = ship(tmp_path / "run", "duel", into)
    shipped = sorted(str(p.relative_to(into / "duel")) for p in (into / "duel").rglob("*") if p.is_file())
    # A run's folders joined here, not written as paths (tests/test_cited_paths.py reads paths as citations).
    expected = [("duel.smnet",), ("gen-001", "candidate.train.jsonl"), ("gen-001", "gate.txt"),
                ("gen-001", "selfplay-2p", "manifest.json"), ("pipeline.json",), ("pipeline.log",)]
    assert shipped == sorted(str(p.relative_to(into / "duel")) for p in written) == [str(Path(*e)) for e in expected]
    assert (into / "duel" / "duel.smnet").read_bytes() == b"weights"


def test_a_run_without_an_accepted_network_is_refused(tmp_path):
    make_run(tmp_path / "run", None)
    with pytest.raises(ValueError, match="no network was accepted in this run"):
        ship(tmp_path / "run", "duel", tmp_path / "networks")
    assert not (tmp_path / "networks").exists()


def run_from_a_start(tmp_path: Path, start: bytes):
    """A networks folder with the first run's network (b"weights") shipped, and a
    second run beginning from `start`."""
    into = tmp_path / "networks"
    make_run(tmp_path / "first", "gen-001/candidate.smnet")
    ship(tmp_path / "first", "duel", into)
    make_run(tmp_path / "second", "gen-001/candidate.smnet")
    (tmp_path / "second" / "duel" / "start.smnet").write_bytes(start)
    return into


def test_a_run_from_the_shipped_network_keeps_that_networks_provenance(tmp_path):
    into = run_from_a_start(tmp_path, b"weights")  # began from the shipped network
    (tmp_path / "second" / "duel" / "current.smnet").write_bytes(b"better weights")
    ship(tmp_path / "second", "duel", into)
    assert (into / "duel" / "duel.smnet").read_bytes() == b"better weights"
    assert (into / "duel" / "start" / "duel.smnet").read_bytes() == b"weights"
    assert (into / "duel" / "start" / "pipeline.log").is_file()
    assert sorted(p.name for p in into.iterdir()) == ["duel"]


def test_a_run_from_another_network_is_refused_and_leaves_the_shipped_one(tmp_path):
    into = run_from_a_start(tmp_path, b"someone else's weights")
    with pytest.raises(ValueError, match="the run began from a network other than"):
        ship(tmp_path / "second", "duel", into)
    assert (into / "duel" / "duel.smnet").read_bytes() == b"weights"
    (tmp_path / "second" / "duel" / "pipeline.json").write_text(json.dumps({"current": "start.smnet"}))
    with pytest.raises(ValueError, match="no network was accepted in this run"):
        ship(tmp_path / "second", "duel", into)


def test_shipping_again_after_an_interruption_between_the_renames(tmp_path):
    into = run_from_a_start(tmp_path, b"weights")
    (tmp_path / "second" / "duel" / "current.smnet").write_bytes(b"better weights")
    (into / "duel").rename(into / ".duel.old")  # the old folder moved aside, the new one not yet in place
    (into / ".duel.new").mkdir()
    ship(tmp_path / "second", "duel", into)
    assert (into / "duel" / "duel.smnet").read_bytes() == b"better weights"
    assert (into / "duel" / "start" / "duel.smnet").read_bytes() == b"weights"
    assert sorted(p.name for p in into.iterdir()) == ["duel"]
