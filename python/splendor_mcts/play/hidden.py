"""Follow mode: cards the user never saw, made to agree with what the table later shows.

When an opponent reserves blind, the engine must put *some* card into that reserve; it
takes the deal's card, which the user cannot know. Later the table may show otherwise:
the card appears in the pyramid, or the opponent buys the reserve and it turns out to be
another card. Then the record's hidden draw is changed to a card that fits and the whole
record is replayed by the engine (which checks every action), so nothing the user saw
changes. Only draws hidden from the viewer are ever changed.
"""
from __future__ import annotations

import json
from typing import Any

from ..wording import counted, seat_name


def start_state(game: Any, start: Any) -> Any:
    """Where a followed or played game starts: the deal of a seed (an ``int``), or a copy of
    the state of a typed position (explicit chance on)."""
    if isinstance(start, int):
        return game.new_initial_state(seed=start, explicit_chance=True)
    return start.clone()


def replay_actions(game: Any, start: Any, actions: list[int]) -> Any:
    """The state after ``actions`` from ``start`` (a seed or a state, as ``start_state``);
    ``ValueError`` when one of them is not legal where it falls."""
    state = start_state(game, start)
    for action in actions:
        state.apply_action(action)
    return state


def hidden_draws(game: Any, start: Any, actions: list[int], table: Any, viewer: int) -> list[int]:
    """Indexes of the record's chance actions that drew a card into another seat's blind reserve."""
    probe = start_state(game, start)
    found = []
    for index, action in enumerate(actions):
        if probe.is_chance_node() and table.hidden_draw(json.loads(probe.observation_json(viewer))):
            found.append(index)
        probe.apply_action(action)
    return found


def with_draw(game: Any, start: Any, actions: list[int], index: int, new: int, hidden: list[int]) -> list[int] | None:
    """``actions`` with the hidden draw at ``index`` turned into ``new`` (two hidden draws swap
    their cards), or None when the record would no longer replay."""
    changed = list(actions)
    old = changed[index]
    for other in hidden:
        if changed[other] == new:
            changed[other] = old
    changed[index] = new
    try:
        replay_actions(game, start, changed)
    except ValueError:
        return None
    return changed


def free_card_for(game: Any, start: Any, actions: list[int], table: Any, viewer: int,
                  reveal: int, candidates: list[int]) -> list[int] | None:
    """Actions in which the card of chance action ``reveal``, drawn unseen into a blind
    reserve, is replaced by one of ``candidates`` (cards still in the deck), so that it
    can be revealed now; None when it was not drawn unseen or nothing fits."""
    hidden = hidden_draws(game, start, actions, table, viewer)
    for index in (i for i in hidden if actions[i] == reveal):
        for candidate in candidates:
            if candidate != reveal and (changed := with_draw(game, start, actions, index, candidate, hidden)):
                return changed
    return None


def name_hidden_reserve(game: Any, state: Any, start: Any, actions: list[int], table: Any, viewer: int,
                        seat: int, index: int, card_id: int) -> list[int]:
    """Actions in which ``seat``'s reserved card ``index`` (from 1), hidden from the viewer,
    is the card ``card_id``. ``ValueError`` says why it cannot be."""
    view = json.loads(state.observation_json(viewer))
    reserved = view["players"][seat]["reserved"]
    if not 1 <= index <= len(reserved):
        raise ValueError(f"{seat_name(seat)} has {counted(len(reserved), 'reserved card')}")
    if "card" in reserved[index - 1]:
        if reserved[index - 1]["card"] != card_id:
            raise ValueError(f"reserved card {index} of {seat_name(seat)} is #{reserved[index - 1]['card']}, not #{card_id}")
        return list(actions)
    current = json.loads(state.to_json())["players"][seat]["reserved"][index - 1]["card"]
    if current == card_id:
        return list(actions)
    old, new = table.reveal_action(state, current), table.reveal_action(state, card_id)
    hidden = hidden_draws(game, start, actions, table, viewer)
    drawn = [i for i in hidden if actions[i] == old]
    changed = with_draw(game, start, actions, drawn[-1], new, hidden) if drawn else None
    if changed is None:
        raise ValueError(why_not_hidden(game, state, viewer, current, card_id, seat))
    return changed


def unseen_cards(game: Any, state: Any, viewer: int) -> set[int]:
    """The cards ``viewer`` cannot see: in a deck, in another seat's blind reserve, or among
    bought cards a typed position gave only by colour and points."""
    view = json.loads(state.observation_json(viewer))
    seen = {c for row in view.get("table", view.get("pyramid", [])) for c in row if c}
    for player in view["players"]:
        seen |= {c if isinstance(c, int) else c["card"] for c in player["cards"]}
        seen |= {r["card"] for r in player["reserved"] if "card" in r}
    return {c["id"] for c in game.cards()} - seen


def why_not_hidden(game: Any, state: Any, viewer: int, current: int, card_id: int, seat: int) -> str:
    """Why card ``card_id`` cannot be ``seat``'s hidden reserve (now the card ``current``)."""
    if card_id not in unseen_cards(game, state, viewer):
        return f"card #{card_id} cannot be a hidden card: you have seen it elsewhere (it is on the table as you see it)"
    levels = {c["id"]: c["level"] for c in game.cards()}
    if levels[card_id] != levels[current]:
        return (f"card #{card_id} cannot be {seat_name(seat)}'s hidden card: it is a level-{levels[card_id]} card, "
                f"the hidden one is of level {levels[current]}")
    return f"card #{card_id} cannot be {seat_name(seat)}'s hidden card: the game would no longer replay with it"
