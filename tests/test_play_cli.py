"""``splendor-mcts play``: a scripted session through the real command (stdin not a TTY)."""
from __future__ import annotations

import os
import subprocess
import sys

import splendor_mcts as sm
from splendor_mcts.records import GameRecord, replay
from splendor_mcts.search.networks import shipped_used


def play(lines: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "140"}
    return subprocess.run([sys.executable, "-m", "splendor_mcts.cli", "play", "--iterations", "60", "--threads", "1",
                           "--hint-time", "0.2", *args], input="".join(f"{line}\n" for line in lines),
                          capture_output=True, text=True, timeout=120, env=env)


def test_scripted_session_moves_hint_undo_save_load(tmp_path):
    saved = tmp_path / "game.json"
    run = play(["take WUX", "buy 3.1", "take WUG", "hint", "undo", "take RRR", "take WUG", f"save {saved}", "quit"],
               "--deal-seed", "5")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "\x1b[" not in out  # NO_COLOR and not a terminal: plain text
    assert "cannot play 'take WUX'" in out and "did you mean: take WU" in out
    assert "cannot play 'buy 3.1': buy 3.1: needs " in out  # the rules' reason, in the player's terms
    assert out.count("seat 1 plays take WUG") == 2
    assert "seat 2 plays" in out
    assert "principal variation" in out  # the hint table
    assert "undid take WUG" in out
    assert "cannot play 'take RRR'" in out
    assert f"saved" in out
    record = GameRecord.from_json(saved.read_text())
    default_network = shipped_used({}, "splendor", 2)  # the engine's seat names the default search's network
    engine = "mcts:iterations=60" + (f",network={default_network}" if default_network else "")
    assert record.seats == ("human", engine) and record.termination == "unfinished"
    state = replay(record)
    game = sm.load_game(record.game)
    assert state.current_player() == 0  # the engine answered; the human is to move
    # The record holds the opening deal, the human's move and the engine's reply.
    first_move = next(i for i, a in enumerate(record.actions) if game.new_initial_state(seed=5).action_to_string(a) == "take WUG")
    assert first_move >= 0

    run = play(["moves", "board", "quit"], "--load", str(saved))
    assert run.returncode == 0, run.stderr
    assert f"loaded {len(record.actions)} actions" in run.stdout
    assert "take GRK" in run.stdout  # the legal moves are listed


def test_follow_a_real_table(tmp_path):
    game = sm.load_game("splendor")
    cards = {c["id"]: c["text"] for c in game.cards()}
    nobles = game.nobles()
    letters = {"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K"}
    noble_lines = ["".join(f"{letters[k]}{v}" for k, v in n["requirement"].items() if v) for n in nobles[:3]]
    deal = [cards[i] for i in (1, 2, 3, 4)] + [cards[i] for i in (41, 42, 43, 44)] + [cards[i] for i in (71, 72, 73, 74)]
    run = play(noble_lines + ["purple 0pt W1"] + deal + ["take WU", "take WUG", "hint", "take WW", "take RKW", "quit"], "--follow",
               "--seat", "1")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "cannot read the revealed card 'purple 0pt W1'" in out
    assert "seat 1 plays take WUG" in out and "seat 2 plays take WRK" in out
    assert ("cannot play 'take WU': take WU: take three different colours while three or more are in the bank "
            "(5 are)") in out
    assert "cannot play 'take WW': take WW: only 3 white left (4 needed to take two)" in out
    assert "principal variation" in out


def test_bad_options_exit_2():
    run = play([], "--seat", "5")
    assert run.returncode == 2 and "--seat 5 is not a seat" in run.stderr


def test_load_draws_the_board_once_and_the_end_of_a_script_notes_unsaved_moves(tmp_path):
    saved = tmp_path / "game.json"
    run = play(["take WUG", f"save {saved}", "quit"], "--deal-seed", "5")
    assert run.returncode == 0 and run.stderr == ""
    run = play(["take RKW"], "--load", str(saved))
    assert run.returncode == 0, run.stderr
    before_prompt = run.stdout.split("seat 1> ")[0]
    assert before_prompt.count("bank ") == 1 and "loaded " in before_prompt
    assert run.stderr == "splendor-mcts play: end of input; the game was not saved\n"


def test_follow_prompts_name_what_is_revealed_and_where():
    game = sm.load_game("splendor")
    cards = {c["id"]: c["text"] for c in game.cards()}
    run = play(["noble 11", "noble 1", "noble 2", "noble 3", "#99", cards[1], cards[2]], "--follow")
    out = run.stdout
    assert "noble revealed (1 of 3)> noble 11\nnoble 11 does not exist (noble ids are 1-10)" in out
    assert "noble revealed (3 of 3)> " in out
    assert "card revealed in level 1, slot 1> #99\ncannot read the revealed card '#99': card #99 does not exist " \
           "(card ids are 1-90)" in out
    assert "card revealed in level 1, slot 2> " in out and "card revealed in level 1, slot 3> " in out


def test_duel_follow_prompts_name_the_slot_the_cell_and_the_choice():
    game = sm.load_game("duel")
    state = game.new_initial_state(seed=0, explicit_chance=True)
    lines = []
    while state.is_chance_node():
        kind = state.action_to_string(state.chance_outcomes()[0][0]).split()[0]
        if kind == "first":
            break
        action = state.chance_outcomes()[0][0]
        lines.append(state.action_to_string(action))
        state.apply_action(action)
    run = play(["#68", *lines, "first 1"], "--game", "duel", "--follow")
    out = run.stdout
    assert "card revealed in level 1, slot 1> #68\ncannot read the revealed card '#68': card #68 does not exist " \
           "(card ids are 1-67)" in out
    assert "card revealed in level 3, slot 2> " in out
    assert "bag draw onto c3> " in out  # the spiral starts at the centre
    assert "first player (0 or 1)> first 1" in out
