"""The referee's per-move input (what an agent reads on stdin), read and written.

The format (docs/splendor-tools.md): ``num_players my_id``; the round number; the bank (six
counts, the referee's colour order); three lines ``facedown_count id id id id`` (level 1 to 3,
0 for an empty slot); ``n noble_id...``; then per player in seat order their tokens (six
counts), ``n card_id...`` bought, ``n reserved_id...`` (another player's blind reserve shows as
``-level``) and ``n noble_id...``. Ids are the referee's (``ids``).

:func:`view_from_input` turns it into our player's view (docs/position-format.md) and
:func:`input_from_view` does the reverse, so one adapter serves both directions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import ids

MAX_RESERVED = 3
SUPPORTED_PLAYERS = (2, 3, 4)


@dataclass(frozen=True)
class SeatInput:
    """One player's holdings as the referee writes them (its ids and colour order)."""

    tokens: tuple[int, ...]
    cards: tuple[int, ...]
    reserved: tuple[int, ...]  # card ids; -level for another player's blind reserve
    nobles: tuple[int, ...]


@dataclass(frozen=True)
class RefereeInput:
    """The whole input of one move."""

    num_players: int
    me: int  # 1-based, as the referee counts
    round: int
    bank: tuple[int, ...]
    decks: tuple[int, ...]  # face-down cards left per level
    table: tuple[tuple[int, ...], ...]  # 3 levels x 4 slots, 0 = empty
    nobles: tuple[int, ...]
    seats: tuple[SeatInput, ...]


def format_input(inp: RefereeInput) -> str:
    """The input text exactly as the referee writes it (newline-terminated lines)."""
    def counted(values: tuple[int, ...]) -> str:
        return " ".join(str(v) for v in (len(values), *values))

    lines = [f"{inp.num_players} {inp.me}", str(inp.round), " ".join(map(str, inp.bank))]
    lines += [" ".join(str(v) for v in (count, *row)) for count, row in zip(inp.decks, inp.table)]
    lines.append(counted(inp.nobles))
    for seat in inp.seats:
        lines += [" ".join(map(str, seat.tokens)), counted(seat.cards), counted(seat.reserved), counted(seat.nobles)]
    return "\n".join(lines) + "\n"


class _Lines:
    """The input's lines with the number of the one being read, for error messages."""

    def __init__(self, text: str) -> None:
        self.lines = text.strip().splitlines()
        self.at = 0

    def ints(self, what: str, count: int | None = None) -> list[int]:
        if self.at >= len(self.lines):
            raise ValueError(f"the input ends before line {self.at + 1} ({what})")
        self.at += 1
        words = self.lines[self.at - 1].split()
        try:
            values = [int(w) for w in words]
        except ValueError:
            raise ValueError(f"line {self.at} ({what}): {self.lines[self.at - 1]!r} is not all integers") from None
        if count is not None and len(values) != count:
            raise ValueError(f"line {self.at} ({what}): expected {count} integers, got {len(values)}")
        return values

    def counted(self, what: str, low: int, high: int) -> tuple[int, ...]:
        values = self.ints(what)
        if not values or values[0] != len(values) - 1:
            raise ValueError(f"line {self.at} ({what}): the first number must count the rest")
        for v in values[1:]:
            if not low <= v <= high:
                raise ValueError(f"line {self.at} ({what}): {v} is not a valid id")
        return tuple(values[1:])

    def fail(self, message: str) -> ValueError:
        return ValueError(f"line {self.at}: {message}")


def _non_negative(values: list[int], lines: _Lines, what: str) -> tuple[int, ...]:
    if any(v < 0 for v in values):
        raise lines.fail(f"{what} cannot be negative")
    return tuple(values)


def parse_input(text: str) -> RefereeInput:
    """Read one move's input; ValueError names the line and what is wrong with it."""
    lines = _Lines(text)
    head = lines.ints("num_players my_id", 2)
    n, me = head
    if n not in SUPPORTED_PLAYERS:
        raise lines.fail(f"{n} players: our engine plays 2 to 4 (the referee also allows 1)")
    if not 1 <= me <= n:
        raise lines.fail(f"my_id {me} is not between 1 and {n}")
    (round_no,) = lines.ints("round number", 1)
    if round_no < 1:
        raise lines.fail(f"round {round_no} is not positive")
    bank = _non_negative(lines.ints("bank", 6), lines, "tokens")
    decks, table = [], []
    for level, (lo, hi) in enumerate(ids.LEVEL_IDS, start=1):
        row = lines.ints(f"level {level} cards", 5)
        if row[0] < 0:
            raise lines.fail("the face-down count cannot be negative")
        for card in row[1:]:
            if card != 0 and not lo <= card <= hi:
                raise lines.fail(f"card {card} is not a level-{level} id ({lo}-{hi}) or 0")
        decks.append(row[0])
        table.append(tuple(row[1:]))
    nobles = lines.counted("nobles", 1, ids.NUM_NOBLES)
    seats = []
    for seat in range(1, n + 1):
        tokens = _non_negative(lines.ints(f"player {seat} tokens", 6), lines, "tokens")
        cards = lines.counted(f"player {seat} cards", 1, ids.NUM_CARDS)
        # Only another player's blind reserve shows as -level; one's own are all shown.
        reserved = lines.counted(f"player {seat} reserved cards", 1 if seat == me else -3, ids.NUM_CARDS)
        if 0 in reserved:
            raise lines.fail("a reserved card cannot be 0")
        if len(reserved) > MAX_RESERVED:
            raise lines.fail(f"{len(reserved)} reserved cards (at most {MAX_RESERVED})")
        seats.append(SeatInput(tokens, cards, reserved, lines.counted(f"player {seat} nobles", 1, ids.NUM_NOBLES)))
    if lines.at != len(lines.lines):
        raise ValueError(f"line {lines.at + 1}: unexpected text after the last player")
    return RefereeInput(n, me, round_no, bank, tuple(decks), tuple(table), nobles, tuple(seats))


def _colours(values: tuple[int, ...]) -> dict[str, int]:
    """Six counts in the referee's colour order -> our colour names."""
    return {ids.THEIR_COLOURS[c]: values[c] for c in range(6)}


def _their_counts(by_name: dict[str, int], kinds: int = 6) -> tuple[int, ...]:
    return tuple(by_name.get(ids.THEIR_COLOURS[c], 0) for c in range(kinds))


def view_from_input(inp: RefereeInput) -> dict[str, Any]:
    """Our player's view (docs/position-format.md) of the referee's input, as a JSON-ready dict.

    What the input does not say takes its default: no passes this round (the referee ends no
    game by passing), and our own reserved cards count as reserved face up (the input does not
    tell a blind reserve of ours from a face-up one; only what the others know differs).
    """
    def reserve(card: int) -> dict[str, Any]:
        if card < 0:
            return {"level": -card, "blind": True}
        return {"card": ids.our_card(card), "blind": False}

    players = []
    for s in inp.seats:
        players.append({
            "tokens": _colours(s.tokens),
            "cards": [ids.our_card(c) for c in s.cards],
            "reserved": [reserve(c) for c in s.reserved],
            "nobles": [ids.our_noble(x) for x in s.nobles],
        })
    return {
        "game": "splendor",
        "observer": inp.me - 1,
        "to_move": inp.me - 1,
        "phase": "main",
        "bank": _colours(inp.bank),
        "nobles": [ids.our_noble(x) for x in inp.nobles],
        "table": [[ids.our_card(c) if c else None for c in row] for row in inp.table],
        "decks": list(inp.decks),
        "players": players,
    }


def input_from_view(view: dict[str, Any], round_no: int, noble_order: list[int] | None = None) -> RefereeInput:
    """The referee's input for the seat whose view ``view`` is (``state.observation_json(seat)``).

    Nobles are listed in ``noble_order`` (our ids; by default the view's order), the order in
    which the referee would give the first eligible one.
    """
    me = int(view["observer"]) + 1
    nobles = [x for x in (noble_order or view["nobles"]) if x in view["nobles"]]
    seats = []
    for seat, p in enumerate(view["players"], start=1):
        reserved = tuple(-r["level"] if "card" not in r else ids.their_card(r["card"]) for r in p["reserved"])
        seats.append(SeatInput(_their_counts(p["tokens"]), tuple(ids.their_card(c) for c in p["cards"]), reserved,
                               tuple(ids.their_noble(x) for x in p["nobles"])))
    table = tuple(tuple(ids.their_card(c) if c is not None else 0 for c in row) + (0,) * (4 - len(row))
                  for row in view["table"])
    return RefereeInput(len(view["players"]), me, round_no, _their_counts(view["bank"]), tuple(view["decks"]), table,
                        tuple(ids.their_noble(x) for x in nobles), tuple(seats))
