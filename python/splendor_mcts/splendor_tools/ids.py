"""The referee's numbering of cards, nobles and colours, and ours.

Card and noble ids come from ``id_table`` (derived by tools/derive_splendor_tools_ids.py from
both card lists); the map is checked to be one-to-one over all 90 cards and 10 nobles when this
module is imported, so a broken table never reaches a game.
"""
from __future__ import annotations

from .id_table import CARD_IDS, NOBLE_IDS

NUM_CARDS = 90
NUM_NOBLES = 10
# The referee's card id ranges per level (1-based, inclusive).
LEVEL_IDS = ((1, 40), (41, 70), (71, 90))

# Colour names in our order (white, blue, green, red, black, gold: data/splendor/*.csv and the
# action ids of docs/actions.md) and in the referee's (red 0, green 1, blue 2, white 3, black 4, gold 5).
OUR_COLOURS = ("white", "blue", "green", "red", "black", "gold")
THEIR_COLOURS = ("red", "green", "blue", "white", "black", "gold")
GOLD = 5  # the same index on both sides


def _inverse(ids: tuple[int, ...], size: int, what: str) -> dict[int, int]:
    if sorted(ids) != list(range(1, size + 1)):
        raise RuntimeError(f"the splendor-tools {what} id table is not a one-to-one map of {size} {what}s")
    return {ours: theirs for theirs, ours in enumerate(ids, start=1)}


_CARD_TO_THEIRS = _inverse(CARD_IDS, NUM_CARDS, "card")
_NOBLE_TO_THEIRS = _inverse(NOBLE_IDS, NUM_NOBLES, "noble")


def our_card(their_id: int) -> int:
    """Our card id of the referee's card ``their_id`` (1-90)."""
    if not 1 <= their_id <= NUM_CARDS:
        raise ValueError(f"card id {their_id} is not between 1 and {NUM_CARDS}")
    return CARD_IDS[their_id - 1]


def their_card(our_id: int) -> int:
    """The referee's id of our card ``our_id``."""
    return _CARD_TO_THEIRS[our_id]


def our_noble(their_id: int) -> int:
    """Our noble id of the referee's noble ``their_id`` (1-10)."""
    if not 1 <= their_id <= NUM_NOBLES:
        raise ValueError(f"noble id {their_id} is not between 1 and {NUM_NOBLES}")
    return NOBLE_IDS[their_id - 1]


def their_noble(our_id: int) -> int:
    """The referee's id of our noble ``our_id``."""
    return _NOBLE_TO_THEIRS[our_id]


def their_level(their_id: int) -> int:
    """The level (1-3) of the referee's card ``their_id``: its id range says it."""
    return next(level for level, (lo, hi) in enumerate(LEVEL_IDS, start=1) if lo <= their_id <= hi)


def our_colour(their_colour: int) -> int:
    """Our colour index (white 0 ... black 4, gold 5) of the referee's colour code."""
    return OUR_COLOURS.index(THEIR_COLOURS[their_colour])


def their_colour(our_colour_index: int) -> int:
    """The referee's colour code of our colour index."""
    return THEIR_COLOURS.index(OUR_COLOURS[our_colour_index])
