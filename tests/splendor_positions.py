"""Builds base-game positions for rule tests by editing a real state's JSON.

Cards keep being conserved: moving a card takes it from wherever it is, and a table
slot it leaves is refilled from the top of its deck, as in the game.
"""
from __future__ import annotations

import json
from typing import Any

import splendor_mcts as sm

COLOURS = ["white", "blue", "green", "red", "black"]


class Position:
    def __init__(self, players: int = 2, seed: int = 1, **variant: Any) -> None:
        self.game = sm.load_game("splendor", players=players, **variant)
        self.d: dict[str, Any] = json.loads(self.game.new_initial_state(seed=seed).to_json())
        self.d.pop("bank")
        for p in self.d["players"]:
            p.pop("points")
            p.pop("bonuses")
        self.cards = {c["id"]: c for c in self.game.cards()}

    # --- cards
    def _take(self, card: int) -> None:
        d = self.d
        for level, row in enumerate(d["table"]):
            if card in row:
                deck = d["decks"][level]
                row[row.index(card)] = deck.pop() if deck else None
                return
        for deck in d["decks"]:
            if card in deck:
                deck.remove(card)
                return
        for p in d["players"]:
            if card in p["cards"]:
                p["cards"].remove(card)
                return
            for r in p["reserved"]:
                if r["card"] == card:
                    p["reserved"].remove(r)
                    return
        raise AssertionError(f"card {card} not found")

    def give_cards(self, seat: int, *cards: int) -> "Position":
        for c in cards:
            self._take(c)
            self.d["players"][seat]["cards"].append(c)
        return self

    def reserve(self, seat: int, card: int, blind: bool = False) -> "Position":
        self._take(card)
        self.d["players"][seat]["reserved"].append({"card": card, "blind": blind})
        return self

    def on_table(self, level: int, slot: int, card: int) -> "Position":
        """Put card at table (level, slot) (1-based); the card there goes to its deck's bottom."""
        self._take(card)
        row = self.d["table"][level - 1]
        old = row[slot - 1]
        if old is not None:
            self.d["decks"][level - 1].insert(0, old)
        row[slot - 1] = card
        return self

    def empty_deck(self, level: int) -> "Position":
        """Move a level's whole deck into seat 1's bought cards (out of play)."""
        deck = self.d["decks"][level - 1]
        self.d["players"][-1]["cards"].extend(deck)
        deck.clear()
        return self

    def table_card(self, level: int, slot: int) -> int:
        return self.d["table"][level - 1][slot - 1]

    def find_card(self, **props: Any) -> int:
        """The first card id whose fields match (cost given as a dict of colours)."""
        for cid, c in self.cards.items():
            if all((c["cost"] == v if k == "cost" else c[k] == v) for k, v in props.items()):
                return cid
        raise AssertionError(f"no card with {props}")

    # --- tokens, nobles, turn
    def tokens(self, seat: int, **counts: int) -> "Position":
        t = {k: 0 for k in COLOURS + ["gold"]}
        t.update(counts)
        self.d["players"][seat]["tokens"] = t
        return self

    def set(self, **fields: Any) -> "Position":
        self.d.update(fields)
        return self

    def nobles(self, *ids: int) -> "Position":
        self.d["nobles"] = list(ids)
        self.d.pop("noble_order", None)
        return self

    def text(self) -> str:
        return json.dumps(self.d)

    def state(self) -> Any:
        return self.game.state_from_json(self.text())


def cost_of(game: Any, card: int) -> dict[str, int]:
    return next(c for c in game.cards() if c["id"] == card)["cost"]


def act(state: Any, *moves: str) -> Any:
    for m in moves:
        state.apply_action(state.string_to_action(m))
    return state


def legal_texts(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def tokens_of(state: Any, seat: int) -> dict[str, int]:
    return json.loads(state.to_json())["players"][seat]["tokens"]


def view(state: Any, seat: int | None = None) -> dict[str, Any]:
    return json.loads(state.to_json() if seat is None else state.observation_json(seat))


def dealt_record(seed: int, *moves: str) -> dict[str, Any]:
    """A 2-player record (as JSON data) of the deal of ``seed``, its reveals recorded as
    chance actions, then ``moves`` as typed; a move not legal is recorded all the same."""
    game = sm.load_game("splendor")
    state = game.new_initial_state(seed=seed, explicit_chance=True)
    actions = []
    while state.is_chance_node():
        actions.append(state.dealt_outcome())
        state.apply_action(actions[-1])
    for move in moves:
        actions.append(state.string_to_action(move))
        if state.is_legal(actions[-1]):
            state.apply_action(actions[-1])
    return {"format": "splendor-mcts-record/1", "game": game.spec, "seed": seed, "explicit_chance": True,
            "seats": ["a", "b"], "actions": actions, "result": None, "termination": "unfinished"}
