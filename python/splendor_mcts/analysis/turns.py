"""Whole turns for people: a seat's consecutive decisions until another seat is to move
or the game ends (Splendor: a take and its returns, a buy and its noble; Duel: the
privileges, the replenish, the action, the ability's target, the returns).

The engine cuts lines into turns (``State.split_turns``) and gives a search's per-turn
statistics (``Analysis.turns``, docs/search.md "Whole turns"); this module writes them:
a turn's text joins its moves' notations with ``_core.TURN_SEPARATOR`` and reads back
with :func:`parse_turn`, principal variations read ``seat 1: take WUK, return R | seat
0: buy 2.3``; ``hint`` prints them as a table.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import _core
from ..wording import seat_name

SEPARATOR: str = _core.TURN_SEPARATOR
PV_TURNS_SHOWN = 3  # turns of a principal variation shown after the move's own


def parse_turn(state: Any, text: str) -> list[int]:
    """The actions of a turn's text (``take WUK, return R``) played from ``state``.

    Each part is read with ``string_to_action`` on the position it is played in;
    ``ValueError`` names the part that cannot be read or is not legal (and why), or says
    that the turn leaves the seat still to move or passes into another seat's turn.
    """
    parts = [part.strip() for part in text.split(SEPARATOR.strip())]
    if not text.strip() or any(not part for part in parts):
        raise ValueError(f"{text!r} is not a turn: give its moves separated by {SEPARATOR!r}")
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("no seat is to move here")
    seat = state.current_player()
    probe = state.clone()
    actions = []
    for n, part in enumerate(parts):
        if n and (probe.is_terminal() or probe.current_player() != seat):
            raise ValueError(f"{part!r}: the turn is over after {SEPARATOR.join(parts[:n])!r}")
        action = probe.string_to_action(part)
        if not probe.is_legal(action):
            raise ValueError(f"{probe.action_to_string(action)}: {probe.why_illegal(action)}")
        probe.apply_action(action)
        actions.append(action)
    return actions


def turn_text(state: Any, actions: Sequence[int]) -> str:
    """The notation of a turn played from ``state``."""
    return SEPARATOR.join(decision_texts(state, actions, labels=False))


def turn_label(state: Any, actions: Sequence[int]) -> str:
    """A turn played from ``state`` as people read it: each move with the card it names."""
    return SEPARATOR.join(decision_texts(state, actions, labels=True))


def decision_texts(state: Any, actions: Sequence[int], labels: bool) -> list[str]:
    """The texts of the decisions among ``actions``: a card or token a turn reveals (a
    chance outcome of a record) is left to the table, which shows what the viewer may see
    (an opponent's blind reserve stays hidden)."""
    probe = state.clone()
    out = []
    for action in actions:
        if not probe.is_chance_node():
            out.append(probe.action_label(action) if labels else probe.action_to_string(action))
        probe.apply_action(action)
    return out


def turn_at(state: Any, actions: Sequence[int]) -> list[int]:
    """The actions of the turn that starts with ``actions[0]`` from ``state`` (the first
    of ``state.split_turns(actions)``)."""
    split = state.split_turns(list(actions))
    return list(split[0][1]) if split else []


def pv_turns_text(pv_turns: Iterable[Mapping[str, Any]], skip_first: bool = False,
                  shown: int = PV_TURNS_SHOWN) -> str:
    """``seat 1: buy 2.3 | seat 2: take WUK, return R ...``: a principal variation marked
    by seat (numbered for people, from 1) and turn (``pv_turns`` of a MoveInfo or TurnInfo)."""
    turns = list(pv_turns)[1 if skip_first else 0:]
    text = " | ".join(f"{seat_name(t['seat'])}: {SEPARATOR.join(t['moves'])}" for t in turns[:shown])
    return text + (" ..." if len(turns) > shown else "")
