"""A resumed pipeline verifies what it reuses (issue 49): the self-play runs training reads (a
damaged shard of an earlier generation is played again with that generation's own search), the
training checkpoint, the candidate the gate plays (another file is trained again, the gate's
games set aside) and the accepted network (put back from its copy, or the run refused)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import pytest
from test_learning_pipeline import fake_selfplay, settings  # noqa: F401 (a fixture)
from test_learning_weights import random_network

from splendor_mcts.learning import pipeline as pipe
from splendor_mcts.learning.shards import read_run
from splendor_mcts.learning.weights import write_network

pytest.importorskip("torch")
HOUR = 3600


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _state(run: Path) -> dict:
    return json.loads((run / "pipeline.json").read_text())


def _gate_interrupted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pipe.Pipeline._gate

    def gate(self: pipe.Pipeline, generation: int) -> None:
        monkeypatch.setattr(pipe.Pipeline, "_gate", real)
        (self.generation_dir(generation) / "gate.sqlite").write_bytes(b"games of this candidate")
        raise KeyboardInterrupt

    monkeypatch.setattr(pipe.Pipeline, "_gate", gate)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


def _another_network(path: Path) -> None:
    write_network(path, random_network("duel", (4,), seed=7))


@pytest.mark.parametrize("damage, problem", [
    (_truncate, "is not the file written: its SHA-256 is [0-9a-f]{64}, recorded [0-9a-f]{64}"),
    (_another_network, "is not the file written: its SHA-256 is [0-9a-f]{64}, recorded [0-9a-f]{64}"),
    (Path.unlink, "is missing"),
])
def test_a_candidate_that_is_not_the_one_trained_is_trained_again_before_its_gate(tmp_path, fake_selfplay,  # noqa: F811
                                                                                   monkeypatch, damage, problem):
    _gate_interrupted_once(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        pipe.Pipeline(settings(generations=1), tmp_path, say=lambda _: None).run(time.monotonic() + HOUR)
    candidate = tmp_path / "gen-001" / "candidate.smnet"
    state = _state(tmp_path)
    assert state["generations"][0]["done"] == ["selfplay", "train"]
    assert state["digests"]["gen-001/candidate.smnet"] == _sha256(candidate)  # recorded when written
    damage(candidate)
    lines: list[str] = []
    assert pipe.Pipeline(settings(generations=1), tmp_path, say=lines.append).run(time.monotonic() + HOUR)
    moved = "moved candidate.smnet, gate.sqlite to rejected/" if damage is not Path.unlink \
        else "moved gate.sqlite to rejected/"
    assert re.fullmatch(f"{re.escape(str(candidate))}: {problem}; {moved}; generation 1 is trained again and "
                        "its gate begins anew", lines[0]), lines[0]
    assert lines[1] == "duel: generation 1: train" and "duel: generation 1: gate" in lines
    state = _state(tmp_path)
    assert state["generations"][0]["done"] == ["selfplay", "train", "gate"]
    assert state["digests"]["gen-001/candidate.smnet"] == _sha256(candidate)
    assert (tmp_path / "gen-001" / "rejected" / "gate.sqlite").read_bytes() == b"games of this candidate"
    assert len(fake_selfplay.calls) == 1  # the self-play was whole: not played again


def test_a_checkpoint_that_is_not_the_one_written_is_set_aside_and_training_begins_again(tmp_path,
                                                                                       fake_selfplay):  # noqa: F811
    def stop_after_the_first_epoch(line: str) -> None:
        if line.startswith("epoch 1/2"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pipe.Pipeline(settings(generations=1, epochs=2), tmp_path, say=stop_after_the_first_epoch).run(
            time.monotonic() + HOUR)
    checkpoint = tmp_path / "gen-001" / "candidate.smnet.ckpt"
    assert (tmp_path / "gen-001" / "candidate.smnet.ckpt.sha256").read_text() == _sha256(checkpoint)
    with open(checkpoint, "ab") as data:
        data.write(b"\0")
    lines: list[str] = []
    assert pipe.Pipeline(settings(generations=1, epochs=2), tmp_path, say=lines.append).run(time.monotonic() + HOUR)
    assert f"{checkpoint}: is not the checkpoint written: its SHA-256 is" in lines[0]
    assert lines[0].endswith("moved to rejected/: generation 1's training begins again")
    assert not any(line.startswith("resuming from") for line in lines)  # trained from the start
    assert (tmp_path / "gen-001" / "rejected" / "candidate.smnet.ckpt").exists()
    assert not checkpoint.exists() and _state(tmp_path)["generations"][0]["done"] == ["selfplay", "train", "gate"]


def test_training_refuses_a_checkpoint_that_is_not_the_one_written(tmp_path):
    from learning_shards import write_shard

    from splendor_mcts.learning.train import TrainSettings, train

    write_shard(tmp_path / "shard-00000.npz", "duel", games=4, moves=6)
    options = TrainSettings(family="duel", data=(str(tmp_path),), out=str(tmp_path / "net.smnet"), epochs=2,
                            hidden=(4,))

    def stop(line: str) -> None:
        if line.startswith("epoch 1/2"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(options, say=stop)
    with open(tmp_path / "net.smnet.ckpt", "ab") as data:
        data.write(b"\0")
    with pytest.raises(ValueError, match="net.smnet.ckpt: is not the checkpoint written: .*; delete it to start over"):
        train(options, say=lambda _: None)


def test_a_damaged_shard_of_an_earlier_generation_is_played_again_before_training(tmp_path, monkeypatch):
    monkeypatch.setattr(pipe, "network_agent", lambda network, iterations, family_name=None: f"mcts:iterations={iterations}")
    real_train, trained = pipe.train, []

    def train_twice_then_stop(*args, **kwargs):  # generation 2's training is interrupted
        if len(trained) == 1:
            trained.append("interrupted")
            raise KeyboardInterrupt
        trained.append("trained")
        return real_train(*args, **kwargs)

    monkeypatch.setattr(pipe, "train", train_twice_then_stop)
    options = settings(generations=2, selfplay_games=2, iterations=8)
    with pytest.raises(KeyboardInterrupt):
        pipe.Pipeline(options, tmp_path, say=lambda _: None).run(time.monotonic() + HOUR)
    first = tmp_path / "gen-001" / "selfplay-2p"
    whole = tmp_path / "whole"
    shutil.copytree(first, whole)
    shard = first / "shard-00000.npz"
    shard.write_bytes(b"")
    lines: list[str] = []
    assert pipe.Pipeline(options, tmp_path, say=lines.append).run(time.monotonic() + HOUR)
    assert f"{shard}: is damaged: not a readable shard" in lines[0]
    assert lines[0].endswith("its 2 games will be played again")
    assert lines[1] == "duel: generation 2: train"
    assert (first / "shard-00000.npz").read_bytes() == (whole / "shard-00000.npz").read_bytes()
    assert read_run(first).rows == read_run(whole).rows


def test_the_accepted_network_is_put_back_from_its_copy_or_the_run_refused(tmp_path, fake_selfplay):  # noqa: F811
    start = write_network(tmp_path / "start.smnet", random_network("duel", (4,)))
    run = tmp_path / "run"
    fake_selfplay.stop_at = 1  # the stage ends during generation 1's self-play
    options = settings(generations=1, start=str(start))
    assert not pipe.Pipeline(options, run, say=lambda _: None).run(time.monotonic() + HOUR)
    accepted = run / _state(run)["current"]
    assert _state(run)["digests"][_state(run)["current"]] == _sha256(start)
    _another_network(accepted)
    lines: list[str] = []
    fake_selfplay.stop_at = 2
    assert not pipe.Pipeline(options, run, say=lines.append).run(time.monotonic() + HOUR)
    assert lines[0].startswith(f"{accepted}: is not the file written") and "put back from current.smnet" in lines[0]
    assert accepted.read_bytes() == start.read_bytes()
    _another_network(accepted)
    _another_network(run / "current.smnet")
    with pytest.raises(ValueError, match=f"{accepted.name}: is not the file written: .*; it is the run's accepted "
                                         f"network.*put back the file accepted \\(SHA-256 {_sha256(start)}\\)"):
        pipe.Pipeline(options, run, say=lambda _: None).run(time.monotonic() + HOUR)
