"""Drawing a player's view of a Splendor position with rich (colours follow the gems).

Works from ``state.observation_json(seat)`` only, so the board never shows what that
seat cannot see. Colours are off when the output is not a terminal or ``NO_COLOR`` is set
(rich's own rules).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from rich.console import Console
from rich.text import Text

from ... import _core
from .config import LEGEND
from ...wording import seat_name
from ..card_rows import print_card_rows

COLOURS = ("white", "blue", "green", "red", "black")
LETTERS = {"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K", "gold": "Y"}
STYLES = {"white": "bold white", "blue": "bold blue", "green": "bold green", "red": "bold red",
          "black": "bold magenta", "gold": "bold yellow"}


@lru_cache(maxsize=1)
def _cards() -> dict[int, dict[str, Any]]:
    return {c["id"]: c for c in _core.splendor_cards()}


@lru_cache(maxsize=1)
def _nobles() -> dict[int, dict[str, Any]]:
    return {n["id"]: n for n in _core.splendor_nobles()}


def noble_text(noble: dict[str, Any]) -> str:
    """``3pt W4U4``: points and the bonuses the noble asks for."""
    need = "".join(f"{LETTERS[c]}{noble['requirement'][c]}" for c in COLOURS if noble["requirement"][c])
    return f"{noble['points']}pt {need}"


def card_text(card: dict[str, Any]) -> Text:
    """A card coloured by its bonus, with its cost letters coloured too."""
    text = Text()
    text.append(f"{card['bonus']} {card['points']}pt", style=STYLES[card["bonus"]])
    text.append(" ")
    for colour in COLOURS:
        if card["cost"][colour]:
            text.append(f"{LETTERS[colour]}{card['cost'][colour]}", style=STYLES[colour])
    return text


def tokens_text(tokens: dict[str, int], kinds: tuple[str, ...] = COLOURS + ("gold",)) -> Text:
    text = Text()
    for kind in kinds:
        count = tokens.get(kind, 0)
        text.append(f"{LETTERS[kind]}{count} ", style=STYLES[kind] if count else "dim")
    return text


def draw_board(console: Console, state: Any, viewer: int, names: list[str]) -> None:
    """Print the view of seat ``viewer``: nobles, the three rows, the bank, every player."""
    view = json.loads(state.observation_json(viewer))
    cards = _cards()
    nobles = _nobles()
    line = Text("nobles  ", style="bold")
    for n in view["nobles"]:
        line.append(f"[{noble_text(nobles[n])}] ")
    console.print(line)
    print_card_rows(console, view["table"], view["decks"], lambda card: card_text(cards[card]))
    console.print(Text("bank    ", style="bold") + tokens_text(view["bank"]) + Text(f"   {LEGEND}", style="dim"))
    to_move = state.current_player()
    for seat, player in enumerate(view["players"]):
        marker = "▶ " if seat == to_move else "  "
        head = Text(f"{marker}{seat_name(seat)} {names[seat]}: {player['points']} pts  ", style="bold" if seat == viewer else "")
        head.append("tokens ")
        head.append_text(tokens_text(player["tokens"]))
        head.append(" bonuses ")
        head.append_text(tokens_text(player["bonuses"], COLOURS))
        console.print(head)
        if player["reserved"] or player["nobles"]:
            extra = Text("      reserved: ")
            for i, r in enumerate(player["reserved"], start=1):
                extra.append(f"{i}) ")
                extra.append_text(card_text(cards[r["card"]]) if "card" in r else Text(f"level {r['level']} (hidden)", style="dim"))
                extra.append("  ")
            if player["nobles"]:
                extra.append("  nobles: " + ", ".join(noble_text(nobles[n]) for n in player["nobles"]))
            console.print(extra)
