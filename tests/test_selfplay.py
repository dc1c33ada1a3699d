"""Self-play shards (splendor_mcts.learning): the format round-trips and is checked, runs are
deterministic for a seed, resume without redoing or duplicating games, refuse changed
settings, and the command answers bad input with a usage error."""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

import splendor_mcts as sm
from splendor_mcts import exit_codes
from splendor_mcts.cli import main
from splendor_mcts.learning import selfplay as sp
from splendor_mcts.learning.shards import (
    COLUMNS, MANIFEST, Manifest, ShardError, read_run, read_shard, shard_name, write_shard,
)

FAST = "mcts:iterations=24"


def _rows(n: int, actions: int = 5, observation: int = 3, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    legal = rng.random((n, actions)) < 0.6
    legal[:, 0] = True
    policy = np.where(legal, rng.random((n, actions)), 0).astype(np.float32)
    policy /= policy.sum(axis=1, keepdims=True)
    value = np.zeros((n, 4), dtype=np.float32)
    value[:, 0] = 1
    search_value = np.zeros((n, 4), dtype=np.float32)
    search_value[:, :2] = [0.625, 0.375]
    return {"observation": rng.random((n, observation)).astype(np.float32), "legal": legal, "policy": policy,
            "value": value, "search_value": search_value, "players": np.full(n, 2, np.int8), "seat": (np.arange(n) % 2).astype(np.int8),
            "move_number": np.arange(n, dtype=np.int16), "game_id": np.full(n, 7, np.int64)}


META = {"format": 2, "game": "splendor", "variant": "splendor", "family": "splendor-2p", "search": FAST,
        "seed": 0, "version": "0"}


def test_a_shard_reads_back_equal(tmp_path: Path) -> None:
    rows = _rows(9)
    write_shard(tmp_path / "s.npz", rows, META)
    shard = read_shard(tmp_path / "s.npz", {"observation_size": 3, "num_actions": 5})
    assert shard.meta == META and shard.rows == 9 and shard.games() == [7]
    for key in COLUMNS:
        np.testing.assert_array_equal(shard.arrays[key], rows[key])
        assert shard.arrays[key].dtype == rows[key].dtype
    assert not (tmp_path / "s.npz.tmp").exists()


@pytest.mark.parametrize("change, message", [
    (lambda r: r.pop("policy"), "missing arrays policy"),
    (lambda r: r.update(seat=r["seat"].astype(np.int32)), "seat has dtype int32"),
    (lambda r: r.update(players=r["players"][:-1]), "players has 7 rows"),
    (lambda r: r["policy"].__setitem__((0, 0), 5.0), "row 0: policy sums to .*, not 1"),
    (lambda r: r.update(policy=np.where(r["legal"], 0, 1 / 5).astype(np.float32) + r["policy"] * 0), "not legal"),
    (lambda r: r.update(value=r["value"] * 2), "row 0: value sums to 2, not 1"),
    (lambda r: r.pop("search_value"), "missing arrays search_value"),
    (lambda r: r["search_value"].__setitem__((3, 2), 0.5), "row 3: search_value must be win shares >= 0 with 0 beyond"),
    (lambda r: r["search_value"].__setitem__((1, 0), np.nan), "row 1: search_value holds NaN"),
])
def test_a_bad_shard_is_refused_naming_the_problem(tmp_path: Path, change, message: str) -> None:
    rows = _rows(8)
    change(rows)
    with pytest.raises(ShardError, match=message):
        write_shard(tmp_path / "bad.npz", rows, META)
    assert not (tmp_path / "bad.npz").exists()


def test_a_format_1_shard_without_search_values_still_reads(tmp_path: Path) -> None:
    rows = _rows(6)
    rows.pop("search_value")
    np.savez_compressed(tmp_path / "old.npz", meta=np.array(json.dumps({**META, "format": 1})), **rows)
    shard = read_shard(tmp_path / "old.npz")
    assert "search_value" not in shard.arrays and shard.rows == 6
    # a stray column a format does not have is not judged by it (its shape was never checked)
    np.savez_compressed(tmp_path / "stray.npz", meta=np.array(json.dumps({**META, "format": 1})),
                        search_value=np.zeros((2, 3), np.float32), **rows)
    assert read_shard(tmp_path / "stray.npz").rows == 6
    np.savez_compressed(tmp_path / "new.npz", meta=np.array(json.dumps(META)), **rows)
    with pytest.raises(ShardError, match="new.npz: missing arrays search_value"):
        read_shard(tmp_path / "new.npz")
    np.savez_compressed(tmp_path / "future.npz", meta=np.array(json.dumps({**META, "format": 3})), **rows)
    with pytest.raises(ShardError, match="meta format 3, this version reads formats 1, 2"):
        read_shard(tmp_path / "future.npz")


def test_reading_names_the_file_and_its_problem(tmp_path: Path) -> None:
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ShardError, match="junk.npz: not a readable shard"):
        read_shard(tmp_path / "junk.npz")
    write_shard(tmp_path / "s.npz", _rows(4), META)
    with pytest.raises(ShardError, match="observation has shape"):
        read_shard(tmp_path / "s.npz", {"observation_size": 474})


def test_manifest_refuses_other_settings_naming_them(tmp_path: Path) -> None:
    m = Manifest(tmp_path, {"seed": 1, "game": "duel"})
    m.save()
    loaded = Manifest.load(tmp_path)
    assert loaded is not None and loaded.settings == {"seed": 1, "game": "duel"}
    loaded.check_settings({"seed": 1, "game": "duel"})
    with pytest.raises(ValueError, match=r"seed: the run has 1, given 2"):
        loaded.check_settings({"seed": 2, "game": "duel"})
    (tmp_path / MANIFEST).write_text("{}")
    with pytest.raises(ShardError, match="not a self-play manifest"):
        Manifest.load(tmp_path)


@pytest.mark.parametrize("spec", ["splendor", "splendor(players=3)", "duel"])
def test_a_tiny_run_writes_the_contract(tmp_path: Path, spec: str) -> None:
    game = sm.load_game(spec)
    summary = sp.selfplay(tmp_path, 2, spec, search=FAST, seed=5, workers=1, games_per_shard=1, temperature_moves=4)
    assert summary.games_played == 2 and summary.shards_total == 2
    run = read_run(tmp_path)
    a = run.arrays
    n = run.rows
    assert n == summary.rows_total == summary.decisions_played
    assert a["observation"].shape == (n, game.observation_tensor_size())
    assert a["legal"].shape == a["policy"].shape == (n, game.num_distinct_actions())
    assert np.all(a["players"] == game.num_players())
    assert run.meta["family"] == sp.family_of(game) and run.meta["search"] == FAST and run.meta["seed"] == 5
    assert run.meta["variant"] == game.spec and run.meta["game"] == game.name
    for gid in run.games():  # replay each game from its deal seed: rows are the game's decisions
        rows = np.flatnonzero(a["game_id"] == gid)
        assert list(a["move_number"][rows]) == list(range(len(rows)))
        state = game.new_initial_state(seed=gid)
        for r in rows:
            while state.is_chance_node():
                state.apply_action(state.dealt_outcome())
            seat = state.current_player()
            assert a["seat"][r] == seat
            np.testing.assert_array_equal(a["observation"][r], state.observation_tensor(seat))
            np.testing.assert_array_equal(a["legal"][r], state.legal_actions_mask())
            # the move played is one the search visited (drawn from the visits, or its best)
            visited = _next_action(state, a, rows, r, game) & (a["policy"][r] > 0)
            assert visited.any(), "the move played was never visited at the root"
            state.apply_action(int(np.flatnonzero(visited)[0]))
        assert state.is_terminal()
        returns = np.array(state.returns()) / sum(state.returns())
        p = game.num_players()
        for r in rows:
            expected = [returns[(a["seat"][r] + k) % p] for k in range(p)] + [0] * (4 - p)
            np.testing.assert_allclose(a["value"][r], expected, atol=1e-6)
    # the root's values: win shares of the seats in play, not all alike (the search's, not the result's)
    assert np.all(a["search_value"][:, game.num_players():] == 0)
    np.testing.assert_allclose(a["search_value"].sum(axis=1), 1, atol=1e-5)
    assert len(np.unique(a["search_value"][:, 0])) > n // 2


class _Root:
    def __init__(self, player: int, win_rates: list[float]) -> None:
        self.player, self.win_rates = player, win_rates


class _Move:
    def __init__(self, proof: str) -> None:
        self.proof = proof


class _Analysis:
    def __init__(self, player: int, win_rates: list[float], proof: str = "") -> None:
        self.root, self.moves = _Root(player, win_rates), [_Move(proof)]


def test_the_search_value_is_the_roots_mean_return_rotated_to_the_mover() -> None:
    np.testing.assert_allclose(sp.search_value(_Analysis(1, [0.2, 0.5, 0.3]), 3), [0.2, 0.5, 0.3])
    np.testing.assert_allclose(sp.search_value(_Analysis(0, [0.3, 0.3]), 2), [0.5, 0.5])  # made win shares
    np.testing.assert_allclose(sp.search_value(_Analysis(1, [0.4, 0.6], proof="win"), 2), [0, 1])
    assert sp.search_value(_Analysis(0, [0.0, 0.0]), 2) is None  # no iteration: the result stands in
    per_seat = np.array([[0.2, 0.5, 0.3], [0.2, 0.5, 0.3]])
    rotated = sp.rotate_to_mover(per_seat, np.array([1, 2], dtype=np.int8), 3)
    np.testing.assert_allclose(rotated, [[0.5, 0.3, 0.2, 0], [0.3, 0.2, 0.5, 0]])


def test_the_search_value_of_a_real_search_is_its_roots() -> None:
    game = sm.load_game("splendor(players=3)")
    state = game.new_initial_state(seed=4)
    analysis = sm.analyze(state, iterations=200, seed=1)
    assert list(sp.search_value(analysis, 3)) == pytest.approx(analysis.root.win_rates)


def _next_action(state, a, rows, r, game) -> np.ndarray:
    """The action that leads from row r's position to the next row's (or to the end)."""
    candidates = np.zeros(game.num_distinct_actions(), dtype=bool)
    following = [x for x in rows if x > r]
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        while after.is_chance_node():
            after.apply_action(after.dealt_outcome())
        if following:
            nxt = following[0]
            if after.is_terminal() or after.current_player() != a["seat"][nxt]:
                continue
            if np.array_equal(after.observation_tensor(int(a["seat"][nxt])), a["observation"][nxt]) and \
                    np.array_equal(after.legal_actions_mask(), a["legal"][nxt]):
                candidates[action] = True
        elif after.is_terminal():
            candidates[action] = True
    assert candidates.any(), "no legal action leads to the next row"
    return candidates


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("shard-*.npz"))}


def test_same_seed_same_shards_and_resume_continues(tmp_path: Path) -> None:
    kwargs = dict(search=FAST, seed=3, workers=1, games_per_shard=2, temperature_moves=6)
    sp.selfplay(tmp_path / "a", 5, "duel", **kwargs)
    sp.selfplay(tmp_path / "b", 2, "duel", **kwargs)   # an interrupted run, continued
    again = sp.selfplay(tmp_path / "b", 5, "duel", **kwargs)
    assert again.games_played == 3
    assert _files(tmp_path / "a") == _files(tmp_path / "b")
    assert list(_files(tmp_path / "a")) == [shard_name(0), shard_name(1), shard_name(2)]
    nothing = sp.selfplay(tmp_path / "b", 5, "duel", **kwargs)
    assert nothing.games_played == 0 and nothing.games_total == 5
    ids = read_run(tmp_path / "b").games()
    assert len(ids) == len(set(ids)) == 5
    other = sp.selfplay(tmp_path / "c", 2, "duel", **{**kwargs, "seed": 4})
    assert other.games_total == 2 and not set(read_run(tmp_path / "c").games()) & set(ids)


def test_a_killed_shard_is_replayed_not_duplicated(tmp_path: Path) -> None:
    kwargs = dict(search=FAST, seed=9, workers=1, games_per_shard=1, temperature_moves=2)
    sp.selfplay(tmp_path / "whole", 3, "duel", **kwargs)
    sp.selfplay(tmp_path / "cut", 3, "duel", **kwargs)
    manifest = json.loads((tmp_path / "cut" / MANIFEST).read_text())
    manifest["shards"] = manifest["shards"][:1]  # the run died after writing shard 1, before its manifest
    (tmp_path / "cut" / MANIFEST).write_text(json.dumps(manifest))
    (tmp_path / "cut" / "shard-00002.npz").unlink()
    (tmp_path / "cut" / "shard-00001.npz.tmp").write_bytes(b"half a file")
    resumed = sp.selfplay(tmp_path / "cut", 3, "duel", **kwargs)
    assert resumed.games_played == 2
    assert _files(tmp_path / "whole") == _files(tmp_path / "cut")


def test_a_deadline_stops_the_run_between_games_and_keeps_them(tmp_path: Path, monkeypatch) -> None:
    kwargs = dict(search=FAST, seed=9, workers=1, games_per_shard=2, temperature_moves=2)
    sp.selfplay(tmp_path / "whole", 3, "duel", **kwargs)
    past = sp.selfplay(tmp_path / "cut", 3, "duel", deadline=time.monotonic() - 1, **kwargs)
    assert (past.games_played, past.stopped, past.shards_total) == (0, True, 0)
    finished: list[int] = []
    clock = time.monotonic

    def one_game_then_late() -> float:  # the deadline passes once the first game is in
        return clock() + (3600 if finished else 0)

    monkeypatch.setattr(sp, "deadline_clock", one_game_then_late)
    cut = sp.selfplay(tmp_path / "cut", 3, "duel", deadline=clock() + 600,
                      progress=lambda p: finished.append(p.games_done), **kwargs)
    assert (cut.games_played, cut.games_total, cut.shards_total, cut.stopped) == (1, 1, 1, True)
    monkeypatch.setattr(sp, "deadline_clock", clock)
    rest = sp.selfplay(tmp_path / "cut", 3, "duel", deadline=clock() + 600, **kwargs)
    assert (rest.games_played, rest.games_total, rest.stopped) == (2, 3, False)
    assert sorted(read_run(tmp_path / "cut").games()) == sorted(read_run(tmp_path / "whole").games())
    done = sp.selfplay(tmp_path / "cut", 3, "duel", deadline=clock() - 1, **kwargs)  # nothing left: not stopped
    assert (done.games_played, done.stopped) == (0, False)


def test_workers_play_the_same_games(tmp_path: Path) -> None:
    kwargs = dict(search=FAST, seed=2, games_per_shard=2, temperature_moves=3)
    sp.selfplay(tmp_path / "one", 3, "duel", workers=1, **kwargs)
    sp.selfplay(tmp_path / "two", 3, "duel", workers=2, **kwargs)
    one, two = read_run(tmp_path / "one"), read_run(tmp_path / "two")
    assert sorted(one.games()) == sorted(two.games())
    order = lambda run: np.lexsort((run.arrays["move_number"], run.arrays["game_id"]))  # noqa: E731
    for key in COLUMNS:
        np.testing.assert_array_equal(one.arrays[key][order(one)], two.arrays[key][order(two)])


def test_a_changed_setting_is_refused_naming_it(tmp_path: Path) -> None:
    sp.selfplay(tmp_path, 1, "duel", search=FAST, seed=1, workers=1)
    with pytest.raises(ValueError, match="temperature_moves: the run has 20, given 5"):
        sp.selfplay(tmp_path, 2, "duel", search=FAST, seed=1, workers=1, temperature_moves=5)
    with pytest.raises(ValueError, match="search: the run has 'mcts:iterations=24'"):
        sp.selfplay(tmp_path, 2, "duel", search="mcts:iterations=25", seed=1, workers=1)
    assert read_run(tmp_path).games() and len(read_run(tmp_path).games()) == 1


def test_a_game_past_max_decisions_stops_as_a_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Duel has no turn limit and a weak search can cycle for ever: the cap ends such a game.
    summary = sp.selfplay(tmp_path / "cut", 2, "duel", search=FAST, seed=5, workers=1, max_decisions=7)
    assert summary.games_capped == 2 and summary.decisions_played == summary.rows_total == 14
    a = read_run(tmp_path / "cut").arrays
    assert list(a["move_number"]) == list(range(7)) * 2
    np.testing.assert_array_equal(a["value"][:, :2], np.full((14, 2), 0.5, np.float32))
    assert not a["value"][:, 2:].any()
    whole = sp.selfplay(tmp_path / "whole", 2, "duel", search=FAST, seed=5, workers=1)  # the same games, to the end
    assert whole.games_capped == 0
    first = read_run(tmp_path / "whole").arrays
    for key in ("observation", "legal", "policy", "seat"):  # the cap changes nothing before it
        np.testing.assert_array_equal(first[key][:7], a[key][:7])
    args = ["selfplay", "--out", str(tmp_path / "cli"), "--game", "duel", "--games", "1", "--search", FAST,
            "--workers", "1", "--no-progress", "--max-decisions", "3"]
    assert main(args) == exit_codes.OK
    assert "1 game reached --max-decisions 3 and counted as draws" in capsys.readouterr().out
    assert main([*args[:-1], "4"]) == exit_codes.USAGE
    assert "max_decisions: the run has 3, given 4" in capsys.readouterr().err


def test_a_run_from_before_the_cap_continues(tmp_path: Path) -> None:
    kwargs = dict(search=FAST, seed=3, workers=1, games_per_shard=1)
    sp.selfplay(tmp_path, 1, "duel", **kwargs)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    del manifest["settings"]["max_decisions"]  # as a run written before the setting existed
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    assert sp.selfplay(tmp_path, 2, "duel", **kwargs).games_total == 2
    assert json.loads((tmp_path / MANIFEST).read_text())["settings"]["max_decisions"] == sp.MAX_DECISIONS


@pytest.mark.parametrize("kwargs, message", [
    (dict(search="greedy"), "needs the search's root visits"),
    (dict(search="mcts:iterations=-3"), "iterations"),
    (dict(search="mcts:bogus=1"), "unknown parameter 'bogus'"),
    (dict(temperature=0), "temperature must be a positive number"),
    (dict(temperature_moves=-1), "temperature_moves"),
    (dict(games_per_shard=0), "games_per_shard"),
    (dict(max_decisions=0), "max_decisions must be a whole number of decisions from 1 to 32768"),
    (dict(max_decisions=2.5), "max_decisions must be a whole number"),
    (dict(max_decisions=40_000), "16 bits"),
    (dict(seed=-1), "seed"),
    (dict(game="splendor(players=9)"), "players"),
    (dict(workers=0), "--workers must be at least 1"),
    (dict(deadline="soon"), "deadline must be a time.monotonic"),
    (dict(deadline=float("nan")), "deadline must be a time.monotonic"),
    (dict(notice="stderr"), "notice must be callable"),
])
def test_bad_arguments_are_named(tmp_path: Path, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sp.selfplay(tmp_path, 1, **{"search": FAST, **kwargs})


def test_the_search_spec_is_canonical_with_its_budget() -> None:
    assert sp.make_settings("duel", "mcts").search == sp.DEFAULT_SEARCH
    assert sp.make_settings("duel", "mcts:exploration=0.5,name=x").search == "mcts:exploration=0.5,iterations=800"


def test_the_command_runs_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--out", str(tmp_path), "--game", "duel", "--games", "2", "--search", FAST,
            "--workers", "1", "--no-progress"]
    assert main(args) == exit_codes.OK
    assert "played 2 games" in capsys.readouterr().out
    assert main(args) == exit_codes.OK
    assert "played 0 games" in capsys.readouterr().out
    assert main([*args, "--seed", "4"]) == exit_codes.USAGE
    err = capsys.readouterr().err
    assert "seed: the run has 0, given 4" in err and "Traceback" not in err
    assert main(["selfplay", "--out", str(tmp_path / "x"), "--games", "0"]) == exit_codes.USAGE
    assert "games must be a positive" in capsys.readouterr().err


def test_a_run_killed_by_sigkill_resumes_to_the_same_shards(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    args = ["--game", "duel", "--games", "6", "--search", FAST, "--workers", "1", "--games-per-shard", "1",
            "--seed", "8", "--no-progress"]
    command = [sys.executable, "-m", "splendor_mcts.cli", "selfplay"]
    assert main(["selfplay", "--out", str(tmp_path / "whole"), *args]) == exit_codes.OK
    run = subprocess.Popen([*command, "--out", str(tmp_path / "cut"), *args], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        manifest = Manifest.load(tmp_path / "cut") if (tmp_path / "cut" / MANIFEST).exists() else None
        if manifest is not None and len(manifest.shards) >= 2:
            break
        time.sleep(0.01)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    before = Manifest.load(tmp_path / "cut")
    assert before is not None and 2 <= len(before.shards) < 6  # killed mid-run
    assert main(["selfplay", "--out", str(tmp_path / "cut"), *args]) == exit_codes.OK
    assert _files(tmp_path / "whole") == _files(tmp_path / "cut")
    assert not list((tmp_path / "cut").glob("*.tmp"))  # a half-written file was written again


def test_sigterm_stops_the_workers_and_keeps_the_finished_shards(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    run = subprocess.Popen([sys.executable, "-m", "splendor_mcts.cli", "selfplay", "--out", str(tmp_path), "--game",
                            "duel", "--games", "400", "--search", FAST, "--workers", "2", "--games-per-shard", "1",
                            "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None and len(list(tmp_path.glob("*.npz"))) < 2:
        time.sleep(0.05)
    run.send_signal(signal.SIGTERM)  # what `kill` sends
    _, err = run.communicate(timeout=60)
    assert run.returncode == exit_codes.INTERRUPTED, err
    assert "leaked" not in err and "Traceback" not in err
    assert err.strip().splitlines()[-1] == (f"splendor-mcts selfplay: interrupted; finished shards are kept in "
                                            f"{tmp_path}: run the same command again to resume")
    kept = Manifest.load(tmp_path)
    assert kept is not None and 2 <= len(kept.shards) < 400 and not list(tmp_path.glob("*.tmp"))


def test_a_run_directory_that_cannot_be_written_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("not a directory")
    assert main(["selfplay", "--out", str(tmp_path / "file"), "--games", "1", "--search", FAST]) == exit_codes.USAGE
    assert "is not a directory" in capsys.readouterr().err
    blocked = tmp_path / "run"
    blocked.mkdir()
    (blocked / MANIFEST).mkdir()
    assert main(["selfplay", "--out", str(blocked), "--games", "1", "--search", FAST]) == exit_codes.USAGE
    assert "not a self-play manifest" in capsys.readouterr().err
    (blocked / MANIFEST).rmdir()
    (blocked / "shard-00000.npz.tmp").mkdir()  # the shard cannot be written, as on a full or broken disk
    code = main(["selfplay", "--out", str(blocked), "--games", "1", "--search", FAST, "--workers", "1"])
    err = capsys.readouterr().err
    assert code == exit_codes.FAILURE and f"cannot write the run in {blocked}" in err and "Traceback" not in err


def test_the_ray_backend_plays_the_same_games(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray", reason='ray is not installed: pip install ".[ray]"')
    kwargs = dict(search=FAST, seed=6, games_per_shard=2, temperature_moves=3)
    sp.selfplay(tmp_path / "local", 3, "duel", workers=1, **kwargs)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        sp.selfplay(tmp_path / "ray", 3, "duel", workers=2, backend="ray", **kwargs)
    finally:
        ray.shutdown()
    local, remote = read_run(tmp_path / "local"), read_run(tmp_path / "ray")
    order = lambda run: np.lexsort((run.arrays["move_number"], run.arrays["game_id"]))  # noqa: E731
    for key in COLUMNS:
        np.testing.assert_array_equal(local.arrays[key][order(local)], remote.arrays[key][order(remote)])
