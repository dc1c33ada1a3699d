"""The referee's move line, read and written, and mapped to and from our action ids.

A move is whitespace-separated integers (newlines count as spaces): ``1 k c1..ck`` takes k
distinct colours (``1 0`` is a pass), ``2 c`` takes two of colour c, ``3 id`` reserves a table
card (``3 -level`` the top of a deck), ``4 id`` buys a table or reserved card; the colours of
the tokens given back for the 10-token limit follow (never gold). Ids and colour codes are the
referee's (``ids``). Our action ids are those of docs/actions.md.

One referee move is one or more of our decisions: the main action, then one decision per token
returned. The noble is not part of the line: the referee gives the first eligible one itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from . import ids

TAKE_DISTINCT, TAKE_TWO, RESERVE, BUY = 1, 2, 3, 4
TOKEN_LIMIT = 10
TAKE_TWO_MIN = 4
MAX_RESERVED = 3

# Our action ids (docs/actions.md, "Splendor").
TAKE_SETS = tuple(c for k in (3, 2, 1) for c in combinations(range(5), k))  # ids 0-24, our colour indices
A_TAKE_TWO, A_RESERVE_TABLE, A_RESERVE_DECK, A_BUY_TABLE, A_BUY_RESERVED = 25, 30, 42, 45, 57
A_PASS, A_RETURN, A_NOBLE = 60, 61, 67


class MoveFormatError(ValueError):
    """The agent's output is not a move in the referee's format (garbage)."""


class MoveRefused(ValueError):
    """A well-formed move that cannot be played here.

    ``referee_allows`` is True when the referee would play it and only our rules refuse it
    (a take of fewer than three colours while three are in the bank, a pass while other moves
    exist); False when the referee refuses it too (it would pass instead).
    """

    def __init__(self, message: str, referee_allows: bool) -> None:
        super().__init__(message)
        self.referee_allows = referee_allows


@dataclass(frozen=True)
class RefereeMove:
    """One move in the referee's terms: its kind (1-4), the colours of a take, the card of a
    reserve or buy (a negative level for a deck), the colours given back."""

    kind: int
    colours: tuple[int, ...] = ()
    card: int = 0
    returns: tuple[int, ...] = ()

    def text(self) -> str:
        """The line an agent prints for this move."""
        if self.kind == TAKE_DISTINCT:
            words = [1, len(self.colours), *self.colours]
        elif self.kind == TAKE_TWO:
            words = [2, *self.colours]
        else:
            words = [self.kind, self.card]
        return " ".join(str(w) for w in (*words, *self.returns))


def parse_move(text: str) -> RefereeMove:
    """Read an agent's output; MoveFormatError says why it is not a move."""
    words = text.split()
    if not words:
        raise MoveFormatError("no move printed")
    try:
        values = [int(w) for w in words]
    except ValueError:
        bad = next(w for w in words if not _is_int(w))
        raise MoveFormatError(f"{_clip(bad)!r} is not an integer") from None
    pos = 0

    def take(low: int, high: int, what: str) -> int:
        nonlocal pos
        if pos >= len(values):
            raise MoveFormatError(f"the move ends before its {what}")
        value = values[pos]
        pos += 1
        if not low <= value <= high:
            raise MoveFormatError(f"{what} {value} is not between {low} and {high}")
        return value

    kind = take(1, 4, "action")
    colours: tuple[int, ...] = ()
    card = 0
    if kind == TAKE_DISTINCT:
        colours = tuple(take(0, 4, "colour") for _ in range(take(0, 3, "number of colours")))
    elif kind == TAKE_TWO:
        colours = (take(0, 4, "colour"),)
    elif kind == RESERVE:
        card = take(-3, ids.NUM_CARDS, "card id")
        if card == 0:
            raise MoveFormatError("card id 0 names no card")
    else:
        card = take(1, ids.NUM_CARDS, "card id")
    returns = tuple(take(0, 4, "returned colour") for _ in range(len(values) - pos))
    return RefereeMove(kind, colours, card, returns)


def _is_int(word: str) -> bool:
    try:
        int(word)
    except ValueError:
        return False
    return True


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _find_card(view: dict[str, Any], seat: int, their_id: int) -> tuple[str, int]:
    """Where the referee's card is for this seat: ("table", slot 0-11) or ("reserved", index)."""
    card = ids.our_card(their_id)
    for level, row in enumerate(view["table"]):
        if card in row:
            return "table", 4 * level + row.index(card)
    for index, r in enumerate(view["players"][seat]["reserved"]):
        if r.get("card") == card:
            return "reserved", index
    return "", -1


def to_our_actions(move: RefereeMove, state: Any, view: dict[str, Any]) -> list[int]:
    """Our decisions for the referee's move by the player to move: the main action, then the
    token returns. MoveRefused says why it cannot be played (and whether the referee would)."""
    seat = int(view["to_move"])
    me = view["players"][seat]
    held = [me["tokens"].get(name, 0) for name in ids.OUR_COLOURS]
    bank = [view["bank"].get(name, 0) for name in ids.OUR_COLOURS]
    gained = [0] * 6
    ours = [ids.our_colour(c) for c in move.colours]
    if move.kind == TAKE_DISTINCT:
        if len(set(ours)) != len(ours):
            raise MoveRefused(f"{move.text()!r} names a colour twice", False)
        for c in ours:
            if bank[c] == 0:
                raise MoveRefused(f"{move.text()!r}: no {ids.OUR_COLOURS[c]} token is left", False)
            gained[c] += 1
        main = A_PASS if not ours else TAKE_SETS.index(tuple(sorted(ours)))
    elif move.kind == TAKE_TWO:
        gained[ours[0]] += 2
        main = A_TAKE_TWO + ours[0]
    elif move.kind == RESERVE:
        if bank[ids.GOLD] > 0:
            gained[ids.GOLD] += 1
        if move.card < 0:
            main = A_RESERVE_DECK + (-move.card - 1)
        else:
            where, index = _find_card(view, seat, move.card)
            if where != "table":
                raise MoveRefused(f"{move.text()!r}: card {move.card} is not on the table", False)
            main = A_RESERVE_TABLE + index
    else:
        where, index = _find_card(view, seat, move.card)
        if not where:
            raise MoveRefused(f"{move.text()!r}: card {move.card} is neither on the table nor reserved by you", False)
        main = (A_BUY_TABLE if where == "table" else A_BUY_RESERVED) + index
    if not state.is_legal(main):
        reason = state.why_illegal(main)
        if move.kind == TAKE_DISTINCT:  # its colours are distinct and in the bank: only our rules refuse it
            raise MoveRefused(f"{move.text()!r}: {reason}; the referee allows it", True)
        raise MoveRefused(f"{move.text()!r}: {reason}", False)
    return [main, *_returns(move, held, gained)]


def _returns(move: RefereeMove, held: list[int], gained: list[int]) -> list[int]:
    """The return decisions, checked as the referee checks them: exactly the tokens above the
    limit, each of a colour held (tokens just taken count)."""
    tokens = [h + g for h, g in zip(held, gained)]
    need = max(0, sum(tokens) - TOKEN_LIMIT)
    if len(move.returns) != need:
        raise MoveRefused(f"{move.text()!r} gives back {len(move.returns)} tokens; the move leaves "
                          f"{sum(tokens)} held, so exactly {need} must be given back", False)
    actions = []
    for c in move.returns:
        ours = ids.our_colour(c)
        if tokens[ours] == 0:
            raise MoveRefused(f"{move.text()!r} gives back a {ids.OUR_COLOURS[ours]} token it does not hold", False)
        tokens[ours] -= 1
        actions.append(A_RETURN + ours)
    return actions


def from_our_actions(main: int, returns: list[int], view: dict[str, Any]) -> RefereeMove:
    """The referee's move for our main action and return decisions (``view`` is the mover's).
    ValueError for what the referee cannot be told: a gold token given back, a noble choice."""
    seat = int(view["to_move"])
    gave = []
    for a in returns:
        if not A_RETURN <= a < A_RETURN + 5:
            raise ValueError(f"action {a} is not a coloured token return (the referee takes back no gold)")
        gave.append(ids.their_colour(a - A_RETURN))
    back = tuple(gave)
    if main < A_TAKE_TWO:
        return RefereeMove(TAKE_DISTINCT, tuple(ids.their_colour(c) for c in TAKE_SETS[main]), returns=back)
    if main < A_RESERVE_TABLE:
        return RefereeMove(TAKE_TWO, (ids.their_colour(main - A_TAKE_TWO),), returns=back)
    if main < A_RESERVE_DECK:
        return RefereeMove(RESERVE, card=_table_card(view, main - A_RESERVE_TABLE), returns=back)
    if main < A_BUY_TABLE:
        return RefereeMove(RESERVE, card=-(main - A_RESERVE_DECK + 1), returns=back)
    if main < A_BUY_RESERVED:
        return RefereeMove(BUY, card=_table_card(view, main - A_BUY_TABLE), returns=back)
    if main < A_PASS:
        return RefereeMove(BUY, card=ids.their_card(view["players"][seat]["reserved"][main - A_BUY_RESERVED]["card"]),
                           returns=back)
    if main == A_PASS:
        return RefereeMove(TAKE_DISTINCT, returns=back)
    raise ValueError(f"action {main} is not a main action")


def _table_card(view: dict[str, Any], slot: int) -> int:
    return ids.their_card(view["table"][slot // 4][slot % 4])
