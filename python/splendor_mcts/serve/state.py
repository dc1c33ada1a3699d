"""The web board's state (:class:`Board`): its settings, the sessions by client, the
search slots and the search trees kept for hints; every endpoint finds it with
:func:`board_of`."""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from starlette.requests import Request

from ..analysis.running import SearchLimits
from .guard import client_of
from .live import SearchSlots, continuing_searcher
from .sessions import BoardSession
from .settings import ServeSettings
from .store import BoardFull, SessionStore
from .web import HttpError


class Board:
    """The app's state: its settings, the sessions (by client) and the search slots."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self.sessions = SessionStore(settings.sessions_per_client, settings.max_sessions)
        self.slots = SearchSlots(settings.searches_per_client, settings.max_searches)
        self.trees: OrderedDict[str, BoardSession] = OrderedDict()  # sessions keeping a hint's tree
        self.lock = threading.Lock()  # one change of a session at a time (engine turns run in threads)

    def add(self, request: Request, session: BoardSession) -> BoardSession:
        """Keep ``session`` for the request's client (its oldest dropped past its cap)."""
        try:
            dropped = self.sessions.add(client_of(request), session)
        except BoardFull as exc:
            raise HttpError(503, str(exc)) from None
        for old in dropped:
            self.trees.pop(old.ident, None)  # its search tree goes with it
        return session

    def session(self, request: Request) -> BoardSession:
        """The session the request's path names, if it is the client's own (404 otherwise:
        another client's session is not told apart from one that does not exist)."""
        ident = request.path_params["id"]
        session = self.sessions.get(client_of(request), ident)
        if session is None:
            raise HttpError(404, f"no session {ident!r} (sessions are kept in memory, each for the browser "
                            "that made it: start a new one)")
        return session

    def limits(self, seconds: float | None = None, iterations: int | None = None, analysis: bool = True,
               top_k: int | None = 5) -> SearchLimits:
        cap = self.settings.max_search_seconds
        return SearchLimits(iterations=iterations, time_limit=min(seconds, cap) if seconds else cap,
                            threads=self.settings.search_threads(), seed=int(time.time() * 1000) % 2**31,
                            top_k=top_k, analysis=analysis, settings={"memory_limit": self.settings.max_tree_bytes})

    def hint_searcher(self, session: BoardSession, seconds: float, limits: SearchLimits) -> Any:
        """The session's searcher for a hint of ``seconds``, which keeps its tree; only the
        ``kept_trees`` sessions that asked last keep theirs (each up to ``max_tree_bytes``)."""
        if session.hint_searcher is None or session.hint_seconds != seconds:
            session.hint_searcher, session.hint_seconds = continuing_searcher(session.state, limits), seconds
        self.trees[session.ident] = session
        self.trees.move_to_end(session.ident)
        while len(self.trees) > self.settings.kept_trees:
            _, oldest = self.trees.popitem(last=False)
            oldest.hint_searcher = None  # freed once no search holds it
        return session.hint_searcher


def board_of(request: Request) -> Board:
    """The board whose app answers ``request`` (``make_app`` keeps it in the app's state)."""
    board: Board = request.app.state.board
    return board
