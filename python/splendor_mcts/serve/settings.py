"""The web board's caps (``splendor-mcts serve`` options), apart from the app so the command
line reads them without Starlette installed."""
from __future__ import annotations

from dataclasses import dataclass

from ..ranges import ITERATIONS, SECONDS, Number, Whole

# Each cap's range: ServeSettings refuses a value outside it (nan, inf, 400 digits: a cap that
# caps nothing, or every request refused), and the command line reads its options with them.
RANGES: dict[str, Whole | Number] = {
    "max_body": Whole(1024, 2**30, unit="bytes"),
    "max_search_seconds": SECONDS,
    "searches_per_client": Whole(1, 1024),
    "max_searches": Whole(1, 1024),
    "max_engine_iterations": ITERATIONS,
    "max_review_iterations": ITERATIONS,
    "sessions_per_client": Whole(1, 1_000_000),
    "max_sessions": Whole(1, 1_000_000),
    "kept_trees": Whole(0, 1024),
    "max_tree_bytes": Whole(1 << 20, 2**62, unit="bytes"),
    "threads": Whole(1, 256),
    "progress_every": Number(0, 60, unit="seconds", above=True),
}


@dataclass(frozen=True)
class ServeSettings:
    """The server's caps: request body bytes, seconds of any one search, searches at once
    per client and on the whole board, engine iterations per decision, sessions kept per
    client (its oldest are dropped) and on the whole board (a client with none is then
    refused), search trees kept for a hint to continue (the oldest are freed) and the bytes
    of each tree, and the search threads (None: at most 2). A client is a browser (its
    cookie), not an address: every client on this machine has the same one. Each cap in its
    range (:data:`RANGES`), else ``ValueError`` naming it."""

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

    def __post_init__(self) -> None:
        for name, kind in RANGES.items():
            value = getattr(self, name)
            if value is not None or name != "threads":  # threads None: the default
                object.__setattr__(self, name, kind.check(value, name))

    def search_threads(self) -> int:
        import os

        return self.threads or min(2, os.cpu_count() or 1)
