"""Numbering the positions of a game as the analysis protocol asks for them.

A query's game is a start (a record's deal, or a position) and steps applied to it (the
record's actions, then the query's ``moves``). Each position along it has two numbers:

* its **action number**: how many steps were applied (chance outcomes count), the
  protocol's first numbering;
* its **turn number**, as players count turns: turn 0 is the first turn played from the
  start, and a turn is every decision of one seat until another seat decides (a take and
  its returns, a buy and its noble, Duel's privileges, replenish, action and ability), so
  chance outcomes (card reveals, bag draws) never start a turn. A turn's position is the
  one before its first decision; the end of the game is the turn after the last one.
  The same count as the search's proof distances (docs/search.md, "Distances"): a Duel
  extra turn, played by the same seat, counts with the turn that earned it.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

NUMBERINGS = ("turns", "actions")


@dataclass(frozen=True)
class Step:
    """One step of the game: a record action (an id) or a query move (notation or an id);
    ``field`` is its JSON path in the query (``record.actions[12]``, ``moves[3]``)."""

    move: Any
    field: str


@dataclass(frozen=True)
class Point:
    """A position along the game (``state`` is live: clone it to keep it)."""

    action_number: int
    turn_number: int
    turn_start: bool  # the position before a turn's first decision (or the game's end)
    state: Any


@dataclass(frozen=True)
class BadStep:
    """The step that could not be applied: the game stops before it."""

    message: str
    field: str


def action_of(state: Any, num_actions: int, step: Step) -> int:
    """The legal action a step names, else ``ValueError`` saying why (the rules' reason
    for a move that is read but not legal here)."""
    move = step.move
    if isinstance(move, str):
        action = state.string_to_action(move)  # a ValueError names the move and the forms it can take
    elif isinstance(move, int) and not isinstance(move, bool):
        if not 0 <= move < num_actions:
            raise ValueError(f"action {move} is outside 0..{num_actions - 1}")
        action = move
    else:
        raise ValueError(f"a move is a string in the game's notation or an action id, got {move!r}")
    if not state.is_legal(action):
        raise ValueError(f"{state.action_to_string(action)} is not legal here: {state.why_illegal(action)}")
    return action


def walk(state: Any, steps: Sequence[Step], num_actions: int) -> Iterator[Point | BadStep]:
    """Apply ``steps`` to ``state`` in place, yielding each position (the start, then one
    after each step) numbered both ways; a step that cannot be applied yields a
    ``BadStep`` and ends the walk."""
    turns_begun = 0
    last_seat: int | None = None
    for index in range(len(steps) + 1):
        if state.is_terminal():
            point = Point(index, turns_begun, True, state)
        elif state.is_chance_node():  # a reveal belongs to the turn that caused it
            point = Point(index, max(turns_begun - 1, 0), False, state)
        else:
            seat = state.current_player()
            starts = seat != last_seat
            turns_begun += starts
            last_seat = seat
            point = Point(index, turns_begun - 1, starts, state)
        yield point
        if index == len(steps):
            return
        try:
            state.apply_action(action_of(state, num_actions, steps[index]))
        except ValueError as exc:
            yield BadStep(f"{steps[index].field}: {exc}", steps[index].field)
            return


@dataclass(frozen=True)
class Asked:
    """A position a query asked for: its numbers and a copy of its state, or why there
    is none (``error``, at the query's ``field``)."""

    number: int | None  # as the query numbered it (None: the last position, not reached)
    turn_number: int | None
    action_number: int | None
    state: Any = None
    error: str | None = None
    field: str | None = None


def find(state: Any, steps: Sequence[Step], num_actions: int, wanted: Sequence[int] | None,
         numbering: str) -> list[Asked]:
    """The positions ``wanted`` (numbers in ``numbering``, each once, in the order asked;
    None: the last position), each with a copy of its state, or why it is not there:
    outside the game, or after a step that could not be applied."""
    found: dict[int, Point] = {}
    last: Point | None = None
    bad: BadStep | None = None
    highest = 0
    for item in walk(state, steps, num_actions):
        if isinstance(item, BadStep):
            bad = item
            break
        last = item
        if numbering == "turns" and not item.turn_start:
            continue
        number = item.action_number if numbering == "actions" else item.turn_number
        highest = number
        if wanted is not None and number in wanted:
            found[number] = Point(item.action_number, item.turn_number, item.turn_start, item.state.clone())
    assert last is not None  # the start is always yielded
    if wanted is None:
        if bad is not None:
            return [Asked(None, None, None, error=f"the last position is not reached: {bad.message}", field=bad.field)]
        number = last.action_number if numbering == "actions" else last.turn_number
        return [Asked(number, last.turn_number, last.action_number, state=last.state.clone())]
    answers = []
    for number in dict.fromkeys(wanted):
        point = found.get(number)
        if point is not None:
            answers.append(Asked(number, point.turn_number, point.action_number, state=point.state))
            continue
        numbers = (number, None) if numbering == "turns" else (None, number)
        if bad is not None and number > highest:
            answers.append(Asked(number, *numbers, error=f"{position_name(numbering, number)} is not reached: {bad.message}",
                                 field=bad.field))
        else:
            answers.append(Asked(number, *numbers, field=f"analyzeTurns[{list(wanted).index(number)}]",
                                 error=f"{position_name(numbering, number)} is outside the game's 0..{highest}"))
    return answers


def position_name(numbering: str, number: int) -> str:
    """How an answer names a position: ``turn 12``, ``action number 30``."""
    return f"turn {number}" if numbering == "turns" else f"action number {number}"
