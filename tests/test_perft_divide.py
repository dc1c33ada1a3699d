"""Perft's per-root-move divide (as Stockfish's): goldens for each game, the counts sum to
perft, and the ``splendor-mcts perft`` command prints both."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

import splendor_mcts as sm


def _walk(spec: str, seed: int, moves: int, explicit: bool = False):
    """A deterministic position: move k plays legal[(7k + 3) % n] (as the perft goldens)."""
    s = sm.load_game(spec).new_initial_state(seed=seed, explicit_chance=explicit)
    for k in range(moves):
        legal = s.legal_actions()
        s.apply_action(legal[(k * 7 + 3) % len(legal)])
    return s


def test_golden_divide_of_the_splendor_opening():
    divide = sm.perft_divide(sm.load_game("splendor").new_initial_state(seed=1), 2)
    takes3 = ["WUG", "WUR", "WUK", "WGR", "WGK", "WRK", "UGR", "UGK", "URK", "GRK"]
    reserves = [f"reserve {level}.{slot}" for level in (1, 2, 3) for slot in (1, 2, 3, 4)]
    assert divide == {**{f"take {t}": 27 for t in takes3}, **{f"take {c}{c}": 29 for c in "WUGRK"},
                      **{r: 30 for r in reserves}, **{f"reserve deck {level}": 30 for level in (1, 2, 3)}}
    assert list(divide)[:2] == ["take WUG", "take WUR"]  # legal_actions order


def test_golden_divide_of_a_duel_midgame():
    assert sm.perft_divide(_walk("duel", 1, 30), 3) == {
        "take d2": 48, "take c3": 55, "take d4": 44, "take d5": 60, "take d4 d5": 23, "take c3 d4": 23,
        "take d2 c3": 23, "replenish": 214, "buy 1.3": 161}


def test_golden_divide_at_a_chance_node():
    s = sm.load_game("splendor", players=3).new_initial_state(seed=7, explicit_chance=True)
    assert sm.perft_divide(s, 2) == {f"reveal noble {n}": 9 for n in range(1, 11)}


@pytest.mark.parametrize("spec,seed,moves,explicit,depth", [
    ("splendor", 1, 0, False, 3),
    ("splendor(players=4)", 3, 80, False, 4),
    ("splendor", 4, 40, True, 4),
    ("duel", 2, 0, False, 2),
    ("duel", 1, 48, True, 2),
])
def test_divide_sums_to_perft_with_one_entry_per_legal_move(spec, seed, moves, explicit, depth):
    s = _walk(spec, seed, moves, explicit)
    divide = sm.perft_divide(s, depth)
    assert list(divide) == [s.action_to_string(a) for a in s.legal_actions()]
    assert sum(divide.values()) == sm.perft(s, depth)
    assert sm.perft_divide(s, 1) == dict.fromkeys(divide, 1)


def test_divide_of_a_finished_game_is_empty_and_bad_depths_are_refused():
    s, rng = _walk("splendor", 1, 0), random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert sm.perft_divide(s, 2) == {} and sm.perft(s, 2) == 1
    for depth in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="depth"):
            sm.perft_divide(s, depth)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "perft", *args], capture_output=True, text=True,
                          timeout=120)


def test_the_perft_command_prints_the_count_and_the_divide():
    out = _cli("--game", "duel", "--seed", "1", "2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("duel") and "Nodes searched: 23588" in out.stdout.splitlines()
    out = _cli("--seed", "1", "2", "--divide")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1:4] == ["take WUG: 27", "take WUR: 27", "take WUK: 27"] and "Nodes searched: 865" in lines
    assert len([line for line in lines if line.startswith(("take ", "reserve "))]) == 30
    bad = _cli("--divide", "0")
    assert bad.returncode == 2 and "depth" in bad.stderr and bad.stdout == ""
