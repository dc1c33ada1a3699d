"""Where games run: in this process, in local worker processes, or on a Ray cluster.

Every backend takes :class:`~splendor_mcts.tournament.play.GameTask` objects and yields
:class:`~splendor_mcts.tournament.store.PlayedGame` results as games finish (in any order).
The caller alone writes the database. :meth:`Backend.close` abandons games still running.
Another kind of game (self-play, :mod:`splendor_mcts.learning.selfplay`) passes its own
``work``: a picklable module-level function from a list of tasks to a list of results, each
result with a ``wall_time`` in seconds.

Worker backends send games in batches sized so that a batch takes about
:data:`BATCH_SECONDS` (one game per batch until a game's cost is known, at most
:data:`MAX_BATCH`): cheap games are not dominated by a round trip per game, and an early stop
(SPRT) wastes little. A game's result depends only on its task, never on its batch.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from ..wording import install_hint
from .engine_agent import EnginePool
from .play import play_game, play_games

BACKENDS = ("local", "ray")
BATCH_SECONDS = 0.05  # aimed-for work per worker task
MAX_BATCH = 64  # games per worker task at most

# What a worker does with a batch of tasks: the tournament's play_games unless told otherwise.
Work = Callable[[list[Any]], list[Any]]


class WorkerLost(RuntimeError):
    """A worker died or failed outside any agent's move; the games stored so far are kept."""


class Backend(Protocol):
    concurrency: int

    def run(self, tasks: Iterable[Any]) -> Iterator[Any]: ...

    def close(self) -> None: ...


def default_concurrency() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Batcher:
    """Cuts a task stream into batches of about :data:`BATCH_SECONDS` of play each.

    The size follows the mean wall time of the games seen so far (:meth:`observe`); until one
    has finished every batch holds one game.
    """

    def __init__(self, tasks: Iterable[Any], seconds: float = BATCH_SECONDS, limit: int = MAX_BATCH) -> None:
        self._source = iter(tasks)
        self._seconds = seconds
        self._limit = limit
        self._games = 0
        self._wall = 0.0
        self.exhausted = False

    def observe(self, played: Sequence[Any]) -> None:
        """Account for finished games (their ``wall_time``)."""
        self._games += len(played)
        self._wall += sum(p.wall_time for p in played)

    def size(self) -> int:
        """Games in the next batch."""
        if self._games == 0:
            return 1
        mean = self._wall / self._games
        return max(1, min(self._limit, int(self._seconds / mean) if mean > 0 else self._limit))

    def next_batch(self) -> list[Any]:
        """The next batch; empty (and :attr:`exhausted` set) when the stream is done."""
        batch: list[Any] = []
        for _ in range(self.size()):
            task = next(self._source, None)
            if task is None:
                self.exhausted = True
                break
            batch.append(task)
        return batch


PR_SET_PDEATHSIG = 1  # its value in the Linux prctl header


def die_with_parent(parent: int) -> None:
    """Make this worker process end when its parent does, however the parent ends (SIGKILL too).

    On Linux the kernel sends SIGKILL at the parent's death (``prctl(PR_SET_PDEATHSIG)``);
    elsewhere, or if that call fails, a daemon thread polls ``os.getppid()``. Either way a
    parent that died before this ran is noticed at once."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="watch-parent").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name (state first), or None if it is gone."""
    try:
        text = open(f"/proc/{pid}/stat").read()  # noqa: SIM115 - one read
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return None if fields[0] in ("Z", "X") else fields


def _descendants(root: int) -> dict[int, str]:
    """pid -> start time of every living descendant of ``root``."""
    children: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
            starts[int(entry)] = fields[19]
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = starts[child]
            todo.append(child)
    return found


def reap_after(parent: int, interval: float = 0.5) -> None:
    """Watch ``parent`` and, once it has ended, SIGKILL what was its process tree (Linux).

    Run in a process of its own (:func:`start_reaper`) for a Ray started by a tournament: Ray's
    raylet and GCS die with their parent, but its agent processes outlive a SIGKILLed driver."""
    me = os.getpid()
    seen: dict[int, str] = {}
    while (fields := _stat(parent)) is not None:
        seen.update({pid: start for pid, start in _descendants(parent).items() if pid != me})
        time.sleep(interval)
    for pid, start in seen.items():
        fields = _stat(pid)
        if fields is not None and fields[19] == start:  # the same process, not a reused id
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


_reaper: list[int] = []  # the pid of this process's reaper, once started
_reaper_process: list[subprocess.Popen[bytes]] = []


def start_reaper() -> None:
    """Start :func:`reap_after` for this process, once, in its own session (Linux only)."""
    if _reaper == [os.getpid()] or not os.path.isdir("/proc/self"):
        return
    _reaper[:] = [os.getpid()]
    code = f"from splendor_mcts.tournament.backends import reap_after; reap_after({os.getpid()})"
    # Kept referenced: it outlives this process by design, so its Popen must not be collected
    # (that warns about a child still running).
    _reaper_process.append(subprocess.Popen([sys.executable, "-c", code], start_new_session=True,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))


class InlineBackend:
    """Plays games one after another in this process (``--concurrency 1``); external engines
    that can play several games are kept until :meth:`close`."""

    concurrency = 1

    def __init__(self, work: Work | None = None) -> None:
        self._pool = EnginePool()
        self._work = work

    def run(self, tasks: Iterable[Any]) -> Iterator[Any]:
        for task in tasks:
            if self._work is None:
                yield play_game(task, self._pool)
            else:
                yield from self._work([task])

    def close(self) -> None:
        self._pool.close()


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process, as text (the ``__cause__`` of the
    exception re-raised here)."""


def _serve(connection: Connection, work: Work, parent: int) -> None:
    """A worker process's loop: run ``work`` on each batch received, send back its result.

    Ends when the parent closes its end. Ctrl-C reaches the whole terminal's process group; the
    parent decides what to stop, so a worker ignores it from here on (a Python handler, not
    ``SIG_IGN``, so external engines it starts get the default again at ``exec``)."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    while True:
        try:
            batch = connection.recv()
        except EOFError:
            return
        try:
            reply: tuple[str, Any, str] = ("done", work(batch), "")
        except Exception as exc:  # the parent re-raises it: a wrong spec, an agent's own error
            reply = ("failed", exc, "".join(traceback.format_exception(exc)))
        try:
            connection.send(reply)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a result or error that cannot be sent
            failure = RuntimeError(f"a worker's {'result' if reply[0] == 'done' else 'error'} cannot be sent back: {exc}")
            connection.send(("failed", failure, reply[2]))


def _worker_lost() -> WorkerLost:
    return WorkerLost("a worker process died while playing (an agent may have crashed the interpreter); "
                      "finished games are saved: run the same command again to resume")


@dataclass(frozen=True)
class _Worker:
    process: BaseProcess
    connection: Connection


class ProcessBackend:
    """A pool of ``spawn``-started worker processes, each playing whole games.

    Each worker has a pipe of its own and one batch (:class:`Batcher`) at a time. No thread runs in
    this process, so when :meth:`close` has reaped the workers nothing of the pool is left for the
    interpreter's exit. (``concurrent.futures``' pool, used before, leaves a manager thread that
    CPython 3.11's exit hook can race on a pipe it is closing: a "Bad file descriptor" traceback
    after an interrupt, CPython gh-125451, fixed in 3.12.8 and 3.13.1 only.)
    """

    def __init__(self, concurrency: int, work: Work = play_games) -> None:
        if concurrency < 1:
            raise ValueError(f"--concurrency must be at least 1, got {concurrency}")
        self.concurrency = concurrency
        self._work = work
        self._workers: list[_Worker] = []

    def run(self, tasks: Iterable[Any]) -> Iterator[Any]:
        try:
            yield from self._run(tasks)
        finally:
            self.close()

    def _start_worker(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, self._work, os.getpid()),
                                  name=f"splendor-mcts worker {len(self._workers) + 1}")
        worker = _Worker(process, ours)
        self._workers.append(worker)  # before it starts: close() must know of it whenever an interrupt lands
        try:
            process.start()
        finally:
            theirs.close()  # the worker's end lives in the worker alone: its death is end-of-file here
        return worker

    def _run(self, tasks: Iterable[Any]) -> Iterator[Any]:
        batcher = Batcher(tasks)
        busy: list[_Worker] = []
        while len(self._workers) < self.concurrency and (batch := batcher.next_batch()):
            busy.append(self._send(self._start_worker(), batch))
        while busy:
            ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy]))
            for worker in [w for w in busy if w.connection in ready or w.process.sentinel in ready]:
                busy.remove(worker)
                played = self._reply(worker)
                batcher.observe(played)
                if batch := batcher.next_batch():  # sent before the games are handed on: it plays while they are stored
                    busy.append(self._send(worker, batch))
                yield from played

    @staticmethod
    def _send(worker: _Worker, batch: list[Any]) -> _Worker:
        try:
            worker.connection.send(batch)
        except OSError:  # it died since its last result
            raise _worker_lost() from None
        return worker

    @staticmethod
    def _reply(worker: _Worker) -> list[Any]:
        try:
            data = worker.connection.recv_bytes()  # whole, or end-of-file if it died sending
        except (EOFError, OSError):
            raise _worker_lost() from None
        try:
            outcome, value, remote = pickle.loads(data)
        except Exception as exc:  # e.g. an exception class whose __init__ takes other arguments than its args
            raise RuntimeError(f"a worker's reply cannot be read here: {type(exc).__name__}: {exc}") from None
        if outcome == "failed":
            raise value from RemoteTraceback(remote)
        return list(value)

    def close(self) -> None:
        """Stop every worker, busy or not (games under way are abandoned), and reap it.

        A worker leaves the list only once reaped, so a close cut short by an interrupt is finished
        by the next (the run's own close, then the caller's)."""
        for worker in self._workers:
            if worker.process.pid is not None and worker.process.is_alive():
                worker.process.terminate()
        while self._workers:
            worker = self._workers[-1]
            if worker.process.pid is not None:  # started
                worker.process.join(timeout=5)
                if worker.process.is_alive():  # stuck where SIGTERM cannot act soon
                    worker.process.kill()
                    worker.process.join()
                worker.process.close()
            worker.connection.close()
            self._workers.pop()


class RayBackend:
    """Runs games as Ray tasks (one CPU each) on an existing cluster or a local Ray.

    ``address=None`` connects to a running cluster if ``RAY_ADDRESS`` says so, else starts a
    local Ray with ``concurrency`` CPUs. Keeps at most ``2 * concurrency`` tasks (batches of
    games, :class:`Batcher`) in flight.
    """

    def __init__(self, concurrency: int, address: str | None = None, work: Work = play_games) -> None:
        try:
            import ray
        except ImportError:
            raise ValueError(f"--backend ray needs Ray: {install_hint('ray')}") from None
        self._ray: Any = ray
        self.address = address
        # A Ray this backend starts is its own to stop (close); Ray's processes also share the
        # fate of this one (Ray arms PR_SET_PDEATHSIG or a reaper), so a SIGKILL leaves none behind.
        self._started = not ray.is_initialized()
        if self._started:
            start_reaper()
            if address is not None:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=concurrency, include_dashboard=False, log_to_driver=False)
        self.concurrency = concurrency
        self._remote = ray.remote(num_cpus=1, max_retries=0)(work)
        self._pending: list[Any] = []

    def run(self, tasks: Iterable[Any]) -> Iterator[Any]:
        ray = self._ray
        batcher = Batcher(tasks)
        while True:
            while not batcher.exhausted and len(self._pending) < 2 * self.concurrency:
                batch = batcher.next_batch()
                if batch:
                    self._pending.append(self._remote.remote(batch))
            if not self._pending:
                break
            done, self._pending = ray.wait(self._pending, num_returns=1)
            for ref in done:
                try:
                    played = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    raise WorkerLost(f"a Ray task failed: {exc}; finished games are saved: run the same "
                                     "command again to resume") from None
                batcher.observe(played)
                yield from played

    def close(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending = []
        if self._started:
            self._started = False
            self._ray.shutdown()


def make_backend(name: str, concurrency: int | None, ray_address: str | None = None,
                 work: Work | None = None, option: str = "--concurrency") -> Backend:
    """Backend by name: ``local`` (inline when concurrency is 1, processes otherwise) or ``ray``.

    ``work`` replaces the tournament's :func:`~splendor_mcts.tournament.play.play_games`;
    ``option`` is the command-line option named by errors about the concurrency."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}: expected one of {', '.join(BACKENDS)}")
    if concurrency is not None and concurrency < 1:
        raise ValueError(f"{option} must be at least 1, got {concurrency}")
    n = concurrency or default_concurrency()
    if name == "ray":
        return RayBackend(n, ray_address) if work is None else RayBackend(n, ray_address, work)
    if ray_address is not None:
        raise ValueError("--ray-address needs --backend ray")
    if n == 1:
        return InlineBackend(work)
    return ProcessBackend(n) if work is None else ProcessBackend(n, work)
