"""A stand-in for the peer (cestpasphoto/alpha-zero-general's Splendor player) in the suite.

Written from the documented facts of its encoding and rules (docs/peer-alphazero.md; its
``SplendorLogicNumba`` module header), not from its code, so the wrapper's translation is tested
without the peer installed. tests/data/peer_valid_actions.json holds the real peer's answers
on recorded boards: :func:`valid_actions` must agree with every one of them.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools" / "peer"))

import translate as tr  # noqa: E402

LIMIT = 10


def tables(game: Any, shift: int = 1) -> dict[str, Any]:
    """Our cards and nobles in the peer's table layout: per level five groups of cards, each
    card a cost row and a gain row. The groups are not the bonus colours (the peer's are not
    either): a card goes to group (bonus + shift) mod 5, the cards of a group by id downwards."""
    cards: list[list[list[Any]]] = [[[] for _ in range(5)] for _ in range(3)]
    for card in sorted(game.cards(), key=lambda c: -c["id"]):
        bonus = tr.COLOURS.index(card["bonus"])
        cost = [card["cost"][c] for c in tr.COLOURS] + [0, 0]
        gain = [int(c == bonus) for c in range(5)] + [0, card["points"]]
        cards[card["level"] - 1][(bonus + shift) % 5].append([cost, gain])
    nobles = [[n["requirement"][c] for c in tr.COLOURS] + [0, n["points"]] for n in game.nobles()]
    return {"cards": cards, "nobles": nobles}


class Board:
    """The peer's board read back by its documented row layout (the mover is player 0)."""

    def __init__(self, rows: list[list[int]], players: int) -> None:
        self.rows, self.n = rows, players

    @property
    def bank(self) -> list[int]:
        return self.rows[0][:6]

    def round(self) -> int:
        return self.rows[0][6] % 256

    def table(self, level: int, slot: int) -> tuple[list[int], list[int]]:
        at = 1 + 8 * level + 2 * slot
        return self.rows[at], self.rows[at + 1]

    def deck(self, level: int) -> tuple[list[int], list[int]]:
        return self.rows[25 + 2 * level][:5], [b % 256 for b in self.rows[26 + 2 * level][:5]]

    def nobles(self) -> list[list[int]]:
        return self.rows[31:32 + self.n]

    def tokens(self, k: int) -> list[int]:
        return self.rows[32 + self.n + k][:6]

    def owned_nobles(self, k: int) -> list[list[int]]:
        at = 32 + 2 * self.n + (self.n + 1) * k
        return self.rows[at:at + self.n + 1]

    def bought(self, k: int) -> list[int]:
        return self.rows[32 + 3 * self.n + self.n * self.n + k]

    def reserved(self, k: int) -> list[tuple[list[int], list[int]]]:
        at = 32 + 4 * self.n + self.n * self.n + 6 * k
        return [(self.rows[at + 2 * j], self.rows[at + 2 * j + 1]) for j in range(3)]


def _affordable(board: Board, cost: list[int]) -> bool:
    tokens, bonuses = board.tokens(0), board.bought(0)
    short = sum(max(cost[c] - tokens[c] - bonuses[c], 0) for c in range(5))
    return short <= tokens[5]


def valid_actions(rows: list[list[int]], players: int) -> list[int]:
    """The peer's own valid actions, from its documented rules: buy what the mover can pay
    (gold for what is short), reserve while fewer than 3 are held (a table card or a deck that
    is not empty), take 1-3 different colours or two of one (the bank holding 4) without going
    above 10 tokens, give back one or two different tokens or two of one it holds, pass."""
    board = Board(rows, players)
    valid = [0] * tr.ACTIONS
    held = sum(board.tokens(0))
    full = sum(board.reserved(0)[2][0][:5]) > 0
    for level in range(3):
        for slot in range(4):
            cost, _ = board.table(level, slot)
            present = sum(cost[:5]) > 0
            valid[tr.BUY + 4 * level + slot] = int(present and _affordable(board, cost))
            valid[tr.RESERVE + 4 * level + slot] = int(present and not full)
        valid[tr.RESERVE_DECK + level] = int(sum(board.deck(level)[0]) > 0 and not full)
    for j, (cost, _) in enumerate(board.reserved(0)):
        valid[tr.BUY_RESERVED + j] = int(sum(cost[:5]) > 0 and _affordable(board, cost))
    bank = board.bank
    for i, colours in enumerate(tr.TAKE_SETS):
        valid[tr.TAKE + i] = int(all(bank[c] >= 1 for c in colours) and held + len(colours) <= LIMIT)
    for c in range(5):
        valid[tr.TAKE_TWO + c] = int(bank[c] >= 4 and held + 2 <= LIMIT)
    tokens = board.tokens(0)
    give_sets = [s for s in tr.TAKE_SETS if len(s) <= 2]
    for i, colours in enumerate(give_sets):
        valid[tr.GIVE_BACK + i] = int(all(tokens[c] >= 1 for c in colours))
    for c in range(5):
        valid[tr.GIVE_BACK + len(give_sets) + c] = int(tokens[c] >= 2)
    valid[tr.PASS] = 1
    return valid


class StandInPeer:
    """``peer_engine.PeerProcess``'s requests answered by the stand-in: its tables, its valid
    actions, and a seeded random choice among those offered (for the wrapper, a peer)."""

    def __init__(self, game: Any, seed: int = 0) -> None:
        self.tables = tables(game)
        self.rng = random.Random(seed)
        self.requests: list[dict[str, Any]] = []

    def request(self, **request: Any) -> dict[str, Any]:
        self.requests.append(request)
        op = request["op"]
        if op in ("tables", "load"):
            return {"ok": True, "settings": {"numMCTSSims": 800}, "load_seconds": 0.0, **self.tables}
        if op == "newgame":
            return {"ok": True}
        valid = valid_actions(request["board"], request["players"])
        if op == "valid":
            return {"ok": True, "valid": valid}
        choices = [a for a in range(tr.ACTIONS) if valid[a] and request["allowed"][a]]
        return {"ok": True, "action": self.rng.choice(choices), "valid": valid, "cpu": 0.0, "wall": 0.0}
