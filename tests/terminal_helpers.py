"""A command run on a pseudo-terminal (the standard library's ``pty``), driven like a person:
wait for a text, type a line, press Ctrl-C or Ctrl-D."""
from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time


class Terminal:
    """``splendor-mcts ARGS`` with its standard input, output and error on one pseudo-terminal."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes the command
            os.execve(sys.executable, [sys.executable, "-m", "splendor_mcts.cli", *args],
                      {**os.environ, "COLUMNS": "160", **(env or {})})
        self.output = ""
        self.code: int | None = None

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the command ended and closed the terminal
            return False
        self.output += data.decode("utf-8", "replace")
        return bool(data)

    def expect(self, text: str, timeout: float = 60.0, times: int = 1) -> str:
        """Wait until ``text`` has been printed ``times`` times (since the start); everything printed so far."""
        end = time.monotonic() + timeout
        while self.output.count(text) < times:
            if time.monotonic() > end or not self._read(0.2):
                raise AssertionError(f"{text!r} never came; the terminal shows:\n{self.output[-3000:]}")
        return self.output

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def interrupt(self) -> None:
        """Ctrl-C as the terminal sends it (the terminal's driver turns it into SIGINT), a
        moment after what came before: a SIGINT in the instant between a prompt being printed
        and Python's readline waiting for keys is seen only at the next key (seen on loaded
        machines), and no person types that fast."""
        time.sleep(0.5)
        os.write(self.fd, b"\x03")

    def terminate(self) -> None:
        """SIGTERM, as ``kill`` sends it, a moment after what came before (see :meth:`interrupt`)."""
        time.sleep(0.5)
        os.kill(self.pid, signal.SIGTERM)

    def end_of_input(self) -> None:
        os.write(self.fd, b"\x04")

    def wait(self, timeout: float = 60.0) -> int:
        """The exit code, after reading everything the command printed."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            open_ = self._read(0.2)
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                while self._read(0.1) and select.select([self.fd], [], [], 0)[0]:
                    pass
                os.close(self.fd)
                self.code = os.waitstatus_to_exitcode(status)
                return self.code
            if not open_:
                time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError(f"the command did not end; the terminal shows:\n{self.output[-3000:]}")
