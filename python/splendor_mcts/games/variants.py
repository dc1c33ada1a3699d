"""Rules variants: what every game's frozen, validated config shares.

A variant is built from keyword arguments (``load_game("splendor", players=3)``) or
from a spec string (``"splendor(players=4,points_to_win=18)"``). Each game's config
(``games/<game>/config.py``) checks every field so a bad variant raises ``ValueError``
naming the field before the engine sees it. docs/variants.md lists every game's fields.
"""
from __future__ import annotations

import re
from dataclasses import fields
from typing import Any, ClassVar


def check_int(name: str, value: Any, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be between {lo} and {hi}, got {value}")


class VariantConfig:
    """Base of the games' configs (frozen dataclasses): the canonical spec string."""

    game_name: ClassVar[str]

    def spec(self) -> str:
        """Canonical spec string; ``load_game(spec)`` gives back an equal game."""
        args = ",".join(f"{f.name}={format_spec_value(getattr(self, f.name))}" for f in fields(self))  # type: ignore[arg-type]
        return f"{self.game_name}({args})"


# A field left unset (Duel's first_player: drawn at random) is printed as None, as specs always have
# been (databases compare spec strings to resume); it is read in any case, and as JSON's null.
NONE_TEXT = "None"
NONE_WORDS = ("none", "null")


def format_spec_value(value: Any) -> str:
    """A variant field's value as a spec writes it (true/false, None, a number or a word)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return NONE_TEXT
    return str(value)


# A word value (Splendor's take_fewer_distinct=always): letters and underscores; the game's
# config says which words a field takes.
_WORD = re.compile(r"^[a-z][a-z_]*$")


def parse_value(name: str, text: str) -> Any:
    """A spec value: integer, true/false, None (also written none or null), or a word (lower-cased)."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in NONE_WORDS:
        return None
    if _WORD.match(lowered):
        return lowered
    try:
        return int(lowered)
    except ValueError:
        raise ValueError(f"{name}: cannot read {text!r} (expected an integer, true/false, None or a word)") from None


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(k=v,...)"`` into the game name (as written: the registry ignores its case) and keyword
    arguments."""
    text = spec.strip()
    if "(" not in text:
        return text, {}
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
    return name.strip(), kwargs
