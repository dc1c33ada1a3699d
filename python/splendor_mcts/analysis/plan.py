"""The plan in words (docs/hints.md, "The plan"): one sentence for a hint's best turn,
built from its principal variation and the position.

It names the card the line aims at (the first visible card the player buys in its next
turns of the principal variation, or a noble or royal it chooses) and in how many of the
player's turns, and, where the hint's threat check (:mod:`.threats`) found that another
listed turn lets the next seat win while the best one does not, the threat it stops and
how: by reserving or buying that card, or by taking the tokens it needs; or the threat the
best turn itself leaves standing. The line beyond
the first turn is the search's guess, so the sentence says "aiming at", not "will".
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..wording import seat_name
from .threats import MOVES_NAMED, NONE, WINS, Threat, ThreatSummary

AIM_TURNS = 4  # the player's turns of the principal variation searched for a card to aim at
VERBS = {"buy": "buying", "reserve": "reserving"}


@dataclass(frozen=True)
class Plan:
    """The plan of a best turn: its ``turn`` label; the ``target`` it aims at (a move's
    label, e.g. ``buy 2.1 (green 1pt W2U3K2)``) and ``target_turns`` (the player's turns
    from now, 1: its next one), or None; the ``stops`` threat (its words) and ``by``
    (how: ``reserving that card``), or None; ``allows``: the threat the turn itself leaves
    (its words: no listed turn stopped it, or the search prefers this turn anyway), or None."""

    turn: str
    target: str | None = None
    target_turns: int | None = None
    stops: str | None = None
    by: str | None = None
    allows: str | None = None

    def words(self) -> str:
        """``take WUK, aiming at buy 2.1 (green 1pt W2U3K2) in 2 of your turns; it stops
        seat 2's win with buy 3.2 by reserving that card``."""
        text = self.turn
        if self.target is not None and self.target_turns is not None:
            when = "next turn" if self.target_turns == 1 else f"in {self.target_turns} of your turns"
            text += f", aiming at {self.target} {when}"
        elif self.stops is None and self.allows is None:
            text += ", with no card you can see bought in your next turns of the line"
        if self.stops is not None:
            text += f"; it stops {self.stops}" + (f" by {self.by}" if self.by else "")
        if self.allows is not None:
            text += f"; after it {self.allows}"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "target": self.target, "targetTurns": self.target_turns, "stops": self.stops,
                "by": self.by, "allows": self.allows, "words": self.words()}


def best_turn_plan(state: Any, turns: Sequence[Any], threats: Sequence[Threat],
                   summaries: Sequence[ThreatSummary]) -> Plan | None:
    """The plan of the first of ``turns`` (a hint's TurnInfo, best first) played from
    ``state``, with the threat after each turn and their summaries; None without turns."""
    if not turns:
        return None
    best = turns[0]
    target, target_turns = aim(state, list(best.pv_actions))
    stops = by = None
    if threats and threats[0].status == NONE:
        stopped = next((s for s in summaries if best.text in s.stopped_by), None)
        if stopped is not None:
            stops = threat_phrase(stopped.threat)
            by = how_stopped(list(best.moves), stopped.threat)
    allows = threats[0].words() if threats and threats[0].status == WINS else None
    return Plan(turn=best.label, target=target, target_turns=target_turns, stops=stops, by=by, allows=allows)


def threat_phrase(threat: Threat) -> str:
    """``seat 2's win with buy 3.2 (green 1pt W2U3K2)``."""
    if not threat.moves:
        return f"{seat_name(threat.seat)}'s win next turn"
    return f"{seat_name(threat.seat)}'s win with {' or '.join(threat.labels[:MOVES_NAMED])}" + \
        (" (or another move)" if len(threat.labels) > MOVES_NAMED else "")


def how_stopped(moves: Sequence[str], threat: Threat) -> str | None:
    """How a turn of notations ``moves`` stops ``threat``: it buys or reserves the card
    the threat buys (the same place), or takes tokens (the ones the win needs); else None."""
    places = {m.split()[1] for m in threat.moves if m.split()[0] == "buy" and len(m.split()) > 1}
    for move in moves:
        verb, *rest = move.split()
        if verb in VERBS and rest and rest[0] in places:
            return f"{VERBS[verb]} that card"
    if moves and moves[0].split()[0] in ("take", "privilege"):
        return "taking the tokens it needs"
    return None


def aim(state: Any, pv: Sequence[int]) -> tuple[str | None, int | None]:
    """The first card the player to move buys, or noble or royal it chooses, in its next
    ``AIM_TURNS`` turns of the line ``pv`` (its current turn not counted) among the cards
    it can see now, with the number of its turns until then; (None, None) if none."""
    from ..pictures.board import card_of_move

    probe = state.clone()
    seat = probe.current_player()
    seen = visible_cards(state, seat)
    own = 0
    last = seat
    for action in pv:
        while probe.is_chance_node():
            probe.apply_action(probe.dealt_outcome())
        if probe.is_terminal() or not probe.is_legal(action):
            break
        mover = probe.current_player()
        if mover == seat and last != seat:
            own += 1
            if own > AIM_TURNS:
                break
        last = mover
        if mover == seat and own >= 1:
            verb = probe.action_to_string(action).split()[0]
            if verb == "buy" and card_of_move(probe, action) in seen or verb in ("noble", "royal"):
                return probe.action_label(action), own
        probe.apply_action(action)
    return None, None


def visible_cards(state: Any, seat: int) -> set[int]:
    """The ids of the cards ``seat`` sees on the table and in its own reserve."""
    view = json.loads(state.observation_json(seat))
    rows = view.get("table") or view.get("pyramid") or []
    cards = {card for row in rows for card in row if isinstance(card, int)}
    cards.update(r["card"] for r in view["players"][seat]["reserved"] if isinstance(r.get("card"), int))
    return cards


__all__ = ["AIM_TURNS", "Plan", "aim", "best_turn_plan", "how_stopped", "visible_cards"]
