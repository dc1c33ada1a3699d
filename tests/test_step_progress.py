"""``bench`` and ``perft`` show progress while they work: a live line on a terminal, the bench's
rows as each position finishes; piped or with --json they stay quiet or line-based."""
from __future__ import annotations

import json
import subprocess
import sys

from terminal_helpers import Terminal

from splendor_mcts.console import StepProgress


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", *args], capture_output=True, text=True,
                          timeout=300)


def test_bench_on_a_terminal_names_the_position_being_searched():
    terminal = Terminal("bench", "--iterations", "200")
    terminal.expect("bench: searching position 1 of 6: splendor(players=2) seed 1 +0")
    terminal.expect("bench: searching position 6 of 6: duel seed 2 +25")
    assert terminal.wait() == 0
    shown = terminal.output
    assert shown.index("searching position 1 of 6") < shown.index("splendor(players=2) seed 1 +0    nodes")
    assert "\r\x1b[K" in shown and "Signature" in shown


def test_bench_piped_prints_each_row_and_no_progress_line():
    out = cli("bench", "--iterations", "200")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 9 and all(" nodes " in line for line in lines[:6]) and lines[7].startswith("Signature")
    as_json = cli("bench", "--iterations", "200", "--json")
    assert as_json.returncode == 0 and as_json.stderr == ""
    assert f"Signature       : {json.loads(as_json.stdout)['signature']}" in out.stdout


def test_perft_on_a_terminal_counts_the_root_moves():
    terminal = Terminal("perft", "3", "--game", "duel")
    terminal.expect("perft: depth 3, root move 1 of ")
    assert terminal.wait() == 0
    total = terminal.output.split("root move 1 of ")[1].split()[0].strip("\r\x1b[K")
    assert f"root move {total} of {total}" in terminal.output and "Nodes searched: " in terminal.output
    quiet = Terminal("perft", "3", "--game", "duel", "--no-progress")
    assert quiet.wait() == 0 and "root move" not in quiet.output


def test_perft_piped_is_quiet_and_counts_as_before():
    out = cli("perft", "3", "--game", "duel", "--json")
    assert out.returncode == 0 and out.stderr == ""
    divided = cli("perft", "3", "--game", "duel", "--divide", "--json")
    counts = json.loads(divided.stdout)
    import splendor_mcts as sm

    state = sm.load_game("duel").new_initial_state(seed=1)
    assert counts["divide"] == sm.perft_divide(state, 3)  # the same moves, counts and order as the C++ divide
    assert json.loads(out.stdout)["nodes"] == counts["nodes"] == sm.perft(state, 3)
    for args in (["0"], ["2", "--explicit-chance"]):
        shown = json.loads(cli("perft", *args, "--json").stdout)
        chance = "--explicit-chance" in args
        assert shown["nodes"] == sm.perft(sm.load_game("splendor").new_initial_state(seed=1, explicit_chance=chance),
                                          int(args[0]))


def test_plain_progress_lines_off_a_terminal_come_every_so_often(capsys):
    progress = StepProgress("perft", every=0.0, first_at_once=False)  # capsys's stderr is no terminal
    progress.step("perft: depth 5, root move 1 of 3", "depth 5, root move 1 of 3")
    progress.close()
    assert capsys.readouterr().err == "splendor-mcts perft: depth 5, root move 1 of 3\n"
    slow = StepProgress("perft", every=3600.0, first_at_once=False)
    slow.step("perft: depth 5, root move 1 of 3")
    off = StepProgress("perft", enabled=False, every=0.0)
    off.step("perft: depth 5, root move 1 of 3")
    assert capsys.readouterr().err == ""
