"""What ``play`` needs to know about a game, as a base class each game's table fills in
(``games/<game>/table.py``, named by its registry entry's ``play_table``): its help, its board
and how a person types a chance outcome seen on a real table (a card revealed, a token drawn
from the bag).

Presentation and reading only: which outcomes are possible and what they do is always
asked of the engine (``chance_outcomes``, ``string_to_action``, ``apply_action``).
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Any

from rich.console import Console

from .registry import load_attribute

COMMON_HELP = """  hint [SECONDS]           the engine's best moves for the player to move
  moves                    every legal move
  board                    draw the board again
  undo                     take back your last move (and the replies to it)
  save FILE | load FILE    write or read the game record (JSON)
  help | quit"""


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
            raise ValueError(f"card #{card_id} does not exist (card ids are 1-{len(game.cards())})")
        return card_id
    return game.card_from_text(plain)


class Table(ABC):
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

    def draw(self, console: Console, state: Any, viewer: int, names: list[str]) -> None:
        """The board as ``viewer`` sees it, drawn by the game's registered ``board``."""
        load_attribute(self.game.entry.board)(console, state, viewer, names)

    @abstractmethod
    def hidden_draw(self, view: dict[str, Any]) -> bool:
        """A card is being drawn blind by a seat other than the viewer."""

    @abstractmethod
    def prompt(self, state: Any) -> str:
        """The prompt while a chance outcome is awaited."""

    @abstractmethod
    def describe_chance(self, state: Any, viewer: int) -> str:
        """What happens on the table now, and how to type it."""

    @abstractmethod
    def read_chance(self, state: Any, text: str) -> list[int]:
        """The chance outcomes a person typed; ``ValueError`` says what is wrong."""
