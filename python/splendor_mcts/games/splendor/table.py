"""Playing Splendor in the terminal: its help, its board, and the reveals a person types."""
from __future__ import annotations

import json
import re
from typing import Any

from ... import _core
from ..play_table import COMMON_HELP, NotNowError, Table, card_id_of

SPLENDOR_HELP = """commands:
  a move in the notation   take WUG | take RR | buy 2.1 | buy #47 | reserve 1.3 | reserve deck 2 |
                           buy reserved 1 | return K | noble 3 | pass   (see docs/actions.md)"""

SPLENDOR_FOLLOW_HELP = """  in follow mode, when a card is revealed type it as on the card: green 1pt W2U3K2 (or #53);
  a noble by its requirement: 3pt W4U4 (or noble 4)"""


class SplendorTable(Table):
    """The base game: nobles and card reveals."""

    help = SPLENDOR_HELP + "\n" + COMMON_HELP
    follow_help = SPLENDOR_FOLLOW_HELP
    example = "take WUG, buy 2.1"
    named_reserve_move = re.compile(r"^\s*(buy reserved (\d))\s+(\S.*)$", re.IGNORECASE)
    reveal_format = "reveal #{}"

    def hidden_draw(self, view: dict[str, Any]) -> bool:
        """A card is being drawn into the blind reserve of a seat other than the viewer."""
        return view.get("pending_blind_reserve") is not None and view["to_move"] != view["observer"]

    def prompt(self, state: Any) -> str:
        """Names what is revealed and where: ``noble revealed (2 of 3)>``, ``card revealed in level 2, slot 3>``."""
        view = json.loads(state.observation_json(0))
        if self.noble_due(state):
            return f"noble revealed ({len(view['nobles']) + 1} of {view['variant']['nobles']})> "
        if view.get("pending_blind_reserve"):
            return f"card drawn blind from level {view['pending_blind_reserve']}> "
        for level, row in enumerate(view["table"], start=1):
            if None in row:
                return f"card revealed in level {level}, slot {row.index(None) + 1}> "
        return "card revealed> "

    @staticmethod
    def noble_due(state: Any) -> bool:
        return state.action_to_string(state.chance_outcomes()[0][0]).startswith("reveal noble")

    def describe_chance(self, state: Any, viewer: int) -> str:
        view = json.loads(state.observation_json(viewer))
        if self.noble_due(state):
            return "a noble is dealt: type its requirement (e.g. 3pt W4U4) or 'noble N'"
        if view.get("pending_blind_reserve"):
            return f"you reserved blind from level {view['pending_blind_reserve']}: type the card you drew"
        return "a card is revealed on the table: type it as printed (e.g. green 1pt W2U3K2)"

    def read_chance(self, state: Any, text: str) -> list[int]:
        """The reveal a person typed (``reveal ...`` in the notation, a card or noble by id or
        description); ``ValueError`` says what is wrong, with the range of the ids."""
        plain = " ".join(text.split())
        if plain.lower().startswith("reveal"):
            action = state.string_to_action(plain)
        elif self.noble_due(state):
            action = state.string_to_action(f"reveal noble {self.read_noble(plain)}")
        else:
            try:
                action = self.reveal_action(state, card_id_of(self.game, plain))
            except ValueError as exc:
                raise ValueError(f"cannot read the revealed card {text!r}: {exc}") from None
        if action not in dict(state.chance_outcomes()):
            raise NotNowError(f"{state.action_to_string(action)} cannot be revealed now "
                              "(it is already on the table, in a hand, or of another level)", action)
        return [action]

    def read_noble(self, text: str) -> int:
        """A noble by ``noble N``, ``#N``, ``N`` or its requirement (``3pt W4U4``, ``W4U4``):
        the engine's reader, the one position files use; ``ValueError`` otherwise."""
        return int(_core.splendor_noble_from_text(text))
