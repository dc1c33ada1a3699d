"""``splendor-mcts play`` on a pseudo-terminal, as a person plays it: the thinking line, and
quit, Ctrl-C and Ctrl-D asking before a game with unsaved moves is dropped."""
from __future__ import annotations

from terminal_helpers import Terminal

PLAY = ("play", "--deal-seed", "1", "--threads", "1", "--hint-time", "0.2")


def after_a_move(*budget: str) -> Terminal:
    """A game in which the person has played a move and the engine has answered."""
    term = Terminal(*PLAY, *(budget or ("--iterations", "100")))
    term.expect("seat 1> ")
    term.send("take WUG")
    term.expect("seat 2 plays")
    term.expect("seat 1> ", times=2)
    return term


def test_quit_asks_before_dropping_unsaved_moves():
    term = after_a_move()
    term.send("quit")
    term.expect("the game has changes that are not saved: quit anyway? [y/N] ")
    term.send("n")
    term.expect("going on ('save FILE' keeps the game)")
    term.send("quit")
    term.expect("quit anyway? [y/N] ", times=2)
    term.send("y")
    assert term.wait() == 0


def test_nothing_to_lose_quits_at_once(tmp_path):
    term = after_a_move()
    term.send(f"save {tmp_path / 'g.json'}")
    term.expect("saved ")
    term.send("quit")
    assert term.wait() == 0 and "quit anyway" not in term.output
    fresh = Terminal(*PLAY, "--iterations", "100")
    fresh.expect("seat 1> ")
    fresh.interrupt()
    assert fresh.wait() == 130 and "quit anyway" not in fresh.output
    assert "splendor-mcts play: interrupted" in fresh.output


def test_sigterm_quits_at_once_noting_the_unsaved_game():
    term = after_a_move()
    term.terminate()
    assert term.wait() == 130
    assert "quit anyway" not in term.output and "Traceback" not in term.output
    assert "splendor-mcts play: stopped by SIGTERM; the game was not saved" in term.output


def test_ctrl_d_asks_and_no_goes_on():
    term = after_a_move()
    term.end_of_input()
    term.expect("quit anyway? [y/N] ")
    term.send("no")
    term.expect("going on")
    term.expect("seat 1> ", times=3)
    term.send("quit")
    term.expect("quit anyway? [y/N] ", times=2)
    term.send("y")
    assert term.wait() == 0


def test_ctrl_c_asks_and_a_second_ctrl_c_quits():
    term = after_a_move()
    term.interrupt()
    term.expect("quit anyway? [y/N] ")
    term.interrupt()  # a second Ctrl-C at the question quits
    assert term.wait() == 130
    assert "splendor-mcts play: interrupted" in term.output


def test_engine_shows_a_thinking_line_and_ctrl_c_while_it_thinks_asks():
    term = Terminal(*PLAY, "--time", "2")
    term.expect("seat 1> ")
    term.send("take WUG")
    term.expect("seat 2 thinks: ")
    term.expect(" of 2 s, ")  # the line is rewritten with the time spent and the iterations
    term.interrupt()
    term.expect("quit anyway? [y/N] ")
    term.send("n")  # the game goes on: the engine thinks again and plays
    term.expect("seat 2 plays", timeout=30)
    term.expect("seat 1> ", times=2)
    term.send("hint 0.5")
    term.expect("thinking about a hint: ")
    term.expect("principal variation")
    term.send("quit")
    term.expect("quit anyway? [y/N] ", times=2)
    term.send("y")
    assert term.wait() == 0
