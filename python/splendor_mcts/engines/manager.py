"""The tournament's side of the engine protocol (docs/engine-protocol.md): one engine process.

:class:`EngineClient` starts the program, checks its introduction (``sep`` ... ``sepok``),
sets its options, starts games and asks for moves under a deadline. Every misbehaviour
(a crash, garbage where the protocol has words, no answer in time, a flood of output, a
move that is not a move) is an :class:`~.process.EngineFailure` naming its kind, with the
engine's last stderr lines; the client never waits past a deadline.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import wire
from .process import EngineFailure, EngineProcess

HANDSHAKE_SECONDS = 10.0  # for sep ... sepok, and for each isready ... readyok
_INTRODUCTION = ("id", "option", "feature", "info")


@dataclass
class Introduction:
    """What the engine said about itself between ``sep`` and ``sepok``."""

    name: str = ""
    author: str = ""
    options: dict[str, wire.Option] = field(default_factory=dict)
    features: dict[str, list[str]] = field(default_factory=dict)

    @property
    def reuse(self) -> bool:
        """The engine plays game after game in one process (``feature reuse``)."""
        return "reuse" in self.features

    def plays(self, game_name: str) -> bool:
        games = self.features.get("games")
        return games is None or game_name in games


@dataclass(frozen=True)
class Answer:
    """An engine's move: its text, the seconds from ``go`` to ``bestmove``, its last ``info``,
    and the CPU seconds it used for the move (None where they cannot be measured)."""

    move: str
    seconds: float
    info: wire.Info | None
    cpu: float | None = None

    @property
    def charged(self) -> float:
        """The seconds the move costs its clock: the time the engine ran (its CPU time, at most
        the wall-clock time, so threads are not charged twice), else the wall-clock time."""
        return self.seconds if self.cpu is None else min(self.seconds, self.cpu)


class EngineClient:
    """One engine process spoken to over the protocol."""

    def __init__(self, argv: Sequence[str], handshake_seconds: float = HANDSHAKE_SECONDS) -> None:
        self.handshake_seconds = handshake_seconds
        self.process = EngineProcess(argv)
        try:
            self.intro = self._introduce()
        except BaseException:
            self.process.kill()  # nobody else holds it yet
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def _introduce(self) -> Introduction:
        self.process.send(wire.HELLO)
        intro = Introduction()
        deadline = time.monotonic() + self.handshake_seconds
        while True:
            line = self.process.read_line(deadline)
            if line is None:
                raise self.process.failure("handshake", f"no '{wire.HELLO_OK}' within {self.handshake_seconds:g} s "
                                                        f"of '{wire.HELLO}'")
            word, _, rest = line.strip().partition(" ")
            if word == wire.HELLO_OK:
                return intro
            if not word:
                continue
            if word not in _INTRODUCTION:
                raise self.process.failure("handshake", f"expected id, option, feature or {wire.HELLO_OK} after "
                                                        f"'{wire.HELLO}', got {line[:80]!r}")
            try:
                self._note(intro, word, rest)
            except ValueError as exc:
                raise self.process.failure("handshake", str(exc)) from None

    @staticmethod
    def _note(intro: Introduction, word: str, rest: str) -> None:
        if word == "id":
            key, _, value = rest.partition(" ")
            if key in ("name", "author"):
                setattr(intro, key, value.strip())
        elif word == "option":
            option = wire.parse_option(f"option {rest}")
            intro.options[option.name] = option
        elif word == "feature":
            key, *values = rest.split()
            intro.features[key] = values

    def setoption(self, name: str, value: str) -> None:
        """Set a declared option; ``ValueError`` for one it did not declare or a value it does not take."""
        option = self.intro.options.get(name)
        if option is None:
            known = ", ".join(self.intro.options) or "none"
            raise ValueError(f"the engine {self.intro.name or 'engine'} has no option {name!r} (its options: {known})")
        option.check(value)
        self.process.send(f"setoption name {name} value {value}")

    def ready(self) -> None:
        """``isready`` ... ``readyok``: the engine has done everything sent so far."""
        self.process.send("isready")
        deadline = time.monotonic() + self.handshake_seconds
        while True:
            line = self.process.read_line(deadline)
            if line is None:
                raise self.process.failure("hang", f"no 'readyok' within {self.handshake_seconds:g} s of 'isready'")
            if line.strip() == "readyok":
                return
            self._check_error(line)

    def _check_error(self, line: str) -> None:
        """An ``info string error`` outside a search: the engine refused a command the client sent."""
        if line.startswith("info string error"):
            raise self.process.failure("malformed", f"the engine refused a command: {line[len('info string '):]}")

    def newgame(self, game_spec: str) -> None:
        self.process.send(f"newgame {game_spec}")
        self.ready()

    def move(self, position: str, legal: Sequence[str], limits: wire.Limits, allowed: float,
             grace: float, backstop: float | None = None) -> Answer:
        """Send the mover's view, its legal moves and ``go``; the ``bestmove`` text.

        ``allowed`` seconds is the hang threshold, in the time the move is charged
        (:attr:`Answer.charged`: CPU time where it can be measured): past it the engine is told
        ``stop`` and given ``grace`` seconds more, then killed (``EngineFailure("hang")``).
        ``backstop`` seconds on the wall clock (at least ``allowed``) does the same whatever the
        CPU time, so an engine that waits without running is stopped too. Judging the move
        (legal, in time) is the caller's."""
        process = self.process
        process.reset_output_budget()
        cpu_before = process.cpu_seconds()  # from here: reading the position is part of the move
        process.send(f"position view {position}")
        process.send(f"legalmoves {wire.join_moves(list(legal))}")
        process.send(f"go {limits.words()}".rstrip())
        started = time.monotonic()
        wall_limit = started + (allowed if backstop is None or cpu_before is None else max(allowed, backstop))
        check = started + allowed  # the charged time never runs ahead of the wall clock
        stopped = ""  # why stop was sent, once it was
        last: wire.Info | None = None

        def cpu_used() -> float | None:
            now = process.cpu_seconds()
            return None if now is None or cpu_before is None else now - cpu_before

        while True:
            line = process.read_line(min(check, wall_limit))
            if line is None:
                if stopped:
                    process.kill()
                    raise process.failure("hang", f"no bestmove {stopped}, nor {grace:g} s after stop; "
                                                  "the engine was killed")
                now = time.monotonic()
                if now < wall_limit:
                    charged = Answer("", now - started, None, cpu_used()).charged
                    if charged < allowed:  # the machine kept it waiting: look again when it may be out
                        check = now + min(max(allowed - charged, 0.01), 0.25)
                        continue
                    stopped = f"after {allowed:.3g} s of CPU time"
                else:
                    stopped = f"{wall_limit - started:.3g} s after go"
                process.send("stop")
                check = wall_limit = time.monotonic() + grace
                continue
            word, _, rest = line.strip().partition(" ")
            if word == "bestmove":
                return Answer(rest.strip(), time.monotonic() - started, last, cpu_used())
            if word == "info":
                if rest.startswith("string error"):
                    raise process.failure("malformed", f"the engine refused the position: {rest[len('string '):]}")
                try:
                    last = wire.parse_info(line.strip())
                except ValueError:
                    pass  # a line the engine means as information only: it cannot lose a game

    def close(self, grace: float = 1.0) -> None:
        """``quit``, then end the process (killed after ``grace`` seconds)."""
        if self.process.closed:
            return
        try:
            self.process.send("quit")
        except EngineFailure:
            pass
        self.process.close(grace)
