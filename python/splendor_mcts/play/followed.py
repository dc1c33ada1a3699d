"""A game followed from a seat: its record, and the repairs that keep the cards the seat
never saw in agreement with what the table later shows.

The record starts at the deal of ``seed`` or at a typed position's state (``position``)
and holds every action since, chance outcomes included. A repair changes only what the
viewer could not see (a hidden draw, or the cards a position gave by colour and points)
and replays the whole record (the engine checks every action), so nothing the viewer saw
changes. ``play --follow`` (:class:`~splendor_mcts.play.session.PlaySession`) and the web
board's follow mode (``serve/sessions.py``) both follow a table with it.
"""
from __future__ import annotations

import json
from typing import Any

from .. import _core
from ..games.play_table import card_id_of
from . import hidden
from .tables import table_for


class FollowedRecord:
    """A record followed from ``viewer``'s seat: where it starts, its actions and the state they reach."""

    def __init__(self, game: Any, viewer: int, seed: int = 0, position: Any = None,
                 actions: list[int] | None = None) -> None:
        self.game = game
        self.table = table_for(game)
        self.viewer = viewer
        self.seed = seed          # the deal when there is no position; the redraws of a position's sampled cards
        self.position = position  # a typed position's state the game starts from, else None (the deal of seed)
        self.actions: list[int] = list(actions or [])
        self.state = hidden.replay_actions(game, self.start, self.actions)

    @property
    def start(self) -> Any:
        """Where the record starts (hidden.start_state): the typed position, else the seed."""
        return self.seed if self.position is None else self.position

    def apply(self, action: int) -> None:
        self.state.apply_action(action)
        self.actions.append(action)

    def reset_to(self, actions: list[int]) -> None:
        self.state, self.actions = hidden.replay_actions(self.game, self.start, actions), list(actions)

    def pending_blind_of_other(self, state: Any | None = None) -> bool:
        """A card drawn into a blind reserve of a seat the viewer cannot see."""
        return self.table.hidden_draw(json.loads((state or self.state).observation_json(self.viewer)))

    def free_for_reveal(self, reveal: int) -> bool:
        """The card of chance action ``reveal`` shows on the table but the record had put it
        where the viewer cannot see: put another card there (False when none fits)."""
        return self.free_hidden_card(reveal) or self.free_start_reserve(reveal) or self.free_sampled_card(reveal)

    def free_hidden_card(self, reveal: int) -> bool:
        """The card of ``reveal`` shows on the table, but the engine had dealt it unseen into
        an opponent's blind reserve: deal that reserve another card of the deck instead."""
        candidates = [a for a, _ in self.state.chance_outcomes()]
        changed = hidden.free_card_for(self.game, self.start, self.actions, self.table, self.viewer, reveal, candidates)
        if changed is None:
            return False
        self.reset_to(changed)
        return True

    def free_start_reserve(self, reveal: int) -> bool:
        """The card of ``reveal`` shows on the table, but the typed position had dealt it into
        a blind reserve of another seat: that reserve becomes a card that may be revealed now."""
        if self.position is None:
            return False
        card = next((c["id"] for c in self.game.cards() if self.table.reveal_action(self.state, c["id"]) == reveal), None)
        for seat, player in enumerate(json.loads(self.position.to_json())["players"]):
            if seat != self.viewer and any(r["blind"] and r["card"] == card for r in player["reserved"]):
                outcomes = {a for a, _ in self.state.chance_outcomes()}
                return any(self.swap_start_reserve(seat, card, c["id"]) for c in self.game.cards()
                           if c["id"] != card and self.table.reveal_action(self.state, c["id"]) in outcomes)
        return False

    def free_sampled_card(self, reveal: int) -> bool:
        """The card of ``reveal`` shows on the table, but the typed position's draw had put it
        among a player's bought cards known only as the table shows them: draw those again at
        the start without it (nor any card the record reveals) and replay the record."""
        if self.position is None or not _core.has_sampled_cards(self.position):
            return False
        sampled = [card["card"] if isinstance(card, dict) else card  # a Duel joker: {"card": id, "colour": ...}
                   for p in json.loads(self.position.to_json())["players"] for card in p.get("sampled_cards", [])]
        card = next((c for c in sampled if self.table.reveal_action(self.state, c) == reveal), None)
        if card is None:
            return False
        revealed = [c for c in range(1, len(self.game.cards()) + 1) if self.table.reveal_action(self.state, c) in self.actions]
        for attempt in range(20):
            start = self.position.clone()
            if not _core.release_sampled_card(start, card, self.seed + attempt, revealed):
                return False
            try:
                state = hidden.replay_actions(self.game, start, self.actions)
            except ValueError:
                continue
            self.position, self.state = start, state
            return True
        return False

    def name_hidden_reserve(self, seat: int, text: str) -> tuple[str, list[int]]:
        """``buy r1 #43``: the opponent's hidden reserve r1 is card #43. The move without the
        card, and the record with the hidden draw re-dealt to that card (not applied yet; a
        reserve already in the typed position is changed there at once); ``ValueError`` when
        it cannot be."""
        match = self.table.named_reserve_move.match(text)
        if match is None:
            return text, self.actions
        card_id = card_id_of(self.game, match.group(3))
        try:
            changed = hidden.name_hidden_reserve(self.game, self.state, self.start, self.actions, self.table,
                                                 self.viewer, seat, int(match.group(2)), card_id)
        except ValueError:
            if not self.name_start_reserve(seat, int(match.group(2)), card_id):
                raise
            changed = self.actions
        return match.group(1), changed

    def name_start_reserve(self, seat: int, index: int, card_id: int) -> bool:
        """``seat``'s hidden reserve ``index`` (from 1) was already in the typed position the game
        started from: make it card ``card_id`` there (swapped with that card in its deck) and
        replay the record. False when it was not, or the card is not in that deck then."""
        if self.position is None:
            return False
        reserved = json.loads(self.state.to_json())["players"][seat]["reserved"]
        if not 1 <= index <= len(reserved) or not reserved[index - 1]["blind"]:
            return False
        return self.swap_start_reserve(seat, reserved[index - 1]["card"], card_id)

    def swap_start_reserve(self, seat: int, current: int, card_id: int) -> bool:
        """In the typed position, ``seat``'s blind reserve ``current`` and card ``card_id`` of
        its deck trade places, and the record is replayed; False when it cannot be."""
        start = json.loads(self.position.to_json())
        slot = next((r for r in start["players"][seat]["reserved"] if r["blind"] and r["card"] == current), None)
        deck = start["decks"][self.game.cards()[current - 1]["level"] - 1]
        if slot is None or card_id not in deck:
            return False  # drawn during the record, or the card is not of that deck (seen, or another level)
        deck[deck.index(card_id)], slot["card"] = current, card_id
        try:
            position = self.game.state_from_json(json.dumps(start))
            state = hidden.replay_actions(self.game, position, self.actions)
        except ValueError:
            return False
        self.position, self.state = position, state
        return True
