"""Playing Splendor Duel in the terminal: its help, its board, and the chance outcomes a
person types (pyramid refills, blind reserves, bag fills and the first player)."""
from __future__ import annotations

import json
import re
from typing import Any

from ..play_table import COMMON_HELP, NotNowError, Table, card_id_of

DUEL_HELP = """commands:
  a move in the notation   take c3 c4 c5 | privilege b2 | replenish | reserve 2.3 gold e5 |
                           reserve deck1 gold b1 | buy 1.4 | buy r1 | token c3 | steal pearl |
                           joker red | royal 2 | discard gold   (see docs/actions-duel.md)
                           cells a1..e5: column a-e, row 1-5 from the top, as on the board"""

DUEL_FOLLOW_HELP = """  in follow mode type what happens on the table:
    a card revealed (a pyramid refill, or the card you drew blind) as on the card:
      red 2pt 1cr W2U2G2P1 (x2 double bonus, 1cr crowns, abilities again/token/privilege/steal,
      P pearl; or #43)
    the tokens the bag fills the board with, in spiral order: red blue pearl gold or R U P Y
      (several per line); who plays first: first 0 / first 1
  an opponent's blind reserve stays hidden; when they buy it, name it: buy r1 #43"""

LETTER_KINDS = {"w": "white", "u": "blue", "g": "green", "r": "red", "k": "black", "p": "pearl", "y": "gold",
                "*": "gold"}  # * was gold's first letter; still read


class DuelTable(Table):
    """Splendor Duel: pyramid refills, blind reserves, bag fills and the first player."""

    help = DUEL_HELP + "\n" + COMMON_HELP
    follow_help = DUEL_FOLLOW_HELP
    example = "take c3 c4, buy 1.2"
    named_reserve_move = re.compile(r"^\s*(buy r(\d))\s+(\S.*)$", re.IGNORECASE)
    reveal_format = "card {}"

    def hidden_draw(self, view: dict[str, Any]) -> bool:
        reveal = view.get("pending", {}).get("reveal", "")
        return reveal.startswith("deck") and view["to_move"] != view["observer"]

    @staticmethod
    def chance_kind(state: Any) -> str:
        """``card``, ``fill`` or ``first``: the verb of the pending chance outcomes."""
        return state.action_to_string(state.chance_outcomes()[0][0]).split(" ", 1)[0]

    def prompt(self, state: Any) -> str:
        """Names what is due and where: ``card revealed in level 2, slot 3>``, ``bag draw onto c3>``."""
        kind = self.chance_kind(state)
        if kind == "fill":
            return f"bag draw onto {next_fill_cell(state)}> "
        if kind == "first":
            return "first player (0 or 1)> "
        reveal = json.loads(state.observation_json(0)).get("pending", {}).get("reveal", "")
        if reveal.startswith("deck"):
            return f"card drawn blind from level {reveal[4:]}> "
        level, _, slot = reveal.partition(".")
        return f"card revealed in level {level}, slot {slot}> " if slot else "card revealed> "

    def describe_chance(self, state: Any, viewer: int) -> str:
        kind = self.chance_kind(state)
        view = json.loads(state.observation_json(viewer))
        pending = view.get("pending", {})
        if kind == "first":
            return "who plays first? type 'first 0' or 'first 1'"
        if kind == "fill":
            return (f"the bag refills the board ({pending.get('fills', 0)} to draw): type the token drawn onto "
                    f"{next_fill_cell(state)} (red or R, pearl P, gold Y; several at once in spiral order)")
        reveal = pending.get("reveal", "")
        if reveal.startswith("deck"):
            return f"you reserved blind from level {reveal[4:]}: type the card you drew (e.g. red 2pt 1cr W2U2G2P1, or #43)"
        return f"pyramid slot {reveal} is filled from the deck: type the card revealed (e.g. red 2pt 1cr W2U2G2P1, or #43)"

    def read_chance(self, state: Any, text: str) -> list[int]:
        """The outcomes a person typed (several bag draws may share a line); ``ValueError``
        says what is wrong. Legality is checked when they are applied."""
        kind = self.chance_kind(state)
        words = text.replace(",", " ").split()
        if kind == "card":
            return [self.read_card(state, text)]
        if kind == "first":
            seat = words[-1] if words else ""
            if len(words) > 2 or (len(words) == 2 and words[0].lower() != "first"):
                raise ValueError(f"cannot read {text!r}: type 'first 0' or 'first 1'")
            return [state.string_to_action(f"first {seat}")]
        if words and words[0].lower() == "fill":
            words = words[1:]
        kinds: list[str] = []
        for word in words:
            low = word.lower()
            if low in LETTER_KINDS.values():
                kinds.append(low)
            elif all(ch in LETTER_KINDS for ch in low):
                kinds.extend(LETTER_KINDS[ch] for ch in low)
            else:
                raise ValueError(f"cannot read the token {word!r}: a kind (white blue green red black pearl gold) or "
                                 "letters W U G R K P Y (gold), e.g. 'R U P' or 'RUP'")
        if not kinds:
            raise ValueError("type the token drawn from the bag, e.g. red or R")
        return [state.string_to_action(f"fill {k}") for k in kinds]

    def read_card(self, state: Any, text: str) -> int:
        """A revealed card by ``card 45``, ``#45`` or its description."""
        plain = text.strip()
        try:
            if plain.lower().startswith("card "):
                action = state.string_to_action(plain)
            else:
                action = self.reveal_action(state, card_id_of(self.game, plain))
        except ValueError as exc:
            raise ValueError(f"cannot read the revealed card {text!r}: {exc}") from None
        if action not in dict(state.chance_outcomes()):
            raise NotNowError(f"{state.action_label(action)} cannot be revealed now (it is already in the pyramid, "
                              "bought or reserved, or of another level)", action)
        return action


def next_fill_cell(state: Any) -> str:
    """The cell the next bag draw lands on (asked of the engine: a draw applied to a copy)."""
    before = json.loads(state.observation_json(0))["board"]
    probe = state.clone()
    probe.apply_action(state.chance_outcomes()[0][0])
    after = json.loads(probe.observation_json(0))["board"]
    for row, (old, new) in enumerate(zip(before, after)):
        for col, (a, b) in enumerate(zip(old, new)):
            if a != b:
                return f"{'abcde'[col]}{row + 1}"
    return "?"
