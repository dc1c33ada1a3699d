"""Splendor's SVG board (``pictures/board.py`` draws what every game shares)."""
from __future__ import annotations

from typing import Any

from ..wording import counted
from .board import (COLOURS, DARK_TEXT, FILL, LETTERS, BoardPicture, bonus_row, card_slot, deck, mark_box, piece_table,
                    player_head, reserved_cards, svg_text, token, token_row, whole_svg)

TAKE = {letter: colour for colour, letter in LETTERS.items()}  # the colour letters of "take WUG"


def draw(view: dict[str, Any], mover: int, viewer: int, names: list[str], marks: set[str], title: str) -> str:
    body: list[str] = []
    nobles = piece_table("splendor", "nobles")
    for i, noble_id in enumerate(view["nobles"]):
        body.append(noble_picture(nobles[noble_id], 110 + i * 86, 34, marks))
    for row, level in enumerate((3, 2, 1)):
        y = 124 + row * 120
        body.append(deck(10, y, level, view["decks"][level - 1], marks))
        for slot, card in enumerate(view["table"][level - 1], start=1):
            body.append(card_slot("splendor", card, 110 + (slot - 1) * 90, y, level, slot, marks))
    body.append(svg_text(492, 118, "bank", size=12, anchor="middle", weight="bold"))
    for i, kind in enumerate(COLOURS + ("gold",)):
        ident = f"bank-{kind}"
        body.append(token(492, 150 + i * 56, 22, kind, view["bank"][kind], ident=ident, data_kind=kind))
        if ident in marks:
            body.append(mark_box(470, 128 + i * 56, 44, 44))
    for seat, player in enumerate(view["players"]):
        body.append(_splendor_player(seat, player, 540, 34 + seat * 125, mover, viewer, names[seat], marks))
    height = max(490, 44 + len(view["players"]) * 125)
    return whole_svg(960, height, body, title)


def noble_picture(noble: dict[str, Any], x: float, y: float, marks: set[str], scale: float = 1.0) -> str:
    ident = f"noble-{noble['id']}"
    need = [(c, n) for c, n in noble["requirement"].items() if n]
    out = [f'<g id="{ident}" data-noble="{noble["id"]}" transform="translate({x:g},{y:g}) scale({scale:g})">',
           f'<title>noble {noble["id"]}: {noble["points"]}pt '
           + "".join(f"{LETTERS[c]}{n}" for c, n in need) + "</title>",
           '<rect width="76" height="76" rx="6" fill="#efe3c8" stroke="#7a6236" stroke-width="1.5"/>',
           svg_text(8, 24, noble["points"], size=20, weight="bold")]
    for i, (colour, n) in enumerate(need):
        out.append(f'<rect x="52" y="{6 + i * 23}" width="18" height="21" rx="3" fill="{FILL[colour]}" stroke="#555"/>'
                   + svg_text(61, 21 + i * 23, n, size=12, anchor="middle", weight="bold",
                              fill="#111" if colour in DARK_TEXT else "#fff"))
    out.append("</g>")
    if ident in marks:
        out.append(mark_box(x, y, 76 * scale, 76 * scale))
    return "".join(out)


def _splendor_player(seat: int, player: dict[str, Any], x: float, y: float, mover: int, viewer: int, name: str,
                     marks: set[str]) -> str:
    out = [f'<g id="seat-{seat}" data-seat="{seat}">',
           f'<rect x="{x}" y="{y}" width="410" height="118" rx="8" fill="{"#fff4d6" if seat == mover else "#f6f3ec"}" '
           f'stroke="{"#c99a1e" if seat == mover else "#bbb"}" stroke-width="{2 if seat == mover else 1}"/>',
           svg_text(x + 10, y + 20, player_head(seat, player, mover, viewer, name,
                                                f", {counted(len(player['nobles']), 'noble')}"),
                    size=13, weight="bold")]
    out.append(bonus_row("splendor", seat, player["bonuses"], x + 10, y + 32, marks))
    out.append(token_row(seat, player["tokens"], COLOURS + ("gold",), x + 22, y + 92, marks))
    out.append(reserved_cards("splendor", seat, player["reserved"], x + 250, y + 40, marks))
    out.append("</g>")
    return "".join(out)


def noble_svg(noble_id: int) -> str:
    """One Splendor noble alone (the page's noble picker)."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="-2 -2 80 80">' \
           f'{noble_picture(piece_table("splendor", "nobles")[noble_id], 0, 0, set())}</svg>'


def _move_marks(verb: str, rest: str, seat: int) -> set[str]:
    marks: set[str] = set()
    if verb == "take":
        marks |= {f"bank-{TAKE[letter]}" for letter in rest.strip() if letter in TAKE}
    if verb == "return":
        marks.add(f"seat-{seat}-token-{TAKE.get(rest.strip(), rest.strip())}")
    if verb == "noble":
        marks.add(f"noble-{rest.strip()}")
    return marks


PICTURE = BoardPicture(draw=draw, face_up="table", move_marks=_move_marks, pieces={"nobles": noble_svg})
