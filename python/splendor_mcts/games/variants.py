"""Rules variants: frozen, validated configuration for each game.

A variant is built from keyword arguments (``load_game("splendor", players=3)``) or
from a spec string (``"splendor(players=4,points_to_win=18)"``). Every field is
checked here so a bad variant raises ``ValueError`` naming the field before the
engine sees it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from . import _core


def _check_int(name: str, value: Any, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be between {lo} and {hi}, got {value}")


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")


@dataclass(frozen=True)
class SplendorConfig:
    """Splendor (base game) for 2-4 players.

    ``gem_tokens`` (per colour) and ``nobles`` default to the published numbers for
    the player count (4/5/7 tokens, players + 1 nobles) when left as ``None``.
    """

    game_name: ClassVar[str] = "splendor"

    players: int = 2
    points_to_win: int = 15
    take_fewer_distinct: bool = True
    gem_tokens: int | None = None
    gold_tokens: int = 5
    nobles: int | None = None
    token_limit: int = 10
    reserve_limit: int = 3
    take_two_min: int = 4

    def __post_init__(self) -> None:
        _check_int("players", self.players, 2, 4)
        if self.gem_tokens is None:
            object.__setattr__(self, "gem_tokens", {2: 4, 3: 5, 4: 7}[self.players])
        if self.nobles is None:
            object.__setattr__(self, "nobles", self.players + 1)
        _check_int("points_to_win", self.points_to_win, 1, 100)
        _check_bool("take_fewer_distinct", self.take_fewer_distinct)
        _check_int("gem_tokens", self.gem_tokens, 1, 20)
        _check_int("gold_tokens", self.gold_tokens, 0, 20)
        _check_int("nobles", self.nobles, 0, 10)
        _check_int("token_limit", self.token_limit, 1, 60)
        _check_int("reserve_limit", self.reserve_limit, 0, 3)
        _check_int("take_two_min", self.take_two_min, 2, 20)

    def num_players(self) -> int:
        return self.players

    def to_engine(self) -> _core.SplendorRules:
        return _core.SplendorRules(**dataclasses.asdict(self))

    def spec(self) -> str:
        """Canonical spec string; ``load_game(spec)`` gives back an equal game."""
        args = ",".join(f"{f.name}={_format_value(getattr(self, f.name))}" for f in fields(self))
        return f"{self.game_name}({args})"


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_value(name: str, text: str) -> Any:
    """A spec value: integer, true/false, or none."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    try:
        return int(lowered)
    except ValueError:
        raise ValueError(f"{name}: cannot read {text!r} (expected an integer or true/false)") from None


@dataclass(frozen=True)
class DuelConfig:
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
        _check_int("points_to_win", self.points_to_win, 1, 40)
        _check_int("crowns_to_win", self.crowns_to_win, 1, 20)
        _check_int("colour_points_to_win", self.colour_points_to_win, 1, 20)
        _check_int("privileges", self.privileges, 0, 6)
        if self.first_player is not None:
            _check_int("first_player", self.first_player, 0, 1)

    def num_players(self) -> int:
        return 2

    def to_engine(self) -> _core.DuelRules:
        fields_ = dataclasses.asdict(self)
        fields_["first_player"] = -1 if self.first_player is None else self.first_player
        return _core.DuelRules(**fields_)

    def spec(self) -> str:
        """Canonical spec string; ``load_game(spec)`` gives back an equal game."""
        args = ",".join(f"{f.name}={_format_value(getattr(self, f.name))}" for f in fields(self))
        return f"{self.game_name}({args})"


CONFIGS: dict[str, type] = {"splendor": SplendorConfig, "duel": DuelConfig}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(k=v,...)"`` into the game name and keyword arguments."""
    text = spec.strip()
    if "(" not in text:
        return text.lower(), {}
    if not text.endswith(")"):
        raise ValueError(f"game spec {spec!r}: missing closing parenthesis")
    name, _, body = text[:-1].partition("(")
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in body.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"game spec {spec!r}: expected key=value, got {part!r}")
        if key in kwargs:
            raise ValueError(f"game spec {spec!r}: {key} given twice")
        kwargs[key] = parse_value(key, value)
    return name.strip().lower(), kwargs


def make_config(name: str, kwargs: dict[str, Any]) -> Any:
    """The validated config of game ``name``; unknown names and fields are errors."""
    try:
        cls = CONFIGS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(CONFIGS))}") from None
    known = {f.name for f in fields(cls)}
    for key in kwargs:
        if key not in known:
            raise ValueError(f"{name}: unknown variant field {key!r}; fields: {', '.join(sorted(known))}")
    return cls(**kwargs)
