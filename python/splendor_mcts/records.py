"""Game records: one finished (or forfeited, or unfinished) game as a JSON object.

Format ``splendor-mcts-record/1`` (docs/records.md documents every field)::

    {"format": "splendor-mcts-record/1",
     "game": "<game.spec>",            # canonical spec, accepted by splendor_mcts.load_game
     "seed": 7,                        # seed passed to game.new_initial_state
     "explicit_chance": true,          # every card reveal / bag fill is a recorded chance action
     "seats": ["mcts:iterations=200", "random"],   # agent spec per seat, seat order
     "actions": [12, 3, 40, ...],      # every action in order, chance outcomes included
     "move_times": [0.012, ...] | null,  # seconds per non-chance action, in order
     "result": [1.0, 0.0] | null,      # per seat; null for an unfinished game
     "termination": "normal" | "forfeit" | "adjudicated" | "unfinished",
     "forfeit": {"seat": 1, "reason": "...", "stderr": [...]} | null,
                                       # stderr: an external engine's last lines of standard
                                       # error (only when there are any)
     "meta": {...}}                    # free: tournament name, deal, rotation, ...;
                                       # "adjudication": why an adjudicated game was stopped

Replaying ``game.new_initial_state(seed, explicit_chance=True)`` (or the full state in
``meta.position`` of a game followed from a typed position) and applying every action
reproduces the final state exactly (:func:`replay`), and the stated ``termination`` and
``result`` must agree with it (:func:`result_problem`): a normal game ends in the returns of its
final state, a forfeit scores 0 for the forfeiting seat (which was to move, unless no action was
played) with the other seats sharing the point, an adjudicated game (stopped after its
``max_decisions``, :mod:`splendor_mcts.games.limits`) is a draw, every seat an equal share, and
none of a forfeit, an adjudicated or an unfinished game has reached the end.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .atomic_write import atomic_write_text
from .games.game import load_game
from .games.limits import draw_result
from .json_input import read_json
from .seeds import MAX_SEED

RECORD_FORMAT = "splendor-mcts-record/1"
MAX_ACTION = 2**31 - 1  # action ids are the engine's 32-bit ints
TERMINATIONS = ("normal", "forfeit", "adjudicated", "unfinished")


@dataclass(frozen=True)
class Forfeit:
    """The seat that lost the game by crashing, playing an illegal move or running out of time,
    and why; ``stderr`` holds an external engine's last lines of standard error."""

    seat: int
    reason: str
    stderr: tuple[str, ...] = ()


class AgentForfeit(Exception):
    """Raised by an agent's ``step`` that gives up the game; the message is the forfeit's reason."""


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay and score one game."""

    game: str
    seed: int
    seats: tuple[str, ...]
    actions: tuple[int, ...]
    move_times: tuple[float, ...] | None = None
    result: tuple[float, ...] | None = None
    termination: str = "normal"
    forfeit: Forfeit | None = None
    explicit_chance: bool = True
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _validate(self)

    def to_dict(self) -> dict[str, Any]:
        """The record as a plain JSON-ready dict (key order as in the format description)."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "seed": self.seed,
            "explicit_chance": self.explicit_chance,
            "seats": list(self.seats),
            "actions": list(self.actions),
            "move_times": None if self.move_times is None else list(self.move_times),
            "result": None if self.result is None else list(self.result),
            "termination": self.termination,
            "forfeit": None if self.forfeit is None else _forfeit_dict(self.forfeit),
            "meta": dict(self.meta),
        }

    def to_json(self) -> str:
        """One line of JSON (no newline)."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Build a record from a decoded JSON object; ValueError names the bad field."""
        if not isinstance(data, dict):
            raise ValueError(f"game record must be a JSON object, got {type(data).__name__}")
        fmt = data.get("format")
        if fmt != RECORD_FORMAT:
            raise ValueError(f"game record field 'format': expected {RECORD_FORMAT!r}, got {fmt!r}")
        missing = [k for k in ("game", "seed", "seats", "actions") if k not in data]
        if missing:
            raise ValueError(f"game record is missing field {missing[0]!r}")
        known = {"format", "game", "seed", "explicit_chance", "seats", "actions", "move_times",
                 "result", "termination", "forfeit", "meta"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"game record has unknown field {unknown[0]!r}")
        forfeit = data.get("forfeit")
        if forfeit is not None:
            if not isinstance(forfeit, dict) or not {"seat", "reason"} <= set(forfeit) <= {"seat", "reason", "stderr"}:
                raise ValueError("game record field 'forfeit': expected {\"seat\": int, \"reason\": str"
                                 "[, \"stderr\": [str, ...]]} or null")
            stderr = forfeit.get("stderr", [])
            if not isinstance(stderr, list):
                raise ValueError("game record field 'forfeit.stderr': expected a list of strings")
            forfeit = Forfeit(seat=forfeit["seat"], reason=forfeit["reason"], stderr=tuple(stderr))
        seats = data["seats"]
        actions = data["actions"]
        move_times = data.get("move_times")
        result = data.get("result")
        meta = data.get("meta", {})
        for name, value in (("seats", seats), ("actions", actions)):
            if not isinstance(value, list):
                raise ValueError(f"game record field {name!r}: expected a list, got {type(value).__name__}")
        for name, value in (("move_times", move_times), ("result", result)):
            if value is not None and not isinstance(value, list):
                raise ValueError(f"game record field {name!r}: expected a list or null, got {type(value).__name__}")
        if not isinstance(meta, dict):
            raise ValueError(f"game record field 'meta': expected an object, got {type(meta).__name__}")
        return cls(
            game=data["game"],
            seed=data["seed"],
            seats=tuple(seats),
            actions=tuple(actions),
            move_times=None if move_times is None else tuple(move_times),
            result=None if result is None else tuple(result),
            termination=data.get("termination", "normal"),
            forfeit=forfeit,
            explicit_chance=data.get("explicit_chance", True),
            meta=meta,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse one JSON record; ValueError names the bad field (or says the JSON is bad)."""
        return cls.from_dict(read_json(text, "game record"))


def _forfeit_dict(forfeit: Forfeit) -> dict[str, Any]:
    """A forfeit as JSON; ``stderr`` only when there is some, so other records stay as they were."""
    data: dict[str, Any] = {"seat": forfeit.seat, "reason": forfeit.reason}
    if forfeit.stderr:
        data["stderr"] = list(forfeit.stderr)
    return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _action_ids(values: tuple[Any, ...]) -> bool:
    """Every value an int (not a bool) in 0..MAX_ACTION. Plain ints, the usual case, are checked in C."""
    if set(map(type, values)) <= {int}:
        return not values or (min(values) >= 0 and max(values) <= MAX_ACTION)
    return all(_is_int(v) and 0 <= v <= MAX_ACTION for v in values)


def _non_negative_numbers(values: tuple[Any, ...]) -> bool:
    """Every value a finite non-negative int or float (not a bool). Plain floats are checked in C."""
    if set(map(type, values)) <= {float}:
        return all(map(math.isfinite, values)) and (not values or min(values) >= 0)
    return all(_is_number(v) and v >= 0 for v in values)


def _validate(r: GameRecord) -> None:
    """Check types and consistency; raise ValueError naming the first bad field."""
    if not isinstance(r.game, str) or not r.game:
        raise ValueError("game record field 'game': expected a non-empty game spec string")
    if not _is_int(r.seed) or not 0 <= r.seed <= MAX_SEED:
        raise ValueError(f"game record field 'seed': expected an integer from 0 to 2**64-1, got {r.seed!r}")
    if not isinstance(r.explicit_chance, bool):
        raise ValueError("game record field 'explicit_chance': expected true or false")
    if len(r.seats) < 1 or not all(isinstance(s, str) for s in r.seats):
        raise ValueError("game record field 'seats': expected a non-empty list of agent spec strings")
    if not _action_ids(r.actions):
        raise ValueError("game record field 'actions': expected a list of action ids, integers from 0 to 2**31-1")
    if r.move_times is not None and not _non_negative_numbers(r.move_times):
        raise ValueError("game record field 'move_times': expected non-negative seconds or null")
    if r.termination not in TERMINATIONS:
        raise ValueError(f"game record field 'termination': expected one of {TERMINATIONS}, got {r.termination!r}")
    if r.result is not None:
        if len(r.result) != len(r.seats) or not all(_is_number(x) for x in r.result):
            raise ValueError("game record field 'result': expected one number per seat or null")
    if (r.result is None) != (r.termination == "unfinished"):
        raise ValueError("game record field 'result': null exactly when termination is 'unfinished'")
    if (r.forfeit is None) != (r.termination != "forfeit"):
        raise ValueError("game record field 'forfeit': set exactly when termination is 'forfeit'")
    if r.forfeit is not None:
        if not _is_int(r.forfeit.seat) or not 0 <= r.forfeit.seat < len(r.seats):
            raise ValueError(f"game record field 'forfeit.seat': expected a seat in 0..{len(r.seats) - 1}")
        if not isinstance(r.forfeit.reason, str):
            raise ValueError("game record field 'forfeit.reason': expected a string")
        if not all(isinstance(line, str) for line in r.forfeit.stderr):
            raise ValueError("game record field 'forfeit.stderr': expected a list of strings")


def forfeit_result(num_seats: int, seat: int) -> tuple[float, ...]:
    """The result of a game ``seat`` forfeited: 0 for it, the other seats share the point."""
    share = 1.0 / (num_seats - 1)
    return tuple(0.0 if s == seat else share for s in range(num_seats))


def _same_result(stated: tuple[float, ...], replayed: tuple[float, ...]) -> bool:
    return len(stated) == len(replayed) and all(abs(a - b) <= 1e-9 for a, b in zip(stated, replayed))


def result_problem(record: GameRecord, final: Any) -> str | None:
    """How ``record``'s stated termination and result contradict ``final``, the state its
    actions replay to (:func:`replay`); None when they agree."""
    # A game of the tournament's loader may give its states no num_players; returns has one per seat.
    players = final.num_players() if hasattr(final, "num_players") else len(final.returns())
    if len(record.seats) != players:
        return f"it has {len(record.seats)} seats but its game is for {players} players"
    over = final.is_terminal()
    played = f"after its {len(record.actions)} actions"
    if record.termination == "normal":
        if not over:
            return f"termination 'normal' but the game is not over {played}"
        returns = tuple(float(x) for x in final.returns())
        assert record.result is not None  # _validate: only an unfinished game has none
        if not _same_result(record.result, returns):
            return f"stated result {list(record.result)} but the replay ends {list(returns)}"
        return None
    if over:
        return f"termination {record.termination!r} but the game is over {played}"
    if record.forfeit is not None:
        mover = final.current_player()
        if record.actions and record.forfeit.seat != mover:
            return f"seat {record.forfeit.seat} forfeited but seat {mover} was to move {played}"
        expected = forfeit_result(players, record.forfeit.seat)
        assert record.result is not None
        if not _same_result(record.result, expected):
            return (f"stated result {list(record.result)} but a forfeit by seat {record.forfeit.seat} "
                    f"scores {list(expected)}")
    if record.termination == "adjudicated":
        expected = draw_result(players)
        assert record.result is not None
        if not _same_result(record.result, expected):
            return f"stated result {list(record.result)} but an adjudicated draw scores {list(expected)}"
    return None


def replay_checked(record: GameRecord, game: Any = None) -> Any:
    """The final state of ``record`` (:func:`replay`), once its stated result agrees with it.

    Raises ValueError naming an illegal action, or how the stated termination or result
    contradicts the replay (:func:`result_problem`).
    """
    final = replay(record, game=game)
    problem = result_problem(record, final)
    if problem is not None:
        raise ValueError(f"the record's stated result contradicts its replay: {problem}")
    return final


def replay_problem(record: GameRecord, game: Any = None) -> str | None:
    """Why ``record`` does not replay to its stated termination and result (an illegal action,
    or :func:`result_problem`); None when it does. For tools that flag a record rather than
    refuse it (the tournament report, replay and export)."""
    try:
        final = replay(record, game=game)
    except ValueError as exc:
        return str(exc)
    return result_problem(record, final)


def start_of(record: GameRecord, game: Any) -> Any:
    """The state a record's actions start from: the deal of its seed, or the full state of
    ``meta.position`` (a game followed from a typed position, ``play --load``)."""
    position = record.meta.get("position")
    if position is None:
        return game.new_initial_state(seed=record.seed, explicit_chance=record.explicit_chance)
    state = game.state_from_json(json.dumps(position))
    state.set_explicit_chance(record.explicit_chance)
    return state


def replay(record: GameRecord, upto: int | None = None, game: Any = None) -> Any:
    """The state after the first ``upto`` actions of ``record`` (all of them by default).

    ``game`` defaults to ``splendor_mcts.load_game(record.game)``. Raises ValueError naming the
    action index when a recorded action is illegal (the record does not belong to this game).
    """
    if game is None:
        game = load_game(record.game)
    actions = record.actions if upto is None else record.actions[:upto]
    if upto is not None and not 0 <= upto <= len(record.actions):
        raise ValueError(f"upto={upto} is outside 0..{len(record.actions)}")
    state = start_of(record, game)
    for index, action in enumerate(actions):
        try:
            state.apply_action(action)
        except ValueError as exc:
            raise ValueError(f"record action #{index} ({action}) is illegal here: {exc}") from None
    return state


def write_jsonl(records: Iterable[GameRecord], out: IO[str] | str | Path) -> int:
    """Write records as JSON lines to a path or an open text file; return how many."""
    if isinstance(out, (str, Path)):
        with atomic_write_text(out) as handle:  # an export that fails leaves the previous file whole
            return write_jsonl(records, handle)
    count = 0
    for record in records:
        out.write(record.to_json() + "\n")
        count += 1
    return count


def read_jsonl(source: IO[str] | str | Path) -> Iterator[GameRecord]:
    """Yield records from JSON lines (blank lines skipped); errors name the line number."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as handle:
            yield from read_jsonl(handle)
        return
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            yield GameRecord.from_json(line)
        except ValueError as exc:
            raise ValueError(f"line {number}: {exc}") from None
