"""The command line's manners, through the real commands (subprocess, pipes, a pseudo-terminal):
plain unwrapped output when piped, help texts, no silent waits, case-insensitive game names."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from terminal_helpers import Terminal

import splendor_mcts as sm
from splendor_mcts.records import GameRecord, replay

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """The command with its output piped (not a terminal), as a script or ``| less`` sees it."""
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})


def test_piped_hint_is_neither_wrapped_nor_split():
    """A narrow COLUMNS does not matter when piped: the header is one line, each move one row."""
    out = run("hint", str(EXAMPLES / "splendor-4p-view.json"), "--iterations", "3000", "--threads", "1",
              "--top", "5", COLUMNS="40")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Splendor, 4 players") and lines[0].endswith("with the best play found")
    rows = [line for line in lines if line[:1].isdigit()]
    advice = [line for line in lines if line.startswith(("Threat: ", "Plan: "))]  # each one line, unwrapped
    # title, column heads and rule, the moves, the threats and the plan, the legend
    assert len(rows) == 5 and len(lines) == 1 + 2 + 5 + len(advice) + 1
    assert all(len(line) > 40 for line in advice)
    assert all(row.count("│") == 4 for row in rows)  # #, turn, visits, win % (interval), principal variation
    assert "\x1b[" not in out.stdout


def test_piped_play_board_keeps_each_card_row_on_one_line():
    out = run("play", "--deal-seed", "1", "--iterations", "50", "--threads", "1", stdin="quit\n", COLUMNS="40")
    assert out.returncode == 0, out.stderr
    level3 = next(line for line in out.stdout.splitlines() if line.startswith("level 3"))
    assert all(f"3.{slot} " in level3 for slot in range(1, 5))


def subcommands() -> dict[str, argparse.ArgumentParser]:
    from splendor_mcts.cli import build_parser

    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_has_a_description_and_an_example():
    commands = subcommands()
    assert {"hint", "analyze", "review", "play", "random-game", "tournament", "replay", "export", "bench",
            "perft"} <= set(commands)
    for name in commands:
        out = run(name, "--help")
        assert out.returncode == 0, out.stderr
        text = out.stdout
        description = text.split("\n\n")[1]  # after the usage
        assert not description.startswith(("positional arguments", "options")), f"{name} has no description"
        assert "examples:\n  splendor-mcts " + name in text, f"{name} --help shows no example"


def test_version():
    out = run("--version")
    assert out.returncode == 0 and out.stdout.startswith("splendor-mcts ")


def test_review_help_says_what_the_budget_defaults_to():
    text = " ".join(run("review", "--help").stdout.split())
    assert "none s" not in text
    assert "--time SECONDS thinking time per position (default: no time limit)" in text
    assert "default 2000 unless --time is given" in text


def test_hint_says_it_reads_a_terminal_and_is_silent_on_a_pipe():
    term = Terminal("hint", "--iterations", "300", "--threads", "1")
    term.expect("splendor-mcts hint: reading a position from standard input (Ctrl-D to end)")
    term.send((EXAMPLES / "splendor-2p-view.json").read_text().replace("\n", " "))
    term.end_of_input()
    assert term.wait() == 0
    assert "principal variation" in term.output
    piped = run("hint", "--iterations", "300", "--threads", "1", stdin=(EXAMPLES / "duel-view.json").read_text())
    assert piped.returncode == 0 and piped.stderr == ""


def test_results_as_json():
    """Every command with results prints them as one JSON object (or record) with --json."""
    bench = json.loads(run("bench", "--iterations", "50", "--json").stdout)
    assert bench["nodes"] == sum(p["nodes"] for p in bench["positions"]) and len(bench["signature"]) == 16
    perft = json.loads(run("perft", "2", "--divide", "--json").stdout)
    assert perft["nodes"] == sum(perft["divide"].values()) == int(
        run("perft", "2").stdout.split("Nodes searched: ")[1].split()[0])
    record = GameRecord.from_json(run("random-game", "--game", "duel", "--seed", "3", "--json").stdout)
    printed = run("random-game", "--game", "duel", "--seed", "3").stdout.splitlines()
    assert record.result is not None and replay(record).is_terminal()
    assert sum(1 for line in printed if line[:5].strip().rstrip(".").isdigit()) == \
        len(record.actions) - count_chance(record)


def count_chance(record: GameRecord) -> int:
    state = sm.load_game(record.game).new_initial_state(seed=record.seed, explicit_chance=True)
    chance = 0
    for action in record.actions:
        chance += state.is_chance_node()
        state.apply_action(action)
    return chance


def test_game_names_in_any_case_through_every_door(tmp_path):
    position = json.loads((EXAMPLES / "splendor-2p-view.json").read_text())
    position["game"] = "Splendor"
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    out = run("hint", str(path), "--iterations", "200", "--threads", "1", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["game"].startswith("splendor(")
    out = run("random-game", "--game", "SPLENDOR(players=3)", "--json")
    record = json.loads(out.stdout)
    assert record["game"].startswith("splendor(players=3,")
    record["game"] = record["game"].replace("splendor", "Splendor")
    path.write_text(json.dumps(record))
    assert run("review", str(path), "--iterations", "50", "--threads", "1", "--json").returncode == 0
    assert sm.load_game(" Duel ") == sm.load_game("duel")


def test_duel_spec_printer_and_parser_agree():
    """The spec prints first_player=None; None, none and JSON's null read back as the same game."""
    out = run("random-game", "--game", "duel(first_player=null)", "--seed", "2")
    assert out.returncode == 0, out.stderr
    spec = out.stdout.splitlines()[0].split(", seed")[0]
    assert spec.endswith("first_player=None)")
    games = {sm.load_game(spec.replace("None", word)) for word in ("None", "none", "null", "NULL")}
    assert games == {sm.load_game("duel")}
    bad = run("random-game", "--game", "duel(first_player=nil)")
    assert bad.returncode == 2 and "first_player must be an integer, got 'nil'" in bad.stderr
    bad = run("random-game", "--game", "duel(first_player=1.5)")
    assert bad.returncode == 2 and "expected an integer, true/false, None or a word" in bad.stderr


def test_review_shows_progress_lines_when_not_on_a_terminal(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(run("random-game", "--seed", "5", "--json").stdout)
    record = GameRecord.from_json(path.read_text())
    decisions = len(record.actions) - count_chance(record)
    out = run("review", str(path), "--iterations", "20", "--threads", "1", "--json")
    assert out.returncode == 0, out.stderr
    turns = len(json.loads(out.stdout)["decisions"])  # a review judges whole turns: fewer than the decisions
    assert 0 < turns < decisions and out.stderr.startswith(f"splendor-mcts review: turn 1 of {turns}\n")
    quiet = run("review", str(path), "--iterations", "20", "--threads", "1", "--json", "--no-progress")
    assert quiet.returncode == 0 and quiet.stderr == "" and json.loads(quiet.stdout) == json.loads(out.stdout)
