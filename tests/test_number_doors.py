"""Numbers at every door (issue 49): one range parser per kind (splendor_mcts.ranges), and the
command lines, the web board's caps and the Python API refusing what is out of range (a
400-digit integer, nan, inf) by name, never a traceback or a cap that caps nothing."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

import splendor_mcts as sm
from splendor_mcts.cli import main
from splendor_mcts.ranges import SECONDS, Number, NumberError, Whole
from splendor_mcts.serve.settings import ServeSettings

HUGE = "1" + "0" * 400
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("text, value", [("7", 7), ("+7", 7), ("-0", 0), (" 7 ", 7), ("-10", -10),
                                         ("0" * 5000 + "7", 7)], ids=lambda x: str(x)[:10])
def test_whole_reads_ascii_digits(text: str, value: int) -> None:
    assert Whole(-10, 10).parse(text, "n") == value


@pytest.mark.parametrize("text", ["", "x", "7.0", "1e3", "1_000", "\u0661", "\u00b2", "0x10", "11", HUGE, "-" + HUGE,
                                  "1" + "0" * 5000], ids=lambda x: x[:10])
def test_whole_refuses_with_the_field_and_range(text: str) -> None:
    with pytest.raises(NumberError, match=r"^n must be a whole number from -10 to 10, got ") as refused:
        Whole(-10, 10).parse(text, "n")
    assert refused.value.field == "n" and len(str(refused.value)) < 120  # a long value is cut


@pytest.mark.parametrize("value", [True, 1.0, "3", None, 11, 10**400])
def test_whole_checks_a_typed_value(value: object) -> None:
    with pytest.raises(NumberError, match="must be a whole number from 0 to 10"):
        Whole(0, 10).check(value, "n")


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e400", "0", "-1", "1000001", "1_0", "", "0x1p3", HUGE], ids=lambda x: x[:10])
def test_seconds_refuse_what_no_clock_can_keep(text: str) -> None:
    with pytest.raises(NumberError, match="t must be a number of seconds greater than 0 and at most 1000000"):
        SECONDS.parse(text, "t")


@pytest.mark.parametrize("value", [math.nan, math.inf, 0, -1.0, 10**400, True, "1"])
def test_seconds_check_a_typed_value(value: object) -> None:
    with pytest.raises(NumberError):
        SECONDS.check(value, "t")


def test_numbers_in_range_are_read() -> None:
    assert SECONDS.parse("1e6", "t") == 1e6 and SECONDS.parse(".5", "t") == 0.5 and SECONDS.check(3, "t") == 3.0
    assert Number().check(10**300, "x") == 1e300
    with pytest.raises(NumberError, match="x must be a number, got 1000"):
        Number().check(10**400, "x")  # no bound, yet no float holds it


def test_perft_refuses_a_depth_out_of_range() -> None:
    run = cli("perft", "3000000000")
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "argument DEPTH: must be a whole number from 0 to 1000, got '3000000000'" in run.stderr


def test_hint_refuses_a_top_no_int_holds() -> None:
    run = cli("hint", str(EXAMPLES / "splendor-2p-view.json"), "--iterations", "10", "--top", HUGE)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "--top must be a whole number from 1 to 2147483647, got 1000" in run.stderr


def test_analyze_refuses_top_k_and_batch_size_no_int_holds() -> None:
    state = sm.load_game("splendor").new_initial_state(seed=1)
    for keywords in ({"top_k": 10**30}, {"batch_size": 10**30}):
        with pytest.raises(ValueError, match=f"{next(iter(keywords))} must be a whole number from 1 to"):
            sm.analyze(state, iterations=10, threads=1, **keywords)  # type: ignore[arg-type]


def test_replay_refuses_a_game_id_no_database_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match="2"):
        main(["replay", "--db", str(tmp_path / "t.sqlite"), HUGE])
    assert "argument game: must be a whole number from 0 to 9223372036854775807" in capsys.readouterr().err


@pytest.mark.parametrize("option, value", [("--max-search-seconds", "inf"), ("--max-search-seconds", "nan"),
                                           ("--max-search-seconds", HUGE), ("--max-body", "1e9"),
                                           ("--searches-per-client", HUGE), ("--threads", "0")],
                         ids=lambda x: x[:20])
def test_serve_refuses_a_cap_out_of_range_at_start_up(option: str, value: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # --port 70000 as well: were the cap taken, the command would stop there and not serve
    with pytest.raises(SystemExit, match="2"):
        main(["serve", option, value, "--port", "70000"])
    assert f"argument {option}: must be a " in capsys.readouterr().err


@pytest.mark.parametrize("caps", [{"max_search_seconds": math.inf}, {"max_search_seconds": math.nan},
                                  {"max_body": 10**400}, {"progress_every": 0.0}, {"threads": 0},
                                  {"max_engine_iterations": 2**70}], ids=lambda caps: next(iter(caps)))
def test_serve_settings_refuse_a_cap_out_of_range(caps: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=f"^{next(iter(caps))} must be a "):
        ServeSettings(**caps)  # type: ignore[arg-type]


@pytest.mark.parametrize("args, message", [
    (("play", "--hint-time", "nan"), "--hint-time: must be a number of seconds greater than 0 and at most 1000000, got 'nan'"),
    (("play", "--hint-time", "inf"), "--hint-time: must be a number of seconds"),
    (("analyze", "--workers", "2000"), "--workers must be a whole number from 1 to 1024, got 2000"),
], ids=lambda x: "-".join(x) if isinstance(x, tuple) else None)
def test_other_commands_refuse_numbers_out_of_range(args: tuple[str, ...], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input="", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("argv, name", [
    (["selfplay", "--out", "never", "--games", "1_000"], "--games"),
    (["train", "--family", "duel", "--data", "never", "--out", "never.smnet", "--learning-rate", "1e400"],
     "--learning-rate"),
    (["pipeline", "--dir", "never", "--stage-hours", "nan"], "--stage-hours"),
    (["tournament", "random", "greedy", "--seed", "1_0"], "--seed"),
    (["perft", "--seed", "1_0", "1"], "--seed"),
])
def test_every_command_line_number_is_read_by_a_shared_range(argv, name, capsys):
    """int() and float() took 1_000 as 1000, 1e400 as inf and nan; the shared ranges refuse them."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {name}: must be" in err and "Traceback" not in err
