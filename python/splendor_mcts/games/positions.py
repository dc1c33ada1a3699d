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

from .game import Game, load_game, make_config
from .registry import DEFAULT_GAME


class PositionError(ValueError):
    """A position that cannot be read. ``problems`` holds one message per problem,
    each starting with the JSON path at fault."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Position:
    """A position read from JSON: the game, a full state consistent with it, and
    whose view it is (``observer`` is None for a full state without one)."""

    game: Game
    state: Any
    observer: int | None
    data: dict[str, Any]

    @property
    def to_move(self) -> int:
        return int(self.data.get("to_move", 0))


def game_of_position(data: Any) -> Game:
    """The game a decoded position belongs to; ``PositionError`` names the field."""
    if not isinstance(data, dict):
        raise PositionError([f"(root): expected an object, found {_json_type(data)}"])
    name = data.get("game", DEFAULT_GAME)
    if not isinstance(name, str):
        raise PositionError([f"game: expected a string, found {_json_type(name)}"])
    variant = data.get("variant", {})
    if not isinstance(variant, dict):
        raise PositionError([f"variant: expected an object, found {_json_type(variant)}"])
    variant = dict(variant)
    players = data.get("players")
    if "players" not in variant and isinstance(players, list) and _takes_players(name, variant, len(players)):
        variant["players"] = len(players)
    try:
        return load_game(name, **variant)
    except ValueError as exc:
        field = "game" if str(exc).startswith("unknown game") else "variant"
        raise PositionError([f"{field}: {exc}"]) from None


def _takes_players(name: str, variant: dict[str, Any], players: int) -> bool:
    """Whether the game's variant has a number of players and this one is allowed."""
    try:
        make_config(name.lower(), {**variant, "players": players})
    except ValueError:
        return False
    return True


def read_position(text: str | bytes, seed: int | None = 0) -> Position:
    """Read a position (full state or a player's view) from JSON text.

    Raises ``PositionError`` listing every problem found, each with its JSON path.
    ``seed`` draws the cards the position does not show (deck order, hidden reserves).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PositionError([f"(root): the position is not UTF-8 text ({exc.reason})"]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError([f"line {exc.lineno}, column {exc.colno}: {exc.msg}"]) from None
    game = game_of_position(data)
    try:
        state = game.state_from_observation(text, seed=seed)
    except ValueError as exc:
        raise PositionError(str(exc).splitlines()) from None
    observer = data.get("observer")
    return Position(game=game, state=state, observer=observer if isinstance(observer, int) else None, data=data)


def read_position_file(path: str, seed: int | None = 0) -> Position:
    """Read a position from a file, or from standard input when ``path`` is ``-``.
    ``OSError`` when the file cannot be read."""
    import sys

    if path == "-":
        return read_position(sys.stdin.buffer.read(), seed=seed)
    with open(path, "rb") as handle:
        return read_position(handle.read(), seed=seed)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "an integer",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
