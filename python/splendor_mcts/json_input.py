"""JSON that a user gave (a record file, a request body, a protocol line): one reader for every door.

Python's ``json`` recurses once per nesting level, so a body of 100,000 nested lists raises
``RecursionError`` (a ``RuntimeError``, which no door takes for bad input), and a document a
little less deep parses but breaks whatever walks or writes it later. It also takes ``NaN``
and ``Infinity``, which are not JSON. ``read_json`` refuses all of these with a
``JsonInputError`` (a ``ValueError``, which every door already turns into its documented
error: 400 on the web board, exit code 3 on the command line), and caps nesting at the engine's
own reader's limit (``kMaxDepth`` in cpp/core/json.hpp), so that every door allows the same.
"""
from __future__ import annotations

import json
from typing import Any

#: The deepest nesting of arrays and objects accepted, as the engine's position reader allows.
MAX_DEPTH = 128


class JsonInputError(ValueError):
    """The text is not JSON this program reads; the message names what and why."""


def read_json(text: str | bytes | bytearray, what: str = "the input") -> Any:
    """Parse ``text`` (bytes must be UTF-8). ``JsonInputError`` says why not, starting with ``what``."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"{what} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"{what} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except _NotJson as exc:
        raise JsonInputError(f"{what} is not JSON: {exc} is not a JSON value") from None
    except RecursionError:
        value = _TOO_DEEP
    # Only text with enough brackets can nest too deeply: most documents skip the walk.
    if value is _TOO_DEEP or (text.count("[") + text.count("{") > MAX_DEPTH and _deeper_than(value, MAX_DEPTH)):
        raise JsonInputError(f"{what} nests arrays or objects too deeply (more than {MAX_DEPTH} levels)")
    return value


_TOO_DEEP = object()


class _NotJson(ValueError):
    """NaN, Infinity or -Infinity: Python's extensions to JSON (json.loads passes it on as it is)."""


def _refuse_constant(name: str) -> Any:
    raise _NotJson(name)


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and dicts more than ``limit`` levels; a loop, not recursion."""
    stack = [(value, 1)] if isinstance(value, (list, dict)) else []
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (list, dict)))
    return False
