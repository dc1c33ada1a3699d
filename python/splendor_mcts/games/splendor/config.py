"""The variant of Splendor: a frozen, validated config."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ... import _core
from ..variants import VariantConfig, check_int

# The letters of the notation and the board, explained in one line (hint tables, the board).
LEGEND = "W white  U blue  G green  R red  K black  Y gold"

# What the web board needs of the game (served by /api/games, read by serve/static/): for the
# set-up editor (setup.js) the position fields the server derives when they are left out, where
# the face-up cards are, the colours a card's bonus may be, the order a board cell's kinds cycle
# in ("" without a token board) and which parts of a seat it offers; for play (app.js) the move
# a click on a deck or on a reserved card types.
WEB_PAGE: dict[str, Any] = {
    "derived": ["bank"],
    "derived_player": ["points", "bonuses"], "face_up": "table",
    "gems": ["white", "blue", "green", "red", "black"], "cells": "",
    "privileges": False, "royals": False, "bought_summary": True, "jokers": False,
    "deck_move": "reserve deck {level}", "reserved_move": "buy reserved {index}",
}

# When a take of different colours may hold fewer than three (docs/variants.md): false never,
# true only when fewer than three colours remain (the published rule), "always" at any time
# (the splendor-tools referee's rule). True and false are what specs and positions said before
# the third value, so they still read the same.
TakeFewer = bool | Literal["always"]
TAKE_FEWER_ALWAYS = "always"


def check_take_fewer(value: Any) -> None:
    """ValueError unless ``value`` is one of take_fewer_distinct's values (not 1 or 0: a typo)."""
    if not isinstance(value, bool) and value != TAKE_FEWER_ALWAYS:
        raise ValueError(f"take_fewer_distinct must be true, false or {TAKE_FEWER_ALWAYS}, got {value!r}")


@dataclass(frozen=True)
class SplendorConfig(VariantConfig):
    """Splendor (base game) for 2-4 players.

    ``gem_tokens`` (per colour) and ``nobles`` default to the published numbers for
    the player count (4/5/7 tokens, players + 1 nobles) when left as ``None``.
    ``take_fewer_distinct`` is ``True`` (the published rule), ``False`` or ``"always"``
    (:data:`TakeFewer`). docs/variants.md describes every field.
    """

    game_name: ClassVar[str] = "splendor"

    players: int = 2
    points_to_win: int = 15
    take_fewer_distinct: TakeFewer = True
    gem_tokens: int | None = None
    gold_tokens: int = 5
    nobles: int | None = None
    token_limit: int = 10
    reserve_limit: int = 3
    take_two_min: int = 4

    def __post_init__(self) -> None:
        check_int("players", self.players, 2, 4)
        if self.gem_tokens is None:
            object.__setattr__(self, "gem_tokens", {2: 4, 3: 5, 4: 7}[self.players])
        if self.nobles is None:
            object.__setattr__(self, "nobles", self.players + 1)
        check_int("points_to_win", self.points_to_win, 1, 100)
        check_take_fewer(self.take_fewer_distinct)
        check_int("gem_tokens", self.gem_tokens, 1, 20)
        check_int("gold_tokens", self.gold_tokens, 0, 20)
        check_int("nobles", self.nobles, 0, 10)
        check_int("token_limit", self.token_limit, 1, 60)
        check_int("reserve_limit", self.reserve_limit, 0, 3)
        check_int("take_two_min", self.take_two_min, 2, 20)

    def num_players(self) -> int:
        return self.players

    def to_engine(self) -> _core.SplendorRules:
        return _core.SplendorRules(**dataclasses.asdict(self))
