"""An exhaustive threat check in Python (the reference for ``_core.threat_after``,
cpp/core/threats.hpp), written from the definition in docs/hints.md ("Threats") with the
rules API only: every card the turn reveals, every reply of the other seats, the next
seat's moves on a card the player to move cannot see (a blind reserve, by the player's
view) left out. Slow, and independent of the engine's check: no gate, no ordering, the
winning moves of every reveal computed in full."""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from splendor_mcts import _core

from splendor_positions import Position


def late_positions(game: Any, deals: range, last: int) -> list[Any]:
    """The last ``last`` decisions of random games (deal d, uniformly random moves from
    random.Random(d)), chance nodes left out: threats are near the end of a game."""
    found = []
    for deal in deals:
        state, rng, history = game.new_initial_state(seed=deal), random.Random(deal), []
        while not state.is_terminal():
            if not state.is_chance_node():
                history.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        found += history[-last:]
    return found


def whole_turns(state: Any, limit: int, seed: int = 0) -> list[list[int]]:
    """Up to ``limit`` distinct whole turns of the seat to move (decisions until another seat
    moves or the game ends, the deal's reveals on the way), each a random walk with ``seed``:
    a Duel turn's tree (privileges, takes, abilities, returns) is too large to list."""
    seat = state.current_player()
    rng = random.Random(seed)
    found: list[list[int]] = []
    for _ in range(4 * limit):
        s = state.clone()
        s.set_explicit_chance(False)
        line: list[int] = []
        while not s.is_terminal() and s.current_player() == seat:
            line.append(rng.choice(s.legal_actions()))
            s.apply_action(line[-1])
        if line not in found:
            found.append(line)
        if len(found) == limit:
            break
    return found


def hidden_from(state: Any, action: int, observer: int) -> bool:
    """Whether ``action`` of the seat to move buys a reserve ``observer`` sees no card of."""
    seat = state.current_player()
    if seat == observer:
        return False
    text = state.action_to_string(action)
    words = text.split()
    if words[0] != "buy":
        return False
    place = words[-1]
    if words[1:2] == ["reserved"]:
        index = int(place) - 1
    elif place.startswith("r") and place[1:].isdigit():
        index = int(place[1:]) - 1
    else:
        return False
    view = json.loads(state.observation_json(observer))
    return "card" not in view["players"][seat]["reserved"][index]


def wins(s: Any, seat: int, done: bool, observer: int, known: dict[tuple[int, bool], bool] | None = None) -> bool:
    """Whether ``seat`` has won, or wins whatever happens before its next turn begins.
    With ``known`` (a dict), answers are remembered by the position's hash: one Duel turn
    reaches a position in many orders (privileges), too many to walk in Python without."""
    if known is None:
        return _wins(s, seat, done, observer, None)
    key = (s.hash(), done)
    if key not in known:
        known[key] = _wins(s, seat, done, observer, known)
    return known[key]


def _wins(s: Any, seat: int, done: bool, observer: int, known: dict[tuple[int, bool], bool] | None) -> bool:
    if s.is_terminal():
        return s.returns()[seat] == 1.0
    if s.is_chance_node():
        return all(wins(_after(s, a), seat, done, observer, known) for a, _ in s.chance_outcomes())
    mover = s.current_player()
    if mover == seat:
        return not done and any(wins(_after(s, a), seat, False, observer, known)
                                for a in s.legal_actions() if not hidden_from(s, a, observer))
    return all(wins(_after(s, a), seat, True, observer, known) for a in s.legal_actions())


def _after(s: Any, action: int) -> Any:
    c = s.clone()
    c.apply_action(action)
    return c


def reference_threat(state: Any, turn: list[int], max_leaves: int = 5000,
                     remember: bool = False) -> tuple[bool | None, int, set[str]]:
    """(threat, seat, winning first moves by notation) after the seat to move plays ``turn``;
    threat None when no reveal lets the turn be played, or past ``max_leaves`` positions
    after it. A reveal after which a decision of the turn is not legal is left out (the
    player would not play this turn there); the first position after the turn where the
    next seat has no win answers no (no move can win after every reveal). ``remember``:
    :func:`wins` remembers positions by hash (Duel; Splendor's reference walks every line)."""
    observer = state.current_player()

    def leaves(s: Any, i: int) -> Iterator[Any]:
        if s.is_chance_node():
            for a, _ in s.chance_outcomes():
                yield from leaves(_after(s, a), i)
        elif i == len(turn):
            yield s
        elif s.is_legal(turn[i]):
            yield from leaves(_after(s, turn[i]), i + 1)

    start = state.clone()
    start.set_explicit_chance(True)
    common: set[str] | None = None
    seat = -1
    for n, leaf in enumerate(leaves(start, 0)):
        if n == max_leaves:
            return None, -1, set()
        if leaf.is_terminal():
            return False, -1, set()
        seat = leaf.current_player()
        known: dict[tuple[int, bool], bool] | None = {} if remember else None
        winning = {leaf.action_to_string(a) for a in leaf.legal_actions()
                   if not hidden_from(leaf, a, observer) and wins(_after(leaf, a), seat, False, observer, known)}
        if not winning:
            return False, -1, set()
        common = winning if common is None else common & winning
    if common is None:
        return None, -1, set()
    return True, seat, common


def engine_threat(state: Any, turn: list[int], max_nodes: int = 10**7) -> tuple[bool | None, int, set[str]]:
    """``_core.threat_after`` in the reference's terms."""
    found = _core.threat_after(state, turn, max_nodes)
    return found["threat"], found["seat"], set(found["texts"])


def threat_position(reserve: str | None = None) -> Position:
    """Splendor, 2 players, seat 1 to move with nothing. Seat 2 has 13 points (white 4pt K7,
    white 4pt W3R3K6, white 5pt W3K7) and 4 blue tokens and a gold: `blue 2pt U5` wins it the game as
    the round's last seat. The card lies at 2.1, or with ``reserve`` ("open", "blind") in
    seat 2's reserve, seen by seat 1 or taken blind from its deck."""
    p = Position(players=2, seed=3).give_cards(1, 72, 73, 74).tokens(1, blue=4, gold=1).set(to_move=0)
    if reserve is None:
        p.on_table(2, 1, 49)
    else:
        p.reserve(1, 49, blind=reserve == "blind")
    return p
