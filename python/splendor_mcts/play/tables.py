"""What ``play`` needs to know about each game: its help, its board and how a person types
a chance outcome seen on a real table (a card revealed, a token drawn from the bag).

Presentation and reading only: which outcomes are possible and what they do is always
asked of the engine (``chance_outcomes``, ``string_to_action``, ``apply_action``).
"""
from __future__ import annotations

import json
import re
from typing import Any

from rich.console import Console

SPLENDOR_HELP = """commands:
  a move in the notation   take WUG | take RR | buy 2.1 | buy #47 | reserve 1.3 | reserve deck 2 |
                           buy reserved 1 | return K | noble 3 | pass   (see docs/actions.md)"""

DUEL_HELP = """commands:
  a move in the notation   take c3 c4 c5 | privilege b2 | replenish | reserve 2.3 gold e5 |
                           reserve deck1 gold b1 | buy 1.4 | buy r1 | token c3 | steal pearl |
                           joker red | royal 2 | discard gold   (see docs/actions-duel.md)
                           cells a1..e5: column a-e, row 1-5 from the top, as on the board"""

COMMON_HELP = """  hint [SECONDS]           the engine's best moves for the player to move
  moves                    every legal move
  board                    draw the board again
  undo                     take back your last move (and the replies to it)
  save FILE | load FILE    write or read the game record (JSON)
  help | quit"""

SPLENDOR_FOLLOW_HELP = """  in follow mode, when a card is revealed type it as on the card: green 1pt W2U3K2 (or #53);
  a noble by its requirement: 3pt W4U4 (or noble 4)"""

DUEL_FOLLOW_HELP = """  in follow mode type what happens on the table:
    a card revealed (a pyramid refill, or the card you drew blind) as on the card:
      red 2pt 1cr W2U2G2P1 (x2 double bonus, 1cr crowns, abilities again/token/privilege/steal,
      P pearl; or #43)
    the tokens the bag fills the board with, in spiral order: red blue pearl gold or R U P *
      (several per line); who plays first: first 0 / first 1
  an opponent's blind reserve stays hidden; when they buy it, name it: buy r1 #43"""

LETTER_KINDS = {"w": "white", "u": "blue", "g": "green", "r": "red", "k": "black", "p": "pearl", "*": "gold",
                "y": "gold"}


class NotNowError(ValueError):
    """A chance outcome that reads well but is not possible now; ``action`` is what was typed."""

    def __init__(self, message: str, action: int) -> None:
        super().__init__(message)
        self.action = action


def card_id_of(game: Any, text: str) -> int:
    """A card by ``#id`` / ``id`` or by its description; ``ValueError`` otherwise."""
    plain = text.strip()
    if plain.lstrip("#").isdigit():
        card_id = int(plain.lstrip("#"))
        if not 1 <= card_id <= len(game.cards()):
            raise ValueError(f"card id {card_id} does not exist (ids are 1 to {len(game.cards())})")
        return card_id
    return game.card_from_text(plain)


class Table:
    """What every game's helpers share: the texts, and a reveal by card id."""

    help: str
    follow_help: str
    example: str                          # moves for the first prompt
    named_reserve_move: re.Pattern[str]   # a buy of a reserved card naming it: move, index, card
    reveal_format: str                    # the chance action revealing card {id}

    def __init__(self, game: Any) -> None:
        self.game = game

    def reveal_action(self, state: Any, card_id: int) -> int:
        return int(state.string_to_action(self.reveal_format.format(card_id)))


class SplendorTable(Table):
    """The base game: nobles and card reveals."""

    help = SPLENDOR_HELP + "\n" + COMMON_HELP
    follow_help = SPLENDOR_FOLLOW_HELP
    example = "take WUG, buy 2.1"
    named_reserve_move = re.compile(r"^\s*(buy reserved (\d))\s+(\S.*)$", re.IGNORECASE)
    reveal_format = "reveal #{}"

    def draw(self, console: Console, state: Any, viewer: int, names: list[str]) -> None:
        from .board import draw_board

        draw_board(console, state, viewer, names, self.game.name)

    def hidden_draw(self, view: dict[str, Any]) -> bool:
        """A card is being drawn into the blind reserve of a seat other than the viewer."""
        return view.get("pending_blind_reserve") is not None and view["to_move"] != view["observer"]

    def prompt(self, state: Any) -> str:
        return "revealed card> "

    def describe_chance(self, state: Any, viewer: int) -> str:
        view = json.loads(state.observation_json(viewer))
        outcomes = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
        if outcomes and outcomes[0].startswith("reveal noble"):
            return "a noble is dealt: type its requirement (e.g. 3pt W4U4) or 'noble N'"
        if view.get("pending_blind_reserve"):
            return f"you reserved blind from level {view['pending_blind_reserve']}: type the card you drew"
        return "a card is revealed on the table: type it as printed (e.g. green 1pt W2U3K2)"

    def read_chance(self, state: Any, text: str) -> list[int]:
        """The reveal a person typed; ``ValueError`` says what is wrong."""
        action = None
        try:
            action = state.string_to_action(text if text.lower().startswith("reveal") else f"reveal {text}")
        except ValueError:
            pass
        if action is None:
            try:
                action = state.string_to_action(f"reveal #{self.game.card_from_text(text)}")
            except ValueError as exc:
                noble = self.noble_from_text(text)
                if noble is None:
                    raise ValueError(f"cannot read the revealed card {text!r}: {exc}") from None
                action = state.string_to_action(f"reveal noble {noble}")
        if action not in dict(state.chance_outcomes()):
            raise NotNowError(f"{state.action_to_string(action)} cannot be revealed now "
                              "(it is already on the table, in a hand, or of another level)", action)
        return [action]

    def noble_from_text(self, text: str) -> int | None:
        """A noble by its description ``3pt W4U4`` (the points may be left out)."""
        from .board import COLOURS, LETTERS

        wanted = "".join(text.lower().replace("3pt", "").split())
        for noble in self.game.nobles():
            need = "".join(f"{LETTERS[c]}{noble['requirement'][c]}" for c in COLOURS if noble["requirement"][c])
            if wanted == need.lower():
                return int(noble["id"])
        return None


class DuelTable(Table):
    """Splendor Duel: pyramid refills, blind reserves, bag fills and the first player."""

    help = DUEL_HELP + "\n" + COMMON_HELP
    follow_help = DUEL_FOLLOW_HELP
    example = "take c3 c4, buy 1.2"
    named_reserve_move = re.compile(r"^\s*(buy r(\d))\s+(\S.*)$", re.IGNORECASE)
    reveal_format = "card {}"

    def draw(self, console: Console, state: Any, viewer: int, names: list[str]) -> None:
        from .duel_board import draw_duel_board

        draw_duel_board(console, state, viewer, names)

    def hidden_draw(self, view: dict[str, Any]) -> bool:
        reveal = view.get("pending", {}).get("reveal", "")
        return reveal.startswith("deck") and view["to_move"] != view["observer"]

    @staticmethod
    def chance_kind(state: Any) -> str:
        """``card``, ``fill`` or ``first``: the verb of the pending chance outcomes."""
        return state.action_to_string(state.chance_outcomes()[0][0]).split(" ", 1)[0]

    def prompt(self, state: Any) -> str:
        return {"card": "revealed card> ", "fill": "bag draw> ", "first": "first player> "}[self.chance_kind(state)]

    def describe_chance(self, state: Any, viewer: int) -> str:
        kind = self.chance_kind(state)
        view = json.loads(state.observation_json(viewer))
        pending = view.get("pending", {})
        if kind == "first":
            return "who plays first? type 'first 0' or 'first 1'"
        if kind == "fill":
            return (f"the bag refills the board ({pending.get('fills', 0)} to draw): type the token drawn onto "
                    f"{next_fill_cell(state)} (red or R, pearl P, gold *; several at once in spiral order)")
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
                                 "letters W U G R K P * (gold), e.g. 'R U P' or 'RUP'")
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
            raise NotNowError(f"{card_label(state, action)} cannot be revealed now (it is already in the pyramid, "
                              "bought or reserved, or of another level)", action)
        return action


def card_label(state: Any, action: int) -> str:
    from ..moves import move_label

    return move_label(state, action, "duel")


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


def table_for(game: Any) -> Table:
    """The play helpers of ``game``."""
    return DuelTable(game) if game.name == "duel" else SplendorTable(game)
