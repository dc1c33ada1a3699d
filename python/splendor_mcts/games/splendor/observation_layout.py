"""The layout of Splendor's observation tensor (``cpp/splendor/observation.cpp`` writes it), as data
for ``games/observation_layout.py``; docs/observation.md shows it."""
from __future__ import annotations

from ..observation_layout import Block, fields_of, slices_of


SPLENDOR_PLAYER = Block("player", fields_of(
    ("tokens", 6, "count", "tokens held: white, blue, green, red, black, gold"),
    ("bonuses", 5, "count", "bonuses (bought cards) per colour: white, blue, green, red, black"),
    ("points", 1, "count", "prestige points (cards and nobles)"),
    ("cards", 1, "count", "cards bought"),
    ("reserved", 1, "count", "cards reserved (face up or down)"),
    ("nobles", 1, "count", "nobles received"),
))
SPLENDOR_CARD = Block("card", fields_of(
    ("present", 1, "flag", "1 if a card is there (every other field is 0 otherwise)"),
    ("level", 3, "one-hot", "level 1, 2, 3"),
    ("cost", 5, "count", "cost: white, blue, green, red, black (0 for a card the observer cannot see)"),
    ("bonus", 5, "one-hot", "bonus colour: white, blue, green, red, black (0 for a card the observer cannot see)"),
    ("points", 1, "count", "points (0 for a card the observer cannot see)"),
    ("hidden", 1, "flag", "reserved face down from a deck (the observer's own are shown whole)"),
))
LAYOUT = slices_of(
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
