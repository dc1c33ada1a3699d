"""``splendor-mcts analyze``: a JSON-lines analysis engine on stdin/stdout.

Modelled on KataGo's analysis engine (docs/analysis-protocol.md). Each input line is one
query; each output line one response, matched by ``id``. Queries run on a small pool of
workers, so responses of several queries may interleave; a bad line gets an
``{"id", "error", "field"}`` answer and the engine reads on. End of input waits for the
running queries, then exits 0.
"""
from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
from dataclasses import dataclass, field
from typing import IO, Any

from .. import exit_codes
from ..games.game import load_game
from ..games.positions import PositionError, read_position
from ..records import GameRecord
from ..search.defaults import PROTOCOL_ITERATIONS
from ..search.settings import BY_NAME, SETTINGS, SettingError
from ..version import __version__
from .running import SearchLimits, check_limits, decision_problem, run_search

PROTOCOL_VERSION = 1
MAX_TOP_K = 200
# A query's search settings are those of docs/search.md that have a protocol field.
SETTING_FIELDS: dict[str, str] = {s.field: s.name for s in SETTINGS if s.field is not None}
QUERY_FIELDS = ("id", "position", "record", "analyzeTurns", *SETTING_FIELDS, "topK", "reportDuringSearchEvery",
                "includeTurns")
ACTIONS = ("query_version", "terminate", "terminate_all")


class QueryError(ValueError):
    """A bad query: ``field`` is the JSON path at fault (``None`` for the whole line)."""

    def __init__(self, message: str, field: str | None) -> None:
        super().__init__(message)
        self.field = field


@dataclass
class Job:
    """One position to analyze for a query (a record query makes one per turn)."""

    query_id: str
    state: Any
    turn: int | None
    limits: SearchLimits
    report_every: float | None
    turns: bool = False  # answer with turnInfos too (whole turns)
    cancelled: threading.Event = field(default_factory=threading.Event)


class Engine:
    """Reads queries, runs them on ``workers`` threads, writes responses (thread-safe)."""

    def __init__(self, out: IO[str], workers: int = 2, default_threads: int = 1) -> None:
        self.out = out
        self.workers = workers
        self.default_threads = default_threads
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
        """Parse and dispatch one input line; any problem becomes an error response."""
        query_id: Any = None
        try:
            try:
                query = json.loads(line)
            except json.JSONDecodeError as exc:
                raise QueryError(f"the line is not JSON: {exc.msg} at column {exc.colno}", None) from None
            except RecursionError:
                raise QueryError("the line nests arrays or objects too deeply to be a query", None) from None
            if not isinstance(query, dict):
                raise QueryError("a query must be a JSON object", None)
            query_id = query.get("id")
            if not isinstance(query_id, str) or not query_id:
                query_id = None if not isinstance(query_id, (str, int)) else query_id
                raise QueryError("every query needs an \"id\" string", "id")
            if "action" in query:
                self.handle_action(query)
            else:
                for job in self.jobs_of(query):
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
            _only(query, ("id", "action"))
            self.send({"id": query["id"], "version": PROTOCOL_VERSION, "engine": f"splendor_mcts {__version__}"})
        elif action == "terminate":
            _only(query, ("id", "action", "terminateId"))
            target = query.get("terminateId")
            if not isinstance(target, str):
                raise QueryError("terminate needs \"terminateId\": the id of the query to stop", "terminateId")
            stopped = self.terminate(target)
            self.send({"id": query["id"], "action": "terminate", "terminateId": target, "stopped": stopped})
        elif action == "terminate_all":
            _only(query, ("id", "action"))
            self.send({"id": query["id"], "action": "terminate_all", "stopped": self.terminate_all()})
        else:
            raise QueryError(f"unknown action {action!r} (one of {', '.join(ACTIONS)})", "action")

    def terminate(self, query_id: str) -> int:
        """Stop the analyses of one query (queued ones never start, and are answered as
        terminated); how many were live."""
        with self._lock:
            jobs = self._live.pop(query_id, [])
        for job in jobs:
            job.cancelled.set()
        return len(jobs)

    def terminate_all(self) -> int:
        with self._lock:
            ids = list(self._live)
        return sum(self.terminate(i) for i in ids)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                if job.cancelled.is_set():  # terminated while queued: still answered, as a started one is
                    self.send({"id": job.query_id, "turnNumber": job.turn, "terminated": True})
                else:
                    self.analyze(job)
            except Exception as exc:  # one failed analysis must not stop the engine
                self.send_error(job.query_id, f"internal error: {type(exc).__name__}: {exc}", None,
                                turnNumber=job.turn)
            finally:
                with self._lock:
                    live = self._live.get(job.query_id, [])
                    if job in live:
                        live.remove(job)
                    if not live:
                        self._live.pop(job.query_id, None)

    def analyze(self, job: Job) -> None:
        def report(partial: Any) -> bool:
            if job.cancelled.is_set():
                return True  # stop the search
            self.send(self.response(job, partial, during=True))
            return False

        def stop_only(_partial: Any) -> bool:
            return job.cancelled.is_set()

        analysis = run_search(job.state, job.limits, on_progress=report if job.report_every else stop_only,
                              progress_every=job.report_every or 0.1, turns=job.turns)
        if not job.cancelled.is_set():
            self.send(self.response(job, analysis, during=False))
        else:
            self.send({"id": job.query_id, "turnNumber": job.turn, "terminated": True})

    def response(self, job: Job, analysis: Any, during: bool) -> dict[str, Any]:
        data = analysis.to_dict()
        out: dict[str, Any] = {"id": job.query_id, "isDuringSearch": during}
        if job.turn is not None:
            out["turnNumber"] = job.turn
        out["rootInfo"] = data["rootInfo"]
        out["moveInfos"] = data["moveInfos"]
        if job.turns:
            out["turnInfos"] = data["turnInfos"]
        return out

    # ---------------------------------------------------------------- queries
    def jobs_of(self, query: dict[str, Any]) -> list[Job]:
        """Validate a query and build its jobs; ``QueryError`` names the field."""
        _only(query, QUERY_FIELDS)
        limits = self.limits_of(query)
        report_every = query.get("reportDuringSearchEvery")
        if report_every is not None:
            if not _is_number(report_every) or report_every <= 0:
                raise QueryError("reportDuringSearchEvery must be a positive number of seconds", "reportDuringSearchEvery")
            report_every = float(report_every)
        turns = query.get("includeTurns", False)
        if not isinstance(turns, bool):
            raise QueryError("includeTurns must be true or false", "includeTurns")
        query_id = query["id"]
        if ("position" in query) == ("record" in query):
            raise QueryError("give either \"position\" or \"record\" (with \"analyzeTurns\")", "position")
        if "position" in query:
            if "analyzeTurns" in query:
                raise QueryError("analyzeTurns goes with a \"record\", not a \"position\"", "analyzeTurns")
            state = self.state_of_position(query["position"])
            return [Job(query_id, state, None, limits, report_every, turns)]
        states = self.states_of_record(query["record"], query.get("analyzeTurns"))
        return [Job(query_id, state, turn, limits, report_every, turns) for turn, state in states]

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

    def state_of_position(self, position: Any) -> Any:
        try:
            state = read_position(json.dumps(position)).state
        except PositionError as exc:
            raise QueryError(str(exc), _prefixed("position", exc.problems[0]["path"])) from None
        except ValueError as exc:
            raise QueryError(str(exc), "position") from None
        problem = decision_problem(state)
        if problem:
            raise QueryError(problem, "position")
        return state

    def states_of_record(self, record: Any, turns: Any) -> list[tuple[int, Any]]:
        try:
            parsed = GameRecord.from_dict(record)
            game = load_game(parsed.game)
        except ValueError as exc:
            raise QueryError(str(exc), "record") from None
        n = len(parsed.actions)
        if turns is None:
            turns = [n]
        if not isinstance(turns, list) or not turns or not all(_is_int(t) for t in turns):
            raise QueryError("analyzeTurns must be a non-empty list of turn numbers", "analyzeTurns")
        for i, t in enumerate(turns):
            if not 0 <= t <= n:
                raise QueryError(f"turn {t} is outside the record's 0..{n}", f"analyzeTurns[{i}]")
        state = game.new_initial_state(seed=parsed.seed, explicit_chance=parsed.explicit_chance)
        wanted = sorted(set(turns))
        found: dict[int, Any] = {}
        for turn in range(n + 1):
            if turn in wanted:
                problem = decision_problem(state)
                if problem:
                    raise QueryError(f"turn {turn}: {problem}", f"analyzeTurns[{turns.index(turn)}]")
                found[turn] = state.clone()
            if turn == n:
                break
            try:
                state.apply_action(parsed.actions[turn])
            except ValueError as exc:
                raise QueryError(f"record action #{turn} is illegal: {exc}", f"record.actions[{turn}]") from None
        return [(t, found[t]) for t in turns]


def _only(query: dict[str, Any], known: tuple[str, ...]) -> None:
    for key in query:
        if key not in known and key != "action":
            raise QueryError(f"unknown field {key!r} (known: {', '.join(known)})", key)


def _prefixed(root: str, path: str) -> str:
    """``position.players[1].tokens.red`` from a problem's path ``players[1].tokens.red``."""
    if not path or path == "(root)":
        return root
    return f"{root}{path}" if path.startswith("[") else f"{root}.{path}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and value == value and abs(value) != float("inf")


def register(subparsers: Any) -> None:
    """Add ``analyze`` to the ``splendor-mcts`` parser."""
    p = subparsers.add_parser(
        "analyze", help="JSON-lines analysis engine on stdin/stdout (like KataGo's analysis engine)",
        description="Read one JSON query per line on standard input and write JSON responses on standard "
        "output, matched by id. See docs/analysis-protocol.md.")
    p.add_argument("--workers", type=int, default=2, help="queries analyzed at once (default 2)")
    p.add_argument("--threads", type=int, default=1, help="default search threads per query (default 1)")
    p.set_defaults(func=run_analyze_command)


def run_analyze_command(args: argparse.Namespace) -> int:
    if args.workers < 1:
        raise ValueError(f"--workers must be positive, got {args.workers}")
    try:
        check_limits(SearchLimits(iterations=PROTOCOL_ITERATIONS, threads=args.threads))
    except SettingError as exc:
        raise ValueError(f"--threads: {exc}") from None
    return Engine(sys.stdout, workers=args.workers, default_threads=args.threads).run(sys.stdin)
