"""The text of an agent spec's parameters: ``key=value`` items separated by commas, a value in
double quotes when it holds a comma, a quote, a backslash or a space (``cmd="./bot --level 3"``).
One splitter and one formatter for every kind of agent spec (tournament/agents.py,
splendor_tools/seat.py), so every spec quotes alike and parses back equal."""
from __future__ import annotations

import re
from typing import Any

_QUOTE_NEEDED = re.compile(r'[,"\\\s]')


def parse_value(text: str) -> Any:
    """An unquoted value: an integer, a number, true or false, else the text itself."""
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def format_value(value: Any, quoted: bool = False) -> str:
    """A parameter's value as spec text: quoted when it must be (or `quoted`), so it parses back equal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if isinstance(value, str) and (quoted or _QUOTE_NEEDED.search(text) or parse_value(text) != text or not text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def split_items(text: str, spec: str) -> list[tuple[str, bool]]:
    """``a=1,cmd="x, y"`` -> [("a=1", False), ('cmd=x, y', True)]: comma-separated items, each
    with whether its value was quoted (quotes removed, escapes resolved)."""
    items: list[tuple[str, bool]] = []
    current: list[str] = []
    quoted = False
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"' and "=" in "".join(current) and "".join(current).split("=", 1)[1].strip() == "":
            end = i + 1
            value: list[str] = []
            while end < len(text) and text[end] != '"':
                if text[end] == "\\" and end + 1 < len(text) and text[end + 1] in '"\\':
                    end += 1
                value.append(text[end])
                end += 1
            if end >= len(text):
                raise ValueError(f"agent spec {spec!r}: a quoted value has no closing quote")
            current = ["".join(current).rstrip(), "".join(value)]
            quoted = True
            i = end + 1
            rest = text[i:].lstrip()
            if rest and not rest.startswith(","):
                raise ValueError(f"agent spec {spec!r}: expected ',' after a quoted value, got {rest[:20]!r}")
            continue
        if ch == ",":
            items.append(("".join(current), quoted))
            current, quoted = [], False
        else:
            current.append(ch)
        i += 1
    items.append(("".join(current), quoted))
    return items
