"""Drawing a player's view of a Splendor Duel position with rich.

Works from ``state.observation_json(seat)`` only, so the board never shows what that
seat cannot see (the opponent's blind reserves are "level k (hidden)", the decks are
counts, the bag is a count by kind). The 5x5 token grid carries the cell names of the
notation (columns a-e, rows 1-5 from the top), so ``take c3 c4`` reads off the board.
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
KINDS = COLOURS + ("pearl", "gold")
LETTERS = {"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K", "pearl": "P", "gold": "Y"}
STYLES = {"white": "bold white", "blue": "bold blue", "green": "bold green", "red": "bold red",
          "black": "bold magenta", "pearl": "bold cyan", "gold": "bold yellow", "joker": "bold italic",
          "none": "dim"}
SYMBOL_KIND = {letter: kind for kind, letter in LETTERS.items()}


@lru_cache(maxsize=1)
def _cards() -> dict[int, dict[str, Any]]:
    return {c["id"]: c for c in _core.duel_cards()}


@lru_cache(maxsize=1)
def _royals() -> dict[int, dict[str, Any]]:
    return {r["id"]: r for r in _core.duel_royals()}


def card_text(card: dict[str, Any]) -> Text:
    """The card's description (``red 2pt 1cr W2U2G2P1``), coloured by its bonus and cost."""
    head, _, _cost = card["text"].rpartition(" ")
    text = Text(head, style=STYLES[card["bonus"]])
    text.append(" ")
    for kind in KINDS[:6]:
        if card["cost"][kind]:
            text.append(f"{LETTERS[kind]}{card['cost'][kind]}", style=STYLES[kind])
    return text


def royal_text(royal: dict[str, Any]) -> str:
    """``2pt steal``: points and ability of a royal card."""
    return " ".join([f"{royal['points']}pt", *royal["abilities"]])


def tokens_text(tokens: dict[str, int], kinds: tuple[str, ...] = KINDS) -> Text:
    text = Text()
    for kind in kinds:
        count = tokens.get(kind, 0)
        text.append(f"{LETTERS[kind]}{count} ", style=STYLES[kind] if count else "dim")
    return text


def grid_lines(view: dict[str, Any]) -> list[Text]:
    """The 5x5 board with column letters and row numbers, as in the notation."""
    lines = [Text("      a  b  c  d  e", style="bold")]
    for number, row in enumerate(view["board"], start=1):
        line = Text(f"   {number}  ", style="bold")
        for symbol in row:
            kind = SYMBOL_KIND.get(symbol)
            line.append(f"{symbol}  ", style=STYLES[kind] if kind else "dim")
        lines.append(line)
    return lines


def bonuses(player: dict[str, Any]) -> dict[str, int]:
    """Bonus gems by colour from the cards shown in a view (a joker counts in its colour)."""
    cards = _cards()
    out = dict.fromkeys(COLOURS, 0)
    for entry in player["cards"]:
        card = cards[entry["card"] if isinstance(entry, dict) else entry]
        colour = entry.get("colour") if isinstance(entry, dict) else card["bonus"]
        if colour in out:
            out[colour] += card["bonus_count"] or 1
    return out


def draw_duel_board(console: Console, state: Any, viewer: int, names: list[str]) -> None:
    """Print the view of seat ``viewer``: royals, pyramid, token board, bag, privileges, players."""
    view = json.loads(state.observation_json(viewer))
    cards, royals = _cards(), _royals()
    line = Text("royals  ", style="bold")
    for r in view["royals"]:
        line.append(f"[{r}: {royal_text(royals[r])}] ")
    console.print(line if view["royals"] else line + Text("(all taken)", style="dim"))
    print_card_rows(console, view["pyramid"], view["decks"], lambda card: card_text(cards[card]))
    bag = view["bag"]
    side = [Text(f"bag: {sum(bag.values())} tokens  ", style="bold") + tokens_text(bag),
            Text(f"privileges in the supply: {view['privilege_supply']}", style="bold"),
            Text(LEGEND, style="dim")]
    for i, grid in enumerate(grid_lines(view)):
        console.print(grid + (Text("     ") + side[i - 1] if 1 <= i <= len(side) else Text("")))
    to_move = state.current_player()
    for seat, player in enumerate(view["players"]):
        marker = "▶ " if seat == to_move else "  "
        held = sum(player["tokens"].values())
        head = Text(f"{marker}{seat_name(seat)} {names[seat]}: {player['points']} pts, {player['crowns']} crowns, "
                    f"privileges {player['privileges']}  ", style="bold" if seat == viewer else "")
        head.append(f"tokens ({held}/10) ")
        head.append_text(tokens_text(player["tokens"]))
        console.print(head)
        detail = Text("      bonuses ")
        detail.append_text(tokens_text(bonuses(player), COLOURS))
        detail.append(" points by colour ")
        detail.append_text(tokens_text(player["colour_points"], COLOURS))
        if player["royals"]:
            detail.append(" royals: " + ", ".join(royal_text(royals[r]) for r in player["royals"]))
        console.print(detail)
        if player["reserved"]:
            extra = Text("      reserved: ")
            for i, r in enumerate(player["reserved"], start=1):
                extra.append(f"r{i}) ")
                extra.append_text(card_text(cards[r["card"]]) if "card" in r
                                  else Text(f"level {r['level']} (hidden)", style="dim"))
                extra.append("  ")
            console.print(extra)
