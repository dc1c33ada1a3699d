"""What a hint says beside its numbers (docs/hints.md, "Threats" and "The plan"): the
threat after each whole turn listed, the threats among them with the turns that stop
them, and the plan of the best turn. Computed once from a finished search (one threat
check per listed turn, never inside the search), the same for every door: ``hint``'s
text and JSON, the analysis protocol and the web board.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .plan import Plan, best_turn_plan
from .threats import THREAT_NODES, Threat, ThreatSummary, summarize, turn_threats


@dataclass(frozen=True)
class Advice:
    """``threats``: one per turn of the analysis (same order); ``summaries``: the distinct
    threats with the turns that allow and stop them; ``plan``: the best turn's, or None."""

    threats: list[Threat]
    summaries: list[ThreatSummary]
    plan: Plan | None

    def to_dict(self) -> dict[str, Any]:
        """The top-level JSON fields: ``threats`` (the summaries) and ``plan``."""
        return {"threats": [s.to_dict() for s in self.summaries],
                "plan": None if self.plan is None else self.plan.to_dict()}

    def add_to_turns(self, turn_infos: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``turn_infos`` (an analysis's JSON turns, same order) each with its ``threat``."""
        return [{**info, "threat": threat.to_dict()} for info, threat in zip(turn_infos, self.threats)]


def advise(state: Any, analysis: Any, max_nodes: int = THREAT_NODES) -> Advice:
    """The advice of ``analysis`` (searched with ``turns=True``) of ``state``."""
    turns = list(analysis.turns or [])
    threats = turn_threats(state, turns, max_nodes)
    summaries = summarize(turns, threats)
    return Advice(threats, summaries, best_turn_plan(state, turns, threats, summaries))
