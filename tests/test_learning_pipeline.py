"""The generations pipeline's bookkeeping: steps in order, the state file, resuming after an
interruption, stages that stop before a step that would overrun, the gate's rule. Self-play
is faked with synthetic shards (its command lives elsewhere) and the network agent with a
plain search, so the gate is a real tournament of a few Duel games."""
from __future__ import annotations

import hashlib
import json
import sys
import time
from types import SimpleNamespace

import pytest
from learning_shards import write_shard

from splendor_mcts import cli, exit_codes
from splendor_mcts.learning import pipeline as pipe
from splendor_mcts.learning.pipeline import STEPS
from splendor_mcts.learning.train import DEFAULT_EPOCHS
from splendor_mcts.learning.weights import read_network, write_network
from splendor_mcts.search.networks import shipped_file
from test_learning_weights import random_network


@pytest.fixture
def fake_selfplay(monkeypatch):
    calls: list[tuple] = []

    def selfplay(game, players, agent, games, out, seed, workers, deadline=None):
        calls.append((game, players, agent, games, out.name, seed))
        selfplay.deadlines.append(deadline)
        if getattr(selfplay, "fail_at", None) == len(calls):
            raise KeyboardInterrupt
        if getattr(selfplay, "stop_at", None) == len(calls):
            return False  # the deadline came first
        out.mkdir(parents=True, exist_ok=True)
        write_shard(out / "shard-00000.npz", "duel", games=4, moves=6, seed=seed, first_game=seed * 100)
        return True

    monkeypatch.setattr(pipe, "run_selfplay", selfplay)
    monkeypatch.setattr(pipe, "network_agent", lambda network, iterations, family_name=None: f"mcts:iterations={iterations}")
    selfplay.calls = calls
    selfplay.deadlines = []
    return selfplay


def settings(**more) -> pipe.PipelineSettings:
    return pipe.PipelineSettings(**{"family": "duel", "generations": 2, "selfplay_games": 4, "iterations": 4,
                                    "epochs": 1, "window": 2, "hidden": (4,), "gate_games": 2, "workers": 1, **more})


def test_generations_run_in_order_and_resume_after_an_interruption(tmp_path, fake_selfplay):
    pytest.importorskip("torch")
    fake_selfplay.fail_at = 2  # generation 2's self-play is interrupted
    with pytest.raises(KeyboardInterrupt):
        pipe.Pipeline(settings(), tmp_path, say=lambda _: None).run(time.monotonic() + 3600)
    state = json.loads((tmp_path / "pipeline.json").read_text())
    assert [r["done"] for r in state["generations"]] == [["selfplay", "train", "gate"]]
    fake_selfplay.fail_at = None
    lines: list[str] = []
    assert pipe.Pipeline(settings(), tmp_path, say=lines.append).run(time.monotonic() + 3600)
    state = json.loads((tmp_path / "pipeline.json").read_text())
    assert [r["done"] for r in state["generations"]] == [["selfplay", "train", "gate"]] * 2
    assert [r["guided"] for r in state["generations"]] == [False, False]  # no candidate was accepted
    assert [c[4] for c in fake_selfplay.calls] == ["selfplay-2p"] * 3 and fake_selfplay.calls[1] == fake_selfplay.calls[2]
    assert (tmp_path / "gen-002" / "candidate.smnet").exists() and (tmp_path / "gen-002" / "gate.txt").exists()
    # Two games settle no SPRT: the candidate is rejected and no network is current.
    assert state["generations"][1]["gate"]["accepted"] is False and state["current"] is None
    assert lines[0] == "duel: generation 2: selfplay" and "all 2 generations done" in lines[-1]
    logged = (tmp_path / "pipeline.log").read_text().splitlines()  # both runs' lines, each with its time
    assert [line.split(" ", 1)[1] for line in logged[-len(lines):]] == lines
    assert logged[0].endswith(" duel: generation 1: selfplay") and logged[0][:4].isdigit() and logged[0][19] == "Z"
    # Generation 2 trained on both generations' self-play (the window).
    network = read_network(tmp_path / "gen-002" / "candidate.smnet")
    assert [d["rows"] for d in network.training["data"]] == [24, 24]


def test_a_stage_stops_before_a_step_it_cannot_hold(tmp_path, fake_selfplay):
    lines: list[str] = []
    assert not pipe.Pipeline(settings(), tmp_path, say=lines.append).run(time.monotonic() - 1)
    assert lines == ["duel: stage time is up before generation 1 selfplay"] and not fake_selfplay.calls


def test_a_stage_ends_in_the_middle_of_self_play_and_the_next_goes_on(tmp_path, fake_selfplay):
    pytest.importorskip("torch")
    fake_selfplay.stop_at = 1  # the stage's deadline comes before the first self-play's games are all played
    lines: list[str] = []
    deadline = time.monotonic() + 3600
    assert not pipe.Pipeline(settings(generations=1), tmp_path, say=lines.append).run(deadline)
    assert lines == ["duel: generation 1: selfplay",
                     "duel: stage time is up during generation 1 selfplay (its finished games are kept)"]
    assert fake_selfplay.deadlines == [deadline]
    state = json.loads((tmp_path / "pipeline.json").read_text())
    record = state["generations"][0]
    assert record["done"] == [] and record["seconds"] == {} and set(record["partial"]) == {"selfplay"}
    record["partial"]["selfplay"] = 600.0  # as if it had played for ten minutes
    (tmp_path / "pipeline.json").write_text(json.dumps(state))
    assert pipe.run_report(tmp_path)[1] == "generation 1: selfplay 600 s so far"
    assert pipe.run_seconds(tmp_path) == 600.0
    fake_selfplay.stop_at = None
    assert pipe.Pipeline(settings(generations=1), tmp_path, say=lambda _: None).run(time.monotonic() + 3600)
    record = json.loads((tmp_path / "pipeline.json").read_text())["generations"][0]
    assert record["done"] == list(STEPS) and "partial" not in record
    assert 600.0 <= record["seconds"]["selfplay"] < 700.0  # both stages' seconds


def test_other_settings_in_the_same_directory_are_refused(tmp_path, fake_selfplay):
    pipeline = pipe.Pipeline(settings(), tmp_path, say=lambda _: None)
    pipeline.save_state()
    with pytest.raises(ValueError, match=r"a run with other settings \(epochs\) is in this directory"):
        pipe.Pipeline(settings(epochs=3), tmp_path)


def test_more_generations_continue_a_run_and_fewer_are_refused(tmp_path, fake_selfplay):
    pytest.importorskip("torch")
    assert pipe.Pipeline(settings(generations=1), tmp_path, say=lambda _: None).run(time.monotonic() + 3600)
    lines: list[str] = []
    assert pipe.Pipeline(settings(generations=2), tmp_path, say=lines.append).run(time.monotonic() + 3600)
    state = json.loads((tmp_path / "pipeline.json").read_text())
    assert lines[0] == "duel: generation 2: selfplay" and state["settings"]["generations"] == 2
    assert [r["done"] for r in state["generations"]] == [["selfplay", "train", "gate"]] * 2
    with pytest.raises(ValueError, match=r"has begun 2 generations; --generations 1 would leave them unfinished"):
        pipe.Pipeline(settings(generations=1), tmp_path)


def test_the_search_value_share_reaches_training_and_old_runs_resume(tmp_path, fake_selfplay):
    pytest.importorskip("torch")
    assert pipe.Pipeline(settings(generations=1, search_value_share=0.25), tmp_path / "new",
                         say=lambda _: None).run(time.monotonic() + 3600)
    network = read_network(tmp_path / "new" / "gen-001" / "candidate.smnet")
    assert network.training["settings"]["search_value_share"] == 0.25
    # a run begun before the setting existed trained on results only, and resumes with 0
    pipeline = pipe.Pipeline(settings(), tmp_path / "old", say=lambda _: None)
    del pipeline.state["settings"]["search_value_share"]
    pipeline.save_state()
    pipe.Pipeline(settings(search_value_share=0.0), tmp_path / "old")
    with pytest.raises(ValueError, match=r"other settings \(search_value_share\)"):
        pipe.Pipeline(settings(), tmp_path / "old")
    with pytest.raises(ValueError, match=r"search-value-share must be in \[0, 1\], got -1"):
        settings(search_value_share=-1)


def test_dropout_and_positions_per_game_reach_training_and_old_runs_resume(tmp_path, fake_selfplay):
    pytest.importorskip("torch")
    assert pipe.Pipeline(settings(generations=1, dropout=0.0, positions_per_game=0), tmp_path / "new",
                         say=lambda _: None).run(time.monotonic() + 3600)
    trained = read_network(tmp_path / "new" / "gen-001" / "candidate.smnet").training["settings"]
    assert (trained["dropout"], trained["positions_per_game"]) == (0.0, 0)
    # a run begun before the two options trained with 0.3 and 8, and resumes with them
    pipeline = pipe.Pipeline(settings(), tmp_path / "old", say=lambda _: None)
    for key in ("dropout", "positions_per_game"):
        del pipeline.state["settings"][key]
    pipeline.save_state()
    pipe.Pipeline(settings(), tmp_path / "old")
    with pytest.raises(ValueError, match=r"other settings \(dropout, positions_per_game\)"):
        pipe.Pipeline(settings(dropout=0.0, positions_per_game=0), tmp_path / "old")
    with pytest.raises(ValueError, match=r"dropout must be in \[0, 1\), got 1"):
        settings(dropout=1)
    with pytest.raises(ValueError, match=r"positions-per-game must be >= 0 \(0 = all\), got -1"):
        settings(positions_per_game=-1)


def test_a_run_can_start_from_a_network(tmp_path, fake_selfplay):
    pytest.importorskip("torch")
    start = write_network(tmp_path / "start.smnet", random_network("duel", (4,)))
    run = tmp_path / "run"
    assert pipe.Pipeline(settings(generations=1, start=str(start)), run, say=lambda _: None).run(time.monotonic() + 3600)
    state = json.loads((run / "pipeline.json").read_text())
    assert state["settings"]["start"] == str(start) and (run / "start.smnet").read_bytes() == start.read_bytes()
    assert state["parent"] == hashlib.sha256(start.read_bytes()).hexdigest()[:8]  # named by its hash
    assert state["generations"][0]["guided"] is True  # generation 1 already searched with it
    candidate = read_network(run / "gen-001" / "candidate.smnet")
    assert candidate.training["settings"]["init"] == str(run / "start.smnet")  # warm-started from it
    with pytest.raises(ValueError, match=r"other settings \(start\)"):
        pipe.Pipeline(settings(generations=1), run)


def test_the_start_network_is_checked_first(tmp_path):
    shipped = pipe.Pipeline(settings(start="shipped", hidden=(64, 64)), tmp_path / "shipped")
    assert shipped.state["current"] == "start.smnet"
    assert (tmp_path / "shipped" / "start.smnet").read_bytes() == shipped_file("duel").read_bytes()
    with pytest.raises(ValueError, match=r"--start shipped: no network of duel is shipped in .*empty"):
        pipe.Pipeline(settings(start="shipped"), tmp_path / "d", networks=tmp_path / "empty")
    with pytest.raises(ValueError, match=r"--start nowhere.smnet: no such network file"):
        pipe.Pipeline(settings(start="nowhere.smnet"), tmp_path / "a")
    other = write_network(tmp_path / "s2.smnet", random_network("splendor-2p", (4,)))
    with pytest.raises(ValueError, match=r"s2.smnet: a network of splendor-2p, not duel"):
        pipe.Pipeline(settings(start=str(other)), tmp_path / "b")
    wide = write_network(tmp_path / "wide.smnet", random_network("duel", (8,)))
    with pytest.raises(ValueError, match=r"hidden sizes \[8\] differ from --hidden \[4\]"):
        pipe.Pipeline(settings(start=str(wide)), tmp_path / "c")
    assert not (tmp_path / "c").exists()


def test_gate_rule():
    assert pipe.gate_verdict([1, 1, 0], 2, "H1")["accepted"]
    assert not pipe.gate_verdict([1, 1, 1], 2, None)["accepted"]
    assert pipe.gate_verdict([1.0] * 30 + [0.0] * 30, 3, None)["accepted"]  # 0.5 > 1/3 clearly
    assert not pipe.gate_verdict([1.0] * 2 + [0.0] * 4, 3, None)["accepted"]


def test_network_agent_names_the_network():
    assert pipe.network_agent(None, 100) == "mcts:iterations=100"
    assert pipe.network_agent("a.smnet", 100) == "mcts:iterations=100,network=a.smnet,value_mix=0.5"


def test_budget_is_the_familys_unless_an_option_is_given():
    assert (pipe.budget("duel").selfplay_games, pipe.budget("splendor-3-4p").gate_games) == (500, 300)
    chosen = pipe.budget("splendor-2p", selfplay_games=10, epochs=None)
    assert chosen.selfplay_games == 10 and chosen.epochs == DEFAULT_EPOCHS
    with pytest.raises(ValueError, match="generations must be at least 1"):
        pipe.budget("duel", generations=0)


def test_pipeline_command_errors(tmp_path, monkeypatch, capsys):
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--stage-hours", "0"]) == exit_codes.USAGE
    assert "--stage-hours must be positive" in capsys.readouterr().err
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel", "--window", "0"]) == exit_codes.USAGE
    assert "window must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse's own refusal
        cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel", "--hidden", "0"])
    assert refused.value.code == exit_codes.USAGE
    assert "hidden sizes must be positive, got '0'" in capsys.readouterr().err
    # --hidden reaches the run: the shipped network's trunk is not the one asked for
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel", "--hidden", "128,128",
                     "--start", "shipped"]) == exit_codes.USAGE
    assert "hidden sizes [64, 64] differ from --hidden [128, 128]" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel"]) == exit_codes.FAILURE
    assert "pip install \".[train]\"" in capsys.readouterr().err
    assert not (tmp_path / "duel").exists()  # nothing started


def test_a_step_is_estimated_from_a_generation_alike(tmp_path):
    pipeline = pipe.Pipeline(settings(), tmp_path, say=lambda _: None)
    pipeline.state["generations"] = [{"generation": 1, "done": list(STEPS), "guided": False, "seconds": {"gate": 10.0}},
                                     {"generation": 2, "done": list(STEPS), "guided": True, "seconds": {"gate": 200.0}}]
    assert pipeline.estimate("gate") == 10.0 and pipeline.estimate("train") == 0.0
    pipeline.state["current"] = "gen-001/candidate.smnet"
    assert pipeline.estimate("gate") == 200.0
    pipeline.state["generations"][1]["seconds"]["selfplay"] = 3000.0
    assert pipeline.estimate("selfplay") == 0.0  # it stops at the deadline itself, so it may always begin


def test_run_selfplay_passes_the_deadline_and_says_whether_it_came_first(tmp_path, monkeypatch):
    from splendor_mcts.learning import selfplay as sp

    seen = []

    def selfplay(out, games, game, search, seed, workers, deadline):
        seen.append((game, deadline))
        return SimpleNamespace(stopped=deadline < 100)

    monkeypatch.setattr(sp, "selfplay", selfplay)
    assert pipe.run_selfplay("splendor", 3, "mcts", 4, tmp_path, seed=1, workers=1, deadline=50.0) is False
    assert pipe.run_selfplay("duel", 2, "mcts", 4, tmp_path, seed=1, workers=1, deadline=500.0) is True
    assert seen == [("splendor(players=3)", 50.0), ("duel", 500.0)]


def test_input_features_reach_training_from_a_start_without_them(tmp_path, monkeypatch):
    pytest.importorskip("torch")

    def selfplay(game, players, agent, games, out, seed, workers, deadline=None):
        out.mkdir(parents=True, exist_ok=True)
        write_shard(out / "shard-00000.npz", "splendor-2p", games=4, moves=6, seed=seed, first_game=seed * 100)
        return True

    monkeypatch.setattr(pipe, "run_selfplay", selfplay)
    monkeypatch.setattr(pipe, "network_agent", lambda network, iterations, family_name=None: f"mcts:iterations={iterations}")
    start = write_network(tmp_path / "start.smnet", random_network("splendor-2p", (4,)))
    run = tmp_path / "run"
    given = settings(family="splendor-2p", generations=1, start=str(start), features="needs")
    assert pipe.Pipeline(given, run, say=lambda _: None).run(time.monotonic() + 3600)
    assert json.loads((run / "pipeline.json").read_text())["settings"]["features"] == "needs"
    assert read_network(run / "gen-001" / "candidate.smnet").features == "needs"
    with pytest.raises(ValueError, match=r"other settings \(features\)"):
        pipe.Pipeline(settings(family="splendor-2p", generations=1, start=str(start)), run)
    with pytest.raises(ValueError, match="input features 'needs' are for splendor, not duel"):
        settings(features="needs")
    featured = tmp_path / "run" / "gen-001" / "candidate.smnet"
    with pytest.raises(ValueError, match="reads the input features 'needs'; give --features needs"):
        pipe.Pipeline(settings(family="splendor-2p", start=str(featured)), tmp_path / "other")
