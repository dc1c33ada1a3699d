"""Running an agent program once, as the referee does for every move.

The program reads the input from a file on stdin and writes stdout and stderr to files (so a
flood costs disk, capped by a file-size limit, not memory). It runs in its own directory, in a
new session (its own process group), under a CPU-time limit (the referee's ``ulimit -t``) and
a wall-clock limit (the referee has none: a program that sleeps would hang it); it dies with
its parent (``PR_SET_PDEATHSIG``), and its whole process group is killed when the move is over,
so nothing it started outlives the move.
"""
from __future__ import annotations

import os
import resource
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass

from ..engines.process import die_with_parent

OUTPUT_LIMIT = 1 << 20  # bytes per output file: a flood is cut there (SIGXFSZ kills the writer)


@dataclass(frozen=True)
class RunResult:
    """What one run of the program left: its outputs, how it ended, and the time it took."""

    stdout: str
    stderr: str
    returncode: int | None  # None: killed by us at the wall-clock limit
    cpu_exceeded: bool
    wall_exceeded: bool
    flooded: bool  # an output file reached OUTPUT_LIMIT
    seconds: float

    def failure(self) -> str:
        """Why the run does not count as an answer ("" when it ended normally)."""
        if self.wall_exceeded:
            return "time-out: no answer within the wall-clock limit"
        if self.cpu_exceeded:
            return "time-out: the CPU-time limit was reached"
        if self.flooded:  # before the exit code: Python ignores SIGXFSZ and dies of the write error
            return f"crash: output flood (more than {OUTPUT_LIMIT} bytes)"
        if self.returncode and self.returncode < 0:
            return f"crash: killed by signal {signal.Signals(-self.returncode).name}"
        if self.returncode:
            return f"crash: exit code {self.returncode}"
        return ""


def split_command(cmd: str) -> list[str]:
    """The command's words, its program resolved (a path, or a name on PATH); ValueError if it
    cannot be run."""
    try:
        words = shlex.split(cmd)
    except ValueError as exc:
        raise ValueError(f"command {cmd!r}: {exc}") from None
    if not words:
        raise ValueError("the command is empty")
    program = words[0]
    if os.sep in program:
        path = os.path.abspath(program)
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise ValueError(f"command {cmd!r}: {program} is not an executable file")
    else:
        found = shutil.which(program)
        if found is None:
            raise ValueError(f"command {cmd!r}: {program} is not found on PATH")
        path = found
    return [path, *words[1:]]


def _limits(parent: int, cpu_seconds: int) -> None:
    """In the child before exec: die with the parent, and the referee's CPU limit."""
    die_with_parent(parent)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT, OUTPUT_LIMIT))


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_once(argv: list[str], stdin_text: str, cpu_seconds: int, wall_seconds: float) -> RunResult:
    """Run ``argv`` (from :func:`split_command`) once in its program's directory, feeding it
    ``stdin_text``; returns what it printed and how it ended."""
    with tempfile.TemporaryDirectory(prefix="splendor-tools-") as tmp:
        paths = [os.path.join(tmp, name) for name in ("input.txt", "output.txt", "error.txt")]
        with open(paths[0], "w") as f:
            f.write(stdin_text)
        started = time.perf_counter()
        parent = os.getpid()
        with open(paths[0], "rb") as fin, open(paths[1], "wb") as fout, open(paths[2], "wb") as ferr:
            proc = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=ferr, cwd=os.path.dirname(argv[0]),
                                    start_new_session=True, preexec_fn=lambda: _limits(parent, cpu_seconds))
            try:
                code: int | None = proc.wait(timeout=wall_seconds)
                wall = False
            except subprocess.TimeoutExpired:
                _kill_group(proc.pid)
                proc.wait()
                code, wall = None, True
            finally:
                _kill_group(proc.pid)  # whatever it left running
        seconds = time.perf_counter() - started
        # SIGXCPU at the soft CPU limit; SIGKILL at the hard one, a second later, if it ignored that.
        cpu = code is not None and code in (-signal.SIGXCPU, -signal.SIGKILL)
        flooded = any(os.path.getsize(p) >= OUTPUT_LIMIT for p in paths[1:])
        out, err = (_read(p) for p in paths[1:])
    return RunResult(out, err, code, cpu, wall, flooded, seconds)


def _read(path: str) -> str:
    with open(path, "rb") as f:
        return f.read(OUTPUT_LIMIT).decode("utf-8", errors="replace")
