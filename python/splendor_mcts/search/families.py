"""The game families a network is trained for: one network per family.

``splendor-3-4p`` serves both 3 and 4 players: the observation tensor has the same length
for every player count and the value head always has 4 entries.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """A family's name, its game and the player counts its network plays."""

    name: str
    game: str
    players: tuple[int, ...]


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("splendor-2p", "splendor", (2,)),
    Family("splendor-3-4p", "splendor", (3, 4)),
    Family("duel", "duel", (2,)),
)}

VALUE_SIZE = 4  # win shares of up to 4 seats, whatever the family


def family(name: str) -> Family:
    """The family called ``name``; ``ValueError`` naming the known ones otherwise."""
    found = FAMILIES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown game family {name!r}; families: {', '.join(FAMILIES)}")
    return found


def family_of(game: str, players: int) -> Family:
    """The family whose network plays ``game`` with ``players`` seats."""
    for candidate in FAMILIES.values():
        if candidate.game == game and players in candidate.players:
            return candidate
    raise ValueError(f"no game family plays {game} with {players} players")


def game_sizes(game: str) -> tuple[int, int]:
    """(observation size, number of distinct actions) of ``game`` from the engine."""
    from ..games.registry import game_entry

    entry = game_entry(game)
    return int(entry.observation_size), int(entry.num_distinct_actions)
