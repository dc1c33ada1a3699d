"""Shard files for training: what the reader accepts, what it rejects (naming the file and
problem), and the validation split by whole games."""
from __future__ import annotations

import json

import numpy as np
import pytest
from learning_shards import shard_arrays, write_shard

from splendor_mcts.learning.dataset import load_examples, shard_files, split_by_game


def test_shards_of_a_directory_load_in_name_order(tmp_path):
    write_shard(tmp_path / "shard-00001.npz", games=2, seed=1, first_game=10)
    write_shard(tmp_path / "shard-00000.npz", games=3, seed=0)
    examples, summaries = load_examples([tmp_path], "splendor-2p")
    assert len(examples) == 5 * 8 and [s["rows"] for s in summaries] == [24, 16]
    assert examples.observation.shape == (40, 474) and examples.observation.dtype == np.float32
    assert set(np.unique(examples.game_id)) == {0, 1, 2, 10, 11}


def test_search_values_come_along_unless_a_format_1_shard_lacks_them(tmp_path):
    write_shard(tmp_path / "shard-00000.npz", games=2)
    examples, _ = load_examples([tmp_path], "splendor-2p")
    assert examples.search_value is not None and examples.search_value.shape == (16, 4)
    assert examples.take(np.arange(3)).search_value.shape == (3, 4)
    write_shard(tmp_path / "shard-00001.npz", games=2, first_game=5, shard_format=1)
    examples, summaries = load_examples([tmp_path], "splendor-2p")
    assert examples.search_value is None and len(examples) == 32
    assert [s["meta"]["format"] for s in summaries] == [2, 1]


def test_three_and_four_players_share_a_family(tmp_path):
    write_shard(tmp_path / "shard-00000.npz", "splendor-3-4p", games=6)
    examples, _ = load_examples([tmp_path], "splendor-3-4p")
    assert set(np.unique(examples.players)) <= {3, 4}


def bad(tmp_path, message: str, family_name: str = "splendor-2p", **changes) -> None:
    path = write_shard(tmp_path / "shard-00000.npz", **changes)
    with pytest.raises(ValueError, match=message) as caught:
        load_examples([path], family_name)
    assert str(path) in str(caught.value)


def test_reader_rejects_missing_keys_dtypes_and_shapes(tmp_path):
    good = shard_arrays("splendor-2p", 4, 8, 0)
    bad(tmp_path, "missing arrays policy", policy=None)
    bad(tmp_path, "no meta", meta=None)
    bad(tmp_path, "legal has dtype uint8, expected bool", legal=good["legal"].astype(np.uint8))
    bad(tmp_path, "observation has dtype float64, expected float32", observation=good["observation"].astype(np.float64))
    bad(tmp_path, r"observation has shape \(32, 473\), expected \[32, 474\]", observation=good["observation"][:, 1:])
    bad(tmp_path, r"observation has 32 rows, game_id has 31", game_id=good["game_id"][1:])


def test_reader_rejects_rows_that_break_the_format(tmp_path):
    good = shard_arrays("splendor-2p", 4, 8, 0)
    policy = good["policy"].copy()
    policy[3, ~good["legal"][3]] = 0.5
    bad(tmp_path, "row 3: policy gives a share to an action that is not legal", policy=policy)
    bad(tmp_path, "row 0: policy sums to 2, not 1", policy=good["policy"] * 2)
    value = good["value"].copy()
    value[5] = [0, 0, 1, 0]
    bad(tmp_path, "row 5: value must be win shares >= 0 with 0 beyond the player count", value=value)
    bad(tmp_path, "row 0: 3 players is not family splendor-2p's", players=np.full(32, 3, dtype=np.int8))
    bad(tmp_path, "row 0: seat 2 is outside", seat=np.full(32, 2, dtype=np.int8))
    observation = good["observation"].copy()
    observation[7, 0] = np.nan
    bad(tmp_path, "row 7: observation holds NaN", observation=observation)
    bad(tmp_path, "row 0: no legal action", legal=np.zeros_like(good["legal"]), policy=np.zeros_like(good["policy"]))


def test_reader_rejects_meta_of_another_family_or_format(tmp_path):
    bad(tmp_path, "shard holds family 'splendor-2p', not duel", family_name="duel")
    meta = {"format": 3, "game": "splendor", "family": "splendor-2p"}
    bad(tmp_path, "meta format 3, this version reads formats 1, 2", meta=np.array(json.dumps(meta)))
    bad(tmp_path, "meta is not JSON", meta=np.array(["{}"]))


def test_reader_rejects_files_that_are_no_shards(tmp_path):
    (tmp_path / "shard-00000.npz").write_text("not a zip")
    with pytest.raises(ValueError, match="not a readable shard"):
        load_examples([tmp_path], "duel")
    with pytest.raises(ValueError, match="no such shard file or directory"):
        shard_files([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no shard-\\*.npz files"):
        shard_files([tmp_path / "empty"])


def test_validation_split_holds_out_whole_games_reproducibly(tmp_path):
    write_shard(tmp_path / "shard-00000.npz", games=20, moves=3)
    examples, _ = load_examples([tmp_path], "splendor-2p")
    train, held = split_by_game(examples, 0.2, seed=3)
    assert len(train) + len(held) == 60 and len(np.unique(held.game_id)) == 4
    assert not set(train.game_id) & set(held.game_id)
    again, _ = split_by_game(examples, 0.2, seed=3)
    assert np.array_equal(again.game_id, train.game_id)
    assert len(split_by_game(examples, 0.0, seed=3)[1]) == 0
    with pytest.raises(ValueError, match=r"validation share must be in \[0, 1\)"):
        split_by_game(examples, 1.0, seed=0)
