"""The layout of Splendor Duel's observation tensor (``cpp/duel/observation.cpp`` writes it), as data
for ``games/observation_layout.py``; docs/observation.md shows it."""
from __future__ import annotations

from ..observation_layout import Block, fields_of, slices_of


DUEL_CELL = Block("cell", fields_of(
    ("token", 8, "one-hot", "white, blue, green, red, black, pearl, gold, empty"),
))
DUEL_PLAYER = Block("player", fields_of(
    ("tokens", 7, "count / 10", "tokens held: white, blue, green, red, black, pearl, gold"),
    ("bonuses", 5, "count / 5", "bonuses per colour (double bonuses count 2, jokers their colour)"),
    ("colour_points", 5, "count / 10", "points on the cards of each colour"),
    ("points", 1, "count / 20", "prestige points (cards and royals)"),
    ("crowns", 1, "count / 10", "crowns"),
    ("privileges", 1, "count / 3", "privilege scrolls"),
    ("reserved", 1, "count / 3", "cards reserved"),
    ("royals", 4, "flag", "royal cards owned, one per royal id 1-4"),
))
DUEL_CARD = Block("card", fields_of(
    ("card", 67, "one-hot", "the card id 1-67 (rows of data/splendor_duel/cards.csv); all 0 when empty or unseen"),
))
LAYOUT = slices_of(
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
