"""A program run as a child process and spoken to in lines: the machinery under every external engine.

:class:`EngineProcess` starts a command (an argument list, never through a shell), writes lines
to its standard input and reads lines from its standard output against a deadline, and keeps
the last lines of its standard error for the record. Whatever the program does, the caller
gets either a line or an :class:`EngineFailure` saying what went wrong (``kind``, one of
:data:`FAILURE_KINDS`) with those stderr lines; it never hangs past a deadline and never
raises anything else for the program's behaviour.

The program never outlives its caller: it is started in a process group of its own (so a
kill reaches anything it started), and on Linux with ``PR_SET_PDEATHSIG`` so the kernel
kills it when the process that started it dies, however that one ends. :meth:`close` asks
nicely (the protocol's goodbye, if any, is the caller's), waits a grace period, then
SIGKILLs the group and collects the exit status.

Output limits keep a flooding program from eating the caller's memory: a line longer than
``max_line`` bytes, or more than ``max_output`` bytes since :meth:`reset_output_budget`, is
an ``EngineFailure("flood", ...)``.

:meth:`EngineProcess.cpu_seconds` reads the CPU time the program and what it started have used
(Linux's /proc), so a tournament can charge an engine for the time it ran rather than for the
time a loaded machine kept it waiting.
"""
from __future__ import annotations

import collections
import ctypes
import os
import select
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

#: What can go wrong with a program, as :attr:`EngineFailure.kind` names it.
FAILURE_KINDS = ("start", "crash", "hang", "flood", "handshake", "malformed", "illegal", "time")

MAX_LINE = 1 << 20          # bytes in one line of output
MAX_OUTPUT = 16 << 20       # bytes of output between two budget resets (one move)
STDERR_LINES = 20           # stderr lines kept for the record
SEND_SECONDS = 5.0          # how long a line may wait for the program to read its input
_STDERR_BYTES = 64 << 10    # stderr bytes kept while reading (the tail is cut to lines from it)
_PR_SET_PDEATHSIG = 1
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # /proc's unit of CPU time


class EngineFailure(Exception):
    """The program failed: ``kind`` (one of :data:`FAILURE_KINDS`), a message, its last stderr lines."""

    def __init__(self, kind: str, message: str, stderr: Sequence[str] = ()) -> None:
        assert kind in FAILURE_KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.stderr = tuple(stderr)


def die_with_parent(parent: int) -> None:  # pragma: no cover - runs in the child, before exec
    """Run in the child before exec: SIGKILL when the parent dies (Linux), quit if it already did."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by process ``pid``: all its threads, its live
    descendants, and the children they have waited for. None where /proc cannot tell (not
    Linux, or ``pid`` has gone). Descendants are found through /proc's ``children`` files; a
    kernel without them counts only the children the program has waited for."""
    ticks = 0
    todo, seen = [pid], set()
    while todo:
        proc = todo.pop()
        if proc in seen:
            continue
        seen.add(proc)
        try:
            with open(f"/proc/{proc}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            if proc == pid:
                return None
            continue  # a descendant that just ended: its time moves to its parent's once waited for
        # Fields after the name (which may hold spaces): utime, stime, cutime, cstime are 14-17 of stat.
        ticks += sum(int(x) for x in stat[stat.rindex(b")") + 2:].split()[11:15])
        try:
            threads = os.listdir(f"/proc/{proc}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{proc}/task/{thread}/children", "rb") as f:
                    todo.extend(int(child) for child in f.read().split())
            except OSError:
                pass
    return ticks / _CLOCK_TICKS


class EngineProcess:
    """One running program, spoken to in lines of UTF-8 text (see the module docstring)."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None, max_line: int = MAX_LINE,
                 max_output: int = MAX_OUTPUT) -> None:
        if not argv:
            raise ValueError("an engine command must not be empty")
        self.argv = tuple(argv)
        self.max_line = max_line
        self.max_output = max_output
        parent = os.getpid()
        try:
            self._proc = subprocess.Popen(
                list(argv), cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, start_new_session=True, preexec_fn=lambda: die_with_parent(parent))
        except (OSError, subprocess.SubprocessError) as exc:
            raise EngineFailure("start", f"cannot start {' '.join(argv)!r}: {exc}") from None
        assert self._proc.stdin and self._proc.stdout and self._proc.stderr
        self._stdin = self._proc.stdin.fileno()
        self._out = self._proc.stdout.fileno()
        self._err = self._proc.stderr.fileno()
        os.set_blocking(self._stdin, False)
        os.set_blocking(self._out, False)
        os.set_blocking(self._err, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)
        self._selector.register(self._err, selectors.EVENT_READ)
        self._buffer = bytearray()
        self._lines: collections.deque[str] = collections.deque()
        self._stdout_open = True
        self._stderr_open = True
        self._stderr = bytearray()
        self._output = 0
        self.closed = False

    @property
    def pid(self) -> int:
        return self._proc.pid

    def alive(self) -> bool:
        return self._proc.poll() is None

    def cpu_seconds(self) -> float | None:
        """CPU seconds the program (and what it started) has used so far; None where that
        cannot be measured (see :func:`tree_cpu_seconds`)."""
        return None if self.closed else tree_cpu_seconds(self._proc.pid)

    def reset_output_budget(self) -> None:
        """Start counting output afresh (once per move): ``max_output`` bytes until the next reset."""
        self._output = 0

    def stderr_tail(self, lines: int = STDERR_LINES) -> list[str]:
        """The last lines the program wrote to standard error (read so far)."""
        text = self._stderr.decode("utf-8", errors="replace")
        return [line for line in text.splitlines() if line.strip()][-lines:]

    def failure(self, kind: str, message: str) -> EngineFailure:
        """An :class:`EngineFailure` carrying the stderr tail (drained briefly first)."""
        self._drain_stderr(0.05)
        return EngineFailure(kind, message, self.stderr_tail())

    def send(self, line: str, seconds: float = SEND_SECONDS) -> None:
        """Write one line (a newline is added). A program that has gone away is a crash; one
        that leaves its input unread for ``seconds`` (a full pipe) hangs."""
        data = memoryview((line + "\n").encode("utf-8"))
        deadline = time.monotonic() + seconds
        try:
            while data:
                try:
                    data = data[os.write(self._stdin, data):]
                except BlockingIOError:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not select.select([], [self._stdin], [], remaining)[1]:
                        raise self.failure("hang", f"the engine has not read its input for {seconds:g} s") from None
        except OSError:  # a broken pipe: the program has gone
            raise self._crashed("while being sent a line") from None

    def read_line(self, deadline: float) -> str | None:
        """The next line of output (without its newline), or None once ``time.monotonic()``
        passes ``deadline``. ``EngineFailure``: the program ended (``crash``) or flooded."""
        while not self._lines:
            if not self._stdout_open:
                raise self._crashed("before answering")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            for key, _ in self._selector.select(remaining):
                if key.fd == self._out:
                    self._read_stdout()
                else:
                    self._read_stderr()
        return self._lines.popleft()

    def _read(self, fd: int) -> bytes | None:
        """What is there to read on ``fd`` (b"" at its end, then unwatched); None: nothing yet."""
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return None
        if not chunk:
            self._selector.unregister(fd)
        return chunk

    def _read_stdout(self) -> None:
        chunk = self._read(self._out)
        if not chunk:
            self._stdout_open = chunk is None
            return
        self._output += len(chunk)
        if self._output > self.max_output:
            raise self.failure("flood", f"wrote more than {self.max_output} bytes of output for one request")
        self._buffer += chunk
        *complete, rest = self._buffer.split(b"\n")
        if len(rest) > self.max_line:
            raise self.failure("flood", f"wrote a line longer than {self.max_line} bytes")
        for raw in complete:
            if len(raw) > self.max_line:
                raise self.failure("flood", f"wrote a line longer than {self.max_line} bytes")
            self._lines.append(raw.rstrip(b"\r").decode("utf-8", errors="replace"))
        self._buffer = bytearray(rest)

    def _read_stderr(self) -> None:
        chunk = self._read(self._err)
        if not chunk:
            self._stderr_open = chunk is None
            return
        self._stderr += chunk
        if len(self._stderr) > _STDERR_BYTES:
            del self._stderr[: len(self._stderr) - _STDERR_BYTES]

    def _drain_stderr(self, seconds: float) -> None:
        if self._proc.stderr is None or self._proc.stderr.closed:
            return
        deadline = time.monotonic() + seconds
        while self._stderr_open and (remaining := deadline - time.monotonic()) > 0:
            ready = selectors.DefaultSelector()
            ready.register(self._err, selectors.EVENT_READ)
            try:
                if not ready.select(remaining):
                    return
            finally:
                ready.close()
            self._read_stderr()

    def _crashed(self, when: str) -> EngineFailure:
        try:
            code = self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            how = "closed its output"
        elif code < 0:
            how = f"was killed by signal {signal.Signals(-code).name}" if -code in signal.valid_signals() else \
                f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        return self.failure("crash", f"the engine {how} {when}")

    def close(self, grace: float = 1.0) -> None:
        """Close its input, wait up to ``grace`` seconds for it to end, then SIGKILL its process group."""
        if self.closed:
            return
        self.closed = True
        try:
            assert self._proc.stdin is not None
            self._proc.stdin.close()  # end of input: a well-behaved program ends
        except OSError:
            pass
        try:
            self._proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """SIGKILL the program and everything in its process group, and collect its exit status."""
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        if not self.closed or self._stderr_open:
            self._drain_stderr(0.1)  # its last words, for the record
        self._selector.close()
        for stream in (self._proc.stdout, self._proc.stderr, self._proc.stdin):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.closed = True
