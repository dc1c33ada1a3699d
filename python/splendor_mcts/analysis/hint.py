"""The best moves of a position, for a person: ``splendor-mcts hint POSITION`` (commands/hint.py).

It reads a position (a file, or ``-`` for standard input; docs/position-format.md),
searches it from the view of the player to move (in analysis mode: docs/search.md, "Best
move") and prints a table of the best whole turns (a seat's decisions until another seat
moves: ``take WUK, return R``) in the best-move rule's order, with visits, win % with its 95%
interval and the principal variation by seat; ``--decisions`` shows one decision per row
instead. ``--json`` prints the analysis as one JSON object (both forms: ``moveInfos`` and
``turnInfos``). Exit codes: :mod:`splendor_mcts.exit_codes`.
"""
from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from .. import exit_codes
from ..atomic_write import atomic_write_text
from ..games.positions import Position, PositionError
from ..wording import counted, seat_name
from .advice import Advice
from .turns import SEPARATOR, pv_turns_text

PV_SHOWN = 6


def write_board_svg(path: str, position: Position, analysis: Any) -> None:
    """The board as the player to move sees it, the best turn's cards and tokens outlined."""
    from ..pictures.board import board_svg, turn_marks

    best = (analysis.turns or [None])[0]
    marks = turn_marks(position.state, list(best.actions)) if best is not None else set()
    try:
        with atomic_write_text(path) as handle:
            handle.write(board_svg(position.state, marks=marks) + "\n")
    except OSError as exc:
        raise ValueError(f"--svg: cannot write {path}: {exc.strerror or exc}") from None


def report_invalid(command: str, source: str, exc: PositionError) -> int:
    """Print every problem of an invalid position; the exit code for it."""
    name = "standard input" if source == "-" else source
    print(f"splendor-mcts {command}: {name} is not a valid position:", file=sys.stderr)
    for problem in exc.problems:
        print(f"  {problem['path'] + ': ' if problem['path'] else ''}{problem['message']}", file=sys.stderr)
    return exit_codes.INVALID_INPUT


def warn_about_view(position: Position) -> None:
    """A view of another seat than the one to move hides cards the mover knows."""
    mover = position.state.current_player()
    if position.observer is not None and position.observer != mover:
        print(f"splendor-mcts: note: this is {seat_name(position.observer)}'s view but {seat_name(mover)} is to move; "
              f"{seat_name(mover)}'s hidden reserves were guessed", file=sys.stderr)


def hint_json(position: Position, analysis: Any, advice: Advice | None = None) -> dict[str, Any]:
    """The analysis as JSON (each move with its readable label), with the game and the seat to
    move; with ``advice`` (:func:`~.advice.advise`), each turn's ``threat``, the ``threats``
    among the turns and the best turn's ``plan`` (docs/hints.md, "Threats", "The plan")."""
    data = analysis.to_dict()
    if advice is not None:
        data["turnInfos"] = advice.add_to_turns(data["turnInfos"])
        data.update(advice.to_dict())
    return {"game": position.game.spec, "toMove": position.state.current_player(), **data}


def print_hint(console: Any, game: Any, analysis: Any, threads: int, decisions: bool = False,
               advice: Advice | None = None) -> None:
    """A hint on a rich console: the header line, then a table of whole turns (the
    analysis must have them: ``turns=True``) or with ``decisions`` one row per decision,
    then with ``advice`` the threats among the turns and the plan."""
    print_hint_header(console, game, analysis, threads)
    if decisions:
        print_decision_table(console, analysis)
    else:
        print_turn_table(console, analysis)
    if advice is not None:
        print_advice(console, advice)
    if game.entry.legend:
        console.print(game.entry.legend, style="dim", highlight=False)


def print_hint_header(console: Any, game: Any, analysis: Any, threads: int) -> None:
    """Who is to move, the search's size, and the position's value or proof."""
    root = analysis.root
    title = (f"{game.entry.title}, {game.num_players()} players: {seat_name(root.player)} to move. "
             f"{counted(root.iterations, 'iteration')} in {root.seconds:.1f} s on {counted(threads, 'thread')}; "
             f"{headline(analysis)}")
    console.print(title, highlight=False)


def headline(analysis: Any) -> str:
    """What the best play found gives the player to move, as the hint's header and the web
    board say it: the proven result, else ``seat N wins X% with the best play found`` with
    ``analysis.best_win_rate``, the value of the turn listed first (not the root's mean,
    ``root.win_rates``, which averages the weaker moves searched too)."""
    seat = seat_name(analysis.root.player)
    if analysis.proof:
        return f"{seat} proven: {proof_words(analysis.proof, analysis.proof_turns, root=True)}"
    return f"{seat} wins {100 * analysis.best_win_rate:.1f}% with the best play found"


def print_decision_table(console: Any, analysis: Any) -> None:
    """One row per decision of the player to move (a part of a turn, e.g. ``take WUK``)."""
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("move", no_wrap=True)
    table.add_column("visits", justify="right")
    table.add_column("win % (95% interval)", justify="right")
    table.add_column("principal variation", overflow="fold")
    for rank, move in enumerate(analysis.moves, start=1):
        pv = ", ".join(move.pv[1:PV_SHOWN]) + (" ..." if len(move.pv) > PV_SHOWN else "")
        table.add_row(str(rank), move.label, f"{move.visits:,}", win_words(move), pv)
    console.print(table)


def print_turn_table(console: Any, analysis: Any) -> None:
    """The whole turns of a hint (``analysis.turns``): one row per turn with its
    statistics and the principal variation after it, by seat."""
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("#", justify="right")
    table.add_column("turn", overflow="fold")
    table.add_column("visits", justify="right")
    table.add_column("win % (95% interval)", justify="right")
    table.add_column("principal variation", overflow="fold")
    for rank, turn in enumerate(analysis.turns or [], start=1):
        label = turn.label + ("" if turn.complete else f"{SEPARATOR}...")
        table.add_row(str(rank), label, f"{turn.visits:,}", win_words(turn),
                      pv_turns_text(turn.pv_turns, skip_first=True))
    console.print(table)


def print_advice(console: Any, advice: Advice) -> None:
    """``Threat: ...`` for each threat among the turns (the turns that allow and stop it),
    then ``Plan: ...``."""
    for summary in advice.summaries:
        console.print(f"Threat: {summary.words()}", highlight=False)
    if advice.plan is not None:
        console.print(f"Plan: {advice.plan.words()}", highlight=False)


def win_words(move: Any) -> str:
    """A move's win rate as the table shows it: ``58.9% (57.1-60.6)``, or its proven result."""
    if move.proof:
        return proof_words(move.proof, move.proof_turns)
    return f"{100 * move.win_rate:.1f}% ({100 * move.lcb:.1f}-{100 * move.ucb:.1f})"


def proof_words(proof: str, turns: int, root: bool = False) -> str:
    """A proven result in words; ``turns`` counts every seat's turns, this one first."""
    if proof == "win":
        return "wins now" if turns == 1 else f"wins in {turns} turns whatever the others do"
    if root:
        return "lost whatever you do"
    return "loses now" if turns == 1 else f"loses in {turns} turns whatever you do"


class ProgressLine:
    """A live one-line progress report on a terminal: elapsed time, iterations, best turn (or move)."""

    def __init__(self, state: Any, out: TextIO) -> None:
        self.state = state
        self.out = out
        self.start = time.monotonic()

    def __call__(self, partial: Any) -> None:
        root = partial.root
        best = (partial.turns or partial.moves or [None])[0]  # a whole turn when the search gives turns
        text = f"thinking {time.monotonic() - self.start:4.1f} s, {root.iterations:,} iterations"
        if best is not None:
            text += f", best so far {best.text} ({100 * best.win_rate:.1f}%)"
        self.out.write("\r\x1b[K" + text)
        self.out.flush()

    def clear(self) -> None:
        self.out.write("\r\x1b[K")
        self.out.flush()
