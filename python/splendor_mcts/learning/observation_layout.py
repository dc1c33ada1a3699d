"""The layout of ``state.observation_tensor(seat)`` for Splendor and Duel, as data.

docs/observation.md shows these tables (tests/test_observation_layout.py checks that the page
holds exactly the tables :func:`markdown` makes, and decodes tensors of many positions by them
against ``observation_json``); the code that writes the tensor is ``cpp/splendor/observation.cpp``
and ``cpp/duel/observation.cpp``. Print the tables with
``python -m splendor_mcts.learning.observation_layout``.

A tensor is a sequence of :class:`Slice` objects, each ``count`` units of ``width`` floats; a
unit is either plain values (``encoding`` says how to read them) or a :class:`Block` whose
:class:`Field` objects split it. :func:`decode` cuts a tensor into named arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Field:
    """Part of a block: ``length`` floats from ``offset`` within the block."""

    name: str
    offset: int
    length: int
    encoding: str
    meaning: str


@dataclass(frozen=True)
class Block:
    """A unit repeated in a slice (a player, a card): its fields cover it in order."""

    name: str
    fields: tuple[Field, ...]

    @property
    def width(self) -> int:
        return sum(f.length for f in self.fields)


@dataclass(frozen=True)
class Slice:
    """``count`` units from ``offset``: each a :class:`Block` or ``width`` plain values."""

    name: str
    offset: int
    count: int
    unit: Block | int
    encoding: str
    meaning: str

    @property
    def width(self) -> int:
        return self.unit.width if isinstance(self.unit, Block) else self.unit

    @property
    def length(self) -> int:
        return self.count * self.width


def _fields(*rows: tuple[str, int, str, str]) -> tuple[Field, ...]:
    """Fields laid end to end from (name, length, encoding, meaning)."""
    out, offset = [], 0
    for name, length, encoding, meaning in rows:
        out.append(Field(name, offset, length, encoding, meaning))
        offset += length
    return tuple(out)


def _slices(*rows: tuple[str, int, Block | int, str, str]) -> tuple[Slice, ...]:
    """Slices laid end to end from (name, count, unit, encoding, meaning)."""
    out, offset = [], 0
    for name, count, unit, encoding, meaning in rows:
        out.append(Slice(name, offset, count, unit, encoding, meaning))
        offset += out[-1].length
    return tuple(out)


SPLENDOR_PLAYER = Block("player", _fields(
    ("tokens", 6, "count", "tokens held: white, blue, green, red, black, gold"),
    ("bonuses", 5, "count", "bonuses (bought cards) per colour: white, blue, green, red, black"),
    ("points", 1, "count", "prestige points (cards and nobles)"),
    ("cards", 1, "count", "cards bought"),
    ("reserved", 1, "count", "cards reserved (face up or down)"),
    ("nobles", 1, "count", "nobles received"),
))
SPLENDOR_CARD = Block("card", _fields(
    ("present", 1, "flag", "1 if a card is there (every other field is 0 otherwise)"),
    ("level", 3, "one-hot", "level 1, 2, 3"),
    ("cost", 5, "count", "cost: white, blue, green, red, black (0 for a card the observer cannot see)"),
    ("bonus", 5, "one-hot", "bonus colour: white, blue, green, red, black (0 for a card the observer cannot see)"),
    ("points", 1, "count", "points (0 for a card the observer cannot see)"),
    ("hidden", 1, "flag", "reserved face down from a deck (the observer's own are shown whole)"),
))
SPLENDOR = _slices(
    ("players", 4, SPLENDOR_PLAYER, "block", "one block per seat, the observer first, then in turn order; "
     "blocks past the player count are 0"),
    ("bank", 1, 6, "count", "the bank: white, blue, green, red, black, gold"),
    ("table", 12, SPLENDOR_CARD, "block", "the face-up slots: level 1 slots 1-4, level 2, level 3; 0 when empty"),
    ("reserved", 12, SPLENDOR_CARD, "block", "reserve places: 3 per seat, seats as in players; 0 when empty"),
    ("nobles", 1, 10, "flag", "nobles on the table, one per noble id 1-10 (rows of data/splendor/nobles.csv)"),
    ("decks", 1, 3, "count", "cards left in the level 1, 2, 3 decks"),
    ("phase", 1, 5, "one-hot", "main, returning tokens, choosing a noble, chance (a reveal), over"),
    ("to_move", 1, 4, "one-hot", "the seat to move relative to the observer (0 = the observer); "
     "all 0 at a chance node and at the end"),
    ("end_triggered", 1, 1, "flag", "someone has reached the points to win (the round is being finished)"),
    ("passes", 1, 1, "count", "passes in a row (the all-pass ending of the rules)"),
)

DUEL_CELL = Block("cell", _fields(
    ("token", 8, "one-hot", "white, blue, green, red, black, pearl, gold, empty"),
))
DUEL_PLAYER = Block("player", _fields(
    ("tokens", 7, "count / 10", "tokens held: white, blue, green, red, black, pearl, gold"),
    ("bonuses", 5, "count / 5", "bonuses per colour (double bonuses count 2, jokers their colour)"),
    ("colour_points", 5, "count / 10", "points on the cards of each colour"),
    ("points", 1, "count / 20", "prestige points (cards and royals)"),
    ("crowns", 1, "count / 10", "crowns"),
    ("privileges", 1, "count / 3", "privilege scrolls"),
    ("reserved", 1, "count / 3", "cards reserved"),
    ("royals", 4, "flag", "royal cards owned, one per royal id 1-4"),
))
DUEL_CARD = Block("card", _fields(
    ("card", 67, "one-hot", "the card id 1-67 (rows of data/splendor_duel/cards.csv); all 0 when empty or unseen"),
))
DUEL = _slices(
    ("board", 25, DUEL_CELL, "block", "the board cells a1 ... e5, row by row"),
    ("bag", 1, 7, "count / 4", "tokens in the bag: white, blue, green, red, black, pearl, gold"),
    ("players", 2, DUEL_PLAYER, "block", "the observer, then the opponent"),
    ("pyramid", 12, DUEL_CARD, "block", "the pyramid's slots: level 1 slots 1-5, level 2 slots 1-4, level 3 slots 1-3"),
    ("own_reserved", 3, DUEL_CARD, "block", "the observer's reserve places"),
    ("opponent_reserved", 3, DUEL_CARD, "block", "the opponent's reserve places, for cards it reserved face up"),
    ("opponent_blind", 1, 3, "count", "the opponent's face-down reserves by level 1, 2, 3"),
    ("decks", 1, 3, "count / 30", "cards left in the level 1, 2, 3 decks"),
    ("royals", 1, 4, "flag", "royal cards still available, one per royal id 1-4"),
    ("phase", 1, 10, "one-hot", "main, joker colour, token ability, steal ability, royal choice, discarding, "
     "chance (card reveal), chance (bag fill), chance (first player), over"),
    ("observer_to_move", 1, 1, "flag", "the observer is to move"),
    ("replenished", 1, 1, "flag", "the board was replenished this turn"),
    ("again", 1, 1, "flag", "the player to move plays again (ability)"),
)

LAYOUTS: dict[str, tuple[Slice, ...]] = {"splendor": SPLENDOR, "duel": DUEL}


def layout(game: str) -> tuple[Slice, ...]:
    """The slices of a game's tensor; ``ValueError`` for a game without a documented layout."""
    if game not in LAYOUTS:
        raise ValueError(f"no observation layout for {game!r}; known: {', '.join(LAYOUTS)}")
    return LAYOUTS[game]


def size(game: str) -> int:
    """The tensor's length by the layout."""
    last = layout(game)[-1]
    return last.offset + last.length


def decode(game: str, tensor: np.ndarray) -> dict[str, np.ndarray]:
    """The tensor cut by the layout: ``"slice"`` -> [count, width] for plain slices and
    ``"slice.field"`` -> [count, field length] for blocks. A batch of tensors (any leading
    dimensions, e.g. a shard's [rows, size]) keeps them in front: [rows, count, width]."""
    values = np.asarray(tensor)
    if values.ndim == 0 or values.shape[-1] != size(game):
        raise ValueError(f"a {game} observation has {size(game)} floats, got shape {values.shape}")
    lead = values.shape[:-1]
    out: dict[str, np.ndarray] = {}
    for s in layout(game):
        units = values[..., s.offset:s.offset + s.length].reshape(*lead, s.count, s.width)
        if isinstance(s.unit, Block):
            for f in s.unit.fields:
                out[f"{s.name}.{f.name}"] = units[..., f.offset:f.offset + f.length]
        else:
            out[s.name] = units
    return out


def markdown(game: str) -> str:
    """The layout's tables as docs/observation.md shows them: the slices, then each block."""
    slices = layout(game)
    lines = ["| offset | length | slice | encoding | meaning |", "|---:|---:|---|---|---|"]
    for s in slices:
        length = f"{s.length} ({s.count} × {s.width})" if s.count > 1 else str(s.length)
        encoding = f"{s.unit.name} block" if isinstance(s.unit, Block) else s.encoding
        lines.append(f"| {s.offset} | {length} | `{s.name}` | {encoding} | {s.meaning} |")
    blocks = list(dict.fromkeys(s.unit for s in slices if isinstance(s.unit, Block)))
    for block in blocks:
        lines += ["", f"A **{block.name} block** ({block.width}):", "",
                  "| offset | length | field | encoding | meaning |", "|---:|---:|---|---|---|"]
        lines += [f"| {f.offset} | {f.length} | `{f.name}` | {f.encoding} | {f.meaning} |" for f in block.fields]
    return "\n".join(lines)


if __name__ == "__main__":
    for name in LAYOUTS:
        print(f"## {name}\n\n{markdown(name)}\n")
