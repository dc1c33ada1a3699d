"""Splendor Duel's SVG board (``pictures/board.py`` draws what every game shares)."""
from __future__ import annotations

import re
from html import escape
from typing import Any

from ..games.duel.board import bonuses
from ..wording import counted
from .board import (ABILITY_WORDS, COLOURS, LETTERS, BoardPicture, bonus_row, card_slot, deck, mark_box, piece_table,
                    player_head, reserved_cards, svg_text, token, token_row, whole_svg)

# Board rows write gold as Y (older files: *, still read).
SYMBOL = {"W": "white", "U": "blue", "G": "green", "R": "red", "K": "black", "P": "pearl", "Y": "gold", "*": "gold"}
_CELL = re.compile(r"\b([a-e][1-5])\b")


def draw(view: dict[str, Any], mover: int, viewer: int, names: list[str], marks: set[str], title: str) -> str:
    body: list[str] = []
    royals = piece_table("duel", "royals")
    body.append(svg_text(10, 56, "royals", size=12, weight="bold"))
    for i, royal_id in enumerate(view["royals"]):
        body.append(royal_picture(royals[royal_id], 110 + i * 70, 34, marks))
    for row, level in enumerate((3, 2, 1)):
        y = 124 + row * 120
        body.append(deck(10, y, level, view["decks"][level - 1], marks))
        cards = view["pyramid"][level - 1]
        x0 = 110 + (5 - len(cards)) * 45
        for slot, card in enumerate(cards, start=1):
            body.append(card_slot("duel", card, x0 + (slot - 1) * 90, y, level, slot, marks))
    body.append(_duel_grid(view["board"], 600, 60, marks))
    bag = sum(view["bag"].values())
    body.append(svg_text(600, 330, f"bag: {counted(bag, 'token')}", size=13, weight="bold"))
    body.append(f'<g id="privilege-supply">{svg_text(600, 352, "privileges in the supply:", size=13)}'
                + "".join(_scroll(770 + i * 22, 340) for i in range(view["privilege_supply"])) + "</g>")
    for seat, player in enumerate(view["players"]):
        body.append(_duel_player(seat, player, 10 + seat * 475, 490, mover, viewer, names[seat], marks))
    return whole_svg(960, 660, body, title)


def _scroll(x: float, y: float) -> str:
    return f'<rect x="{x}" y="{y}" width="16" height="16" rx="3" fill="#d9b44a" stroke="#7a5a10"/>'


def royal_picture(royal: dict[str, Any], x: float, y: float, marks: set[str], scale: float = 1.0) -> str:
    ident = f"royal-{royal['id']}"
    words = " ".join(ABILITY_WORDS.get(a, a) for a in royal["abilities"])
    out = (f'<g id="{ident}" data-royal="{royal["id"]}" transform="translate({x:g},{y:g}) scale({scale:g})">'
           f'<title>royal {royal["id"]}: {royal["points"]}pt {escape(words)}</title>'
           '<rect width="62" height="76" rx="6" fill="#efe3c8" stroke="#7a6236" stroke-width="1.5"/>'
           + svg_text(31, 22, "♛", size=18, fill="#b8860b", anchor="middle")
           + svg_text(31, 46, f"{royal['points']}pt", size=14, anchor="middle", weight="bold")
           + svg_text(31, 66, words, size=10, anchor="middle") + "</g>")
    return out + (mark_box(x, y, 62 * scale, 76 * scale) if ident in marks else "")


def _duel_grid(rows: list[str], x: float, y: float, marks: set[str]) -> str:
    size = 46
    out = ['<g id="token-board">', f'<rect x="{x - 4}" y="{y - 4}" width="{5 * size + 8}" height="{5 * size + 8}" rx="8" '
           f'fill="#e9e1cf" stroke="#8a7a5a"/>']
    for c in range(5):
        out.append(svg_text(x + c * size + size / 2, y - 10, "abcde"[c], size=12, anchor="middle", weight="bold"))
    for r, row in enumerate(rows):
        out.append(svg_text(x - 14, y + r * size + size / 2 + 4, r + 1, size=12, anchor="middle", weight="bold"))
        for c, symbol in enumerate(row):
            cell = f"{'abcde'[c]}{r + 1}"
            cx, cy = x + c * size + size / 2, y + r * size + size / 2
            kind = SYMBOL.get(symbol)
            if kind is None:
                out.append(f'<g id="cell-{cell}" data-cell="{cell}"><circle cx="{cx}" cy="{cy}" r="5" fill="#c9bea6"/></g>')
            else:
                out.append(token(cx, cy, 18, kind, LETTERS[kind], ident=f"cell-{cell}",
                                 data_cell=cell, data_kind=kind))
            if f"cell-{cell}" in marks:
                out.append(mark_box(cx - 20, cy - 20, 40, 40))
    out.append("</g>")
    return "".join(out)


def _duel_player(seat: int, player: dict[str, Any], x: float, y: float, mover: int, viewer: int, name: str,
                 marks: set[str]) -> str:
    royals = piece_table("duel", "royals")
    extra = f", {counted(player['crowns'], 'crown')}"
    out = [f'<g id="seat-{seat}" data-seat="{seat}">',
           f'<rect x="{x}" y="{y}" width="465" height="160" rx="8" fill="{"#fff4d6" if seat == mover else "#f6f3ec"}" '
           f'stroke="{"#c99a1e" if seat == mover else "#bbb"}" stroke-width="{2 if seat == mover else 1}"/>',
           svg_text(x + 10, y + 20, player_head(seat, player, mover, viewer, name, extra), size=13, weight="bold")]
    out.append(bonus_row("duel", seat, bonuses(player), x + 10, y + 32, marks, points=player["colour_points"]))
    out.append(token_row(seat, player["tokens"], COLOURS + ("pearl", "gold"), x + 22, y + 100, marks))
    out.append(svg_text(x + 10, y + 140, "privileges", size=12))
    out.extend(_scroll(x + 76 + i * 20, y + 128) for i in range(player["privileges"]))
    for i, royal_id in enumerate(player["royals"]):
        out.append(royal_picture(royals[royal_id], x + 150 + i * 36, y + 118, marks, scale=0.5))
    out.append(reserved_cards("duel", seat, player["reserved"], x + 300, y + 40, marks))
    out.append("</g>")
    return "".join(out)


def royal_svg(royal_id: int) -> str:
    """One Duel royal card alone."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="66" height="80" viewBox="-2 -2 66 80">' \
           f'{royal_picture(piece_table("duel", "royals")[royal_id], 0, 0, set())}</svg>'


def _move_marks(verb: str, rest: str, seat: int) -> set[str]:
    marks: set[str] = set()
    if verb in ("take", "privilege", "token", "reserve"):
        marks |= {f"cell-{m.group(1)}" for m in _CELL.finditer(rest)}
    if verb == "royal":
        marks.add(f"royal-{rest.strip()}")
    if verb == "discard":
        marks.add(f"seat-{seat}-token-{rest.strip()}")
    return marks


PICTURE = BoardPicture(draw=draw, face_up="pyramid", move_marks=_move_marks, pieces={"royals": royal_svg})
