"""Places in games of 3-4 players: how often each agent finished 1st, 2nd, 3rd, 4th, and head
to head, how often each agent finished ahead of each other one in the games they shared.

A game's order is its result first (the winner, or the winners of a shared win, on top), then
the points each seat has at the end, where the game's state reports them (``players[i].points``
in its JSON, as Splendor's does); seats equal on both share the better place.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..records import GameRecord, replay
from .ratings import ScoredGame


@dataclass(frozen=True)
class Places:
    """Place counts and head-to-head tallies of every agent (indexes as in ``names``)."""

    names: list[str]
    counts: list[list[int]]     # counts[agent][k]: games in which the agent finished (k+1)-th
    ahead: list[list[float]]    # ahead[a][b]: games in which a finished ahead of b (a tie counts half)
    together: list[list[int]]   # together[a][b]: games a and b played in

    def games(self, agent: int) -> int:
        return sum(self.counts[agent])

    def mean_place(self, agent: int) -> float:
        games = self.games(agent)
        return sum((k + 1) * c for k, c in enumerate(self.counts[agent])) / games if games else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {"agents": [{"name": name, "places": self.counts[a], "games": self.games(a),
                            "meanPlace": None if not self.games(a) else self.mean_place(a)}
                           for a, name in enumerate(self.names)],
                "headToHead": {"names": self.names, "ahead": self.ahead, "together": self.together}}


def final_points(state: Any) -> list[float] | None:
    """Each seat's points at the end, when the state's JSON reports them; else None."""
    try:
        players = json.loads(state.to_json()).get("players")
    except (AttributeError, TypeError, ValueError):
        return None
    if isinstance(players, list) and all(isinstance(p, dict) and isinstance(p.get("points"), (int, float))
                                         for p in players):
        return [float(p["points"]) for p in players]
    return None


def seat_places(result: Sequence[float], points: Sequence[float] | None) -> list[int]:
    """The place (from 1) of each seat: result first, then points; equals share the better place."""
    keys = [(r, points[s] if points else 0.0) for s, r in enumerate(result)]
    return [1 + sum(other > key for other in keys) for key in keys]


def tally_places(names: Sequence[str], num_players: int, games: Sequence[ScoredGame],
                 records: Iterable[GameRecord], game: Any) -> Places:
    """Places and head to head over the stored ``games``; ``records`` are the same games in the
    same order, replayed with ``game`` to read the points at the end."""
    k = len(names)
    counts = [[0] * num_players for _ in range(k)]
    ahead = [[0.0] * k for _ in range(k)]
    together = [[0] * k for _ in range(k)]
    for g, record in zip(games, records, strict=True):
        places = seat_places(g.result, final_points(replay(record, game=game)))
        for seat, agent in enumerate(g.seats):
            counts[agent][places[seat] - 1] += 1
            for other, rival in enumerate(g.seats):
                if other == seat:
                    continue
                together[agent][rival] += 1
                if places[seat] < places[other]:
                    ahead[agent][rival] += 1.0
                elif places[seat] == places[other]:
                    ahead[agent][rival] += 0.5
    return Places(list(names), counts, ahead, together)
