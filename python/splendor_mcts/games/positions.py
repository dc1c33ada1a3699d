"""Reading a position typed by a person: the game and variant come from the JSON itself.

A position file (docs/position-format.md) names its game (``"game"``, default
``"splendor"``) and may give its ``"variant"``; without one, the number of seats is
taken from ``"players"``. It may be a full state or a player's view (deck counts,
opponents' blind reserves as ``{"level": k, "blind": true}``); the unknown cards are
drawn from the unseen ones, which a search from the view of the player to move
never depends on.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .. import _core
from ..seeds import seed_or_random
from .game import Game, load_game
from .registry import DEFAULT_GAME, game_entry, load_attribute, position_readers

#: A position that cannot be read (a ``ValueError``): ``problems`` holds one
#: ``{"path": ..., "message": ...}`` per problem; ``str()`` has one line per problem.
PositionError = _core.PositionError


@dataclass(frozen=True)
class Position:
    """A position read from JSON: the game, a full state consistent with it, and
    whose view it is (``observer`` is None for a full state without one)."""

    game: Game
    state: Any
    observer: int | None


def read_position(text: str | bytes, seed: int | None = 0) -> Position:
    """Read a position (full state or a player's view) from JSON text.

    Raises ``PositionError`` listing every problem found, each with its JSON path.
    ``seed`` draws the cards the position does not show (deck order, hidden reserves).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PositionError([{"path": "(root)", "message": f"the position is not UTF-8 text ({exc.reason})"}]) from None
    elif isinstance(text, str):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            # A lone surrogate: how Python carries bytes it could not decode.
            raise PositionError([{"path": "(root)", "message": f"the position is not valid text ({exc.reason})"}]) from None
    name, variant, state, observer = _core.read_position(text, seed_or_random(seed), readers=position_readers())
    return Position(game=load_game(name, **variant), state=state, observer=observer)


def read_position_file(path: str, seed: int | None = 0) -> Position:
    """Read a position from a file, or from standard input when ``path`` is ``-``.
    ``OSError`` when the file cannot be read."""
    import sys

    if path == "-":
        return read_position(sys.stdin.buffer.read(), seed=seed)
    with open(path, "rb") as handle:
        return read_position(handle.read(), seed=seed)



def as_the_table_shows(view: dict[str, Any], seat: int, cards: list[dict[str, Any]]) -> dict[str, Any]:
    """A copy of the view ``view`` (a parsed ``observation_json``) with ``seat``'s bought cards
    given only as the table shows them (docs/position-format.md), counted as its game's
    registry entry's ``bought_summary`` says (Splendor: per colour the cards and their points;
    Duel, ``games/duel/bought.py``: also the bonuses, crowns, jokers and colourless cards).
    ``cards`` is the game's ``cards()``; a Duel joker still waiting for its colour stays listed."""
    game = game_entry(view.get("game", DEFAULT_GAME))
    if game.bought_summary is None:
        raise ValueError(f"{game.title} has no summary of bought cards")
    shown_in = load_attribute(game.bought_summary)
    out = json.loads(json.dumps(view))
    player = out["players"][seat]
    bought: dict[str, Any] = {}
    kept = []  # a joker still waiting for its colour stays a card
    for entry in player.pop("cards"):
        card = cards[(entry["card"] if isinstance(entry, dict) else entry) - 1]
        if isinstance(entry, dict) and entry.get("colour") is None:
            kept.append(entry)
            continue
        shown = shown_in(bought, card, entry)
        shown["cards"] += 1
        shown["points"] += card["points"]
    player["bought"] = bought
    player["cards"] = kept
    return out
