"""The web board's caps (``splendor-mcts serve`` options), apart from the app so the command
line reads them without Starlette installed."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServeSettings:
    """The server's caps: request body bytes, seconds of any one search, searches at once
    per client and on the whole board, engine iterations per decision, sessions kept per
    client (its oldest are dropped) and on the whole board (a client with none is then
    refused), search trees kept for a hint to continue (the oldest are freed) and the bytes
    of each tree, and the search threads (None: at most 2). A client is a browser (its
    cookie), not an address: every client on this machine has the same one."""

    max_body: int = 256 * 1024
    max_search_seconds: float = 60.0
    searches_per_client: int = 2
    max_searches: int = 8
    max_engine_iterations: int = 200_000
    max_review_iterations: int = 5_000
    sessions_per_client: int = 20
    max_sessions: int = 200
    kept_trees: int = 4
    max_tree_bytes: int = 256 * 1024 * 1024
    threads: int | None = None
    progress_every: float = 0.1  # ten hint updates a second (the first one soon after asking)

    def search_threads(self) -> int:
        import os

        return self.threads or min(2, os.cpu_count() or 1)
