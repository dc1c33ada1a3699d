"""External engines as tournament agents: ``engine:cmd="./mybot --level 3",tc=60+0.5,name=mybot``.

An ``engine`` spec starts a program that speaks the engine protocol (docs/engine-protocol.md)
once per game (or once per worker batch when it says ``feature reuse``) and asks it for
every decision of its seat. It is only ever sent its seat's view and the legal moves.

Spec keys (:data:`ENGINE_PARAMS`):

* ``cmd`` (required): the command, split like a shell would (``shlex``) but run without one;
* ``tc=BASE+INC`` seconds on a clock the tournament keeps (``tc=60`` without increment),
  ``movetime=SECONDS`` per decision, ``iterations=N`` (``nodes=N``) per decision: the first
  reached ends the thinking; none of them: the engine's own default, under ``timeout``;
* ``margin`` seconds a move may arrive after its time and still count (default 0.1);
  a move is charged the engine's CPU time (at most the wall-clock time) where it can be
  measured, so a loaded machine does not lose it games; a move that takes
  :func:`backstop` seconds on the wall clock is stopped whatever its CPU time;
* ``grace`` seconds after ``stop`` before a silent engine is killed (default 1);
* ``timeout`` seconds a move may take when no time limit is set (default 60);
* ``ready`` seconds for the introduction (``sep`` ... ``sepok``) and for each ``isready`` ...
  ``readyok``, such as the one after ``newgame`` (default 10: an engine that loads a network
  for tens of seconds needs more);
* ``option.NAME=VALUE`` sets the engine's option NAME (it must declare it).

Every failure ends the game as a forfeit of the engine's seat (:func:`forfeit_reason`).
"""
from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..engines import wire
from ..engines.manager import HANDSHAKE_SECONDS, EngineClient
from ..engines.process import EngineFailure
from ..ranges import ITERATIONS, MAX_SECONDS, SECONDS, Number

ENGINE_PARAMS = ("cmd", "tc", "movetime", "iterations", "nodes", "margin", "grace", "timeout", "ready")
OPTION_PREFIX = "option."
LIMIT_KEYS = ("tc", "movetime", "iterations", "nodes")
DEFAULT_MARGIN = 0.1
DEFAULT_GRACE = 1.0
DEFAULT_TIMEOUT = 60.0
# A move charged CPU time may still take this long on the wall clock (times its limit, plus
# seconds): generous, as only a hung engine or a machine loaded several times over reaches it.
BACKSTOP_FACTOR = 4.0
BACKSTOP_SECONDS = 2.0


def backstop(limit: float) -> float:
    """Wall-clock seconds a move with ``limit`` seconds (margin included) may take before ``stop``."""
    return BACKSTOP_FACTOR * limit + BACKSTOP_SECONDS


# What a tournament report says when an engine plays under a time limit (docs/engine-protocol.md).
CLOCK_RULE = (f"a move is charged the engine's CPU time (at most the wall-clock time; the wall clock where the "
              f"system cannot tell), and stopped after {BACKSTOP_FACTOR:g} x its limit + {BACKSTOP_SECONDS:g} s "
              "on the wall clock")


def timed(spec: Any) -> bool:
    """Whether an agent spec is an engine playing under a time limit (``tc`` or ``movetime``)."""
    return spec.kind == "engine" and any(key in ("tc", "movetime") for key, _ in spec.params)

# The reason of each failure kind as the game record and the database store it.
_REASONS = {
    "start": "engine did not start", "crash": "engine crashed", "hang": "engine hung",
    "flood": "engine flooded its output", "handshake": "bad handshake", "malformed": "malformed move",
    "illegal": "illegal move", "time": "time loss",
}


def forfeit_reason(failure: EngineFailure) -> str:
    """``time loss: used 1.24 s, had 1 s``: the failure's kind in words, then what happened."""
    return f"{_REASONS[failure.kind]}: {failure.message}"


@dataclass(frozen=True)
class EngineSettings:
    """An engine spec's parameters, checked."""

    argv: tuple[str, ...]
    clock: tuple[float, float] | None = None  # base, increment (seconds)
    movetime: float | None = None
    iterations: int | None = None
    margin: float = DEFAULT_MARGIN
    grace: float = DEFAULT_GRACE
    timeout: float = DEFAULT_TIMEOUT
    ready: float = HANDSHAKE_SECONDS
    options: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> tuple[Any, ...]:
        """Engines with the same key are interchangeable between games (the pool's key)."""
        return self.argv, self.options


_INCREMENT = Number(0, MAX_SECONDS, unit="seconds")


def parse_tc(text: Any) -> tuple[float, float]:
    """``"60+0.5"`` -> (60.0, 0.5); ``60`` -> (60.0, 0.0). ``ValueError`` otherwise."""
    base, plus, inc = str(text).partition("+")
    try:
        return SECONDS.parse(base, "the base"), _INCREMENT.parse(inc, "the increment") if plus else 0.0
    except ValueError as exc:
        raise ValueError(f"tc must be BASE+INC in seconds (e.g. 60+0.5): {exc}") from None


def _positive(params: Mapping[str, Any], key: str, default: float | None) -> float | None:
    """A spec's seconds (``movetime``, ``margin``, ``grace``, ``timeout``), or ``default`` when not given."""
    return SECONDS.check(params[key], key) if key in params else default


def engine_settings(params: Mapping[str, Any]) -> EngineSettings:
    """Check an engine spec's parameters (the command must name a program that exists)."""
    unknown = [k for k in params if k not in ENGINE_PARAMS and not k.startswith(OPTION_PREFIX)]
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r} for engine (known: {', '.join(ENGINE_PARAMS)}, "
                         f"{OPTION_PREFIX}NAME, name)")
    if "cmd" not in params:
        raise ValueError('an engine needs cmd="program [arguments]"')
    try:
        argv = tuple(shlex.split(str(params["cmd"])))
    except ValueError as exc:
        raise ValueError(f"cmd: {exc}") from None
    if not argv:
        raise ValueError("cmd is empty")
    program = argv[0]
    if shutil.which(program) is None and not (os.sep in program and os.access(program, os.X_OK)):
        raise ValueError(f"cmd: {program!r} is not an executable program (give a path or a command on PATH)")
    if "iterations" in params and "nodes" in params:
        raise ValueError("give iterations or nodes, not both (they are the same)")
    iterations = params.get("iterations", params.get("nodes"))
    if iterations is not None:
        ITERATIONS.check(iterations, "iterations")
    options = tuple((k[len(OPTION_PREFIX):], str(v).lower() if isinstance(v, bool) else str(v))
                    for k, v in params.items() if k.startswith(OPTION_PREFIX))
    if any(not name for name, _ in options):
        raise ValueError(f"{OPTION_PREFIX}NAME needs an option name")
    return EngineSettings(
        argv=argv, clock=parse_tc(params["tc"]) if "tc" in params else None,
        movetime=_positive(params, "movetime", None), iterations=iterations,
        margin=_positive(params, "margin", DEFAULT_MARGIN) or DEFAULT_MARGIN,
        grace=_positive(params, "grace", DEFAULT_GRACE) or DEFAULT_GRACE,
        timeout=_positive(params, "timeout", DEFAULT_TIMEOUT) or DEFAULT_TIMEOUT,
        ready=_positive(params, "ready", HANDSHAKE_SECONDS) or HANDSHAKE_SECONDS, options=options)


def with_time_control(spec: Any, tc: str | None, movetime: float | None) -> Any:
    """An ``engine`` spec without a limit of its own, given the tournament's ``tc``/``movetime``;
    any other spec unchanged. ``ValueError`` for a bad ``tc`` or ``movetime``."""
    if tc is None and movetime is None:
        return spec
    added: list[tuple[str, Any]] = []
    if tc is not None:
        parse_tc(tc)
        added.append(("tc", tc))
    if movetime is not None:
        added.append(("movetime", _positive({"movetime": movetime}, "movetime", None)))
    if spec.kind != "engine" or any(key in LIMIT_KEYS for key, _ in spec.params):
        return spec
    return replace(spec, params=spec.params + tuple(added))


class EnginePool:
    """Idle engines that said ``feature reuse``, kept between games of one worker batch.

    :meth:`close` ends them all; whoever makes a pool closes it (a batch of games, an inline
    tournament), so no engine outlives its tournament."""

    def __init__(self) -> None:
        self._idle: dict[tuple[Any, ...], list[EngineClient]] = {}

    def take(self, key: tuple[Any, ...]) -> EngineClient | None:
        idle = self._idle.get(key)
        while idle:
            client = idle.pop()
            if client.process.alive():
                return client
            client.close(0)
        return None

    def give(self, key: tuple[Any, ...], client: EngineClient) -> None:
        self._idle.setdefault(key, []).append(client)

    def close(self) -> None:
        idle, self._idle = self._idle, {}
        for clients in idle.values():
            for client in clients:
                client.close()


class EngineAgent:
    """One seat played by an external engine for one game, with its clock."""

    def __init__(self, settings: EngineSettings, game: Any, seed: int, pool: EnginePool | None = None) -> None:
        self.settings = settings
        self.game = game
        self.pool = pool
        self.client = (pool.take(settings.key) if pool else None) or EngineClient(settings.argv, settings.ready)
        self.failed = False
        try:
            self._start_game(seed)
        except BaseException:
            self.failed = True
            self.release()
            raise
        self.clock = settings.clock[0] if settings.clock else None

    def _start_game(self, seed: int) -> None:
        client = self.client
        name = self.game.entry.name
        if not client.intro.plays(name):
            games = " ".join(client.intro.features.get("games", []))
            raise client.process.failure("handshake", f"the engine plays {games}, not {name}")
        declared = client.intro.options
        if "seed" in declared:  # the tournament's seed for this agent, so games replay alike
            top = declared["seed"].max
            client.setoption("seed", str(seed if top is None or seed <= top else seed % (int(top) + 1)))
        for name, value in self.settings.options:
            try:
                client.setoption(name, value)
            except ValueError as exc:
                raise client.process.failure("handshake", str(exc)) from None
        client.newgame(self.game.spec)

    def limits(self) -> tuple[wire.Limits, float | None]:
        """This move's ``go`` limits and the seconds it may take (None: no time limit)."""
        s = self.settings
        limits = wire.Limits(iterations=s.iterations, movetime=s.movetime,
                             time=self.clock, inc=s.clock[1] if s.clock else None)
        bounds = [t for t in (s.movetime, self.clock) if t is not None]
        return limits, min(bounds) if bounds else None

    def step(self, state: Any) -> int:
        seat = state.current_player()
        legal_ids = state.legal_actions()
        legal = [state.action_to_string(a) for a in legal_ids]
        limits, allowed = self.limits()
        s = self.settings
        try:
            if allowed is None:
                answer = self.client.move(state.observation_json(seat), legal, limits, s.timeout, s.grace)
            else:
                answer = self.client.move(state.observation_json(seat), legal, limits, allowed + s.margin, s.grace,
                                          backstop(allowed + s.margin))
            if allowed is not None and answer.charged > allowed + s.margin:
                used = f"{answer.seconds:.3f} s" if answer.cpu is None else \
                    f"{answer.charged:.3f} s of CPU time ({answer.seconds:.3f} s on the wall clock)"
                raise self.client.process.failure("time", f"answered after {used} with {allowed:.3f} s left")
            if self.clock is not None and s.clock is not None:
                self.clock = max(0.0, self.clock - answer.charged) + s.clock[1]
            return self._action(state, answer.move, legal_ids, legal)
        except EngineFailure:
            self.failed = True
            raise

    def _action(self, state: Any, move: str, legal_ids: list[int], legal: list[str]) -> int:
        if move in legal:
            return int(legal_ids[legal.index(move)])
        fail = self.client.process.failure
        if not move or move == "(none)":
            raise fail("malformed", f"bestmove without a move ({move or 'empty'}); legal: {wire.join_moves(legal)}")
        try:
            action = state.string_to_action(move)
        except ValueError as exc:
            raise fail("malformed", f"{move!r} is not a move: {' '.join(str(exc).split())}") from None
        if state.is_legal(action):  # another spelling of a legal move
            return int(action)
        raise fail("illegal", f"{move!r}: {state.why_illegal(action)}")

    def release(self) -> None:
        """The game is over: back to the pool if the engine can play another, else end it."""
        client, self.client = self.client, None  # type: ignore[assignment]
        if client is None:
            return
        if self.pool is not None and not self.failed and client.intro.reuse and client.process.alive():
            self.pool.give(self.settings.key, client)
        else:
            client.close(self.settings.grace)
