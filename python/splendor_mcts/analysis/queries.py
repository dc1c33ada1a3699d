"""Reading one analysis query of ``splendor-mcts analyze`` (docs/analysis-protocol.md).

A query names a game (a ``position``, or a ``record``), optional ``moves`` played on from
it, the positions to analyze (``analyzeTurns``, numbered as ``numbering`` says) and the
search settings. Reading it gives the warnings (fields the engine does not know, which
are ignored), the analyses to run, and an error for each position asked for that has no
move to analyze. A known field with a wrong value is a ``QueryError`` naming the field.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from ..games.game import load_game
from ..games.positions import PositionError, read_position
from ..records import GameRecord
from ..search.defaults import PROTOCOL_ITERATIONS
from ..search.settings import BY_NAME, SETTINGS, SettingError
from .numbering import NUMBERINGS, Asked, Step, find, position_name
from .running import SearchLimits, check_limits, decision_problem

MAX_TOP_K = 200
# A query's search settings are those of docs/search.md that have a protocol field.
SETTING_FIELDS: dict[str, str] = {s.field: s.name for s in SETTINGS if s.field is not None}
QUERY_FIELDS = ("id", "position", "record", "moves", "analyzeTurns", "numbering", *SETTING_FIELDS, "topK",
                "reportDuringSearchEvery", "includeTurns")


class QueryError(ValueError):
    """A bad query: ``field`` is the JSON path at fault (``None`` for the whole line)."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.field = field


@dataclass
class Job:
    """One position to analyze for a query (``number`` as the query numbered it)."""

    query_id: str
    state: Any
    number: int
    turn_number: int
    action_number: int
    limits: SearchLimits
    report_every: float | None
    turns: bool = False  # answer with turnInfos too (whole turns)
    cancelled: threading.Event = field(default_factory=threading.Event)


@dataclass
class Reading:
    """What a query asks for: the analyses to run and the positions that have none."""

    jobs: list[Job]
    errors: list[Asked]


def unknown_fields(query: dict[str, Any], known: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(field, warning)`` for each field of ``query`` not in ``known`` (ignored, as
    KataGo's engine answers them with a warning rather than a rejection)."""
    return [(key, f"unknown field {key!r} is ignored (known: {', '.join(known)})")
            for key in query if key not in known]


class QueryReader:
    """Reads analysis queries; ``default_threads`` is the engine's ``--threads``."""

    def __init__(self, default_threads: int = 1) -> None:
        self.default_threads = default_threads

    def read(self, query: dict[str, Any]) -> Reading:
        """Validate a query (its unknown fields aside) and build its jobs; ``QueryError``
        names the field at fault."""
        limits = self.limits_of(query)
        report_every = query.get("reportDuringSearchEvery")
        if report_every is not None:
            if not _is_number(report_every) or report_every <= 0:
                raise QueryError("reportDuringSearchEvery must be a positive number of seconds", "reportDuringSearchEvery")
            report_every = float(report_every)
        turns = query.get("includeTurns", False)
        if not isinstance(turns, bool):
            raise QueryError("includeTurns must be true or false", "includeTurns")
        numbering = query.get("numbering", "turns")
        if not isinstance(numbering, str) or numbering not in NUMBERINGS:
            raise QueryError(f"numbering must be one of {', '.join(map(repr, NUMBERINGS))}, got {numbering!r}",
                             "numbering")
        wanted = _turns_asked(query.get("analyzeTurns"))
        if ("position" in query) == ("record" in query):
            raise QueryError("give either \"position\" or \"record\"", "position")
        if "position" in query:
            state, num_actions = self.state_of_position(query["position"])
            steps: list[Step] = []
        else:
            state, num_actions, steps = self.start_of_record(query["record"])
        moves = query.get("moves", [])
        if not isinstance(moves, list):
            raise QueryError("moves must be a list of moves (the game's notation, or action ids)", "moves")
        steps += [Step(move, f"moves[{i}]") for i, move in enumerate(moves)]
        last_field = "moves" if moves else "position" if "position" in query else "record"
        try:
            check_limits(limits, state)  # for its game: the shipped network of its family, when asked for
        except SettingError as exc:
            raise QueryError(str(exc), BY_NAME[exc.setting].field) from None
        jobs: list[Job] = []
        errors: list[Asked] = []
        for asked in find(state, steps, num_actions, wanted, numbering):
            problem = _without_a_move(asked, wanted, numbering, last_field)
            if problem is not None:
                errors.append(problem)
                continue
            assert asked.number is not None and asked.turn_number is not None and asked.action_number is not None
            jobs.append(Job(query["id"], asked.state, asked.number, asked.turn_number, asked.action_number,
                            limits, report_every, turns))
        return Reading(jobs, errors)

    def limits_of(self, query: dict[str, Any]) -> SearchLimits:
        """The query's search settings, checked by the engine; ``QueryError`` names the field."""
        settings = {name: query[key] for key, name in SETTING_FIELDS.items() if key in query}
        if "iterations" not in settings and "time_limit" not in settings:
            settings["iterations"] = PROTOCOL_ITERATIONS
        top_k = query.get("topK", 5)
        if not _is_int(top_k) or not 1 <= top_k <= MAX_TOP_K:
            raise QueryError(f"topK must be an integer from 1 to {MAX_TOP_K}", "topK")
        limits = SearchLimits(iterations=settings.pop("iterations", None), time_limit=settings.pop("time_limit", None),
                              threads=settings.pop("threads", self.default_threads), seed=settings.pop("seed", 0),
                              top_k=top_k, settings=settings)
        try:
            check_limits(limits)
        except SettingError as exc:
            raise QueryError(str(exc), BY_NAME[exc.setting].field) from None
        return limits

    @staticmethod
    def state_of_position(position: Any) -> tuple[Any, int]:
        """The position's state and its game's number of action ids."""
        try:
            read = read_position(json.dumps(position))
        except PositionError as exc:
            raise QueryError(str(exc), _prefixed("position", exc.problems[0]["path"])) from None
        except ValueError as exc:
            raise QueryError(str(exc), "position") from None
        return read.state, read.game.num_distinct_actions()

    @staticmethod
    def start_of_record(record: Any) -> tuple[Any, int, list[Step]]:
        """A record's deal, its game's number of action ids, and its actions as steps."""
        try:
            parsed = GameRecord.from_dict(record)
            game = load_game(parsed.game)
        except ValueError as exc:
            raise QueryError(str(exc), "record") from None
        state = game.new_initial_state(seed=parsed.seed, explicit_chance=parsed.explicit_chance)
        steps = [Step(action, f"record.actions[{i}]") for i, action in enumerate(parsed.actions)]
        return state, game.num_distinct_actions(), steps


def _without_a_move(asked: Asked, wanted: list[int] | None, numbering: str, last_field: str) -> Asked | None:
    """The error answer of a position asked for that cannot be analyzed (not reached,
    outside the game, its end, a reveal pending), else None."""
    if asked.error is not None:
        return asked
    problem = decision_problem(asked.state)
    if problem is None:
        return None
    if wanted is None:  # the last position: the query's game itself ends there
        return Asked(asked.number, asked.turn_number, asked.action_number, error=problem, field=last_field)
    assert asked.number is not None
    return Asked(asked.number, asked.turn_number, asked.action_number,
                 error=f"{position_name(numbering, asked.number)}: {problem}",
                 field=f"analyzeTurns[{wanted.index(asked.number)}]")


def _turns_asked(turns: Any) -> list[int] | None:
    if turns is None:
        return None
    if not isinstance(turns, list) or not turns or not all(_is_int(t) for t in turns):
        raise QueryError("analyzeTurns must be a non-empty list of turn numbers", "analyzeTurns")
    return turns


def _prefixed(root: str, path: str) -> str:
    """``position.players[1].tokens.red`` from a problem's path ``players[1].tokens.red``."""
    if not path or path == "(root)":
        return root
    return f"{root}{path}" if path.startswith("[") else f"{root}.{path}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and value == value and abs(value) != float("inf")
