"""The terminal game's loop of ``splendor-mcts play`` (commands/play.py): reading commands until
quit, and the file a game starts from."""
from __future__ import annotations

import sys
from typing import Any

from .. import exit_codes
from ..games.game import load_game
from ..stopping import Terminated
from ..games.positions import read_position
from ..records import GameRecord
from .session import PlaySession


def game_to_load(path: str | None) -> tuple[Any, int | None] | None:
    """The game of a ``--load`` file and, for a typed position, the seat it is seen from (its
    observer), or None when it is not readable (session.load then says why)."""
    if not path:
        return None
    try:
        with open(path, "rb") as handle:
            text = handle.read()
        try:
            typed = read_position(text)
            return typed.game, typed.observer if typed.observer is not None else typed.state.current_player()
        except ValueError:
            return load_game(GameRecord.from_json(text.decode("utf-8")).game), None
    except (OSError, ValueError):
        return None


def loop(session: PlaySession, interactive: bool) -> int:
    """Read commands until quit or end of input.

    At a terminal (``interactive``), ``quit``, Ctrl-D and Ctrl-C ask before a game with unsaved
    changes is dropped; a second Ctrl-C at the question quits. Lines read from a pipe or a file
    are a script: its ``quit`` and its end are obeyed at once (the end of input with unsaved
    changes is noted on standard error), and Ctrl-C stops it. SIGTERM (``kill``) stops it at
    once, asking nothing: no one may be there to answer.
    """
    resume = False  # the engine's thinking was interrupted and the game goes on: it thinks again
    while True:
        try:
            if resume:
                resume = False
                session.advance()
                session.draw()
            if session.follow and session.state.is_chance_node():
                session.console.print(session.describe_chance())
            try:
                line = input(session.prompt())
            except EOFError:
                session.console.print("")
                if interactive and not confirm_quit(session):
                    continue
                if not interactive and session.unsaved:
                    print("splendor-mcts play: end of input; the game was not saved", file=sys.stderr)
                return exit_codes.OK
            if not interactive:
                session.console.print(line.strip(), style="dim")
            if not session.handle(line) and (not interactive or confirm_quit(session)):
                return exit_codes.OK
        except KeyboardInterrupt as stop:
            session.console.print("")
            if isinstance(stop, Terminated):
                if session.unsaved:
                    print("splendor-mcts play: stopped by SIGTERM; the game was not saved", file=sys.stderr)
                raise
            if not interactive or confirm_quit(session):
                raise  # splendor-mcts: interrupted (exit code 130)
            resume = True


def confirm_quit(session: PlaySession) -> bool:
    """Whether to end the session: at once when nothing would be lost, else the person's answer
    (yes; Ctrl-C or Ctrl-D at the question mean yes too)."""
    if not session.unsaved:
        return True
    try:
        answer = input("the game has changes that are not saved: quit anyway? [y/N] ")
    except (EOFError, KeyboardInterrupt):
        session.console.print("")
        return True
    if answer.strip().lower() in ("y", "yes"):
        return True
    session.console.print("going on ('save FILE' keeps the game)")
    return False
