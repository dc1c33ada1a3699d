"""The shipped networks (python/splendor_mcts/networks/, search/networks.py): the word
``shipped`` at every door, ``none``, the index's entries (search/network_index.py), how
reports name a shipped network, and that the package carries the folder.

No committed weights are used but in the tests of the package's own folder: each test ships
small random networks into a temporary folder named by ``$SPLENDOR_MCTS_NETWORKS`` and turns
their index entries on there."""
from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

import splendor_mcts as sm
from splendor_mcts.analysis.queries import QueryError, QueryReader
from splendor_mcts.engines.server import EngineServer
from splendor_mcts.learning import pipeline, weights
from splendor_mcts.search.families import FAMILIES
from splendor_mcts.search import network_index, networks
from splendor_mcts.search.settings import SettingError, make_params
from splendor_mcts.tournament import Tournament, TournamentConfig, parse_agent_spec

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
_spec = importlib.util.spec_from_file_location("random_network", ROOT / "bench" / "random_network.py")
random_network = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(random_network)


def ship(folder: Path, game: sm.Game, seed: int = 0) -> Path:
    """A random network of ``game``'s family shipped into ``folder`` (its index entry off)."""
    family = networks.game_family(game.name, game.num_players())
    folder.mkdir(parents=True, exist_ok=True)
    made = weights.write_network(folder / "made.smnet", random_network.random_network(game, (16,), seed))
    data = made.read_bytes()
    made.unlink()
    return network_index.install(folder, family, data)


PACKAGE = Path(sm.__file__).resolve().parent / "networks"
PACKAGE_TABLE = network_index.read_index(PACKAGE)  # as shipped: what a command run in a subprocess sees


def on_or_off(family: str) -> str:
    """How help describes the family's entry in the index of the folder the test ships into."""
    counts = [str(p) for p in FAMILIES[family].players if networks.index()[family].default_for(p)]
    return f"on for {' and '.join(counts)} players" if counts else "off"


@pytest.fixture
def shipped(tmp_path, monkeypatch) -> Path:
    """A shipped folder with Splendor 2p and Duel networks (none for 3-4 players), every entry off."""
    folder = tmp_path / "networks"
    ship(folder, sm.load_game("splendor", players=2))
    ship(folder, sm.load_game("duel"))
    monkeypatch.setenv(networks.FOLDER_VARIABLE, str(folder))  # every entry off: each test turns on its own
    return folder


@pytest.fixture
def nothing_shipped(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    monkeypatch.setenv(networks.FOLDER_VARIABLE, str(folder))
    return folder


def set_entry(family: str, **settings) -> None:
    """The family's entry in the index of the folder the test ships into, with ``settings``."""
    folder = networks.folder()
    assert folder != PACKAGE, "a test changes the index of its own folder, never the package's"
    entries = network_index.read_index(folder)
    entries[family] = replace(entries[family], **settings)
    network_index.write_index(folder, entries)


def turn_on(family: str, **settings) -> None:
    set_entry(family, on=True, **settings)


def turn_off(family: str) -> None:
    set_entry(family, on=False)


def path_of(family: str) -> Path:
    """The family's shipped file in the folder the test ships into."""
    path = networks.shipped_file(family)
    assert path is not None
    return path


def label(path: Path, family: str) -> str:
    return f"shipped:{family}@{hashlib.sha256(path.read_bytes()).hexdigest()[:8]}"


def state_of(game: sm.Game, seed: int = 1):
    return game.new_initial_state(seed=seed)


# ---------------------------------------------------------------- the package and the table

def test_the_package_carries_the_networks_folder(monkeypatch):
    """The installed package has its networks/ folder (the wheel took it) and finds it at
    run time; no environment variable is needed."""
    monkeypatch.delenv(networks.FOLDER_VARIABLE, raising=False)
    folder = networks.folder()
    assert folder == PACKAGE
    assert (folder / "index.json").is_file() and networks.shipped_families() == list(FAMILIES)


def test_the_wheel_takes_every_network_file():
    """pyproject.toml ships the whole package folder and nothing ignores a .smnet or the
    index (scikit-build-core leaves out what .gitignore names)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["scikit-build"]
    assert config["wheel"]["packages"] == ["python/splendor_mcts"] and "exclude" not in config["wheel"]
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    files = ["python/splendor_mcts/networks/index.json",
             *(f"python/splendor_mcts/networks/{entry.file}" for entry in PACKAGE_TABLE.values()),
             *(f"python/splendor_mcts/networks/{f}-0123abcd.smnet" for f in FAMILIES)]  # any network shipped later
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "--no-index", *files],
                             capture_output=True, text=True)
    assert ignored.stdout.split() == []


def test_the_default_search_uses_the_shipped_network_of_every_family_turned_on(monkeypatch):
    """The package's own table and networks: each family's default search, as a person gets it."""
    monkeypatch.delenv(networks.FOLDER_VARIABLE, raising=False)
    for family, game in (("splendor-2p", sm.load_game("splendor", players=2)),
                         ("splendor-3-4p", sm.load_game("splendor", players=3)),
                         ("splendor-3-4p", sm.load_game("splendor", players=4)), ("duel", sm.load_game("duel"))):
        shown = sm.analyze(state_of(game), iterations=20, threads=1, seed=1).to_dict()["params"]
        on = PACKAGE_TABLE[family].default_for(game.num_players())
        expected = label(PACKAGE / PACKAGE_TABLE[family].file, family) if on else None
        assert shown["network"] == expected, (family, game.num_players())


def test_the_package_index_names_every_family_and_each_file_by_its_hash():
    assert list(PACKAGE_TABLE) == list(FAMILIES)
    for family, use in PACKAGE_TABLE.items():
        assert use.players is None or set(use.players) < set(FAMILIES[family].players), family
        assert hashlib.sha256((PACKAGE / use.file).read_bytes()).hexdigest() == use.sha256, family
        assert use.file == f"{family}-{use.sha256[:8]}.smnet"


# ---------------------------------------------------------------- the word shipped

def test_shipped_is_the_file_of_the_games_family(shipped):
    assert networks.shipped_network("splendor", 2) == path_of("splendor-2p")
    assert networks.shipped_network("duel", 2) == path_of("duel")
    assert networks.shipped_families() == ["splendor-2p", "duel"]
    with pytest.raises(ValueError, match="no network is shipped for the family splendor-3-4p"):
        networks.shipped_network("splendor", 3)
    with pytest.raises(ValueError, match="no network family plays nim with 2 players"):
        networks.shipped_network("nim", 2)


def test_analyze_with_shipped_searches_as_with_the_file_and_names_it_by_family_and_hash(shipped):
    state = state_of(sm.load_game("splendor", players=2))
    path = path_of("splendor-2p")
    by_name = sm.analyze(state, iterations=200, threads=1, seed=3, network="shipped")
    by_file = sm.analyze(state, iterations=200, threads=1, seed=3, network=str(path), value_mix=0.5)
    assert [(m.action, m.visits) for m in by_name.moves] == [(m.action, m.visits) for m in by_file.moves]
    assert by_name.moves[0].prior is not None
    shown = by_name.to_dict()["params"]
    assert shown["network"] == label(path, "splendor-2p") and shown["valueMix"] == 0.5  # the table's
    assert by_file.to_dict()["params"]["network"] == label(path, "splendor-2p")
    assert by_name.params.network == str(path)  # the file itself, to build another search like it


def test_a_file_of_ones_own_is_shown_as_given(tmp_path, shipped):
    game = sm.load_game("duel")
    own = tmp_path / "mine.smnet"
    weights.write_network(own, random_network.random_network(game, (8,), 5))
    shown = sm.analyze(state_of(game), iterations=50, threads=1, network=str(own)).to_dict()["params"]
    assert shown["network"] == str(own)


def test_the_table_gives_value_mix_and_puct_unless_given(shipped, monkeypatch):
    turn_on("duel", value_mix=0.25, puct=2.0)
    game = sm.load_game("duel")
    params = make_params(game.entry.search_defaults, game="duel", players=2, iterations=10, network="shipped")
    assert (params.value_mix, params.puct) == (0.25, 2.0)
    params = make_params(game.entry.search_defaults, game="duel", players=2, iterations=10, network="shipped",
                         value_mix=1.0, puct=0.5)
    assert (params.value_mix, params.puct) == (1.0, 0.5)


# ---------------------------------------------------------------- the default table

def test_with_every_entry_off_the_default_search_has_no_network(shipped):
    state = state_of(sm.load_game("splendor", players=2))
    plain = sm.analyze(state, iterations=300, threads=1, seed=2)
    assert plain.params.network == "" and plain.to_dict()["params"]["network"] is None
    assert plain.moves[0].prior is None


def test_an_entry_on_makes_the_default_search_use_it_and_none_turns_it_off(shipped, monkeypatch):
    game = sm.load_game("splendor", players=2)
    state = state_of(game)
    plain = sm.analyze(state, iterations=300, threads=1, seed=2)
    turn_on("splendor-2p", value_mix=0.5)
    guided = sm.analyze(state, iterations=300, threads=1, seed=2)
    shipped_file = path_of("splendor-2p")
    assert guided.params.network == str(shipped_file) and guided.params.value_mix == 0.5
    assert guided.to_dict()["params"]["network"] == label(shipped_file, "splendor-2p")
    off = sm.analyze(state, iterations=300, threads=1, seed=2, network="none")
    assert off.params.network == "" and [(m.action, m.visits) for m in off.moves] == \
        [(m.action, m.visits) for m in plain.moves]  # exactly the search without a network
    # another family's entry stays off: Duel and Splendor 3p search as before
    assert sm.analyze(state_of(sm.load_game("duel")), iterations=50, threads=1).params.network == ""
    assert sm.analyze(state_of(sm.load_game("splendor", players=3)), iterations=50, threads=1).params.network == ""
    # the bot and the tournament's mcts agent take the default too
    assert sm.MCTSBot(game, iterations=20).params.network == str(shipped_file)
    assert sm.MCTSBot(game, iterations=20, network="none").params.network == ""


def test_an_entry_on_gives_way_to_a_python_evaluator(shipped, monkeypatch):
    import numpy as np

    turn_on("splendor-2p")
    state = state_of(sm.load_game("splendor", players=2))

    def evaluate(observations, legal, players):
        return np.full((len(observations), 4), 0.5, dtype=np.float32)

    result = sm.analyze(state, iterations=30, threads=1, seed=1, evaluate_with=evaluate)
    assert result.params.network == ""


def test_an_entry_whose_file_is_gone_or_replaced_is_a_clear_error(shipped):
    turn_on("duel")
    duel = path_of("duel")
    data = duel.read_bytes()
    sm.analyze(state_of(sm.load_game("duel")), iterations=10)  # hashed and cached, by the file's mtime
    duel.write_bytes(data[:-4] + bytes([0, 0, 128, 63]))  # other weights (the last bias 1.0), the index not told
    later = duel.stat().st_mtime_ns + 10**9  # a second later: within the same tick the cache could not tell
    os.utime(duel, ns=(later, later))
    with pytest.raises(ValueError, match=rf"{duel.name}: the file's SHA-256 begins [0-9a-f]{{8}}, not {duel.name[5:13]}"):
        sm.analyze(state_of(sm.load_game("duel")), iterations=10)
    duel.unlink()
    with pytest.raises(ValueError, match=rf"index.json: duel: its file {duel.name} is not in the folder"):
        sm.analyze(state_of(sm.load_game("duel")), iterations=10)
    assert sm.analyze(state_of(sm.load_game("duel")), iterations=10, network="none").params.network == ""


def test_a_folder_without_an_index_ships_nothing_and_says_so(nothing_shipped):
    (nothing_shipped / "duel").mkdir()  # laid out as before the index: not read
    with pytest.raises(ValueError, match=rf"no network is shipped for the family duel \(no index.json in "
                                         rf"{re.escape(str(nothing_shipped))}; shipped: none\)"):
        sm.analyze(state_of(sm.load_game("duel")), iterations=10, network="shipped")
    assert sm.analyze(state_of(sm.load_game("duel")), iterations=10).params.network == ""


GOOD = {"file": "duel-{short}.smnet", "sha256": "{sha}"}


@pytest.mark.parametrize("text, words", [
    ("{not json", "cannot read the networks index"),
    ('{"networks": {}}', 'not a networks index: write {"format": 1, "networks": {family: entry}}'),
    ('{"format": 1, "networks": {}, "extra": 1}', "not a networks index"),
    ('{"format": 1, "networks": {"chess": {}}}', "'chess' is no network family (families: splendor-2p, splendor-3-4p, duel)"),
    ('{"format": 1, "networks": {"duel": []}}', "duel: an entry must be an object"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{sha}", "default": true}}}',
     "duel: unknown key default (keys: file, formerly, note, on, players, puct, sha256, value_mix)"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{short}"}}}',
     "duel: sha256 must be the file's SHA-256 in 64 lower-case hex digits"),
    ('{"format": 1, "networks": {"duel": {"file": "duel.smnet", "sha256": "{sha}"}}}',
     "duel: file must be 'duel-{short}.smnet' (the family and its hash), got 'duel.smnet'"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{sha}", "on": "yes"}}}',
     "duel: on must be true or false, got 'yes'"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{sha}", "value_mix": 2}}}',
     "duel: value_mix must be a number from 0 to 1, got 2"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{sha}", "puct": 0}}}',
     "duel: puct must be a positive number or null, got 0"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{sha}", "players": [3]}}}',
     "duel: players must be null or a list of the family's player counts [2], got [3]"),
    ('{"format": 1, "networks": {"duel": {"file": "duel-{short}.smnet", "sha256": "{sha}", "formerly": ["x"]}}}',
     "duel: formerly must be a list of 8-digit hashes, got ['x']"),
])
def test_a_bad_index_is_refused_naming_it_and_the_problem(shipped, text, words):
    sha = hashlib.sha256(path_of("duel").read_bytes()).hexdigest()
    fill = {"{sha}": sha, "{short}": sha[:8]}
    for key, value in fill.items():
        text, words = text.replace(key, value), words.replace(key, value)
    (shipped / "index.json").write_text(text)
    with pytest.raises(ValueError) as caught:
        sm.analyze(state_of(sm.load_game("duel")), iterations=10, network="shipped")
    assert f"{shipped / 'index.json'}: " in str(caught.value) and words in str(caught.value)


def test_writing_a_bad_entry_leaves_the_index_as_it_was(shipped):
    before = (shipped / "index.json").read_bytes()
    entries = network_index.read_index(shipped)
    for bad in (replace(entries["duel"], value_mix=1.5), replace(entries["duel"], file="duel-00000000.smnet")):
        with pytest.raises(ValueError, match="duel: "):
            network_index.write_index(shipped, {**entries, "duel": bad})
    assert (shipped / "index.json").read_bytes() == before


def test_shipping_again_replaces_the_familys_file_and_keeps_its_settings(shipped):
    turn_on("duel", value_mix=0.25)
    earlier = path_of("duel")
    later = ship(shipped, sm.load_game("duel"), seed=9)
    assert later != earlier and not earlier.exists() and path_of("duel") == later
    entry = network_index.read_index(shipped)["duel"]
    assert (entry.on, entry.value_mix) == (True, 0.25)
    assert sorted(p.name for p in shipped.iterdir()) == sorted(["index.json", later.name, path_of("splendor-2p").name])


def test_a_name_the_same_weights_had_before_still_names_them(shipped):
    """A report written before the header was rewritten names the network by its old hash
    (the entry's ``formerly``): it searches with the same weights; another hash is refused."""
    set_entry("duel", formerly=("0badcafe",))
    state = state_of(sm.load_game("duel"))
    want = sm.analyze(state, iterations=100, threads=1, seed=3, network="shipped")
    got = sm.analyze(state, iterations=100, threads=1, seed=3, network="shipped:duel@0badcafe")
    assert [(m.action, m.visits) for m in got.moves] == [(m.action, m.visits) for m in want.moves]
    assert got.to_dict()["params"]["network"] == label(path_of("duel"), "duel")  # named by today's hash
    with pytest.raises(SettingError, match="'shipped:duel@0badcafd': the installed duel network is shipped:duel@"):
        sm.analyze(state, iterations=10, threads=1, network="shipped:duel@0badcafd")


def test_the_pipeline_says_none_where_the_default_would_use_a_shipped_network(shipped):
    turn_off("duel")
    assert pipeline.network_agent(None, 100, "duel") == "mcts:iterations=100"
    turn_on("duel")
    assert pipeline.network_agent(None, 100, "duel") == "mcts:iterations=100,network=none"
    assert pipeline.network_agent("a.smnet", 100, "duel") == "mcts:iterations=100,network=a.smnet,value_mix=0.5"


def test_a_selfplay_run_records_the_shipped_network_it_searches_with(shipped, monkeypatch):
    from splendor_mcts.learning.selfplay import make_settings

    turn_off("duel")
    assert "shipped" not in make_settings("duel", "mcts:iterations=50").to_dict()  # manifests as before
    turn_on("duel")
    want = label(path_of("duel"), "duel")
    assert make_settings("duel", "mcts:iterations=50").to_dict()["shipped"] == want
    assert "shipped" not in make_settings("duel", "mcts:iterations=50,network=none").to_dict()
    with pytest.raises(ValueError, match="splendor-3-4p"):
        make_settings("splendor(players=3)", "mcts:iterations=50,network=shipped")


# ---------------------------------------------------------------- each door's word and refusal

def test_sm_analyze_and_the_bot_refuse_a_family_with_nothing_shipped(shipped):
    three = sm.load_game("splendor", players=3)
    with pytest.raises(SettingError, match="no network is shipped for the family splendor-3-4p") as caught:
        sm.analyze(state_of(three), iterations=10, network="shipped")
    assert caught.value.setting == "network"
    with pytest.raises(ValueError, match="splendor-3-4p"):
        sm.MCTSBot(three, iterations=10, network="shipped")


def test_agent_specs_take_shipped_and_name_the_network_in_the_report(shipped, tmp_path):
    spec = parse_agent_spec("mcts:iterations=30,network=shipped,name=net")
    config = TournamentConfig(game="duel", agents=(spec.full_spec, "mcts:iterations=30,network=none,name=plain"),
                              mode="gauntlet", deals=1, seed=1, db=tmp_path / "t.sqlite")
    result = Tournament(config).run()
    want = label(path_of("duel"), "duel")
    assert result.networks == {"net": want}
    assert f"Shipped networks: net {want}" in result.report() and result.to_dict()["networks"] == {"net": want}


def test_a_name_from_a_report_searches_with_that_familys_network(shipped):
    """shipped:FAMILY and shipped:FAMILY@HASH (as reports name it) search as shipped does."""
    state = state_of(sm.load_game("splendor", players=2))
    path = path_of("splendor-2p")
    want = sm.analyze(state, iterations=200, threads=1, seed=3, network="shipped")
    for name in ("shipped:splendor-2p", label(path, "splendor-2p"),
                 "shipped:splendor-2p@" + label(path, "splendor-2p").split("@")[1].upper()):
        got = sm.analyze(state, iterations=200, threads=1, seed=3, network=name)
        assert [(m.action, m.visits, m.prior) for m in got.moves] == [(m.action, m.visits, m.prior) for m in want.moves]
        assert got.to_dict()["params"] == want.to_dict()["params"]  # value_mix and puct from the table too


@pytest.mark.parametrize("name, words", [
    ("shipped:duel", "'shipped:duel' is the network of duel with 2 players; this search plays splendor with 2 "
                     "players (the family splendor-2p: write shipped or shipped:splendor-2p)"),
    ("shipped:splendor-3-4p", "'shipped:splendor-3-4p': no network is shipped for the family splendor-3-4p"),
    ("shipped:splendor-2p@00000000", "'shipped:splendor-2p@00000000': the installed splendor-2p network is "
                                     "shipped:splendor-2p@"),
    ("shipped:splendor-2p@", "the installed splendor-2p network is shipped:splendor-2p@"),
    ("shipped:", "'shipped:' names no network family (families: splendor-2p, splendor-3-4p, duel)"),
    ("shipped:chess@1a2b3c4d", "'shipped:chess@1a2b3c4d' names no network family"),
])
def test_a_name_from_a_report_is_refused_saying_why(shipped, name, words):
    state = state_of(sm.load_game("splendor", players=2))
    with pytest.raises(SettingError) as caught:
        sm.analyze(state, iterations=10, threads=1, network=name)
    assert caught.value.setting == "network" and words in str(caught.value)


def test_a_tournament_refuses_another_games_named_network_before_any_game(shipped, tmp_path):
    spec = parse_agent_spec("mcts:iterations=30,network=shipped:duel")  # no game yet: the family is shipped
    config = TournamentConfig(game="splendor", agents=(spec.full_spec, "random"), mode="gauntlet", deals=1, seed=1,
                              db=tmp_path / "t.sqlite")
    with pytest.raises(ValueError, match="'shipped:duel' is the network of duel"):
        Tournament(config)
    assert not (tmp_path / "t.sqlite").exists()
    with pytest.raises(ValueError, match="parameter 'network': 'shipped:splendor-2p@00000000': the installed"):
        parse_agent_spec("mcts:iterations=30,network=shipped:splendor-2p@00000000")


def test_the_engine_play_shows_is_a_spec_that_searches_with_it_again(shipped, tmp_path):
    """play names its engine as an agent spec with network=shipped:FAMILY@HASH; that spec
    plays a tournament with the same network."""
    shown = "mcts:iterations=30,network=" + label(path_of("duel"), "duel")
    config = TournamentConfig(game="duel", agents=(shown + ",name=net", "mcts:iterations=30,network=none,name=plain"),
                              mode="gauntlet", deals=1, seed=1, db=tmp_path / "t.sqlite")
    assert Tournament(config).run().networks == {"net": label(path_of("duel"), "duel")}


def test_agent_specs_refuse_shipped_where_none_is(nothing_shipped):
    with pytest.raises(ValueError, match="parameter 'network': no network is shipped with this package"):
        parse_agent_spec("mcts:iterations=30,network=shipped")


def test_a_tournament_refuses_shipped_for_a_family_with_none_before_any_game(shipped, tmp_path):
    config = TournamentConfig(game="splendor(players=3)", agents=("mcts:iterations=30,network=shipped", "random",
                                                                 "greedy"),
                              mode="gauntlet", deals=1, seed=1, db=tmp_path / "t.sqlite")
    with pytest.raises(ValueError, match="agent 'mcts:iterations=30,network=shipped': no network is shipped "
                                         "for the family splendor-3-4p"):
        Tournament(config)
    assert not (tmp_path / "t.sqlite").exists()


def test_the_protocol_field_takes_shipped_and_names_the_field_when_refused(shipped):
    reader = QueryReader()
    view = json.loads((EXAMPLES / "splendor-2p-view.json").read_text())
    assert reader.read({"id": "a", "position": view, "network": "shipped"}).jobs
    three = json.loads((EXAMPLES / "splendor-3p-view.json").read_text())
    with pytest.raises(QueryError, match="splendor-3-4p") as caught:
        reader.read({"id": "b", "position": three, "network": "shipped"})
    assert caught.value.field == "network"


def test_the_protocols_take_a_name_from_a_report_and_refuse_another_games(shipped):
    view = json.loads((EXAMPLES / "splendor-2p-view.json").read_text())
    assert QueryReader().read({"id": "a", "position": view, "network": "shipped:splendor-2p"}).jobs
    with pytest.raises(QueryError, match="'shipped:duel' is the network of duel") as caught:
        QueryReader().read({"id": "b", "position": view, "network": "shipped:duel"})
    assert caught.value.field == "network"
    assert talk("setoption name network value shipped:duel", "newgame duel") == \
        [f"info string network {label(path_of('duel'), 'duel')}"]
    assert talk("setoption name network value shipped:duel", "newgame splendor")[0].startswith(
        "info string error newgame: 'shipped:duel' is the network of duel with 2 players")


def test_query_version_lists_the_shipped_networks(shipped, monkeypatch):
    from splendor_mcts.analysis.protocol import Engine

    turn_on("duel")
    out = io.StringIO()
    Engine(out, workers=0).handle_line(json.dumps({"id": "v", "action": "query_version"}))
    answer = json.loads(out.getvalue().splitlines()[-1])
    assert answer["networks"] == {
        "splendor-2p": {"network": label(path_of("splendor-2p"), "splendor-2p"), "default": False,
                        "defaultPlayers": []},
        "duel": {"network": label(path_of("duel"), "duel"), "default": True, "defaultPlayers": [2]}}


def test_an_entry_can_be_on_for_some_player_counts_only(shipped, monkeypatch):
    """splendor-3-4p on for 3 players: the 3-player default search uses it, the 4-player one
    does not (network=shipped still does), and query_version says which counts."""
    ship(shipped, sm.load_game("splendor", players=3))
    turn_on("splendor-3-4p", players=(3,))
    path = path_of("splendor-3-4p")
    three, four = sm.load_game("splendor", players=3), sm.load_game("splendor", players=4)
    assert sm.analyze(state_of(three), iterations=20, threads=1, seed=1).to_dict()["params"]["network"] == \
        label(path, "splendor-3-4p")
    assert sm.analyze(state_of(four), iterations=20, threads=1, seed=1).to_dict()["params"]["network"] is None
    assert sm.analyze(state_of(four), iterations=20, threads=1, seed=1,
                      network="shipped").to_dict()["params"]["network"] == label(path, "splendor-3-4p")
    summary = networks.shipped_summary()["splendor-3-4p"]
    assert summary["default"] is True and summary["defaultPlayers"] == [3]


def run_cli(*args: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, networks.FOLDER_VARIABLE: str(folder), "COLUMNS": "1000"}  # help lines unbroken
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], capture_output=True, text=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL)


def test_hint_takes_shipped_and_refuses_it_by_option_name(shipped):
    run = run_cli("hint", str(EXAMPLES / "splendor-2p-view.json"), "--iterations", "100", "--threads", "1",
                  "--network", "shipped", "--json", folder=shipped)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["params"]["network"].startswith("shipped:splendor-2p@")
    run = run_cli("hint", str(EXAMPLES / "splendor-3p-view.json"), "--iterations", "100", "--network", "shipped",
                  folder=shipped)
    assert run.returncode != 0 and "--network: no network is shipped for the family splendor-3-4p" in run.stderr
    assert "Traceback" not in run.stderr


def test_help_names_the_shipped_networks_by_family_and_hash(shipped):
    run = run_cli("hint", "--help", folder=shipped)
    text = " ".join(run.stdout.split())
    assert f"shipped: {label(path_of('splendor-2p'), 'splendor-2p')} " \
           f"(default {on_or_off('splendor-2p')}), " \
           f"{label(path_of('duel'), 'duel')} (default {on_or_off('duel')})" in text
    assert str(shipped) not in text


def talk(*lines: str) -> list[str]:
    """The engine protocol's answers to these lines."""
    out = io.StringIO()
    EngineServer(io.StringIO("".join(line + "\n" for line in lines)), out).run()
    return out.getvalue().splitlines()


def test_the_engine_names_the_shipped_network_of_a_new_game(shipped, monkeypatch):
    assert talk("newgame duel") == []  # the default search: no network, nothing said
    assert talk("setoption name network value shipped", "newgame duel") == \
        [f"info string network {label(path_of('duel'), 'duel')}"]
    turn_on("splendor-2p")
    assert talk("newgame splendor")[0].startswith("info string network shipped:splendor-2p@")
    assert talk("setoption name network value none", "newgame splendor") == []
    assert talk("setoption name network value shipped", "newgame splendor(players=3)")[0].startswith(
        "info string error newgame: no network is shipped for the family splendor-3-4p")


def test_the_engine_option_takes_shipped_and_none(nothing_shipped):
    out = talk("sep", "setoption name network value shipped")
    assert "option name network type string default auto" in out
    assert "info string error setoption: no network is shipped with this package; " \
           "give a .smnet file or leave the network out" in out
    state = sm.load_game("duel").new_initial_state(seed=1, explicit_chance=True)
    while state.is_chance_node():
        state.apply_action(state.dealt_outcome())
    out = talk("setoption name network value none", "newgame duel",
               f"position view {state.observation_json(state.current_player())}",
               "go iterations 50")
    assert out[-1].startswith("bestmove ") and not any("error" in line for line in out), out
