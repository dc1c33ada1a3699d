"""The board of either game as one standalone SVG picture, drawn from the card data.

:func:`board_svg` draws what one seat sees (``state.observation_json(viewer)``): the
cards (bonus colour, points, cost; in Duel also crowns, double bonuses and abilities),
the decks' counts, the tokens, the nobles or the royals, the Duel token board, the
privileges, and every player's area (bonuses, tokens, reserved cards, points). A turn may
be marked: :func:`turn_marks` names the elements a turn's moves use, outlined in the
picture. Each element a page may click carries an ``id`` and ``data-*`` attributes:

* ``card-L.S`` (``data-slot``, ``data-level``, ``data-card``): a face-up card (Splendor's
  table, Duel's pyramid), ``deck-L``: a deck;
* ``bank-COLOUR`` (Splendor's supply), ``cell-a1`` (Duel's board, ``data-cell``);
* ``noble-ID``, ``royal-ID``; ``seat-N`` (a player's area), ``seat-N-reserved-K``,
  ``seat-N-token-KIND``, ``seat-N-bonus-COLOUR``.

:func:`card_svg` draws one card alone (the web page's card picker).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from html import escape
from typing import Any

from .. import _core
from ..games.registry import entry_of_state
from ..wording import counted, seat_name

COLOURS = ("white", "blue", "green", "red", "black")
FILL = {"white": "#f4f1ea", "blue": "#1f5fbf", "green": "#1e8f4e", "red": "#c9302c", "black": "#2b2b2b",
        "gold": "#e3b522", "pearl": "#e9c6de", "joker": "#9c8fb8", "none": "#b9b3a6"}
# A card's header band is a darker shade of its bonus colour, so the bonus gem drawn on it in
# the colour itself stands out (on a band of the same colour it read as an empty ring).
BAND = {"white": "#d9d1bf", "blue": "#15417f", "green": "#13603a", "red": "#8e1f1c", "black": "#5c5c5c"}
TINT = {"white": "#fbfaf6", "blue": "#dde8f8", "green": "#dcf1e3", "red": "#f7dedd", "black": "#d9d9d9",
        "joker": "#ebe6f4", "none": "#efece6"}
DARK_TEXT = {"white", "gold", "pearl", "none"}  # light fills: their numbers are written in black
LETTERS = {"white": "W", "blue": "U", "green": "G", "red": "R", "black": "K", "gold": "Y", "pearl": "P"}
SPLENDOR_TAKE = {letter: colour for colour, letter in LETTERS.items()}
# Board rows write gold as Y (older files: *, still read).
DUEL_SYMBOL = {"W": "white", "U": "blue", "G": "green", "R": "red", "K": "black", "P": "pearl", "Y": "gold", "*": "gold"}
ABILITY_WORDS = {"again": "again", "token": "+token", "privilege": "+privilege", "steal": "steal",
                 "bonus_copy": "joker"}
MARK = "#ff2d95"  # the outline of a marked element
CARD_W, CARD_H = 80, 110


@lru_cache(maxsize=None)
def _cards(game: str) -> dict[int, dict[str, Any]]:
    return {c["id"]: c for c in getattr(_core, f"{game}_cards")()}


@lru_cache(maxsize=None)
def _table(game: str, kind: str) -> dict[int, dict[str, Any]]:
    return {n["id"]: n for n in getattr(_core, f"{game}_{kind}")()}


def _attrs(attrs: dict[str, Any]) -> str:
    return "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items() if v is not None)


def _text(x: float, y: float, text: Any, size: int = 12, fill: str = "#222", anchor: str = "start",
          weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}" font-family="sans-serif">{escape(str(text))}</text>')


def _token(x: float, y: float, r: float, kind: str, count: Any = None, ident: str | None = None,
           **data: Any) -> str:
    """A token (a circle in its kind's colour), with a count written on it."""
    stroke = "#777" if kind in DARK_TEXT else "#111"
    out = f'<g{_attrs({"id": ident, **data})}><circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{FILL[kind]}" ' \
          f'stroke="{stroke}" stroke-width="1.2"/>'
    if count is not None:
        out += _text(x, y + r * 0.4, count, size=int(r * 1.1), anchor="middle", weight="bold",
                     fill="#111" if kind in DARK_TEXT else "#fff")
    return out + "</g>"


def _mark(x: float, y: float, w: float, h: float) -> str:
    return (f'<rect class="mark" x="{x - 3:g}" y="{y - 3:g}" width="{w + 6:g}" height="{h + 6:g}" rx="8" fill="none" '
            f'stroke="{MARK}" stroke-width="4"/>')


def card_svg(game: str, card_id: int, x: float = 0, y: float = 0, scale: float = 1.0,
             ident: str | None = None, **data: Any) -> str:
    """One card of ``game`` (``"splendor"`` or ``"duel"``) at (x, y): a band in its bonus
    colour with its points (and Duel's crowns, double bonus, abilities), its cost below."""
    card = _cards(game)[card_id]
    bonus = card["bonus"]
    band_text = "#111" if bonus in DARK_TEXT else "#fff"
    out = [f'<g transform="translate({x:g},{y:g}) scale({scale:g})"{_attrs({"id": ident, "data-card": card_id, **data})}>',
           f'<title>{escape(card["text"])} (#{card_id})</title>',
           f'<rect width="{CARD_W}" height="{CARD_H}" rx="6" fill="{TINT[bonus]}" stroke="#555" stroke-width="1.2"/>',
           f'<path class="band" d="M0 6 a6 6 0 0 1 6 -6 h{CARD_W - 12} a6 6 0 0 1 6 6 v22 h-{CARD_W} z" '
           f'fill="{BAND.get(bonus, FILL[bonus])}"/>']
    if card["points"]:
        out.append(_text(7, 22, card["points"], size=19, fill=band_text, weight="bold"))
    if bonus in COLOURS:
        out.append(f'<circle class="gem" cx="{CARD_W - 14}" cy="14" r="9" fill="{FILL[bonus]}" stroke="{band_text}" '
                   'stroke-width="1.5"/>')
        if card.get("bonus_count", 1) == 2:
            out.append(_text(CARD_W - 28, 19, "2x", size=11, fill=band_text, anchor="end", weight="bold"))
    if card.get("crowns"):
        out.append(_text(CARD_W / 2, 20, "♛" * card["crowns"], size=12, fill="#f5d000", anchor="middle"))
    abilities = (["joker"] if bonus == "joker" else []) + [
        ABILITY_WORDS.get(a, a) for a in card.get("abilities", []) if a != "bonus_copy"]
    if abilities:
        out.append(_text(CARD_W / 2, 42, " ".join(abilities), size=10, anchor="middle", weight="bold"))
    cost = [(kind, n) for kind, n in card["cost"].items() if n]
    for i, (kind, n) in enumerate(reversed(cost)):
        out.append(_token(14, CARD_H - 13 - i * 20, 9, kind, n))
    out.append(_text(CARD_W - 6, CARD_H - 6, f"#{card_id}", size=9, fill="#888", anchor="end"))
    out.append("</g>")
    return "".join(out)


def _deck(x: float, y: float, level: int, left: int, marks: set[str]) -> str:
    ident = f"deck-{level}"
    dots = "•" * level
    out = (f'<g id="{ident}" data-level="{level}"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" '
           f'fill="#5b4a3a" stroke="#333"/>' + _text(x + CARD_W / 2, y + 40, dots, size=20, fill="#e8d9b0", anchor="middle")
           + _text(x + CARD_W / 2, y + 68, f"{left} left", size=13, fill="#fff", anchor="middle") + "</g>")
    return out + (_mark(x, y, CARD_W, CARD_H) if ident in marks else "")


def _card_slot(game: str, card: int | None, x: float, y: float, level: int, slot: int, marks: set[str]) -> str:
    ident = f"card-{level}.{slot}"
    if card is None:
        out = (f'<g id="{ident}" data-level="{level}" data-slot="{level}.{slot}"><rect x="{x}" y="{y}" width="{CARD_W}" '
               f'height="{CARD_H}" rx="6" fill="none" stroke="#aaa" stroke-dasharray="4 3"/>'
               + _text(x + CARD_W / 2, y + 60, "empty", size=11, fill="#999", anchor="middle") + "</g>")
    else:
        out = card_svg(game, card, x, y, ident=ident, data_level=level, data_slot=f"{level}.{slot}")
    return out + (_mark(x, y, CARD_W, CARD_H) if ident in marks else "")


def _reserved(game: str, seat: int, reserved: list[dict[str, Any]], x: float, y: float, marks: set[str]) -> str:
    out = []
    for k, entry in enumerate(reserved, start=1):
        ident = f"seat-{seat}-reserved-{k}"
        cx = x + (k - 1) * 50
        if "card" in entry:
            out.append(card_svg(game, entry["card"], cx, y, scale=0.55, ident=ident, data_reserved=k))
        else:
            out.append(f'<g id="{ident}" data-reserved="{k}"><rect x="{cx}" y="{y}" width="44" height="60" rx="4" '
                       f'fill="#5b4a3a"/>' + _text(cx + 22, y + 35, "•" * entry["level"], size=14, fill="#e8d9b0",
                                                   anchor="middle") + "</g>")
        if ident in marks:
            out.append(_mark(cx, y, 44, 60.5))
    return "".join(out)


def _svg(width: int, height: int, body: Iterable[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'class="board"><rect width="{width}" height="{height}" fill="#fffdf7"/>'
            + _text(10, 22, title, size=15, weight="bold") + "".join(body) + "</svg>")


def _title(entry: Any, view: dict[str, Any], state: Any) -> str:
    players = len(view["players"])
    head = f"{entry.title}, {players} players"
    if state.is_terminal():
        return head + ": game over"
    if state.is_chance_node():
        return head + ": a card or token is to be revealed"
    return head + f": {seat_name(state.current_player())} to move"


def board_svg(state: Any, viewer: int | None = None, marks: Iterable[str] = (),
              names: Sequence[str] | None = None) -> str:
    """The board as seat ``viewer`` sees it (default: the seat to move, else seat 0), with
    the elements named in ``marks`` (see :func:`turn_marks`) outlined. ``names`` labels
    the seats (``"(you)"``)."""
    entry = entry_of_state(state)
    if viewer is None:
        mover = state.current_player()
        viewer = mover if mover >= 0 else 0
    view = json.loads(state.observation_json(viewer))
    marked = set(marks)
    mover = state.current_player() if not state.is_terminal() else -1
    labels = list(names) if names else [""] * len(view["players"])
    draw = _draw_duel if entry.name == "duel" else _draw_splendor
    return draw(view, mover, viewer, labels, marked, _title(entry, view, state))


def _player_head(seat: int, player: dict[str, Any], mover: int, viewer: int, name: str, extra: str = "") -> str:
    text = f"{'▶ ' if seat == mover else ''}{seat_name(seat)}{' ' + name if name else ''}: " \
           f"{counted(player['points'], 'point')}{extra}"
    return text + ("  (this view)" if seat == viewer and not name else "")


def _draw_splendor(view: dict[str, Any], mover: int, viewer: int, names: list[str], marks: set[str], title: str) -> str:
    body: list[str] = []
    nobles = _table("splendor", "nobles")
    for i, noble_id in enumerate(view["nobles"]):
        body.append(_noble(nobles[noble_id], 110 + i * 86, 34, marks))
    for row, level in enumerate((3, 2, 1)):
        y = 124 + row * 120
        body.append(_deck(10, y, level, view["decks"][level - 1], marks))
        for slot, card in enumerate(view["table"][level - 1], start=1):
            body.append(_card_slot("splendor", card, 110 + (slot - 1) * 90, y, level, slot, marks))
    body.append(_text(492, 118, "bank", size=12, anchor="middle", weight="bold"))
    for i, kind in enumerate(COLOURS + ("gold",)):
        ident = f"bank-{kind}"
        body.append(_token(492, 150 + i * 56, 22, kind, view["bank"][kind], ident=ident, data_kind=kind))
        if ident in marks:
            body.append(_mark(470, 128 + i * 56, 44, 44))
    for seat, player in enumerate(view["players"]):
        body.append(_splendor_player(seat, player, 540, 34 + seat * 125, mover, viewer, names[seat], marks))
    height = max(490, 44 + len(view["players"]) * 125)
    return _svg(960, height, body, title)


def _noble(noble: dict[str, Any], x: float, y: float, marks: set[str], scale: float = 1.0) -> str:
    ident = f"noble-{noble['id']}"
    need = [(c, n) for c, n in noble["requirement"].items() if n]
    out = [f'<g id="{ident}" data-noble="{noble["id"]}" transform="translate({x:g},{y:g}) scale({scale:g})">',
           f'<title>noble {noble["id"]}: {noble["points"]}pt '
           + "".join(f"{LETTERS[c]}{n}" for c, n in need) + "</title>",
           '<rect width="76" height="76" rx="6" fill="#efe3c8" stroke="#7a6236" stroke-width="1.5"/>',
           _text(8, 24, noble["points"], size=20, weight="bold")]
    for i, (colour, n) in enumerate(need):
        out.append(f'<rect x="52" y="{6 + i * 23}" width="18" height="21" rx="3" fill="{FILL[colour]}" stroke="#555"/>'
                   + _text(61, 21 + i * 23, n, size=12, anchor="middle", weight="bold",
                           fill="#111" if colour in DARK_TEXT else "#fff"))
    out.append("</g>")
    if ident in marks:
        out.append(_mark(x, y, 76 * scale, 76 * scale))
    return "".join(out)


def _splendor_player(seat: int, player: dict[str, Any], x: float, y: float, mover: int, viewer: int, name: str,
                     marks: set[str]) -> str:
    out = [f'<g id="seat-{seat}" data-seat="{seat}">',
           f'<rect x="{x}" y="{y}" width="410" height="118" rx="8" fill="{"#fff4d6" if seat == mover else "#f6f3ec"}" '
           f'stroke="{"#c99a1e" if seat == mover else "#bbb"}" stroke-width="{2 if seat == mover else 1}"/>',
           _text(x + 10, y + 20, _player_head(seat, player, mover, viewer, name,
                                               f", {counted(len(player['nobles']), 'noble')}"),
                 size=13, weight="bold")]
    out.append(_bonus_row("splendor", seat, player["bonuses"], x + 10, y + 32, marks))
    out.append(_token_row(seat, player["tokens"], COLOURS + ("gold",), x + 22, y + 92, marks))
    out.append(_reserved("splendor", seat, player["reserved"], x + 250, y + 40, marks))
    out.append("</g>")
    return "".join(out)


def _bonus_row(game: str, seat: int, bonuses: dict[str, int], x: float, y: float, marks: set[str],
               points: dict[str, int] | None = None) -> str:
    """A player's bonuses: a small card of each colour with the count (Duel: and its points)."""
    out = []
    for i, colour in enumerate(COLOURS):
        ident = f"seat-{seat}-bonus-{colour}"
        bx = x + i * 34
        out.append(f'<g id="{ident}" data-kind="{colour}"><rect x="{bx}" y="{y}" width="26" height="34" rx="3" '
                   f'fill="{FILL[colour]}" stroke="#555"/>'
                   + _text(bx + 13, y + 22, bonuses.get(colour, 0), size=14, anchor="middle", weight="bold",
                           fill="#111" if colour in DARK_TEXT else "#fff") + "</g>")
        if points is not None and points.get(colour):
            out.append(_text(bx + 13, y + 46, f"{points[colour]}pt", size=10, anchor="middle"))
        if ident in marks:
            out.append(_mark(bx, y, 26, 34))
    return "".join(out)


def _token_row(seat: int, tokens: dict[str, int], kinds: tuple[str, ...], x: float, y: float, marks: set[str]) -> str:
    out = []
    for i, kind in enumerate(kinds):
        ident = f"seat-{seat}-token-{kind}"
        out.append(_token(x + i * 30, y, 12, kind, tokens.get(kind, 0), ident=ident, data_kind=kind))
        if ident in marks:
            out.append(_mark(x + i * 30 - 12, y - 12, 24, 24))
    return "".join(out)


def _duel_bonuses(player: dict[str, Any]) -> dict[str, int]:
    from ..games.duel.board import bonuses

    return bonuses(player)


def _draw_duel(view: dict[str, Any], mover: int, viewer: int, names: list[str], marks: set[str], title: str) -> str:
    body: list[str] = []
    royals = _table("duel", "royals")
    body.append(_text(10, 56, "royals", size=12, weight="bold"))
    for i, royal_id in enumerate(view["royals"]):
        body.append(_royal(royals[royal_id], 110 + i * 70, 34, marks))
    for row, level in enumerate((3, 2, 1)):
        y = 124 + row * 120
        body.append(_deck(10, y, level, view["decks"][level - 1], marks))
        cards = view["pyramid"][level - 1]
        x0 = 110 + (5 - len(cards)) * 45
        for slot, card in enumerate(cards, start=1):
            body.append(_card_slot("duel", card, x0 + (slot - 1) * 90, y, level, slot, marks))
    body.append(_duel_grid(view["board"], 600, 60, marks))
    bag = sum(view["bag"].values())
    body.append(_text(600, 330, f"bag: {counted(bag, 'token')}", size=13, weight="bold"))
    body.append(f'<g id="privilege-supply">{_text(600, 352, "privileges in the supply:", size=13)}'
                + "".join(_scroll(770 + i * 22, 340) for i in range(view["privilege_supply"])) + "</g>")
    for seat, player in enumerate(view["players"]):
        body.append(_duel_player(seat, player, 10 + seat * 475, 490, mover, viewer, names[seat], marks))
    return _svg(960, 660, body, title)


def _scroll(x: float, y: float) -> str:
    return f'<rect x="{x}" y="{y}" width="16" height="16" rx="3" fill="#d9b44a" stroke="#7a5a10"/>'


def _royal(royal: dict[str, Any], x: float, y: float, marks: set[str], scale: float = 1.0) -> str:
    ident = f"royal-{royal['id']}"
    words = " ".join(ABILITY_WORDS.get(a, a) for a in royal["abilities"])
    out = (f'<g id="{ident}" data-royal="{royal["id"]}" transform="translate({x:g},{y:g}) scale({scale:g})">'
           f'<title>royal {royal["id"]}: {royal["points"]}pt {escape(words)}</title>'
           '<rect width="62" height="76" rx="6" fill="#efe3c8" stroke="#7a6236" stroke-width="1.5"/>'
           + _text(31, 22, "♛", size=18, fill="#b8860b", anchor="middle") + _text(31, 46, f"{royal['points']}pt", size=14,
                                                                                 anchor="middle", weight="bold")
           + _text(31, 66, words, size=10, anchor="middle") + "</g>")
    return out + (_mark(x, y, 62 * scale, 76 * scale) if ident in marks else "")


def _duel_grid(rows: list[str], x: float, y: float, marks: set[str]) -> str:
    size = 46
    out = ['<g id="token-board">', f'<rect x="{x - 4}" y="{y - 4}" width="{5 * size + 8}" height="{5 * size + 8}" rx="8" '
           f'fill="#e9e1cf" stroke="#8a7a5a"/>']
    for c in range(5):
        out.append(_text(x + c * size + size / 2, y - 10, "abcde"[c], size=12, anchor="middle", weight="bold"))
    for r, row in enumerate(rows):
        out.append(_text(x - 14, y + r * size + size / 2 + 4, r + 1, size=12, anchor="middle", weight="bold"))
        for c, symbol in enumerate(row):
            cell = f"{'abcde'[c]}{r + 1}"
            cx, cy = x + c * size + size / 2, y + r * size + size / 2
            kind = DUEL_SYMBOL.get(symbol)
            if kind is None:
                out.append(f'<g id="cell-{cell}" data-cell="{cell}"><circle cx="{cx}" cy="{cy}" r="5" fill="#c9bea6"/></g>')
            else:
                out.append(_token(cx, cy, 18, kind, LETTERS[kind], ident=f"cell-{cell}",
                                  data_cell=cell, data_kind=kind))
            if f"cell-{cell}" in marks:
                out.append(_mark(cx - 20, cy - 20, 40, 40))
    out.append("</g>")
    return "".join(out)


def _duel_player(seat: int, player: dict[str, Any], x: float, y: float, mover: int, viewer: int, name: str,
                 marks: set[str]) -> str:
    royals = _table("duel", "royals")
    extra = f", {counted(player['crowns'], 'crown')}"
    out = [f'<g id="seat-{seat}" data-seat="{seat}">',
           f'<rect x="{x}" y="{y}" width="465" height="160" rx="8" fill="{"#fff4d6" if seat == mover else "#f6f3ec"}" '
           f'stroke="{"#c99a1e" if seat == mover else "#bbb"}" stroke-width="{2 if seat == mover else 1}"/>',
           _text(x + 10, y + 20, _player_head(seat, player, mover, viewer, name, extra), size=13, weight="bold")]
    out.append(_bonus_row("duel", seat, _duel_bonuses(player), x + 10, y + 32, marks, points=player["colour_points"]))
    out.append(_token_row(seat, player["tokens"], COLOURS + ("pearl", "gold"), x + 22, y + 100, marks))
    out.append(_text(x + 10, y + 140, "privileges", size=12))
    out.extend(_scroll(x + 76 + i * 20, y + 128) for i in range(player["privileges"]))
    for i, royal_id in enumerate(player["royals"]):
        out.append(_royal(royals[royal_id], x + 150 + i * 36, y + 118, marks, scale=0.5))
    out.append(_reserved("duel", seat, player["reserved"], x + 300, y + 40, marks))
    out.append("</g>")
    return "".join(out)


# ------------------------------------------------------------------ marking a turn
_SLOT = re.compile(r"\b([1-3])\.([1-5])\b")
_DECK = re.compile(r"\bdeck ?([1-3])\b")
_RESERVED = re.compile(r"\b(?:reserved |r)([1-3])\b")
_CARD_ID = re.compile(r"#(\d+)")
_CELL = re.compile(r"\b([a-e][1-5])\b")


def turn_marks(state: Any, actions: Sequence[int]) -> set[str]:
    """The ids of the elements a turn's ``actions`` (played from ``state``) use: the cards
    bought or reserved, the tokens taken or returned, the cells, the noble or royal chosen.
    Element ids are those of :func:`board_svg` for ``state``'s board."""
    entry = entry_of_state(state)
    probe = state.clone()
    marks: set[str] = set()
    for action in actions:
        if probe.is_chance_node() or probe.is_terminal():
            break
        seat = probe.current_player()
        view = json.loads(probe.observation_json(seat))
        marks |= _move_marks(entry.name, probe.action_to_string(action), seat, view)
        probe.apply_action(action)
    return marks


def _move_marks(game: str, text: str, seat: int, view: dict[str, Any]) -> set[str]:
    verb, _, rest = text.partition(" ")
    marks = {f"card-{m.group(1)}.{m.group(2)}" for m in _SLOT.finditer(rest)}
    marks |= {f"deck-{m.group(1)}" for m in _DECK.finditer(rest)}
    if verb == "buy":
        marks |= {f"seat-{seat}-reserved-{m.group(1)}" for m in _RESERVED.finditer(rest)}
    for m in _CARD_ID.finditer(rest):
        marks |= _card_place(game, int(m.group(1)), seat, view)
    if game == "duel":
        if verb in ("take", "privilege", "token", "reserve"):
            marks |= {f"cell-{m.group(1)}" for m in _CELL.finditer(rest)}
        if verb == "royal":
            marks.add(f"royal-{rest.strip()}")
        if verb == "discard":
            marks.add(f"seat-{seat}-token-{rest.strip()}")
    else:
        if verb == "take":
            marks |= {f"bank-{SPLENDOR_TAKE[letter]}" for letter in rest.strip() if letter in SPLENDOR_TAKE}
        if verb == "return":
            marks.add(f"seat-{seat}-token-{SPLENDOR_TAKE.get(rest.strip(), rest.strip())}")
        if verb == "noble":
            marks.add(f"noble-{rest.strip()}")
    return marks


def _card_place(game: str, card: int, seat: int, view: dict[str, Any]) -> set[str]:
    """Where card ``card`` lies on the board (a face-up slot or the seat's reserve)."""
    rows = view["pyramid" if game == "duel" else "table"]
    for level, row in enumerate(rows, start=1):
        for slot, here in enumerate(row, start=1):
            if here == card:
                return {f"card-{level}.{slot}"}
    for k, entry in enumerate(view["players"][seat]["reserved"], start=1):
        if entry.get("card") == card:
            return {f"seat-{seat}-reserved-{k}"}
    return set()


def card_of_move(state: Any, action: int) -> int | None:
    """The id of the card a move played from ``state`` buys or reserves, if its mover can see it."""
    text = state.action_to_string(action)
    verb, _, rest = text.partition(" ")
    if verb not in ("buy", "reserve"):
        return None
    game = entry_of_state(state).name
    seat = state.current_player()
    view = json.loads(state.observation_json(seat))
    found = _CARD_ID.search(rest)
    if found:
        return int(found.group(1))
    slot = _SLOT.search(rest)
    if slot:
        return view["pyramid" if game == "duel" else "table"][int(slot.group(1)) - 1][int(slot.group(2)) - 1]
    reserved = _RESERVED.search(rest)
    if reserved and verb == "buy":
        return view["players"][seat]["reserved"][int(reserved.group(1)) - 1].get("card")
    return None


def noble_svg(noble_id: int) -> str:
    """One Splendor noble alone (the page's noble picker)."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="-2 -2 80 80">' \
           f'{_noble(_table("splendor", "nobles")[noble_id], 0, 0, set())}</svg>'


def royal_svg(royal_id: int) -> str:
    """One Duel royal card alone."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="66" height="80" viewBox="-2 -2 66 80">' \
           f'{_royal(_table("duel", "royals")[royal_id], 0, 0, set())}</svg>'


def standalone_card_svg(game: str, card_id: int) -> str:
    """One card alone as a whole SVG picture."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_W + 4}" height="{CARD_H + 4}" ' \
           f'viewBox="-2 -2 {CARD_W + 4} {CARD_H + 4}">{card_svg(game, card_id)}</svg>'
