"""The layout of a game's ``state.observation_tensor(seat)``, as data: each game declares its
own (``games/<game>/observation_layout.py``, named by its registry entry's
``observation_layout``).

docs/observation.md shows these tables (tests/test_observation_layout.py checks that the page
holds exactly the tables :func:`markdown` makes, and decodes tensors of many positions by them
against ``observation_json``); the code that writes the tensor is each game's
``cpp/<game>/observation.cpp``. Print the tables with
``python -m splendor_mcts.games.observation_layout``.

A tensor is a sequence of :class:`Slice` objects, each ``count`` units of ``width`` floats; a
unit is either plain values (``encoding`` says how to read them) or a :class:`Block` whose
:class:`Field` objects split it. :func:`decode` cuts a tensor into named arrays.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .registry import entries, game_entry, load_attribute


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


def fields_of(*rows: tuple[str, int, str, str]) -> tuple[Field, ...]:
    """Fields laid end to end from (name, length, encoding, meaning)."""
    out, offset = [], 0
    for name, length, encoding, meaning in rows:
        out.append(Field(name, offset, length, encoding, meaning))
        offset += length
    return tuple(out)


def slices_of(*rows: tuple[str, int, Block | int, str, str]) -> tuple[Slice, ...]:
    """Slices laid end to end from (name, count, unit, encoding, meaning)."""
    out, offset = [], 0
    for name, count, unit, encoding, meaning in rows:
        out.append(Slice(name, offset, count, unit, encoding, meaning))
        offset += out[-1].length
    return tuple(out)


def layout_games() -> list[str]:
    """The games whose registry entry gives an observation layout, in registration order."""
    return [entry.name for entry in entries() if entry.observation_layout]


def layout(game: str) -> tuple[Slice, ...]:
    """The slices of a game's tensor; ``ValueError`` for a game without a documented layout."""
    try:
        path = game_entry(game).observation_layout
    except ValueError:
        path = None
    if not path:
        raise ValueError(f"no observation layout for {game!r}; known: {', '.join(layout_games())}")
    return load_attribute(path)  # type: ignore[no-any-return]


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
    for name in layout_games():
        print(f"## {name}\n\n{markdown(name)}\n")
