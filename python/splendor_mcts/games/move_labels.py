"""Readable move labels for people: the notation plus the card it concerns.

``move_label(state, action)`` turns ``buy 2.1`` into ``buy 2.1 (green 1pt W2U3K2)`` so a
player sees which card a move takes without looking up the slot (Duel: ``buy 2.3``,
``buy r1``, ``reserve 1.2 gold e5``, a revealed ``card 45``). Presentation only: the
move itself is always the engine's notation (``state.action_to_string``).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .registry import GameEntry, entry_of_state


@lru_cache(maxsize=8)
def _card_texts(entry: GameEntry) -> dict[int, str]:
    return {c["id"]: c["text"] for c in entry.cards()}


class MoveLabeller:
    """Labels the moves of one state (reads the state's view once)."""

    def __init__(self, state: Any) -> None:
        self.state = state
        entry = entry_of_state(state)
        self._texts = _card_texts(entry)
        self._moves = entry.card_moves
        self._view: dict[str, Any] | None = None

    def _position(self) -> dict[str, Any]:
        if self._view is None:
            seat = self.state.current_player()
            self._view = json.loads(self.state.observation_json(max(seat, 0)))
        return self._view

    def card_of(self, text: str) -> str | None:
        """The description of the card a move's text points at, if any."""
        moves = self._moves
        if moves is None:
            return None
        try:
            if (match := moves.slot.match(text)) is not None:
                row = self._position()[moves.rows][int(match["level"]) - 1]
                card = row[int(match["slot"]) - 1]
            elif (match := moves.reserved.match(text)) is not None:
                view = self._position()
                entry = view["players"][view["to_move"]]["reserved"][int(match["index"]) - 1]
                card = entry.get("card") if isinstance(entry, dict) else entry
            elif (match := moves.reveal.match(text)) is not None:
                card = int(match["id"])
            else:
                return None
        except (IndexError, KeyError, TypeError, ValueError):
            return None
        return self._texts.get(card) if isinstance(card, int) else None

    def label(self, action: int) -> str:
        text = self.state.action_to_string(action)
        card = self.card_of(text)
        return f"{text} ({card})" if card else text


def move_label(state: Any, action: int) -> str:
    """``state.action_to_string(action)`` with the card it buys or reserves, if any."""
    return MoveLabeller(state).label(action)
