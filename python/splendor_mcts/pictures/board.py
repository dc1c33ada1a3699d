"""A game's board as one standalone SVG picture, drawn from the card data: the parts every
game shares here, each game's own in its module (``splendor_board``, ``duel_board``), named
by its registry entry's ``picture`` (a :class:`BoardPicture`).

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

from .. import _core
from ..games.registry import entry_of_state, game_entry, load_attribute
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
ABILITY_WORDS = {"again": "again", "token": "+token", "privilege": "+privilege", "steal": "steal",
                 "bonus_copy": "joker"}
MARK = "#ff2d95"  # the outline of a marked element
CARD_W, CARD_H = 80, 110


@lru_cache(maxsize=None)
def _cards(game: str) -> dict[int, dict[str, Any]]:
    return {c["id"]: c for c in getattr(_core, f"{game}_cards")()}


@lru_cache(maxsize=None)
def piece_table(game: str, kind: str) -> dict[int, dict[str, Any]]:
    return {n["id"]: n for n in getattr(_core, f"{game}_{kind}")()}


def _attrs(attrs: dict[str, Any]) -> str:
    return "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items() if v is not None)


def svg_text(x: float, y: float, text: Any, size: int = 12, fill: str = "#222", anchor: str = "start",
             weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" text-anchor="{anchor}" '
            f'font-weight="{weight}" font-family="sans-serif">{escape(str(text))}</text>')


def token(x: float, y: float, r: float, kind: str, count: Any = None, ident: str | None = None,
          **data: Any) -> str:
    """A token (a circle in its kind's colour), with a count written on it."""
    stroke = "#777" if kind in DARK_TEXT else "#111"
    out = f'<g{_attrs({"id": ident, **data})}><circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{FILL[kind]}" ' \
          f'stroke="{stroke}" stroke-width="1.2"/>'
    if count is not None:
        out += svg_text(x, y + r * 0.4, count, size=int(r * 1.1), anchor="middle", weight="bold",
                        fill="#111" if kind in DARK_TEXT else "#fff")
    return out + "</g>"


def mark_box(x: float, y: float, w: float, h: float) -> str:
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
        out.append(svg_text(7, 22, card["points"], size=19, fill=band_text, weight="bold"))
    if bonus in COLOURS:
        out.append(f'<circle class="gem" cx="{CARD_W - 14}" cy="14" r="9" fill="{FILL[bonus]}" stroke="{band_text}" '
                   'stroke-width="1.5"/>')
        if card.get("bonus_count", 1) == 2:
            out.append(svg_text(CARD_W - 28, 19, "2x", size=11, fill=band_text, anchor="end", weight="bold"))
    if card.get("crowns"):
        out.append(svg_text(CARD_W / 2, 20, "♛" * card["crowns"], size=12, fill="#f5d000", anchor="middle"))
    abilities = (["joker"] if bonus == "joker" else []) + [
        ABILITY_WORDS.get(a, a) for a in card.get("abilities", []) if a != "bonus_copy"]
    if abilities:
        out.append(svg_text(CARD_W / 2, 42, " ".join(abilities), size=10, anchor="middle", weight="bold"))
    cost = [(kind, n) for kind, n in card["cost"].items() if n]
    for i, (kind, n) in enumerate(reversed(cost)):
        out.append(token(14, CARD_H - 13 - i * 20, 9, kind, n))
    out.append(svg_text(CARD_W - 6, CARD_H - 6, f"#{card_id}", size=9, fill="#888", anchor="end"))
    out.append("</g>")
    return "".join(out)


def deck(x: float, y: float, level: int, left: int, marks: set[str]) -> str:
    ident = f"deck-{level}"
    dots = "•" * level
    out = (f'<g id="{ident}" data-level="{level}"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" '
           f'fill="#5b4a3a" stroke="#333"/>' + svg_text(x + CARD_W / 2, y + 40, dots, size=20, fill="#e8d9b0", anchor="middle")
           + svg_text(x + CARD_W / 2, y + 68, f"{left} left", size=13, fill="#fff", anchor="middle") + "</g>")
    return out + (mark_box(x, y, CARD_W, CARD_H) if ident in marks else "")


def card_slot(game: str, card: int | None, x: float, y: float, level: int, slot: int, marks: set[str]) -> str:
    ident = f"card-{level}.{slot}"
    if card is None:
        out = (f'<g id="{ident}" data-level="{level}" data-slot="{level}.{slot}"><rect x="{x}" y="{y}" width="{CARD_W}" '
               f'height="{CARD_H}" rx="6" fill="none" stroke="#aaa" stroke-dasharray="4 3"/>'
               + svg_text(x + CARD_W / 2, y + 60, "empty", size=11, fill="#999", anchor="middle") + "</g>")
    else:
        out = card_svg(game, card, x, y, ident=ident, data_level=level, data_slot=f"{level}.{slot}")
    return out + (mark_box(x, y, CARD_W, CARD_H) if ident in marks else "")


def reserved_cards(game: str, seat: int, reserved: list[dict[str, Any]], x: float, y: float, marks: set[str]) -> str:
    out = []
    for k, entry in enumerate(reserved, start=1):
        ident = f"seat-{seat}-reserved-{k}"
        cx = x + (k - 1) * 50
        if "card" in entry:
            out.append(card_svg(game, entry["card"], cx, y, scale=0.55, ident=ident, data_reserved=k))
        else:
            out.append(f'<g id="{ident}" data-reserved="{k}"><rect x="{cx}" y="{y}" width="44" height="60" rx="4" '
                       f'fill="#5b4a3a"/>' + svg_text(cx + 22, y + 35, "•" * entry["level"], size=14,
                                                      fill="#e8d9b0", anchor="middle") + "</g>")
        if ident in marks:
            out.append(mark_box(cx, y, 44, 60.5))
    return "".join(out)


def whole_svg(width: int, height: int, body: Iterable[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'class="board"><rect width="{width}" height="{height}" fill="#fffdf7"/>'
            + svg_text(10, 22, title, size=15, weight="bold") + "".join(body) + "</svg>")


@dataclass(frozen=True)
class BoardPicture:
    """One game's SVG board (its registry entry's ``picture`` names it): ``draw(view, mover,
    viewer, names, marks, title)`` the whole board, ``face_up`` the key of the view's rows of
    face-up cards, ``move_marks(verb, rest, seat)`` the elements a move's text names beyond
    the cards and decks every game marks alike, ``pieces`` each card table's picture of one
    piece (``{"nobles": noble_svg}``) by its id."""

    draw: Callable[[dict[str, Any], int, int, list[str], set[str], str], str]
    face_up: str
    move_marks: Callable[[str, str, int], set[str]]
    pieces: Mapping[str, Callable[[int], str]] = field(default_factory=dict)


def picture_of(state_or_game: Any) -> BoardPicture:
    """The SVG board of a state's game (or of the game of that name); ``ValueError`` for a
    game without one."""
    entry = game_entry(state_or_game) if isinstance(state_or_game, str) else entry_of_state(state_or_game)
    if entry.picture is None:
        raise ValueError(f"{entry.title} has no SVG board")
    return load_attribute(entry.picture)  # type: ignore[no-any-return]


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
    entry, picture = entry_of_state(state), picture_of(state)
    if viewer is None:
        mover = state.current_player()
        viewer = mover if mover >= 0 else 0
    view = json.loads(state.observation_json(viewer))
    marked = set(marks)
    mover = state.current_player() if not state.is_terminal() else -1
    labels = list(names) if names else [""] * len(view["players"])
    return picture.draw(view, mover, viewer, labels, marked, _title(entry, view, state))


def player_head(seat: int, player: dict[str, Any], mover: int, viewer: int, name: str, extra: str = "") -> str:
    text = f"{'▶ ' if seat == mover else ''}{seat_name(seat)}{' ' + name if name else ''}: " \
           f"{counted(player['points'], 'point')}{extra}"
    return text + ("  (this view)" if seat == viewer and not name else "")


def bonus_row(game: str, seat: int, bonuses: dict[str, int], x: float, y: float, marks: set[str],
              points: dict[str, int] | None = None) -> str:
    """A player's bonuses: a small card of each colour with the count (Duel: and its points)."""
    out = []
    for i, colour in enumerate(COLOURS):
        ident = f"seat-{seat}-bonus-{colour}"
        bx = x + i * 34
        out.append(f'<g id="{ident}" data-kind="{colour}"><rect x="{bx}" y="{y}" width="26" height="34" rx="3" '
                   f'fill="{FILL[colour]}" stroke="#555"/>'
                   + svg_text(bx + 13, y + 22, bonuses.get(colour, 0), size=14, anchor="middle", weight="bold",
                              fill="#111" if colour in DARK_TEXT else "#fff") + "</g>")
        if points is not None and points.get(colour):
            out.append(svg_text(bx + 13, y + 46, f"{points[colour]}pt", size=10, anchor="middle"))
        if ident in marks:
            out.append(mark_box(bx, y, 26, 34))
    return "".join(out)


def token_row(seat: int, tokens: dict[str, int], kinds: tuple[str, ...], x: float, y: float, marks: set[str]) -> str:
    out = []
    for i, kind in enumerate(kinds):
        ident = f"seat-{seat}-token-{kind}"
        out.append(token(x + i * 30, y, 12, kind, tokens.get(kind, 0), ident=ident, data_kind=kind))
        if ident in marks:
            out.append(mark_box(x + i * 30 - 12, y - 12, 24, 24))
    return "".join(out)


# ------------------------------------------------------------------ marking a turn
_SLOT = re.compile(r"\b([1-3])\.([1-5])\b")
_DECK = re.compile(r"\bdeck ?([1-3])\b")
_RESERVED = re.compile(r"\b(?:reserved |r)([1-3])\b")
_CARD_ID = re.compile(r"#(\d+)")


def turn_marks(state: Any, actions: Sequence[int]) -> set[str]:
    """The ids of the elements a turn's ``actions`` (played from ``state``) use: the cards
    bought or reserved, the tokens taken or returned, the cells, the noble or royal chosen.
    Element ids are those of :func:`board_svg` for ``state``'s board."""
    picture = picture_of(state)
    probe = state.clone()
    marks: set[str] = set()
    for action in actions:
        if probe.is_chance_node() or probe.is_terminal():
            break
        seat = probe.current_player()
        view = json.loads(probe.observation_json(seat))
        marks |= _move_marks(picture, probe.action_to_string(action), seat, view)
        probe.apply_action(action)
    return marks


def _move_marks(picture: BoardPicture, text: str, seat: int, view: dict[str, Any]) -> set[str]:
    verb, _, rest = text.partition(" ")
    marks = {f"card-{m.group(1)}.{m.group(2)}" for m in _SLOT.finditer(rest)}
    marks |= {f"deck-{m.group(1)}" for m in _DECK.finditer(rest)}
    if verb == "buy":
        marks |= {f"seat-{seat}-reserved-{m.group(1)}" for m in _RESERVED.finditer(rest)}
    for m in _CARD_ID.finditer(rest):
        marks |= _card_place(picture, int(m.group(1)), seat, view)
    return marks | picture.move_marks(verb, rest, seat)


def _card_place(picture: BoardPicture, card: int, seat: int, view: dict[str, Any]) -> set[str]:
    """Where card ``card`` lies on the board (a face-up slot or the seat's reserve)."""
    rows = view[picture.face_up]
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
    face_up = picture_of(state).face_up
    seat = state.current_player()
    view = json.loads(state.observation_json(seat))
    found = _CARD_ID.search(rest)
    if found:
        return int(found.group(1))
    slot = _SLOT.search(rest)
    if slot:
        return view[face_up][int(slot.group(1)) - 1][int(slot.group(2)) - 1]
    reserved = _RESERVED.search(rest)
    if reserved and verb == "buy":
        return view["players"][seat]["reserved"][int(reserved.group(1)) - 1].get("card")
    return None


def standalone_card_svg(game: str, card_id: int) -> str:
    """One card alone as a whole SVG picture."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_W + 4}" height="{CARD_H + 4}" ' \
           f'viewBox="-2 -2 {CARD_W + 4} {CARD_H + 4}">{card_svg(game, card_id)}</svg>'
