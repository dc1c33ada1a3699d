"""The variant of Splendor Duel: a frozen, validated config."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from ... import _core
from ..variants import VariantConfig, check_int

# The letters of the notation and the board, explained in one line (hint tables, the board).
LEGEND = "W white  U blue  G green  R red  K black  P pearl  Y gold"

# What the web board needs of the game (served by /api/games, read by serve/static/): for the
# set-up editor (setup.js) the position fields the server derives when they are left out, where
# the face-up cards are, the colours a card's bonus may be, the order a board cell's kinds cycle
# in ("" without a token board) and which parts of a seat it offers; for play (app.js) the move
# a click on a deck or on a reserved card types.
WEB_PAGE: dict[str, Any] = {
    "derived": ["bag", "privilege_supply", "royals"],
    "derived_player": ["points", "crowns", "colour_points"], "face_up": "pyramid",
    "gems": ["white", "blue", "green", "red", "black"], "cells": ".WUGRKPY",
    "privileges": True, "royals": True, "bought_summary": False, "jokers": True,
    "deck_move": "reserve deck{level} gold ", "reserved_move": "buy r{index}",
}


@dataclass(frozen=True)
class DuelConfig(VariantConfig):
    """Splendor Duel (2 players).

    The three victory thresholds are checked at the end of each turn. ``first_player``
    is 0 or 1, or ``None`` for the published rule: drawn at random from the game's seed
    (a chance node when chance is explicit). ``privileges`` is the number of privilege
    scrolls in the game.
    """

    game_name: ClassVar[str] = "duel"

    points_to_win: int = 20
    crowns_to_win: int = 10
    colour_points_to_win: int = 10
    privileges: int = 3
    first_player: int | None = None

    def __post_init__(self) -> None:
        # Upper bounds keep every game winnable (92 card + 9 royal points, 28 crowns).
        check_int("points_to_win", self.points_to_win, 1, 40)
        check_int("crowns_to_win", self.crowns_to_win, 1, 20)
        check_int("colour_points_to_win", self.colour_points_to_win, 1, 20)
        check_int("privileges", self.privileges, 0, 6)
        if self.first_player is not None:
            check_int("first_player", self.first_player, 0, 1)

    def num_players(self) -> int:
        return 2

    def to_engine(self) -> _core.DuelRules:
        fields_ = dataclasses.asdict(self)
        fields_["first_player"] = -1 if self.first_player is None else self.first_player
        return _core.DuelRules(**fields_)
