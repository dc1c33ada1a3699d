"""The board's sessions, each kept for the client that made it (:func:`.guard.client_of`).

A client sees only its own sessions: another's answers as missing. It keeps at most
``per_client`` (its oldest are dropped as it makes more), and the board at most ``total``:
when the board is full, a client that has sessions drops its own oldest, and one that has
none is refused. No client's sessions are ever dropped for another's.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

from .sessions import BoardSession


class BoardFull(Exception):
    """The board keeps as many sessions as it may, none of them this client's."""


class SessionStore:
    """Sessions by client, each client's in the order they were last used (see the module's text)."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self.clients: dict[str, OrderedDict[str, BoardSession]] = {}
        self.owners: dict[str, str] = {}  # session id -> its client

    def add(self, client: str, session: BoardSession) -> list[BoardSession]:
        """Keep ``session`` for ``client``; the client's sessions dropped to make room.
        ``BoardFull`` when the board is full and none of its sessions is the client's."""
        own = self.clients.get(client)
        if len(self.owners) >= self.total and not own:
            raise BoardFull(f"the board keeps at most {self.total} sessions, all of other clients: "
                            "try again when one of them is done")
        own = self.clients.setdefault(client, OrderedDict())
        own[session.ident] = session
        self.owners[session.ident] = client
        dropped = []
        while len(own) > self.per_client or len(self.owners) > self.total:
            ident, oldest = own.popitem(last=False)
            del self.owners[ident]
            dropped.append(oldest)
        return dropped

    def get(self, client: str, ident: str) -> BoardSession | None:
        """``client``'s session ``ident`` (now its most recently used), or None when there is
        none (or it is another client's)."""
        own = self.clients.get(client)
        if own is None or ident not in own:
            return None
        own.move_to_end(ident)
        return own[ident]

    def __getitem__(self, ident: str) -> BoardSession:
        """Session ``ident`` whoever's it is (for tests and the server's own use, not a client's)."""
        return self.clients[self.owners[ident]][ident]

    def __contains__(self, ident: object) -> bool:
        return ident in self.owners

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.owners))

    def __len__(self) -> int:
        return len(self.owners)

    def of(self, client: str) -> int:
        """How many sessions ``client`` keeps."""
        return len(self.clients.get(client, ()))
