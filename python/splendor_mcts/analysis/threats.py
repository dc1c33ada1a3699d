"""Threats (docs/hints.md, "Threats"): after a turn of the player to move, does the seat
that moves next win in its next turn, and with which move?

The check is the engine's (``_core.threat_after``, cpp/core/threats.hpp): exhaustive over
the cards the turn reveals and over the other seats' replies, and blind to what the player
cannot see (an opponent's blind reserve is never part of a threat). This module runs it
once per whole turn a hint lists (never inside the search), words it ("seat 2 wins next
turn with buy 3.2") and says which of the listed turns stop each threat.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games.registry import entry_of_state
from ..wording import seat_name

# Positions one check may visit: a check with no threat costs one position per move of the
# next seat; a threat near the end of a 4-player game (every later seat's last turn
# answered) stays well below this. Past it the threat is reported undecided.
THREAT_NODES = 200_000
MOVES_NAMED = 3  # winning moves a threat's words name; the JSON lists them all

NONE = "none"
WINS = "wins"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Threat:
    """What the next seat can do after one turn: ``status`` ``none`` (no win in its next
    turn), ``wins`` (it wins: ``seat``, and its winning first ``moves`` with ``labels``
    naming their cards; ``moves`` empty when each reveal gives it a different win) or
    ``unknown`` (not decided within the check's budget, or the turn is not whole)."""

    status: str
    seat: int = -1
    moves: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[int, tuple[str, ...]]:
        """The same threat after two turns has the same key."""
        return self.seat, tuple(self.moves)

    def words(self) -> str:
        """``seat 2 wins next turn with buy 3.2 (green 1pt W2U3K2)`` (at most ``MOVES_NAMED``
        moves named, then how many more), or why there is none."""
        if self.status == NONE:
            return "no win next turn for the seat after you"
        if self.status == UNKNOWN:
            return "not checked (too many positions, or not a whole turn)"
        if not self.moves:
            return f"{seat_name(self.seat)} wins next turn whatever is revealed"
        named = " or ".join(self.labels[:MOVES_NAMED])
        more = len(self.labels) - MOVES_NAMED
        return f"{seat_name(self.seat)} wins next turn with {named}" + (f" (or {more} more)" if more > 0 else "")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "words": self.words()}
        if self.status == WINS:
            out.update(seat=self.seat, moves=list(self.moves), labels=list(self.labels))
        return out


def threat_after(state: Any, actions: Sequence[int], max_nodes: int = THREAT_NODES) -> Threat:
    """The threat after the player to move at ``state`` plays the whole turn ``actions``
    (its decisions, as ``TurnInfo.actions``). Raises ``ValueError`` where no seat is to
    move or ``actions`` is empty or holds an action id out of range."""
    found = entry_of_state(state).engine.threat_after(state, list(actions), max_nodes)  # the module binding its game
    if found["threat"] is None:
        return Threat(UNKNOWN)
    if not found["threat"]:
        return Threat(NONE)
    # The moves that name a card first (a buy says more than the privilege spent before one).
    pairs = sorted(zip(found["texts"], found["labels"]), key=lambda pair: pair[0] == pair[1])
    return Threat(WINS, seat=found["seat"], moves=[m for m, _ in pairs], labels=[label for _, label in pairs])


@dataclass(frozen=True)
class ThreatSummary:
    """One threat among a hint's turns: the listed turns after which it stands
    (``allowed_by``) and those after which it does not (``stopped_by``), by turn text."""

    threat: Threat
    allowed_by: list[str]
    stopped_by: list[str]

    def words(self) -> str:
        """``seat 2 wins next turn with buy 3.2 after take WUK; stopped by reserve 3.2``."""
        text = f"{self.threat.words()} after {' or '.join(self.allowed_by)}"
        if self.stopped_by:
            return f"{text}; stopped by {' or '.join(self.stopped_by)}"
        return f"{text}; none of the turns listed stops it"

    def to_dict(self) -> dict[str, Any]:
        return {**self.threat.to_dict(), "allowedBy": list(self.allowed_by), "stoppedBy": list(self.stopped_by),
                "summary": self.words()}


def turn_threats(state: Any, turns: Sequence[Any], max_nodes: int = THREAT_NODES) -> list[Threat]:
    """The threat after each of ``turns`` (TurnInfo) played from ``state``: an incomplete
    turn is ``unknown`` without a check."""
    return [threat_after(state, list(t.actions), max_nodes) if t.complete else Threat(UNKNOWN) for t in turns]


def summarize(turns: Sequence[Any], threats: Sequence[Threat]) -> list[ThreatSummary]:
    """The distinct threats among ``threats`` (one per turn of ``turns``), in the order of
    the turns, each with the turns that allow it and those that stop it (a turn after which
    the threat check found no win; an undecided turn is in neither list)."""
    out: list[ThreatSummary] = []
    seen: set[tuple[int, tuple[str, ...]]] = set()
    for threat in threats:
        if threat.status != WINS or threat.key in seen:
            continue
        seen.add(threat.key)
        allowed = [t.text for t, x in zip(turns, threats) if x.status == WINS and x.key == threat.key]
        stopped = [t.text for t, x in zip(turns, threats) if x.status == NONE]
        out.append(ThreatSummary(threat, allowed, stopped))
    return out
