"""Training a network from shards: reproducible weights for a fixed seed, resuming after an
interruption gives the same weights, the written network matches torch, clear errors.
The tests that train need torch (the [train] extra) and skip without it."""
from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from learning_shards import shard_arrays, write_shard

from splendor_mcts import cli, exit_codes
from splendor_mcts.learning.train import TrainSettings, require_torch, train
from splendor_mcts.learning.weights import read_network


def settings(tmp_path, name: str = "net", **more) -> TrainSettings:
    options = {"family": "splendor-2p", "data": (str(tmp_path / "data"),), "out": str(tmp_path / f"{name}.smnet"),
               "epochs": 3, "batch_size": 16, "hidden": (8, 8), "seed": 7, "validation": 0.25, **more}
    return TrainSettings(**options)


def weights(path) -> list[np.ndarray]:
    """The weights of a written network (its header holds its own name and the seconds taken)."""
    network = read_network(path)
    return [array for layer in network.layers for array in (layer.weight, layer.bias)]


def same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.fixture
def data(tmp_path):
    (tmp_path / "data").mkdir()
    write_shard(tmp_path / "data" / "shard-00000.npz", games=8, moves=8, seed=1)
    return tmp_path / "data"


def test_same_seed_same_weights_and_losses_are_logged(tmp_path, data):
    pytest.importorskip("torch")
    lines: list[str] = []
    first = weights(train(settings(tmp_path, "a"), say=lines.append))
    assert same(weights(train(settings(tmp_path, "b"), say=lambda _: None)), first)
    assert not same(weights(train(settings(tmp_path, "c", seed=8), say=lambda _: None)), first)
    assert lines[0].startswith("epoch 1/3: train policy ") and "validation policy" in lines[0]
    log = [json.loads(line) for line in (tmp_path / "a.train.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in log] == [1, 2, 3] and log[-1]["steps"] == 3 * 3  # 48 training rows / 16
    network = read_network(tmp_path / "a.smnet")
    assert network.training["losses"] == log and network.training["rows"] == {"train": 48, "validation": 16}
    assert network.training["settings"]["seed"] == 7 and network.training["data"][0]["rows"] == 64
    assert not (tmp_path / "a.smnet.ckpt").exists()


def test_training_lowers_the_loss(tmp_path, data):
    pytest.importorskip("torch")
    # One visited action per row: the loss can fall towards 0 (with spread visits it cannot
    # go below their entropy).
    arrays = shard_arrays("splendor-2p", 8, 8, 1)
    policy = np.zeros_like(arrays["policy"])
    policy[np.arange(64), arrays["policy"].argmax(axis=1)] = 1
    write_shard(data / "shard-00000.npz", games=8, moves=8, seed=1, policy=policy)
    train(settings(tmp_path, epochs=30, hidden=(64,), validation=0.0, learning_rate=3e-3), say=lambda _: None)
    log = [json.loads(line) for line in (tmp_path / "net.train.jsonl").read_text().splitlines()]
    assert log[-1]["train_policy"] < 0.8 * log[0]["train_policy"]
    assert log[-1]["train_value"] < log[0]["train_value"]


def selection_losses(path) -> list[float]:
    log = [json.loads(line) for line in path.read_text().splitlines()]
    return [r["validation_policy"] + r["validation_value"] for r in log]


def test_the_epoch_with_the_lowest_validation_loss_is_written(tmp_path, data):
    pytest.importorskip("torch")
    # Random outcomes and a high learning rate: the value head memorises the training games,
    # so later epochs judge the held-out games worse than an early one.
    overfit = {"epochs": 6, "hidden": (64,), "learning_rate": 0.03}
    lines: list[str] = []
    network = read_network(train(settings(tmp_path, "long", **overfit), say=lines.append))
    losses = selection_losses(tmp_path / "long.train.jsonl")
    best = int(np.argmin(losses)) + 1
    assert best < 6 and network.training["best"]["epoch"] == best
    assert network.training["best"]["loss"] == pytest.approx(losses[best - 1]) and network.training["best"]["by"] == "validation"
    assert f"epoch {best}'s weights" in lines[-1]
    # The same as a run stopped at that epoch (the batch order depends on the seed and epoch only).
    stopped = train(settings(tmp_path, "short", **{**overfit, "epochs": best}), say=lambda _: None)
    assert same(weights(stopped), weights(tmp_path / "long.smnet"))
    # Without validation games the last epoch is kept.
    last = read_network(train(settings(tmp_path, "all", validation=0.0, epochs=2), say=lambda _: None))
    assert last.training["best"]["epoch"] == 2 and last.training["best"]["by"].startswith("last epoch")


def test_an_epoch_trains_on_a_few_positions_of_each_game_drawn_anew(tmp_path, data):
    torch = pytest.importorskip("torch")
    from splendor_mcts.learning.train import _epoch_rows

    game_id = np.repeat(np.arange(5), [8, 2, 8, 8, 8])
    chosen = settings(tmp_path, positions_per_game=3)
    first, again, second = (_epoch_rows(game_id, chosen, epoch, torch).numpy() for epoch in (0, 0, 1))
    assert np.array_equal(first, again) and not np.array_equal(np.sort(first), np.sort(second))
    for rows in (first, second):
        assert len(set(rows)) == len(rows) and np.bincount(game_id[rows]).tolist() == [3, 2, 3, 3, 3]
    everything = _epoch_rows(game_id, settings(tmp_path, positions_per_game=0), 0, torch).numpy()
    assert sorted(everything) == list(range(len(game_id)))
    # 6 training games x 3 positions = 18 rows an epoch, 2 batches of 16.
    train(settings(tmp_path, "few", positions_per_game=3, epochs=1), say=lambda _: None)
    assert json.loads((tmp_path / "few.train.jsonl").read_text())["steps"] == 2


def test_an_interrupted_run_resumes_to_the_same_weights(tmp_path, data):
    pytest.importorskip("torch")
    whole = weights(train(settings(tmp_path, "whole"), say=lambda _: None))

    def stop_after_first_epoch(line: str) -> None:
        if line.startswith("epoch 1/"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(settings(tmp_path, "cut"), say=stop_after_first_epoch)
    assert (tmp_path / "cut.smnet.ckpt").exists() and not (tmp_path / "cut.smnet").exists()
    lines: list[str] = []
    assert same(weights(train(settings(tmp_path, "cut"), say=lines.append)), whole)
    # The checkpoint carried the best epoch so far: the resumed run keeps the same one.
    resumed, uncut = (read_network(tmp_path / f"{name}.smnet").training["best"] for name in ("cut", "whole"))
    assert (resumed["epoch"], resumed["loss"]) == (uncut["epoch"], uncut["loss"])
    assert lines[0].startswith("resuming from") and "after epoch 1" in lines[0]
    assert len((tmp_path / "cut.train.jsonl").read_text().splitlines()) == 3
    # Another setting with the same output refuses the checkpoint instead of mixing runs.
    with pytest.raises(KeyboardInterrupt):
        train(settings(tmp_path, "mixed"), say=stop_after_first_epoch)
    with pytest.raises(ValueError, match="checkpoint of a run with other settings \\(learning_rate\\)"):
        train(settings(tmp_path, "mixed", learning_rate=0.01), say=lambda _: None)


def test_written_network_computes_what_torch_computes(tmp_path, data):
    torch = pytest.importorskip("torch")
    from splendor_mcts.learning import model as nets

    network = read_network(train(settings(tmp_path, epochs=1), say=lambda _: None))
    x = np.random.default_rng(0).integers(0, 5, size=(6, 474)).astype(np.float32)
    with torch.no_grad():
        policy, value = nets.from_network(network)(torch.from_numpy(x))
    ours = network.forward(x)
    assert np.allclose(ours[0], policy.numpy(), rtol=1e-4, atol=1e-4)
    assert np.allclose(ours[1], value.numpy(), rtol=1e-4, atol=1e-4)
    # Warm start from it: the first epoch begins from these weights.
    train(settings(tmp_path, "warm", epochs=1, init=str(tmp_path / "net.smnet")), say=lambda _: None)
    with pytest.raises(ValueError, match="hidden sizes \\[8, 8\\] differ from --hidden \\[4\\]"):
        train(settings(tmp_path, "cold", hidden=(4,), init=str(tmp_path / "net.smnet")), say=lambda _: None)


def test_masked_losses_ignore_illegal_actions_and_absent_seats():
    torch = pytest.importorskip("torch")
    from splendor_mcts.learning import model as nets

    logits = torch.tensor([[0.0, 0.0, 100.0, -100.0]], requires_grad=True)
    mask = torch.tensor([[True, True, False, False]])
    loss = nets.masked_cross_entropy(logits, mask, torch.tensor([[0.5, 0.5, 0.0, 0.0]]))
    loss.backward()
    assert loss.item() == pytest.approx(np.log(2)) and torch.isfinite(logits.grad).all()
    assert logits.grad[0, 2:].abs().sum().item() == 0


@pytest.mark.parametrize("change, message", [
    ({"epochs": 0}, "epochs must be at least 1"), ({"out": "net.bin"}, "must be a .smnet file"),
    ({"validation": 1.5}, r"validation must be in \[0, 1\)"), ({"family": "chess"}, "unknown game family"),
    ({"learning_rate": 0.0}, "learning-rate must be positive"), ({"dropout": 1.0}, r"dropout must be in \[0, 1\)"),
    ({"positions_per_game": -1}, "positions-per-game must be >= 0"),
    ({"search_value_share": 1.5}, r"search-value-share must be in \[0, 1\]"),
    ({"search_value_share": float("nan")}, r"search-value-share must be in \[0, 1\]")])
def test_settings_are_checked(tmp_path, change, message):
    with pytest.raises(ValueError, match=message):
        settings(tmp_path, **change)


def test_the_value_target_mixes_the_result_and_the_search(tmp_path, data):
    from splendor_mcts.learning.dataset import load_examples
    from splendor_mcts.learning.train import value_target

    examples, _ = load_examples([data], "splendor-2p")
    assert value_target(examples, 0.0) is examples.value
    np.testing.assert_allclose(value_target(examples, 1.0), examples.search_value)
    mixed = value_target(examples, 0.25)
    np.testing.assert_allclose(mixed, 0.75 * examples.value + 0.25 * examples.search_value, rtol=1e-6)
    assert mixed.dtype == np.float32 and np.allclose(mixed.sum(axis=1), 1)


def test_training_on_the_search_value_changes_the_value_head_only_as_asked(tmp_path, data):
    pytest.importorskip("torch")
    result = read_network(train(settings(tmp_path, "result", search_value_share=0.0), say=lambda _: None))
    searched = read_network(train(settings(tmp_path, "searched", search_value_share=1.0), say=lambda _: None))
    assert searched.training["settings"]["search_value_share"] == 1.0
    assert not same(weights(tmp_path / "result.smnet"), weights(tmp_path / "searched.smnet"))
    # validation always scores the game's result, so the two runs' figures compare
    first = [r["validation_value"] for r in result.training["losses"]]
    assert [r["validation_value"] for r in searched.training["losses"]] != first


def test_the_search_value_share_needs_format_2_shards(tmp_path, capsys):
    pytest.importorskip("torch")
    (tmp_path / "data").mkdir()
    old = write_shard(tmp_path / "data" / "shard-00000.npz", games=8, moves=8, seed=1, shard_format=1)
    code = cli.main(["train", "--family", "splendor-2p", "--data", str(old), "--out", str(tmp_path / "n.smnet")])
    assert code == exit_codes.USAGE
    assert f"--search-value-share 0.5 needs the search's root values, which shards of format 1 lack: {old} " \
        "(--search-value-share 0 trains on the games' results alone)" in capsys.readouterr().err
    assert not (tmp_path / "n.smnet").exists()
    assert cli.main(["train", "--family", "splendor-2p", "--data", str(old), "--out", str(tmp_path / "n.smnet"),
                     "--search-value-share", "0", "--epochs", "1", "--hidden", "4"]) == exit_codes.OK


def test_train_command_without_torch_names_the_extra(tmp_path, data, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(RuntimeError, match=r'pip install "\.\[train\]"'):
        require_torch()
    code = cli.main(["train", "--family", "duel", "--data", str(data), "--out", str(tmp_path / "n.smnet")])
    assert code == exit_codes.FAILURE
    assert "training needs PyTorch: pip install \".[train]\"" in capsys.readouterr().err


def test_train_command_reports_bad_data(tmp_path, data, capsys):
    pytest.importorskip("torch")
    code = cli.main(["train", "--family", "duel", "--data", str(data), "--out", str(tmp_path / "n.smnet")])
    assert code == exit_codes.USAGE
    assert "shard holds family 'splendor-2p', not duel" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        cli.main(["train", "--family", "duel", "--data", str(data), "--out", str(tmp_path / "n.smnet"), "--hidden", "8,x"])
    assert stopped.value.code == exit_codes.USAGE and "hidden sizes are comma-separated" in capsys.readouterr().err
