"""The words of the engine protocol (docs/engine-protocol.md), written and read in one place.

Both sides use this module: the engine (:mod:`.server`) to read commands and write answers,
the tournament (:mod:`.manager`) to write commands and read answers. Every reader raises
``ValueError`` naming what is wrong with a line.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..ranges import ITERATIONS, MAX_SECONDS, Number, Whole

PROTOCOL_VERSION = 1
HELLO = "sep"          # first command: the engine introduces itself
HELLO_OK = "sepok"     # ... and ends its introduction with this line
OPTION_TYPES = ("check", "spin", "float", "combo", "string", "button")
MOVE_SEPARATOR = ", "  # moves in notation hold spaces ("take c3 c4 c5"): lists are comma-separated
TURN_SEPARATOR = " / "  # a principal variation's turns (one player's decisions each)
AUTO = "auto"          # an option value meaning "the game's own default"


def split_moves(text: str) -> list[str]:
    """``"take WUG, buy 2.4"`` -> ``["take WUG", "buy 2.4"]`` (empty text: no moves)."""
    return [m.strip() for m in text.split(",") if m.strip()] if text.strip() else []


def join_moves(moves: list[str]) -> str:
    for move in moves:
        if "," in move or "\n" in move:
            raise ValueError(f"a move in notation cannot hold a comma or a newline: {move!r}")
    return MOVE_SEPARATOR.join(moves)


@dataclass(frozen=True)
class Option:
    """One engine option as the handshake declares it (UCI's ``option`` line, plus ``float``)."""

    name: str
    type: str
    default: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()

    def line(self) -> str:
        parts = [f"option name {self.name} type {self.type}"]
        if self.type != "button":
            parts.append(f"default {self.default}")
        if self.min is not None:
            parts.append(f"min {_number_text(self.min)}")
        if self.max is not None:
            parts.append(f"max {_number_text(self.max)}")
        parts.extend(f"var {c}" for c in self.choices)
        return " ".join(parts)

    def check(self, value: str) -> str:
        """``value`` if this option takes it, else ``ValueError`` saying why."""
        if value == AUTO and self.default == AUTO:
            return value
        if self.type == "check":
            if value not in ("true", "false"):
                raise ValueError(f"option {self.name} takes true or false, got {value!r}")
        elif self.type in ("spin", "float"):
            kind = Whole if self.type == "spin" else Number
            kind(self.min, self.max).parse(value, f"option {self.name}")
        elif self.type == "combo" and value not in self.choices:
            raise ValueError(f"option {self.name} must be one of {', '.join(self.choices)}, got {value!r}")
        return value


def _number_text(x: float | None) -> str:
    if x is None:
        return "any"
    return str(int(x)) if float(x).is_integer() else repr(float(x))


_OPTION_KEYS = ("name", "type", "default", "min", "max", "var")


def parse_option(line: str) -> Option:
    """Read ``option name N type T [default D] [min A] [max B] [var V]...``; names may hold spaces."""
    words = line.split()
    if not words or words[0] != "option":
        raise ValueError(f"not an option line: {line!r}")
    fields: dict[str, list[str]] = {}
    choices: list[str] = []
    key: str | None = None
    for word in words[1:]:
        if word in _OPTION_KEYS and not (key == "name" and "type" not in fields and word not in ("type",)):
            key = word
            if key == "var":
                choices.append("")
            else:
                fields[key] = []
            continue
        if key is None:
            raise ValueError(f"option line must start with 'option name': {line!r}")
        if key == "var":
            choices[-1] = f"{choices[-1]} {word}".strip()
        else:
            fields[key].append(word)
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name:
        raise ValueError(f"option line without a name: {line!r}")
    if kind not in OPTION_TYPES:
        raise ValueError(f"option {name}: unknown type {kind!r} (known: {', '.join(OPTION_TYPES)})")
    bounds: dict[str, float | None] = {}
    for bound in ("min", "max"):
        text = " ".join(fields.get(bound, []))
        bounds[bound] = None if not text or text == "any" else Number().parse(text, f"option {name}: {bound}")
    return Option(name, kind, " ".join(fields.get("default", [])), bounds["min"], bounds["max"], tuple(choices))


@dataclass(frozen=True)
class Limits:
    """How long to think: ``go``'s arguments. Times are seconds here and milliseconds on the wire.

    ``time``/``inc`` are the mover's own clock and increment (the tournament keeps it);
    ``movetime`` a fixed time for this move; ``iterations`` a search budget; ``infinite``
    thinks until ``stop``. Several limits: the first reached ends the thinking.
    """

    iterations: int | None = None
    movetime: float | None = None
    time: float | None = None
    inc: float | None = None
    infinite: bool = False

    def words(self) -> str:
        return " ".join((["infinite"] if self.infinite else []) + _given(
            ("iterations", self.iterations), ("movetime", _ms(self.movetime)), ("time", _ms(self.time)),
            ("inc", _ms(self.inc))))

    def budget_seconds(self, moves_left: int = 20) -> float | None:
        """Seconds to think on this move: the move time, else a share of the clock, else None."""
        shares: list[float] = []
        if self.movetime is not None:
            shares.append(self.movetime)
        if self.time is not None:
            # A share of what is left plus most of the increment, never the whole clock.
            shares.append(max(0.0, min(self.time / moves_left + 0.8 * (self.inc or 0.0), 0.5 * self.time)))
        return min(shares) if shares else None


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else max(0, int(round(seconds * 1000)))


def _given(*fields: tuple[str, Any]) -> list[str]:
    """``key value`` words for the fields that have a value, in order."""
    return [f"{key} {value}" for key, value in fields if value is not None]


# Times on the wire are whole milliseconds, up to the engine's longest time budget.
MILLISECONDS = Whole(0, int(MAX_SECONDS * 1000), unit="milliseconds")
# go's numbers: its words (nodes is UCI's name for iterations), what Limits calls them, their range.
_GO_NUMBERS: dict[str, tuple[str, Whole]] = {
    "iterations": ("iterations", ITERATIONS), "nodes": ("iterations", ITERATIONS),
    "movetime": ("movetime", Whole(1, MILLISECONDS.high, unit="milliseconds")),
    "time": ("time", MILLISECONDS), "inc": ("inc", MILLISECONDS),
}


def parse_go(words: list[str]) -> Limits:
    """``go``'s words (after ``go``) as :class:`Limits`; ``nodes`` is read as ``iterations``.
    Each number must be in its range (:data:`_GO_NUMBERS`), else ``ValueError`` naming it."""
    values: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word == "infinite":
            values["infinite"] = True
            i += 1
            continue
        if word not in _GO_NUMBERS:
            raise ValueError(f"unknown word {word!r} (known: infinite, {', '.join(_GO_NUMBERS)})")
        if i + 1 >= len(words):
            raise ValueError(f"{word} needs a number")
        key, kind = _GO_NUMBERS[word]
        number = kind.parse(words[i + 1], word)
        values[key] = number if key == "iterations" else number / 1000.0
        i += 2
    return Limits(**values)


@dataclass
class Info:
    """What an ``info`` line says (every field optional)."""

    iterations: int | None = None
    time: float | None = None           # seconds
    nps: int | None = None              # iterations per second
    winrate: float | None = None        # percent, for the player to move
    pv: list[list[str]] = field(default_factory=list)  # turns, each a list of moves in notation
    string: str | None = None

    def line(self) -> str:
        pv = TURN_SEPARATOR.join(join_moves(turn) for turn in self.pv) if self.pv else None
        winrate = None if self.winrate is None else f"{self.winrate:.1f}"
        return " ".join(["info"] + _given(("iterations", self.iterations), ("time", _ms(self.time)),
                                          ("nps", self.nps), ("winrate", winrate), ("pv", pv),
                                          ("string", self.string)))


_COUNTED = Whole(0, 2**64 - 1)   # an engine's counters: whatever fits its 64 bits
_PERCENT = Number(0, 100)


def parse_info(line: str) -> Info:
    """Read an ``info`` line; ``pv`` and ``string`` take the rest of the line."""
    words = line.split(" ")
    if words[0] != "info":
        raise ValueError(f"not an info line: {line!r}")
    info = Info()
    i = 1
    while i < len(words):
        word = words[i]
        if word in ("pv", "string"):
            rest = " ".join(words[i + 1:])
            if word == "string":
                info.string = rest
            else:
                info.pv = [split_moves(turn) for turn in rest.split(TURN_SEPARATOR.strip())]
            break
        if i + 1 >= len(words):
            raise ValueError(f"info: {word} needs a value")
        value = words[i + 1]
        if word == "iterations":
            info.iterations = _COUNTED.parse(value, "info: iterations")
        elif word == "time":
            info.time = MILLISECONDS.parse(value, "info: time") / 1000.0
        elif word == "nps":
            info.nps = _COUNTED.parse(value, "info: nps")
        elif word == "winrate":
            info.winrate = _PERCENT.parse(value, "info: winrate")
        i += 2  # unknown words with a value are skipped: engines may say more
    return info
