"""Pairings, deals and seat rotations: which agents play which seats of which game.

A *pairing* is the set of agents that meet in one game (2 agents in a 2-player game, 4 in a
4-player one). A *deal* is one seed: the same cards in the same order. Each deal of each pairing
is played once per cyclic seat rotation, so every agent of the pairing plays every seat of every
deal (as cutechess replays an opening with colours swapped), and the luck of the deal cancels.

Game ids are stable: ``game_id = (deal * n_pairings + pairing) * n_players + rotation``, so adding
deals to a tournament keeps the ids (and seeds) of the games already played.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass

from ..ranges import Whole

MODES = ("round-robin", "gauntlet")
SEED_BITS = 53  # seeds stay exact in JSON readers that use doubles


def derive_seed(tournament_seed: int, *path: int) -> int:
    """A seed determined by the tournament seed and a path of indexes only (sha256 based)."""
    text = ":".join(str(x) for x in (tournament_seed, *path)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little") % (1 << SEED_BITS)


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The game seed of a deal: the same for every pairing and seat rotation of that deal."""
    return derive_seed(tournament_seed, deal)


def agent_seed(tournament_seed: int, deal: int, agent: int) -> int:
    """The seed an agent's bot gets in a deal: independent of seat, rotation and concurrency."""
    return derive_seed(tournament_seed, deal, agent, 1)


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the tournament: who sits where, on which deal."""

    game_id: int
    pairing: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[int, ...]  # agent index per seat


def make_pairings(num_agents: int, num_players: int, mode: str) -> list[tuple[int, ...]]:
    """Agent groups that meet: all ``num_players``-subsets (round-robin) or those with agent 0 (gauntlet)."""
    if mode not in MODES:
        raise ValueError(f"unknown tournament mode {mode!r}: expected one of {', '.join(MODES)}")
    if num_players < 2:
        raise ValueError(f"a tournament game needs at least 2 players, got {num_players}")
    if num_agents < num_players:
        raise ValueError(
            f"a {num_players}-player game needs at least {num_players} agents, got {num_agents} "
            "(to field one agent twice, repeat its spec with a different name=)"
        )
    if mode == "gauntlet":
        return [(0, *rest) for rest in itertools.combinations(range(1, num_agents), num_players - 1)]
    return list(itertools.combinations(range(num_agents), num_players))


def rotate(group: tuple[int, ...], rotation: int) -> tuple[int, ...]:
    """Seat order for a rotation: seat s is taken by ``group[(s + rotation) % n]``."""
    n = len(group)
    return tuple(group[(s + rotation) % n] for s in range(n))


# Deals per pairing a tournament plays at most: its schedule is a list built before the first game.
MAX_DEALS = 1_000_000
DEALS = Whole(1, MAX_DEALS)


def make_schedule(
    num_agents: int, num_players: int, mode: str, deals: int, tournament_seed: int
) -> list[ScheduledGame]:
    """Every game of the tournament in play order (deal by deal, all rotations of a deal together)."""
    DEALS.check(deals, "--deals")
    pairings = make_pairings(num_agents, num_players, mode)
    per_deal = len(pairings) * num_players
    return [scheduled_game(pairings, num_players, tournament_seed, game_id) for game_id in range(deals * per_deal)]


def scheduled_game(
    pairings: list[tuple[int, ...]], num_players: int, tournament_seed: int, game_id: int
) -> ScheduledGame:
    """The game the schedule puts at ``game_id`` (any id >= 0: the schedule of any number of deals)."""
    rest, rotation = divmod(game_id, num_players)
    deal, pairing = divmod(rest, len(pairings))
    return ScheduledGame(game_id, pairing, deal, rotation, deal_seed(tournament_seed, deal),
                         rotate(pairings[pairing], rotation))


def deals_for_games(games: int, num_players: int) -> int:
    """Deals for ``--games`` (games per pairing, as cutechess counts per encounter); whole deals only."""
    Whole(1, MAX_DEALS * num_players).check(games, "--games")
    if games % num_players:
        raise ValueError(
            f"--games {games} is not a multiple of the {num_players} seat rotations of a deal; "
            f"use --games {games + num_players - games % num_players} or --deals"
        )
    return games // num_players
