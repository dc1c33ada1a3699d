"""Readable move labels for people: the notation plus the card it concerns.

``move_label(state, action)`` turns ``buy 2.1`` into ``buy 2.1 (green 1pt W2U3K2)`` so a
player sees which card a move takes without looking up the slot. Presentation only:
the move itself is always the engine's notation (``state.action_to_string``).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

_TABLE_SLOT = re.compile(r"^(buy|reserve) (\d)\.(\d)$")
_RESERVED = re.compile(r"^buy reserved (\d)$")


@lru_cache(maxsize=4)
def _card_texts(game_name: str) -> dict[int, str]:
    from .game import load_game

    return {c["id"]: c["text"] for c in load_game(game_name).cards()}


class MoveLabeller:
    """Labels the moves of one state (reads the state's view once)."""

    def __init__(self, state: Any, game_name: str = "splendor") -> None:
        self.state = state
        self._texts = _card_texts(game_name) if game_name == "splendor" else {}
        self._view: dict[str, Any] | None = None

    def _position(self) -> dict[str, Any]:
        if self._view is None:
            seat = self.state.current_player()
            self._view = json.loads(self.state.observation_json(max(seat, 0)))
        return self._view

    def card_of(self, text: str) -> str | None:
        """The description of the card a move's text points at, if any."""
        if not self._texts:
            return None
        match = _TABLE_SLOT.match(text)
        try:
            if match:
                row = self._position()["table"][int(match.group(2)) - 1]
                card = row[int(match.group(3)) - 1]
            elif (match := _RESERVED.match(text)) is not None:
                view = self._position()
                entry = view["players"][view["to_move"]]["reserved"][int(match.group(1)) - 1]
                card = entry.get("card") if isinstance(entry, dict) else entry
            else:
                return None
        except (IndexError, KeyError, TypeError, ValueError):
            return None
        return self._texts.get(card) if isinstance(card, int) else None

    def label(self, action: int) -> str:
        text = self.state.action_to_string(action)
        card = self.card_of(text)
        return f"{text} ({card})" if card else text


def move_label(state: Any, action: int, game_name: str = "splendor") -> str:
    """``state.action_to_string(action)`` with the card it buys or reserves, if any."""
    return MoveLabeller(state, game_name).label(action)
