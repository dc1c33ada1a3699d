"""``splendor-mcts pipeline --recipe``: a chain of pipeline runs, each shipping its network into
the recipe's own networks folder for the next to begin from; and the shipped recipe is how
the package's networks were made (their provenance says so)."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from test_learning_pipeline import fake_selfplay  # noqa: F401  (a fixture)

from splendor_mcts import cli, exit_codes
from splendor_mcts.learning import pipeline as pipe
from splendor_mcts.learning.provenance import read_provenance
from splendor_mcts.learning.recipe import RECIPES, RecipeRun, run_recipe
from splendor_mcts.learning.weights import read_network
from splendor_mcts.search.network_index import read_index
from splendor_mcts.search.networks import folder as package_networks, shipped_file

ROOT = Path(__file__).resolve().parents[1]
PROVENANCE = ROOT / "bench" / "networks"  # the package's networks' provenance, by hash

SMALL = {"generations": 1, "selfplay_games": 4, "iterations": 4, "epochs": 1, "window": 1, "hidden": (4,),
         "gate_games": 2}
CHAIN = (RecipeRun("first", "duel", SMALL), RecipeRun("more", "duel", {**SMALL, "start": "shipped", "seed": 1}))
COMPUTE = re.compile(r", (\d+ h )?\d+ min of compute")


def compute_as_c(lines: list[str]) -> list[str]:
    """The report's lines with each compute time (which a test run's speed sets) written ", C"."""
    return [COMPUTE.sub(", C", line) for line in lines]


def provenance_chain(family: str, provenance: Path = PROVENANCE, start: str | None = None) -> list[Path]:
    """The provenance folders of the runs behind the network ``start`` (by default the
    package's of ``family``), each parent by its hash, the first run first."""
    chain, key = [], start or read_index(package_networks())[family].sha256[:8]
    while key is not None:
        where = provenance / key
        assert (where / "pipeline.json").is_file(), f"{where}: no provenance of the network {key}"
        chain.insert(0, where)
        key = read_provenance(where)["training"]["parent"]
    return chain


@pytest.mark.parametrize("family", ["splendor-2p", "splendor-3-4p", "duel"])
def test_the_shipped_recipe_is_how_the_package_networks_were_made(family, monkeypatch):
    monkeypatch.delenv("SPLENDOR_MCTS_NETWORKS", raising=False)
    chain = provenance_chain(family)
    recorded = [json.loads((where / "pipeline.json").read_text())["settings"] for where in chain]
    for run in recorded:
        run.pop("workers")  # the machine's, not the recipe's
        run.setdefault("dropout", 0.3)  # runs begun before the options trained with these (pipeline.py)
        run.setdefault("positions_per_game", 8)
    recipe = [pipe.budget(run.family, workers=1, **run.options).recorded()
              for run in RECIPES["shipped"] if run.family == family]
    for run in recipe:
        run.pop("workers")
    assert recipe == recorded and len(recorded) >= 1
    steps = [read_provenance(where)["training"]["step"] for where in chain]
    assert steps == [f"shipped/{run.key}" for run in RECIPES["shipped"] if run.family == family]


def accept_every_candidate(monkeypatch, accepted: bool = True) -> None:
    monkeypatch.setattr(pipe, "gate_verdict", lambda scores, players, sprt: {
        "accepted": accepted, "why": "the test's gate", "games": len(scores), "score": 0.5, "sprt": sprt})


def test_a_recipe_runs_its_chain_in_stages_ships_each_network_and_resumes(tmp_path, fake_selfplay, monkeypatch):
    pytest.importorskip("torch")
    accept_every_candidate(monkeypatch)
    lines: list[str] = []
    assert not run_recipe("test", tmp_path, 1, time.monotonic() - 1, say=lines.append, runs=CHAIN)
    assert lines == ["duel: stage time is up before generation 1 selfplay"] and not fake_selfplay.calls
    fake_selfplay.fail_at = 2  # the second run's self-play is interrupted
    with pytest.raises(KeyboardInterrupt):
        run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lines.append, runs=CHAIN)
    networks, provenance = tmp_path / "networks", tmp_path / "provenance"
    first = shipped_file("duel", networks)
    assert same_weights(first, tmp_path / "first" / "duel" / "current.smnet")
    assert (tmp_path / "more" / "duel" / "start.smnet").read_bytes() == first.read_bytes()  # began from what was shipped
    assert json.loads((tmp_path / "recipe.json").read_text()) == {"recipe": "test", "shipped": ["first/duel"]}
    fake_selfplay.fail_at = None
    lines.clear()
    assert run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lines.append, runs=CHAIN)
    more = shipped_file("duel", networks)
    assert lines[0] == "duel: generation 1: selfplay" and lines[-2] == f"more/duel: shipped into {more}"
    assert lines[-1].startswith(f"recipe test done: the networks are in {networks}")
    assert same_weights(more, tmp_path / "more" / "duel" / "current.smnet")
    assert json.loads((tmp_path / "more" / "duel" / "pipeline.json").read_text())["parent"] == first.stem[-8:]
    # The networks folder: the final network and the index, no earlier one; the chain by hash in provenance/.
    assert sorted(p.name for p in networks.iterdir()) == sorted(["index.json", more.name])
    assert [p.name for p in provenance_chain("duel", provenance, more.stem[-8:])] == [first.stem[-8:], more.stem[-8:]]
    for where in provenance.iterdir():
        assert sorted(str(p.relative_to(where)) for p in where.rglob("*") if p.is_file()) == \
            [str(Path("gen-001", "gate.txt")), "network.json", "pipeline.json", "pipeline.log"]
    assert read_network(more).training["step"] == "test/more/duel"
    shipped = {p.relative_to(tmp_path) for p in tmp_path.glob("[np]*/**/*") if p.is_file()}
    for path in shipped:  # the header included: no path of the run's machine
        assert b"/" + tmp_path.name.encode() not in (tmp_path / path).read_bytes(), path
    # Interrupted after shipping but before recording it: nothing is shipped twice, nothing logged again.
    (tmp_path / "recipe.json").write_text(json.dumps({"recipe": "test", "shipped": ["first/duel"]}))
    log = (tmp_path / "more" / "duel" / "pipeline.log").read_text()
    lines.clear()
    assert run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lines.append, runs=CHAIN)
    assert len(lines) == 1 and (tmp_path / "more" / "duel" / "pipeline.log").read_text() == log
    assert {p.relative_to(tmp_path) for p in tmp_path.glob("[np]*/**/*") if p.is_file()} == shipped
    assert json.loads((tmp_path / "recipe.json").read_text())["shipped"] == ["first/duel", "more/duel"]


def same_weights(a: Path, b: Path) -> bool:
    """Whether two networks' layers are byte for byte the same (their headers may differ)."""
    first, second = read_network(a), read_network(b)
    return [(x.name, x.weight.tobytes(), x.bias.tobytes()) for x in first.layers] == \
        [(y.name, y.weight.tobytes(), y.bias.tobytes()) for y in second.layers]


def test_a_recipe_refuses_another_recipes_directory_and_other_workers(tmp_path, fake_selfplay, monkeypatch):
    pytest.importorskip("torch")
    accept_every_candidate(monkeypatch)
    two = (RecipeRun("first", "duel", {**SMALL, "generations": 2}),)
    fake_selfplay.fail_at = 1  # before any step is done
    with pytest.raises(KeyboardInterrupt):
        run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lambda _: None, runs=two)
    with pytest.raises(ValueError, match=r"recipe.json: the recipe 'test' is in this directory; give --recipe test"):
        run_recipe("shipped", tmp_path, 1, time.monotonic() + 3600, say=lambda _: None)
    fake_selfplay.fail_at = 3  # (calls are counted from the first) generation 2: generation 1 is done with 1 worker
    with pytest.raises(KeyboardInterrupt):
        run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lambda _: None, runs=two)
    with pytest.raises(ValueError, match=r"a run with other settings \(workers\) is in this directory"):
        run_recipe("test", tmp_path, 2, time.monotonic() + 3600, say=lambda _: None, runs=two)
    (tmp_path / "recipe.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"recipe.json: cannot read the recipe's state"):
        run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lambda _: None, runs=two)


def test_a_run_without_a_network_stops_the_recipe_where_a_later_run_needs_it(tmp_path, fake_selfplay, monkeypatch):
    pytest.importorskip("torch")
    accept_every_candidate(monkeypatch, accepted=False)
    with pytest.raises(RuntimeError, match=r"first.duel: no network was accepted in this run, and a later run"):
        run_recipe("test", tmp_path, 1, time.monotonic() + 3600, say=lambda _: None, runs=CHAIN)
    assert not (tmp_path / "networks").exists() and not (tmp_path / "more").exists()
    lines: list[str] = []
    assert run_recipe("alone", tmp_path / "alone", 1, time.monotonic() + 3600, say=lines.append, runs=CHAIN[:1])
    assert "first/duel: no network was accepted; nothing shipped" in lines


def test_recipe_command_errors(tmp_path, capsys):
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--recipe", "shipped", "--generations", "3",
                     "--families", "duel"]) == exit_codes.USAGE
    assert "--recipe sets the runs' options itself; leave out --families, --generations" in capsys.readouterr().err
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--recipe", "shipped", "--workers", "0"]) == exit_codes.USAGE
    assert "workers must be at least 1, got 0" in capsys.readouterr().err
    assert not any(Path(tmp_path).iterdir())


def test_the_recipe_command_runs_in_stages(tmp_path, fake_selfplay, monkeypatch, capsys):
    pytest.importorskip("torch")
    from splendor_mcts.learning import recipe

    accept_every_candidate(monkeypatch)
    monkeypatch.setitem(recipe.RECIPES, "shipped", CHAIN)
    command = ["pipeline", "--dir", str(tmp_path), "--recipe", "shipped", "--workers", "1"]
    assert cli.main([*command, "--stage-hours", "1e-9"]) == exit_codes.OK
    assert f"stage over: run the same command again to continue ({tmp_path})" in capsys.readouterr().out
    assert cli.main(command) == exit_codes.OK
    assert "recipe shipped done" in capsys.readouterr().out
    assert json.loads((tmp_path / "recipe.json").read_text())["shipped"] == ["first/duel", "more/duel"]


def files_under(directory: Path) -> dict[Path, bytes]:
    return {p.relative_to(directory): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def test_the_report_says_where_a_recipe_stands_and_its_state_goes_on_elsewhere(tmp_path, fake_selfplay, monkeypatch,
                                                                              capsys):
    pytest.importorskip("torch")
    import shutil

    from splendor_mcts.learning import recipe

    accept_every_candidate(monkeypatch)
    monkeypatch.setitem(recipe.RECIPES, "shipped", CHAIN)
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    fake_selfplay.fail_at = 2  # the second run's self-play is interrupted
    with pytest.raises(KeyboardInterrupt):
        run_recipe("shipped", here, 1, time.monotonic() + 3600, say=lambda _: None)
    before = files_under(here)
    first = shipped_file("duel", here / "networks").stem[-8:]
    assert cli.main(["pipeline", "--dir", str(here), "--recipe", "shipped", "--report"]) == exit_codes.OK
    assert compute_as_c(capsys.readouterr().out.splitlines()) == [
        f"recipe shipped in {here}: 1 of 2 runs shipped, C",
        f"first/duel: shipped as {first} (1 of 1 generations done, C, network: gen-001/candidate.smnet)",
        "more/duel: begun, no step finished yet; next: generation 1 selfplay",  # its self-play was interrupted
        f"networks: {here / 'networks'} (duel)",
    ]
    assert files_under(here) == before  # read, nothing written
    # What a shipped run leaves, recipe.json, networks/ and provenance/, is all another machine needs to go on.
    elsewhere.mkdir()
    shutil.copy(here / "recipe.json", elsewhere)
    shutil.copytree(here / "networks", elsewhere / "networks")
    shutil.copytree(here / "provenance", elsewhere / "provenance")
    fake_selfplay.fail_at = None
    calls = len(fake_selfplay.calls)
    assert run_recipe("shipped", elsewhere, 1, time.monotonic() + 3600, say=lambda _: None)
    assert len(fake_selfplay.calls) == calls + 1  # the second run's one self-play; the first was not played again
    assert (elsewhere / "more" / "duel" / "start.smnet").read_bytes() == \
        shipped_file("duel", here / "networks").read_bytes()
    more = shipped_file("duel", elsewhere / "networks").stem[-8:]
    assert cli.main(["pipeline", "--dir", str(elsewhere), "--recipe", "shipped", "--report"]) == exit_codes.OK
    assert compute_as_c(capsys.readouterr().out.splitlines()[:3]) == [
        f"recipe shipped in {elsewhere}: 2 of 2 runs shipped, C",
        f"first/duel: shipped as {first} (1 of 1 generations done, C, network: gen-001/candidate.smnet)",
        f"more/duel: shipped as {more} (1 of 1 generations done, C, network: gen-001/candidate.smnet)"]


def test_the_report_of_a_run_under_way(tmp_path, fake_selfplay, monkeypatch, capsys):
    pytest.importorskip("torch")
    accept_every_candidate(monkeypatch)
    two = pipe.budget("duel", **{**SMALL, "generations": 2, "workers": 1})
    fake_selfplay.fail_at = 2  # generation 2's self-play is interrupted
    with pytest.raises(KeyboardInterrupt):
        pipe.Pipeline(two, tmp_path / "duel", say=lambda _: None).run(time.monotonic() + 3600)
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel", "--report"]) == exit_codes.OK
    out = capsys.readouterr().out.splitlines()
    assert compute_as_c(out)[0] == (f"duel ({tmp_path / 'duel'}): 1 of 2 generations done, C, "
                                    "network: gen-001/candidate.smnet; next: generation 2 selfplay")
    assert out[1].startswith("  generation 1: selfplay ") and ", train " in out[1] and ", gate " in out[1]
    assert out[1].endswith("; candidate accepted: the test's gate") and len(out) == 2


def test_report_errors_name_the_problem_and_write_nothing(tmp_path, capsys):
    assert cli.main(["pipeline", "--dir", str(tmp_path / "none"), "--report"]) == exit_codes.USAGE
    assert "no pipeline run of splendor-2p, splendor-3-4p, duel has begun here" in capsys.readouterr().err
    assert cli.main(["pipeline", "--dir", str(tmp_path / "none"), "--recipe", "shipped", "--report"]) == exit_codes.USAGE
    assert "none: no recipe has begun here (no recipe.json)" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()
    (tmp_path / "duel").mkdir()
    (tmp_path / "duel" / "pipeline.json").write_text('{"settings": {}}')
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel", "--report"]) == exit_codes.USAGE
    assert "pipeline.json: cannot read the pipeline state (KeyError('generations'))" in capsys.readouterr().err
    (tmp_path / "duel" / "pipeline.json").write_text(
        '{"settings": {"generations": 1}, "generations": [{"done": ["selfplay"], "seconds": {"selfplay": 1}, "gate": 3}]}')
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--families", "duel", "--report"]) == exit_codes.USAGE
    assert "pipeline.json: cannot read the pipeline state (TypeError(" in capsys.readouterr().err
    (tmp_path / "recipe.json").write_text('{"recipe": "other", "shipped": []}')
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--recipe", "shipped", "--report"]) == exit_codes.USAGE
    assert "the recipe 'other' is in this directory; give --recipe other" in capsys.readouterr().err


def test_the_report_counts_the_compute_of_the_steps_done(tmp_path, monkeypatch, capsys):
    """Each run's line and the recipe's total give the seconds of the steps done, from the
    state files: a shipped run's in its provenance, the run under way's in its folder (a step
    begun and not done counts nothing)."""
    from splendor_mcts.learning import recipe

    monkeypatch.setitem(recipe.RECIPES, "shipped", CHAIN)
    (tmp_path / "recipe.json").write_text('{"recipe": "shipped", "shipped": ["first/duel"]}')
    done = {"done": ["selfplay", "train", "gate"], "seconds": {"selfplay": 1500, "train": 300, "gate": 200},
            "gate": {"accepted": True, "why": "SPRT H1"}}
    (tmp_path / "provenance" / "0123abcd").mkdir(parents=True)
    (tmp_path / "provenance" / "0123abcd" / "network.json").write_text(json.dumps(
        {"family": "duel", "training": {"parent": None, "step": "shipped/first/duel"}}))
    (tmp_path / "provenance" / "0123abcd" / "pipeline.json").write_text(json.dumps(
        {"settings": {"generations": 1}, "current": "gen-001/candidate.smnet", "generations": [done]}))
    (tmp_path / "more" / "duel").mkdir(parents=True)
    (tmp_path / "more" / "duel" / "pipeline.json").write_text(json.dumps(
        {"settings": {"generations": 2}, "current": "start.smnet", "generations": [
            done, {"done": ["selfplay"], "seconds": {"selfplay": 1900, "train": 99}}]}))
    assert cli.main(["pipeline", "--dir", str(tmp_path), "--recipe", "shipped", "--report"]) == exit_codes.OK
    assert capsys.readouterr().out.splitlines()[:3] == [
        f"recipe shipped in {tmp_path}: 1 of 2 runs shipped, 1 h 38 min of compute",  # 2,000 + 2,000 + 1,900 s
        "first/duel: shipped as 0123abcd (1 of 1 generations done, 33 min of compute, network: gen-001/candidate.smnet)",
        "more/duel: 1 of 2 generations done, 1 h 5 min of compute, network: the one it began from; next: generation 2 train"]


RECORDED = ROOT / "bench" / "recipe-run"


def test_the_recorded_recipe_run_is_whole_and_within_the_budget(capsys):
    """bench/recipe-run keeps what the one command made from nothing, without its weights:
    its recipe.json and, by hash, each network's provenance (pipeline.json, pipeline.log and
    each generation's gate report). Every run shipped, within issue 16's 8 hours of compute,
    each chained to the network it began from, and every file path-free."""
    assert cli.main(["pipeline", "--dir", str(RECORDED), "--recipe", "shipped", "--report"]) == exit_codes.OK
    lines = capsys.readouterr().out.splitlines()
    runs = len(RECIPES["shipped"])
    total = re.fullmatch(rf"recipe shipped in {RECORDED}: {runs} of {runs} runs shipped, (?:(\d+) h )?(\d+) min of compute",
                         lines[0])
    assert total, lines[0]
    assert int(total[1] or 0) * 60 + int(total[2]) <= 8 * 60
    made = {}
    for run, line in zip(RECIPES["shipped"], lines[1:]):
        found = re.match(rf"{run.key}: shipped as ([0-9a-f]{{8}}) \(", line)
        assert found, line
        made[run.key] = found[1]
    latest: dict[str, str] = {}
    for run in RECIPES["shipped"]:
        where = RECORDED / "provenance" / made[run.key]
        record = read_provenance(where)
        assert record["training"]["parent"] == (latest.get(run.family) if run.options.get("start") else None), run.key
        latest[run.family] = made[run.key]
        for generation in json.loads((where / "pipeline.json").read_text())["generations"]:
            assert (where / f"gen-{generation['generation']:03d}" / "gate.txt").is_file()
        assert "wrote gen-" in (where / "pipeline.log").read_text()  # each training's lines, relative
    assert sorted(p.name for p in RECORDED.iterdir()) == ["provenance", "recipe.json"]
