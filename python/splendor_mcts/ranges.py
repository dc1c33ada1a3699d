"""The numbers read at the package's doors, one parser per kind.

A number typed on a command line, written in an agent spec, sent on the engine protocol or
given as a server's cap is read by one of the ranges here: :class:`Whole` for integers and
:class:`Number` for finite decimals (seconds, rates), each with its documented bounds. A
range reads a text (:meth:`Whole.parse`), checks a value already typed (:meth:`Whole.check`:
a spec's parsed value, a keyword argument) or serves as a command-line option's type
(``commands/options.py``: ``arg``), and refuses with one kind of message naming the field, the range and
what was given::

    movetime must be a whole number of milliseconds from 1 to 1000000000, got '1000...' (401 characters)

So no door converts a number itself: a 400-digit integer is out of range (never an
``OverflowError`` when it meets a float), ``nan`` is refused (never slips through a
comparison) and ``inf`` is refused (never taken as a cap).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

# The engine's longest time budget (kMaxTimeLimit in cpp/search/params.hpp): every door's
# seconds stop there, so no time given anywhere is more than the search can take.
MAX_SECONDS = 1e6
# The largest iteration budget a door takes (the engine protocol declares it as the maximum of
# its iterations option): far beyond any search, far inside the engine's 64-bit counters.
MAX_ITERATIONS = 2**62

_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+")
_NUMBER_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_MOST_DIGITS = 4000  # an unbounded whole number's longest text (CPython converts at most 4300 digits)
_SHOWN = 24  # characters of a bad value quoted in a message; the rest is counted


class NumberError(ValueError):
    """A number outside its range (or not a number): ``field`` names it (``None``: the caller's
    own name is put before the message, as argparse does with ``argument --x:``)."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(f"{field} {message}" if field else message)
        self.field = field


def _number_text(x: float) -> str:
    """``1000000`` for 1e6, ``0.5`` for 0.5: bounds as people write them."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def shown(value: Any) -> str:
    """A value as a message quotes it: a text in quotes, a long one cut (with its length)."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= _SHOWN:
        return repr(value) if isinstance(value, str) else text
    cut = repr(text[:_SHOWN]) if isinstance(value, str) else text[:_SHOWN]
    return f"{cut}... ({len(text)} characters)"


@dataclass(frozen=True)
class _Range:
    low: float | None = None
    high: float | None = None
    unit: str = ""            # "seconds": "a number of seconds from ..."
    above: bool = False       # low itself is refused ("greater than 0")

    kind_words = "a number"

    def words(self) -> str:
        """``a whole number from 1 to 256``, ``a number of seconds greater than 0 and at most 1000000``."""
        kind = f"{self.kind_words} of {self.unit}" if self.unit else self.kind_words
        low = None if self.low is None else _number_text(self.low)
        high = None if self.high is None else _number_text(self.high)
        if low is not None and high is not None:
            return f"{kind} greater than {low} and at most {high}" if self.above else f"{kind} from {low} to {high}"
        if low is not None:
            return f"{kind} greater than {low}" if self.above else f"{kind} of at least {low}"
        if high is not None:
            return f"{kind} of at most {high}"
        return kind

    def refuse(self, field: str | None, value: Any) -> NumberError:
        return NumberError(field, f"must be {self.words()}, got {shown(value)}")

    def _inside(self, value: int | float) -> bool:
        # Compared as given: an int of any size against the bounds, exactly, with no float conversion.
        if self.low is not None and (value <= self.low if self.above else value < self.low):
            return False
        return self.high is None or value <= self.high

    def parse(self, text: str, field: str | None) -> Any:  # pragma: no cover - each kind has its own
        raise NotImplementedError


@dataclass(frozen=True)
class Whole(_Range):
    """An integer in ``low..high`` (either bound may be None: unbounded that way)."""

    kind_words = "a whole number"

    def check(self, value: Any, field: str | None) -> int:
        """``value`` if it is an int (not a bool) in range, else :class:`NumberError`."""
        if isinstance(value, bool) or not isinstance(value, int) or not self._inside(value):
            raise self.refuse(field, value)
        return value

    def parse(self, text: str, field: str | None) -> int:
        """The text of a whole number (ASCII digits with an optional sign, nothing else) in range."""
        cleaned = text.strip()
        if not _WHOLE_TEXT.fullmatch(cleaned):
            raise self.refuse(field, text)
        digits = cleaned.lstrip("+-").lstrip("0")
        bounds = [b for b in (self.low, self.high) if b is not None]
        widest = max(len(str(abs(int(b)))) for b in bounds) if len(bounds) == 2 else _MOST_DIGITS
        if len(digits) > widest:  # out of range whatever the digits: never converted (4300-digit limit)
            raise self.refuse(field, text)
        value = -int(digits or "0") if cleaned.startswith("-") else int(digits or "0")
        if not self._inside(value):
            raise self.refuse(field, text)
        return value


@dataclass(frozen=True)
class Number(_Range):
    """A finite number in ``low..high`` (``above``: greater than ``low``), as a float."""

    def check(self, value: Any, field: str | None) -> float:
        """``value`` as a float if it is an int or float (not a bool), finite and in range."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.refuse(field, value)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.refuse(field, value)
        if not self._inside(value):
            raise self.refuse(field, value)
        try:
            return float(value)
        except OverflowError:  # an int beyond any float, with no bound to stop it
            raise self.refuse(field, value) from None

    def parse(self, text: str, field: str | None) -> float:
        """The decimal text of a number (``0.5``, ``1e-3``; not ``nan`` or ``inf``) in range."""
        cleaned = text.strip()
        if not _NUMBER_TEXT.fullmatch(cleaned):
            raise self.refuse(field, text)
        value = float(cleaned)  # never raises for this text: too large gives inf, refused as out of range
        if not math.isfinite(value) or not self._inside(value):
            raise self.refuse(field, text)
        return value


# The kinds every door shares.
SECONDS = Number(0, MAX_SECONDS, unit="seconds", above=True)       # a time limit, a move time
ANY_NUMBER = Number()                                                # finite, unbounded: where a later check
WHOLE = Whole()                                                      # ... gives the range
ITERATIONS = Whole(1, MAX_ITERATIONS)
COUNT = Whole(1)                                                     # how many, at least one
INDEX = Whole(0)                                                     # a position from 0

__all__ = ["ANY_NUMBER", "COUNT", "INDEX", "ITERATIONS", "MAX_ITERATIONS", "MAX_SECONDS", "NumberError", "Number",
           "SECONDS", "WHOLE", "Whole", "shown"]
