"""Self-play resumes verify before they trust (issue 49): each shard's SHA-256, rows and games
are in the manifest; a resume names a shard that is missing, damaged or another run's, sets it
aside and plays its games again, so the finished run reads back whole; reading a run checks
every shard against its entry; a manifest naming a file twice, a path out of the run or
entries of the wrong form is refused, naming the manifest and the entry."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from splendor_mcts import exit_codes
from splendor_mcts.cli import main
from splendor_mcts.learning import selfplay as sp
from splendor_mcts.learning.dataset import load_examples
from splendor_mcts.learning.shards import MANIFEST, Manifest, ShardError, read_run, shard_name

FAST = "mcts:iterations=24"
RUN = dict(search=FAST, seed=9, workers=1, games_per_shard=1, temperature_moves=2)
GAMES = 3
LOST = shard_name(1)


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of three games, a shard each (never changed: tests copy it)."""
    directory = tmp_path_factory.mktemp("whole")
    sp.selfplay(directory, GAMES, "duel", **RUN)
    return directory


@pytest.fixture(scope="module")
def other_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of another seed: its shards are foreign to ``whole``."""
    directory = tmp_path_factory.mktemp("other")
    sp.selfplay(directory, 2, "duel", **{**RUN, "seed": 10})
    return directory


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _copy(whole: Path, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(whole, run)
    return run


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("shard-*.npz"))}


def _manifest(run: Path) -> dict:
    return json.loads((run / MANIFEST).read_text())


def _write_manifest(run: Path, data: dict) -> None:
    (run / MANIFEST).write_text(json.dumps(data))


def _reads_back_whole(run: Path, whole: Path) -> None:
    """Every entry's rows and digest are its file's, and the run holds the whole run's games."""
    manifest = _manifest(run)
    for entry in manifest["shards"]:
        assert entry["sha256"] == file_sha256(run / entry["file"])
    assert sum(e["rows"] for e in manifest["shards"]) == read_run(run).rows == read_run(whole).rows
    assert sorted(read_run(run).games()) == sorted(read_run(whole).games())


def _truncate(run: Path, other: Path) -> None:
    data = (run / LOST).read_bytes()
    (run / LOST).write_bytes(data[: len(data) // 2])


def _empty(run: Path, other: Path) -> None:
    (run / LOST).write_bytes(b"")


def _replace_by_another_shard(run: Path, other: Path) -> None:
    shutil.copyfile(run / shard_name(0), run / LOST)


def _foreign(run: Path, other: Path) -> None:
    shutil.copyfile(other / shard_name(1), run / LOST)


def _missing(run: Path, other: Path) -> None:
    (run / LOST).unlink()


def _link_out(run: Path, other: Path) -> None:
    (run / LOST).unlink()
    (run / LOST).symlink_to(other / shard_name(1))


DAMAGES: list[tuple[Callable[[Path, Path], None], str]] = [
    (_truncate, "is damaged: not a readable shard"),
    (_empty, "is damaged: not a readable shard"),
    (_replace_by_another_shard, r"holds games \[\d+\], the manifest says \[\d+\]"),
    (_foreign, "holds another run's games \\(seed 10, not 9\\)"),
    (_missing, "is missing"),
    (_link_out, "is a link to .*, outside the run"),
]
BY_DAMAGE = pytest.mark.parametrize("damage, problem", DAMAGES, ids=[d.__name__.strip("_") for d, _ in DAMAGES])


@BY_DAMAGE
def test_a_resume_names_a_bad_shard_and_plays_its_games_again(whole: Path, other_run: Path, tmp_path: Path,
                                                              damage: Callable[[Path, Path], None],
                                                              problem: str) -> None:
    run = _copy(whole, tmp_path)
    damage(run, other_run)
    lines: list[str] = []
    resumed = sp.selfplay(run, GAMES, "duel", notice=lines.append, **RUN)
    assert len(lines) == 1 and lines == list(resumed.rejected)
    assert lines[0].startswith(f"{run / LOST}: ")
    assert re.search(problem, lines[0]), lines[0]
    assert lines[0].endswith("its 1 game will be played again")
    assert resumed.games_played == 1 and resumed.games_total == GAMES
    # the lost game is written again under the name it had: the run is the whole run, byte for byte
    assert _files(run) == _files(whole)
    _reads_back_whole(run, whole)
    set_aside = list((run / "rejected").iterdir()) if (run / "rejected").exists() else []  # docs/selfplay.md
    assert [p.name for p in set_aside] == ([] if damage is _missing else [LOST])
    again = sp.selfplay(run, GAMES, "duel", notice=lines.append, **RUN)
    assert again.games_played == 0 and len(lines) == 1  # nothing more to say


def test_more_games_after_a_damaged_shard_play_the_lost_and_the_new(whole: Path, other_run: Path,
                                                                   tmp_path: Path) -> None:
    run = _copy(whole, tmp_path)
    _truncate(run, other_run)
    more = sp.selfplay(run, GAMES + 1, "duel", notice=lambda _: None, **RUN)
    assert more.games_played == 2 and more.games_total == GAMES + 1 and more.shards_total == GAMES + 1
    manifest = _manifest(run)
    assert sorted(i for e in manifest["shards"] for i in e["indexes"]) == list(range(GAMES + 1))
    for entry in manifest["shards"]:
        assert entry["sha256"] == file_sha256(run / entry["file"])
    assert len(read_run(run).games()) == GAMES + 1


def test_the_command_names_the_bad_shard_on_standard_error(whole: Path, other_run: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    run = _copy(whole, tmp_path)
    _empty(run, other_run)
    args = ["selfplay", "--out", str(run), "--game", "duel", "--games", str(GAMES), "--search", FAST, "--seed", "9",
            "--workers", "1", "--games-per-shard", "1", "--temperature-moves", "2", "--no-progress"]
    assert main(args) == exit_codes.OK
    out, err = capsys.readouterr()
    assert f"{run / LOST}: is damaged" in err and "its 1 game will be played again" in err
    assert "played 1 game" in out
    _reads_back_whole(run, whole)


@BY_DAMAGE
def test_reading_a_run_checks_every_shard_against_its_entry(whole: Path, other_run: Path, tmp_path: Path,
                                                            damage: Callable[[Path, Path], None],
                                                            problem: str) -> None:
    run = _copy(whole, tmp_path)
    damage(run, other_run)
    named = f"{re.escape(str(run / LOST))}: {problem}.* \\(shard entry of {re.escape(str(run / MANIFEST))}\\)"
    with pytest.raises(ShardError, match=named):
        read_run(run)
    with pytest.raises(ShardError, match=named):  # training reads a run directory the same way
        load_examples([run], "duel")


def test_a_shard_changed_in_a_way_its_content_cannot_tell_is_named_by_its_digest(whole: Path, tmp_path: Path) -> None:
    run = _copy(whole, tmp_path)
    with open(run / LOST, "ab") as shard:  # bytes after the zip's end: numpy still reads the same rows
        shard.write(b"\0")
    with pytest.raises(ShardError, match=f"{LOST}: is not the file written: its SHA-256 is [0-9a-f]{{64}}, "
                                         "the manifest's [0-9a-f]{64}"):
        read_run(run)
    resumed = sp.selfplay(run, GAMES, "duel", notice=lambda _: None, **RUN)
    assert resumed.games_played == 1 and _files(run) == _files(whole)


def test_a_manifest_from_before_digests_gets_them_for_shards_that_read_back_whole(whole: Path, other_run: Path,
                                                                                 tmp_path: Path) -> None:
    run = _copy(whole, tmp_path)
    old = _manifest(run)
    for entry in old["shards"]:
        del entry["sha256"]
    _write_manifest(run, old)
    assert read_run(run).rows == read_run(whole).rows  # read as it was, each shard checked by its content
    _replace_by_another_shard(run, other_run)
    with pytest.raises(ShardError, match=f"{LOST}: holds games"):
        read_run(run)
    lines: list[str] = []
    resumed = sp.selfplay(run, GAMES, "duel", notice=lines.append, **RUN)
    assert resumed.games_played == 1
    assert lines[0].startswith(f"{run / LOST}: holds games")
    assert lines[1] == f"{run / MANIFEST}: recorded the SHA-256 of 2 shards written before digests were kept " \
                       "(each read back as its entry says)"
    assert _manifest(run)["shards"] == _manifest(whole)["shards"][:1] + _manifest(whole)["shards"][2:] + \
        _manifest(whole)["shards"][1:2]
    _reads_back_whole(run, whole)


def _twice(data: dict) -> None:
    data["shards"].append(dict(data["shards"][0]))


def _same_game_twice(data: dict) -> None:
    data["shards"][2]["indexes"] = data["shards"][0]["indexes"]


def _out_of_the_run(path: str) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        data["shards"][1]["file"] = path
    return change


def _entry(key: str, value: object) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        if value is None:
            del data["shards"][1][key]
        else:
            data["shards"][1][key] = value
    return change


BAD_MANIFESTS: list[tuple[str, Callable[[dict], None], str]] = [
    ("twice", _twice, "shard entry 3 \\('shard-00000.npz'\\) file 'shard-00000.npz' is also in entry 0"),
    ("same game", _same_game_twice, "shard entry 2 \\('shard-00002.npz'\\) game index 0 is also in entry 0"),
    ("passwd", _out_of_the_run("../../../../etc/passwd"),
     "shard entry 1 \\('../../../../etc/passwd'\\) file '../../../../etc/passwd' is not a shard file name in the run folder"),
    ("absolute", _out_of_the_run("/etc/passwd"), "shard entry 1 \\('/etc/passwd'\\) file '/etc/passwd' is not a shard"),
    ("folder", _out_of_the_run("sub/shard-00001.npz"), "shard entry 1 \\('sub/shard-00001.npz'\\) file 'sub/shard-00001.npz' is not a shard"),
    ("not a name", _entry("file", 7), "shard entry 1 file 7 is not a shard file name"),
    ("rows text", _entry("rows", "12"), "shard entry 1 \\('shard-00001.npz'\\) rows '12' is not a whole number"),
    ("no games", _entry("games", None), "shard entry 1 \\('shard-00001.npz'\\) misses games"),
    ("indexes", _entry("indexes", [-1]), "shard entry 1 \\('shard-00001.npz'\\) indexes is not a list of 1 game indexes >= 0"),
    ("digest", _entry("sha256", "abc"), "shard entry 1 \\('shard-00001.npz'\\) sha256 'abc' is not a SHA-256 in hex"),
    ("not an entry", lambda data: data["shards"].append("shard-00003.npz"), "shard entry 3 is str, not an object"),
]


@pytest.mark.parametrize("name, change, problem", BAD_MANIFESTS, ids=[b[0] for b in BAD_MANIFESTS])
def test_a_manifest_that_cannot_be_trusted_is_refused_naming_the_entry(whole: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str],
                                                                       name: str, change: Callable[[dict], None],
                                                                       problem: str) -> None:
    run = _copy(whole, tmp_path)
    data = _manifest(run)
    change(data)
    _write_manifest(run, data)
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    message = f"{re.escape(str(run / MANIFEST))}: {problem}"
    with pytest.raises(ShardError, match=message):
        read_run(run)
    with pytest.raises(ShardError, match=message):
        load_examples([run], "duel")
    with pytest.raises(ShardError, match=f"{message}.*the run cannot resume from it: mend {MANIFEST}"):
        sp.selfplay(run, GAMES, "duel", notice=lambda _: None, **RUN)
    args = ["selfplay", "--out", str(run), "--game", "duel", "--games", str(GAMES), "--search", FAST, "--seed", "9",
            "--workers", "1", "--games-per-shard", "1", "--temperature-moves", "2", "--no-progress"]
    assert main(args) == exit_codes.USAGE
    err = capsys.readouterr().err
    assert "the run cannot resume from it" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before  # nothing changed


def test_a_missing_shard_on_read_names_it(whole: Path, tmp_path: Path) -> None:
    run = _copy(whole, tmp_path)
    (run / LOST).unlink()
    with pytest.raises(ShardError, match=f"{LOST}: is missing \\(shard entry of .*{MANIFEST}\\)"):
        read_run(run)
    assert Manifest.load(run) is not None  # the manifest itself is sound: a resume plays the game again


def test_nothing_outside_the_run_is_read(whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = _copy(whole, tmp_path)
    outside = tmp_path / "secret.npz"
    outside.write_bytes(b"not for this run")
    data = _manifest(run)
    data["shards"][1]["file"] = os.path.relpath(outside, run)
    _write_manifest(run, data)
    opened: list[str] = []
    real_open = open

    def watching(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching)
    with pytest.raises(ShardError, match="is not a shard file name in the run folder"):
        read_run(run)
    assert not [f for f in opened if "secret" in f]
