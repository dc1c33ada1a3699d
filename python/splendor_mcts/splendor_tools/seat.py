"""An agent program written for the splendor-tools referee, seated in our tournaments.

Agent spec (docs/splendor-tools.md)::

    splendor-tools:cmd="./bot --level 3"[,cpu=11][,wall=30][,max_rounds=100][,save=DIR][,name=LABEL]

For each of its turns the seat writes the referee's input from its own view (hidden cards
stay hidden), runs the program once (``process``), reads its line and plays it as our
decisions: the main action, each token given back, and, when several nobles qualify, the
first of them in the order the input listed (the referee's rule). A crash, a time-out, garbage,
a move the referee refuses and a move only our rules refuse each end the game as the seat's
forfeit, with the reason (and the program's last stderr lines) in the game record.
"""
from __future__ import annotations

import json
import os
from typing import Any

from ..games.splendor.config import TAKE_FEWER_ALWAYS
from ..games.variants import format_spec_value
from ..records import AgentForfeit
from ..spec_text import format_value, split_items
from .board import format_input, input_from_view
from .moves import A_NOBLE, MoveFormatError, MoveRefused, parse_move, to_our_actions
from .process import run_once, split_command

KIND = "splendor-tools"
# The referee lets a take hold 1 to 3 distinct colours at any time: our variant
# take_fewer_distinct=always (docs/variants.md). Its programs are seated only under it, so a take
# it allows is never a forfeit; a tournament plays its game so (docs/splendor-tools.md).
REFEREE_VARIANT: dict[str, Any] = {"take_fewer_distinct": TAKE_FEWER_ALWAYS}
REFEREE_RULE = "the splendor-tools referee's take rule"
REFEREE_CPU_SECONDS = 11  # the referee's per-move limit (its ulimit -t)
DEFAULT_WALL_SECONDS = 30.0
REFEREE_MAX_ROUNDS = 100
STDERR_LINES = 5
_PARAMS = ("cmd", "cpu", "wall", "max_rounds", "save")


def _value(key: str, text: str, quoted: bool, spec: str) -> Any:
    def bad(expected: str) -> ValueError:
        return ValueError(f"agent spec {spec!r}: {key} must be {expected}, got {text!r}")

    if key in ("cmd", "save", "name"):
        if not text.strip():
            raise bad("a non-empty string")
        return text
    if quoted:
        raise bad("a number")
    try:
        number = float(text) if key == "wall" else int(text)
    except ValueError:
        raise bad("a number" if key == "wall" else "an integer") from None
    if key == "cpu" and not 1 <= number <= 3600:
        raise bad("between 1 and 3600 seconds")
    if key == "wall" and not 0 < number <= 86400:
        raise bad("a positive number of seconds (at most 86400)")
    if key == "max_rounds" and number < 1:
        raise bad("a positive integer")
    return number


def parse_spec(spec: str) -> tuple[tuple[tuple[str, Any], ...], str | None]:
    """Parse ``splendor-tools:cmd="...",...`` into its parameters (canonical order) and its
    ``name=`` (None if not given; checked by the caller); ValueError names the bad part. The
    command is checked to be runnable here, so a typo fails before any game starts."""
    head, _, rest = spec.strip().partition(":")
    assert head.strip() == KIND
    params: dict[str, Any] = {}
    for item, quoted in split_items(rest, spec) if rest.strip() else []:
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"agent spec {spec!r}: expected key=value or key=\"quoted value\", got {item!r}")
        if key not in (*_PARAMS, "name"):
            raise ValueError(f"agent spec {spec!r}: unknown parameter {key!r} for {KIND} "
                             f"(known: {', '.join((*_PARAMS, 'name'))})")
        if key in params:
            raise ValueError(f"agent spec {spec!r}: parameter {key!r} given twice")
        params[key] = _value(key, text if quoted else text.strip(), quoted, spec)
    if "cmd" not in params:
        raise ValueError(f"agent spec {spec!r}: {KIND} needs cmd=\"program [arguments]\"")
    split_command(params["cmd"])
    name = params.pop("name", None)
    return tuple((k, params[k]) for k in _PARAMS if k in params), name


def format_spec(params: tuple[tuple[str, Any], ...]) -> str:
    """The canonical spec text (without ``name=``); :func:`parse_spec` reads it back equal."""

    return f"{KIND}:" + ",".join(f"{k}={format_value(v, quoted=k in ('cmd', 'save'))}" for k, v in params)


def check_game(game: Any) -> None:
    """ValueError unless ``game`` is what the referee plays: the base game with the published
    rules and its own take rule (:data:`REFEREE_VARIANT`)."""
    from ..games.game import load_game

    if game.name != "splendor" or game.config != load_game("splendor", players=game.num_players(),
                                                           **REFEREE_VARIANT).config:
        wanted = ",".join(f"{k}={format_spec_value(v)}" for k, v in REFEREE_VARIANT.items())
        raise ValueError(f"the splendor-tools referee plays the base game with the published rules and its own "
                         f"take rule ({wanted}), not {game.spec}")


def _tail(stderr: str) -> str:
    lines = [line.strip()[:200] for line in stderr.strip().splitlines() if line.strip()][-STDERR_LINES:]
    return f" (last stderr: {' | '.join(lines)})" if lines else ""


class SplendorToolsSeat:
    """One game's seat played by a referee-format agent program (see the module docstring)."""

    def __init__(self, game: Any, seed: int = 0, cmd: str = "", cpu: int = REFEREE_CPU_SECONDS,
                 wall: float = DEFAULT_WALL_SECONDS, max_rounds: int = REFEREE_MAX_ROUNDS,
                 save: str | None = None) -> None:
        check_game(game)
        self.argv = split_command(cmd)
        self.cpu, self.wall, self.max_rounds, self.save = int(cpu), float(wall), int(max_rounds), save
        self.seed = seed  # the program gets no seed: the referee passes none
        self.round = 0
        self.pending: list[int] = []
        self.noble_order: list[int] = []

    def step(self, state: Any) -> int:
        seat = state.current_player()
        view = json.loads(state.observation_json(seat))
        if view["phase"] == "return_tokens":
            if not self.pending:
                raise RuntimeError("token returns asked for that the move did not give")
            return self.pending.pop(0)
        if view["phase"] == "choose_noble":
            # The referee gives the first eligible noble in the order its input lists them.
            return next(A_NOBLE + n - 1 for n in self.noble_order if state.is_legal(A_NOBLE + n - 1))
        self.round += 1  # one main decision per seat per round
        if self.round > self.max_rounds:
            raise AgentForfeit(f"round cut: the referee ends a game after {self.max_rounds} rounds and our rules "
                               f"have no such end, so the game stops at this seat's turn in round {self.round}")
        self.noble_order = list(view["nobles"])
        text = format_input(input_from_view(view, self.round, self.noble_order))
        result = run_once(self.argv, text, self.cpu, self.wall)
        self._save(seat, text, result.stdout, result.stderr)
        failure = result.failure()
        if result.flooded:
            raise AgentForfeit(failure + _tail(result.stderr))
        try:
            move = parse_move(result.stdout)
        except MoveFormatError as exc:
            raise AgentForfeit((failure or f"garbage: {exc}") + _tail(result.stderr)) from None
        # Like the referee, a move printed before a crash or a time-out is played.
        try:
            actions = to_our_actions(move, state, view)
        except MoveRefused as exc:
            kind = "not allowed under our rules" if exc.referee_allows else "illegal move"
            raise AgentForfeit(f"{kind}: {exc}") from None
        self.pending = actions[1:]
        return actions[0]

    def _save(self, seat: int, text: str, out: str, err: str) -> None:
        """The referee's --save-inputs, per move: round-RRR-seat-S.{in,out,err} in ``save``."""
        if not self.save:
            return
        os.makedirs(self.save, exist_ok=True)
        stem = os.path.join(self.save, f"round-{self.round:03d}-seat-{seat + 1}")
        for suffix, content in ((".in", text), (".out", out), (".err", err)):
            with open(stem + suffix, "w") as f:
                f.write(content)
