"""The game families a network is trained for: one network per family, each declared by its
game's registry entry (``GameEntry.network_families``: the family's name and the player
counts its network plays).

``splendor-3-4p`` serves both 3 and 4 players: the observation tensor has the same length
for every player count and the value head always has 4 entries.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..games.registry import entries, game_entry


@dataclass(frozen=True)
class Family:
    """A family's name, its game, the player counts its network plays and the games of each
    generation of its training pipeline (self-play, gate)."""

    name: str
    game: str
    players: tuple[int, ...]
    selfplay_games: int
    gate_games: int


def families() -> dict[str, Family]:
    """Every registered game's families, in the registry's order."""
    return {name: Family(name, entry.name, tuple(declared.players), declared.selfplay_games, declared.gate_games)
            for entry in entries() for name, declared in entry.network_families.items()}


# The built-in games' families (a game registered later is in families() only).
FAMILIES: dict[str, Family] = families()

VALUE_SIZE = 4  # win shares of up to 4 seats, whatever the family


def family(name: str) -> Family:
    """The family called ``name``; ``ValueError`` naming the known ones otherwise."""
    known = families()
    found = known.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown game family {name!r}; families: {', '.join(known)}")
    return found


def family_of(game: str, players: int) -> Family:
    """The family whose network plays ``game`` with ``players`` seats."""
    for candidate in families().values():
        if candidate.game == game and players in candidate.players:
            return candidate
    raise ValueError(f"no game family plays {game} with {players} players")


def game_sizes(game: str) -> tuple[int, int]:
    """(observation size, number of distinct actions) of ``game`` from the engine."""
    entry = game_entry(game)
    return int(entry.observation_size), int(entry.num_distinct_actions)
