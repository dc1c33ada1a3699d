"""Builds Splendor Duel positions for rule tests as JSON (docs/position-format.md).

A position starts empty (no tokens on the board, all in the bag; nobody owns a card);
tests place what the rule needs. Pyramid slots left empty are filled with unused
cards of their level and every other card goes to its deck, so cards stay conserved.
"""
from __future__ import annotations

import json
from typing import Any

import splendor_mcts as sm

KINDS = ["white", "blue", "green", "red", "black", "pearl", "gold"]
SLOTS = {1: 5, 2: 4, 3: 3}


class DuelPosition:
    def __init__(self, **variant: Any) -> None:
        self.game = sm.load_game("duel", **variant)
        self.cards = {c["id"]: c for c in self.game.cards()}
        self.board = ["....."] * 5
        self.pyramid: dict[int, list[int | None]] = {lv: [None] * n for lv, n in SLOTS.items()}
        self.players: list[dict[str, Any]] = [
            {"tokens": {}, "privileges": 0, "cards": [], "reserved": [], "royals": []} for _ in range(2)
        ]
        self.to_move = 0
        self.extra: dict[str, Any] = {}

    def set_board(self, *rows: str) -> "DuelPosition":
        """Five rows of five symbols: W U G R K, P pearl, Y gold (or *), . empty (spaces ignored)."""
        cells = "".join("".join(rows).split())
        assert len(cells) == 25, cells
        self.board = [cells[i : i + 5] for i in range(0, 25, 5)]
        return self

    def tokens(self, seat: int, **counts: int) -> "DuelPosition":
        self.players[seat]["tokens"] = dict(counts)
        return self

    def give(self, seat: int, *card_ids: int, joker: str | None = None) -> "DuelPosition":
        for cid in card_ids:
            if self.cards[cid]["bonus"] == "joker":
                self.players[seat]["cards"].append({"card": cid, "colour": joker})
            else:
                self.players[seat]["cards"].append(cid)
        return self

    def reserve(self, seat: int, card_id: int, blind: bool = False) -> "DuelPosition":
        self.players[seat]["reserved"].append({"card": card_id, "blind": blind})
        return self

    def slot(self, level: int, index: int, card_id: int) -> "DuelPosition":
        """Put a card in pyramid slot `level`.`index` (both 1-based, as in the notation)."""
        assert self.cards[card_id]["level"] == level
        self.pyramid[level][index - 1] = card_id
        return self

    def used(self) -> set[int]:
        ids = {c for row in self.pyramid.values() for c in row if c is not None}
        for p in self.players:
            ids |= {c if isinstance(c, int) else c["card"] for c in p["cards"]}
            ids |= {r["card"] for r in p["reserved"]}
        return ids

    def to_dict(self) -> dict[str, Any]:
        used = self.used()
        free = {lv: [c for c, row in self.cards.items() if row["level"] == lv and c not in used] for lv in SLOTS}
        pyramid = []
        for lv in SLOTS:
            row = []
            for c in self.pyramid[lv]:
                row.append(c if c is not None else (free[lv].pop(0) if free[lv] else None))
            pyramid.append(row)
        return {
            "game": "duel",
            "to_move": self.to_move,
            "board": self.board,
            "pyramid": pyramid,
            "decks": [free[lv] for lv in SLOTS],
            "players": self.players,
            **self.extra,
        }

    def text(self) -> str:
        return json.dumps(self.to_dict())

    def state(self) -> Any:
        return self.game.state_from_json(self.text())


def view(state: Any, seat: int | None = None) -> dict[str, Any]:
    return json.loads(state.to_json() if seat is None else state.observation_json(seat))


def act(state: Any, *moves: str) -> Any:
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


def legal_texts(state: Any) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def is_legal(state: Any, move: str) -> bool:
    return state.is_legal(state.string_to_action(move))


def tokens_of(state: Any, seat: int) -> dict[str, int]:
    return {k: v for k, v in view(state)["players"][seat]["tokens"].items() if v}
