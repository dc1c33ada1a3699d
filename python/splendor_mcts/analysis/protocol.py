"""The JSON-lines analysis engine of ``splendor-mcts analyze`` (commands/analyze.py) on stdin/stdout.

Modelled on KataGo's analysis engine (docs/analysis-protocol.md). Each input line is one
query; each output line one response, matched by ``id``. Queries run on a small pool of
workers, so responses of several queries may interleave; a bad line gets an
``{"id", "error", "field"}`` answer and the engine reads on, a field it does not know an
``{"id", "warning", "field"}`` answer before the query's own. Reading a query is
``queries.py``; numbering a game's positions ``numbering.py``. End of input waits for the
running queries, then exits 0.
"""
from __future__ import annotations

import json
import queue
import threading
import time
from typing import IO, Any

from .. import exit_codes
from ..json_input import JsonInputError, read_json
from ..search.networks import shipped_summary
from ..version import __version__
from .advice import advise
from .numbering import Asked
from .queries import QUERY_FIELDS, Job, QueryError, QueryReader, unknown_fields
from .running import run_search

PROTOCOL_VERSION = 1
STOP_CHECK = 0.1  # seconds between a search's checks for a terminate
# The fields of each action query.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "query_version": ("id", "action"),
    "terminate": ("id", "action", "terminateId", "turnNumbers"),
    "terminate_all": ("id", "action", "turnNumbers"),
}


class Engine:
    """Reads queries, runs them on ``workers`` threads, writes responses (thread-safe)."""

    def __init__(self, out: IO[str], workers: int = 2, default_threads: int = 1) -> None:
        self.out = out
        self.workers = workers
        self.reader = QueryReader(default_threads)
        self._lock = threading.Lock()
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._live: dict[str, list[Job]] = {}
        self.output_closed = False

    # ---------------------------------------------------------------- output
    def send(self, message: dict[str, Any]) -> None:
        """Write one response line; once the reader is gone (closed output) nothing more is
        written and :meth:`run` stops."""
        line = json.dumps(message, separators=(",", ":"))
        with self._lock:
            if self.output_closed:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):  # BrokenPipeError, or a file closed under us
                self.output_closed = True

    def send_error(self, query_id: Any, message: str, field: str | None, **extra: Any) -> None:
        self.send({"id": query_id, "error": message, "field": field, **extra})

    # ---------------------------------------------------------------- running
    def run(self, lines: IO[str]) -> int:
        threads = [threading.Thread(target=self._work, daemon=True) for _ in range(self.workers)]
        for t in threads:
            t.start()
        try:
            for line in lines:
                if line.strip():
                    self.handle_line(line)
                if self.output_closed:
                    break
        except KeyboardInterrupt:
            self.terminate_all()
            raise
        finally:
            if self.output_closed:
                self.terminate_all()
            for _ in threads:
                self._jobs.put(None)
            for t in threads:
                t.join()
        return exit_codes.BROKEN_PIPE if self.output_closed else exit_codes.OK

    def handle_line(self, line: str) -> None:
        """Parse and dispatch one input line; any problem becomes an error response. Fields
        the engine does not know are answered with a warning each, and the query goes on."""
        query_id: Any = None
        try:
            try:
                query = read_json(line, "the line")
            except JsonInputError as exc:
                raise QueryError(str(exc), None) from None
            if not isinstance(query, dict):
                raise QueryError("a query must be a JSON object", None)
            query_id = query.get("id")
            if not isinstance(query_id, str) or not query_id:
                query_id = None if not isinstance(query_id, (str, int)) else query_id
                raise QueryError("every query needs an \"id\" string", "id")
            action = query.get("action")
            known = QUERY_FIELDS if "action" not in query else \
                ACTION_FIELDS.get(action, ("id", "action")) if isinstance(action, str) else ("id", "action")
            for key, warning in unknown_fields(query, known):
                self.send({"id": query_id, "warning": warning, "field": key})
            if "action" in query:
                self.handle_action(query)
            else:
                reading = self.reader.read(query)
                for error in reading.errors:
                    self.send_error(query_id, error.error or "", error.field, **_numbers(error))
                for job in reading.jobs:
                    with self._lock:
                        self._live.setdefault(job.query_id, []).append(job)
                    self._jobs.put(job)
        except QueryError as exc:
            self.send_error(query_id, str(exc), exc.field)
        except (ValueError, TypeError, OverflowError, RecursionError) as exc:  # a value no check foresaw: answered, not fatal
            self.send_error(query_id, f"the query could not be read: {exc}", None)

    def handle_action(self, query: dict[str, Any]) -> None:
        action = query["action"]
        if action == "query_version":
            self.send({"id": query["id"], "version": PROTOCOL_VERSION, "engine": f"splendor_mcts {__version__}",
                       "networks": shipped_summary()})
        elif action == "terminate":
            target = query.get("terminateId")
            if not isinstance(target, str):
                raise QueryError("terminate needs \"terminateId\": the id of the query to stop", "terminateId")
            stopped = self.terminate(target, _turn_numbers(query))
            self.send({**query, "stopped": stopped})
        elif action == "terminate_all":
            self.send({**query, "stopped": self.terminate_all(_turn_numbers(query))})
        else:
            raise QueryError(f"unknown action {action!r} (one of {', '.join(ACTION_FIELDS)})", "action")

    def terminate(self, query_id: str, numbers: set[int] | None = None) -> int:
        """Stop the analyses of one query, or of its positions ``numbers`` (as the query
        numbered them); queued ones never start. Each is answered as terminated. Returns
        how many were live."""
        with self._lock:
            live = self._live.get(query_id, [])
            jobs = [job for job in live if numbers is None or job.number in numbers]
            for job in jobs:
                live.remove(job)
            if not live:
                self._live.pop(query_id, None)
        for job in jobs:
            job.cancelled.set()
        return len(jobs)

    def terminate_all(self, numbers: set[int] | None = None) -> int:
        with self._lock:
            ids = list(self._live)
        return sum(self.terminate(i, numbers) for i in ids)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                if job.cancelled.is_set():  # terminated while queued: still answered, as a started one is
                    self.send(self.terminated(job, None))
                else:
                    self.analyze(job)
            except Exception as exc:  # one failed analysis must not stop the engine
                self.send_error(job.query_id, f"internal error: {type(exc).__name__}: {exc}", None, **_numbers(job))
            finally:
                with self._lock:
                    live = self._live.get(job.query_id, [])
                    if job in live:
                        live.remove(job)
                    if not live:
                        self._live.pop(job.query_id, None)

    def analyze(self, job: Job) -> None:
        next_report = time.monotonic() + (job.report_every or 0.0)

        def progress(partial: Any) -> bool:
            nonlocal next_report
            if job.cancelled.is_set():
                return True  # stop the search
            if job.report_every and time.monotonic() >= next_report:
                next_report += job.report_every
                self.send(self.response(job, partial, during=True))
            return False

        # A terminate is seen within STOP_CHECK seconds, whatever the reporting interval.
        analysis = run_search(job.state, job.limits, on_progress=progress,
                              progress_every=min(job.report_every or STOP_CHECK, STOP_CHECK), turns=job.turns)
        if not job.cancelled.is_set():
            self.send(self.response(job, analysis, during=False))
        else:
            self.send(self.terminated(job, analysis))

    def response(self, job: Job, analysis: Any, during: bool) -> dict[str, Any]:
        data = analysis.to_dict()
        out: dict[str, Any] = {"id": job.query_id, "isDuringSearch": during, **_numbers(job)}
        out["rootInfo"] = data["rootInfo"]  # as KataGo's: winrate is the root's mean over every move searched
        for key in ("bestWinrate", "proof", "proofTurns"):  # the best play found: what a headline shows
            out[key] = data[key]
        out["moveInfos"] = data["moveInfos"]
        if job.turns:
            out["turnInfos"] = data["turnInfos"]
            if not during:  # the threat check runs once, on the final turns (docs/analysis-protocol.md)
                advice = advise(job.state, analysis)
                out["turnInfos"] = advice.add_to_turns(out["turnInfos"])
                out.update(advice.to_dict())
        return out

    def terminated(self, job: Job, analysis: Any) -> dict[str, Any]:
        """The final answer of a terminated analysis: what the search found so far, or
        ``noResults`` when it had not started (KataGo's form)."""
        if analysis is not None and analysis.to_dict()["rootInfo"]["visits"] > 0:
            return {**self.response(job, analysis, during=False), "terminated": True}
        return {"id": job.query_id, "isDuringSearch": False, **_numbers(job), "terminated": True, "noResults": True}


def _numbers(item: Job | Asked) -> dict[str, int]:
    """The numbers an answer carries for its position (those known)."""
    numbers = {"turnNumber": item.turn_number, "actionNumber": item.action_number}
    return {key: value for key, value in numbers.items() if value is not None}


def _turn_numbers(query: dict[str, Any]) -> set[int] | None:
    """A terminate action's ``turnNumbers``: the positions to stop, as their query numbered them."""
    numbers = query.get("turnNumbers")
    if numbers is None:
        return None
    if not isinstance(numbers, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise QueryError("turnNumbers must be a list of turn numbers", "turnNumbers")
    return set(numbers)
