"""Our Splendor positions in the peer's encoding, and its actions as our decisions.

The peer (cestpasphoto/alpha-zero-general, docs/peer-alphazero.md) describes a position as
one array of 32 + 10 N + N² rows of 7 small integers (int8) seen from the player to move
(its "canonical form": the mover is its player 0, the others follow in seat order), and a
turn as one of 81 actions. The layout below is the one its ``splendor/SplendorLogicNumba`` module
documents; nothing here is its code. Its card and noble tables are not copied either: the
peer's half (``peer_side.py``) sends them at start, and :class:`Catalogue` matches them to
ours by level, cost, bonus colour and points, refusing anything but a bijection.

Rows (N players; colour columns W U G R K, then gold, then points):

* 0: the bank (5 colours, gold) and, in the points column, the number of turns played;
* 1-24: the 12 table cards, level 1 first, two rows each: the cost, then the gain (a 1 in
  the bonus colour's column, the points);
* 25-30: per level, a row of how many cards of each of the peer's five card groups are in
  the deck, then a row of bit fields saying which (the group's card i is bit 128 >> i);
* 31 ...: the N + 1 nobles of the deal (requirement, 3 points), zero once taken;
* then one row of tokens per player; N + 1 noble rows per player (a noble taken sits in the
  slot it had on the table); one row per player of bonuses and card points; six rows per
  player for up to three reserved cards, in the order they were reserved.

Actions: 0-11 buy a table card (4 x level + slot), 12-23 reserve one, 24-26 reserve from a
deck, 27-29 buy a reserved card, 30-54 take 1, 2 or 3 different colours (every set, by size
then in lexicographic order), 55-59 take two of one colour, 60-79 give back tokens as a turn
of its own, 80 pass.
"""
from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

COLOURS = ("white", "blue", "green", "red", "black")
LETTERS = "WUGRK"
GOLD = "gold"
WIDTH = 7
POINTS_COLUMN = 6
GOLD_COLUMN = 5
SLOTS = 4          # table cards per level
LEVELS = 3
RESERVED = 3       # reserve slots per player
NOBLE_POINTS = 3
TURNS_PER_PLAYER = 62  # the peer's game ends after 62 turns a player (124 half-moves with 2)

ACTIONS = 81
BUY, RESERVE, RESERVE_DECK, BUY_RESERVED, TAKE, TAKE_TWO, GIVE_BACK, PASS = 0, 12, 24, 27, 30, 55, 60, 80
# The peer's sets of different colours: all sets of 1, then 2, then 3, each size in
# itertools.combinations order (its list_different_gems_up_to_3).
TAKE_SETS: tuple[tuple[int, ...], ...] = tuple(
    combo for size in (1, 2, 3) for combo in itertools.combinations(range(len(COLOURS)), size))
assert len(TAKE_SETS) == TAKE_TWO - TAKE


def board_rows(players: int) -> int:
    return 32 + 10 * players + players * players


def int8(value: int) -> int:
    """``value`` (0-255) as the peer's int8 array stores it."""
    if not 0 <= value <= 255:
        raise ValueError(f"{value} does not fit in the peer's 8-bit cells")
    return value - 256 if value > 127 else value


# ---------------------------------------------------------------------------- cards and nobles
@dataclass(frozen=True)
class PeerCard:
    """One card of the peer's table: level (1-3), its group and index there, its two rows."""

    level: int
    group: int
    index: int
    cost_row: tuple[int, ...]
    gain_row: tuple[int, ...]


def _card_key(level: int, cost: Sequence[int], bonus: int, points: int) -> tuple[Any, ...]:
    return level, tuple(cost), bonus, points


def _peer_card_key(card: PeerCard) -> tuple[Any, ...]:
    gain = card.gain_row[:len(COLOURS)]
    if sorted(gain) != [0, 0, 0, 0, 1]:
        raise ValueError(f"peer card level {card.level} group {card.group} index {card.index}: its gain row "
                         f"{list(card.gain_row)} does not name one bonus colour")
    return _card_key(card.level, card.cost_row[:len(COLOURS)], gain.index(1), card.gain_row[POINTS_COLUMN])


@dataclass
class Catalogue:
    """Our cards and nobles matched to the peer's, one to one.

    ``peer_cards``: per level, per group, the [cost row, gain row] of each card, as the
    peer's half sends them; ``peer_nobles``: the peer's noble rows."""

    cards: dict[int, PeerCard] = field(default_factory=dict)    # our card id -> the peer's card
    nobles: dict[int, tuple[int, ...]] = field(default_factory=dict)  # our noble id -> its row
    groups: int = len(COLOURS)

    @classmethod
    def match(cls, our_cards: Sequence[dict[str, Any]], our_nobles: Sequence[dict[str, Any]],
              peer_cards: Sequence[Sequence[Sequence[Sequence[Sequence[int]]]]],
              peer_nobles: Sequence[Sequence[int]]) -> Catalogue:
        """Match by level, cost, bonus colour and points (nobles by requirement); ``ValueError``
        naming the first card or noble that has no partner or more than one."""
        if len(peer_cards) != LEVELS:
            raise ValueError(f"the peer's card table has {len(peer_cards)} levels, not {LEVELS}")
        theirs: dict[tuple[Any, ...], PeerCard] = {}
        groups = 0
        for level, level_groups in enumerate(peer_cards, start=1):
            groups = max(groups, len(level_groups))
            for group, cards in enumerate(level_groups):
                if len(cards) > 8:
                    raise ValueError(f"the peer's level {level} group {group} has {len(cards)} cards: more than "
                                     "its 8-bit deck fields hold")
                for index, (cost_row, gain_row) in enumerate(cards):
                    card = PeerCard(level, group, index, tuple(cost_row), tuple(gain_row))
                    key = _peer_card_key(card)
                    if key in theirs:
                        raise ValueError(f"two peer cards are alike: level {level} group {group} index {index} "
                                         f"and group {theirs[key].group} index {theirs[key].index}")
                    theirs[key] = card
        if groups > len(COLOURS):
            raise ValueError(f"the peer's card table has {groups} groups: its deck rows hold {len(COLOURS)}")
        mapped: dict[int, PeerCard] = {}
        for card in our_cards:
            key = _card_key(card["level"], [card["cost"][c] for c in COLOURS], COLOURS.index(card["bonus"]),
                            card["points"])
            if key not in theirs:
                raise ValueError(f"our card #{card['id']} ({card.get('text', key)}) has no match in the peer's table")
            if theirs[key] in mapped.values():
                raise ValueError(f"our card #{card['id']} matches a peer card another of ours matched")
            mapped[card["id"]] = theirs[key]
        if len(mapped) != len(theirs):
            unmatched = sorted(set(theirs) - {_peer_card_key(c) for c in mapped.values()})
            raise ValueError(f"{len(theirs) - len(mapped)} peer cards match none of ours, e.g. {unmatched[0]}")
        their_nobles = {tuple(row[:len(COLOURS)]): tuple(row) for row in peer_nobles}
        if len(their_nobles) != len(peer_nobles):
            raise ValueError("two of the peer's nobles have the same requirement")
        nobles: dict[int, tuple[int, ...]] = {}
        for noble in our_nobles:
            need = tuple(noble["requirement"][c] for c in COLOURS)
            row = their_nobles.get(need)
            if row is None or row[POINTS_COLUMN] != noble["points"]:
                raise ValueError(f"our noble {noble['id']} ({need}, {noble['points']} points) has no match among "
                                 "the peer's")
            nobles[noble["id"]] = row
        if len(set(nobles.values())) != len(their_nobles):
            raise ValueError("the peer's nobles and ours do not match one to one")
        return cls(mapped, nobles, groups)


# ---------------------------------------------------------------------------- positions
def round_number(turns: int, seat: int, players: int) -> tuple[int, bool]:
    """The peer's turn counter for the mover's position, and whether it had to be capped.

    Its game ends when a round closes at 62 turns a player, and its search cannot start
    from a finished game: a longer game of ours is shown as its last round (same seat)."""
    last = TURNS_PER_PLAYER * players - players + seat
    return (turns, False) if turns <= last else (last, True)


def encode(position: dict[str, Any], seat: int, turns: int, catalogue: Catalogue) -> tuple[list[list[int]], bool]:
    """The peer's board for ``seat`` to move in ``position`` (a full state's JSON, every card
    named), after ``turns`` turns of the game; and whether the turn counter was capped.

    What the peer sees of hidden cards is what the full state names: from a seat's view
    that is a sample (opponents' blind reserves drawn from the unseen cards of their level,
    the decks the rest)."""
    players = position["players"]
    n = len(players)
    rows = [[0] * WIDTH for _ in range(board_rows(n))]
    counter, capped = round_number(turns, seat, n)
    rows[0] = [*(position["bank"][c] for c in (*COLOURS, GOLD)), int8(counter)]

    def put_card(at: int, card_id: int | None) -> None:
        if card_id is not None:
            card = catalogue.cards[card_id]
            rows[at], rows[at + 1] = list(card.cost_row), list(card.gain_row)

    for level, slots in enumerate(position["table"]):
        for slot, card_id in enumerate(slots):
            put_card(1 + 8 * level + 2 * slot, card_id)
    for level, deck in enumerate(position["decks"]):
        counts, bits = [0] * WIDTH, [0] * WIDTH
        for card_id in deck:
            card = catalogue.cards[card_id]
            counts[card.group] += 1
            bits[card.group] |= 128 >> card.index
        rows[25 + 2 * level], rows[26 + 2 * level] = counts, [int8(b) for b in bits]
    slots_of = _noble_slots(position, n)
    nobles = 31
    for noble in position["nobles"]:
        rows[nobles + slots_of[noble]] = list(catalogue.nobles[noble])
    canonical = [players[(seat + k) % n] for k in range(n)]  # the mover first, then in seat order
    tokens, owned = 32 + n, 32 + 2 * n
    bought, reserved = 32 + 3 * n + n * n, 32 + 4 * n + n * n
    for k, player in enumerate(canonical):
        rows[tokens + k] = [*(player["tokens"][c] for c in (*COLOURS, GOLD)), 0]
        for noble in player["nobles"]:
            rows[owned + (n + 1) * k + slots_of[noble]] = list(catalogue.nobles[noble])
        total = [0] * WIDTH
        for card_id in player["cards"]:
            total = [a + b for a, b in zip(total, catalogue.cards[card_id].gain_row)]
        rows[bought + k] = total
        if len(player["reserved"]) > RESERVED:
            raise ValueError(f"a player holds {len(player['reserved'])} reserved cards; the peer has {RESERVED} slots")
        for slot, entry in enumerate(player["reserved"]):
            put_card(reserved + 6 * k + 2 * slot, entry["card"] if isinstance(entry, dict) else entry)
    return rows, capped


def seat_position(game: Any, view: str, seed: int) -> tuple[Any, dict[str, Any]]:
    """A full state from a seat's view (``observation_json``) and its JSON: what the view does
    not show (deck order, the opponents' blind reserves) is drawn with ``seed`` from the cards
    that seat has not seen, so nothing the seat cannot see reaches the peer."""
    state = game.state_from_observation(view, seed=seed)
    return state, json.loads(state.to_json())


def _noble_slots(position: dict[str, Any], n: int) -> dict[int, int]:
    """The slot of each noble of the deal: by id (a view does not say the deal's order)."""
    dealt = sorted([*position["nobles"], *(noble for p in position["players"] for noble in p["nobles"])])
    if len(dealt) != n + 1:
        raise ValueError(f"{len(dealt)} nobles in play; the peer's {n}-player game has {n + 1}")
    return {noble: slot for slot, noble in enumerate(dealt)}


# ---------------------------------------------------------------------------- actions
def _tokens(position: dict[str, Any], seat: int) -> list[int]:
    held = position["players"][seat]["tokens"]
    return [held[c] for c in (*COLOURS, GOLD)]


def _take(colours: Sequence[int]) -> str:
    return "take " + "".join(LETTERS[c] for c in colours)


def _returns(colours: Sequence[int]) -> list[str]:
    return [f"return {LETTERS[c]}" for c in colours]


@dataclass(frozen=True)
class Plan:
    """A peer action as our decisions of one turn, and whether it had to be mapped (more
    than our move of the same name: a take with returns, a reserve that gives back its gold)."""

    moves: tuple[str, ...]
    mapped: str | None = None  # why, when it was


def _candidates(action: int, tokens: list[int], bank: dict[str, int], limit: int) -> list[Plan]:
    """Our decision sequences that may play ``action``, most direct first (checked later)."""
    held = sum(tokens)
    available = [c for c, colour in enumerate(COLOURS) if bank[colour] > 0]
    if action < RESERVE:
        level, slot = divmod(action - BUY, SLOTS)
        return [Plan((f"buy {level + 1}.{slot + 1}",))]
    if action < BUY_RESERVED:
        if action < RESERVE_DECK:
            level, slot = divmod(action - RESERVE, SLOTS)
            move = f"reserve {level + 1}.{slot + 1}"
        else:
            move = f"reserve deck {action - RESERVE_DECK + 1}"
        # The peer takes no gold at the limit; the rules take it and give a token back: the gold.
        return [Plan((move,)), Plan((move, "return Y"), "reserve at the token limit returns its gold")]
    if action < TAKE:
        return [Plan((f"buy reserved {action - BUY_RESERVED + 1}",))]
    if action < TAKE_TWO:
        wanted = TAKE_SETS[action - TAKE]
        plans = [Plan((_take(wanted),))]
        if held + len(wanted) == limit:  # the same turn as a take of more and returns of the extras
            extras = [c for c in available if c not in wanted]
            for size in (3, 2):
                if len(wanted) < size <= len(wanted) + len(extras):
                    added = extras[:size - len(wanted)]
                    plans.append(Plan((_take(sorted([*wanted, *added])), *_returns(added)),
                                      f"take of {len(wanted)} ending at the limit played as a take of {size} "
                                      "and returns"))
            if len(wanted) == 1:
                plans.append(Plan((_take(wanted * 2), *_returns(wanted)),
                                  "take of 1 ending at the limit played as a take of two and a return"))
        return plans
    if action < GIVE_BACK:
        colour = action - TAKE_TWO
        return [Plan((_take((colour, colour)),))]
    if action < PASS:
        return []  # giving tokens back is never a turn of its own in the rules
    plans = [Plan(("pass",))]
    if held == limit:  # at the limit, a take and the same tokens returned changes nothing
        for size in (3, 2, 1):
            if size <= len(available):
                taken = available[:size]
                plans.append(Plan((_take(taken), *_returns(taken)), "pass played as a take and the same returns"))
                break
        for colour in available:
            plans.append(Plan((_take((colour, colour)), *_returns((colour, colour))),
                              "pass played as a take of two and the same returns"))
            break
    return plans


def expected_tokens(action: int, tokens: list[int], bank_gold: int) -> list[int] | None:
    """The mover's tokens (colours, gold) after ``action`` in the peer's own rules, for the
    actions that do not pay (takes, reserves, pass); None for buys and give-backs."""
    if RESERVE <= action < BUY_RESERVED:  # the gold comes only to a player below the limit
        gold = int(bank_gold > 0 and sum(tokens) <= 9)
        return [*tokens[:len(COLOURS)], tokens[len(COLOURS)] + gold]
    if TAKE <= action < TAKE_TWO:
        return [t + (1 if c in TAKE_SETS[action - TAKE] else 0) for c, t in enumerate(tokens)]
    if TAKE_TWO <= action < GIVE_BACK:
        return [t + (2 if c == action - TAKE_TWO else 0) for c, t in enumerate(tokens)]
    if action == PASS:
        return list(tokens)
    return None


def plans(state: Any, position: dict[str, Any], limit: int) -> dict[int, Plan]:
    """Every peer action that is a legal turn of ours in ``state`` (the mover's, in its main
    phase; ``position`` its JSON), with the decisions that play it. Each plan is checked by
    our rules: every decision legal, the turn over (or at a noble choice) at its end, and a
    take, reserve or pass leaving the mover the tokens the peer's rules would."""
    seat = state.current_player()
    tokens = _tokens(position, seat)
    found: dict[int, Plan] = {}
    for action in range(ACTIONS):
        for plan in _candidates(action, tokens, position["bank"], limit):
            if _plays(state, seat, plan, expected_tokens(action, tokens, position["bank"][GOLD])):
                found[action] = plan
                break
    return found


def _plays(state: Any, seat: int, plan: Plan, expected: list[int] | None) -> bool:
    probe = state.clone()
    for number, move in enumerate(plan.moves):
        if probe.is_terminal() or probe.current_player() != seat:
            return False
        try:
            action = probe.string_to_action(move)
        except ValueError:
            return False
        if not probe.is_legal(action):
            return False
        probe.apply_action(action)
        if number == 0 and len(plan.moves) > 1 and _phase(probe) != "return_tokens":
            return False  # returns only come while the mover is above the limit
    after = json.loads(probe.to_json())
    if after["phase"] == "return_tokens" and after["to_move"] == seat:
        return False  # the turn is not over: the plan left tokens above the limit
    return expected is None or _tokens(after, seat) == expected


def _phase(state: Any) -> str:
    return str(json.loads(state.to_json())["phase"])


# ---------------------------------------------------------------------------- counting
@dataclass
class Stats:
    """What the wrapper had to do to keep the peer within the rules, for one game."""

    searches: int = 0                 # peer searches (one a turn)
    masked: int = 0                   # peer-valid actions left out because they are not legal turns
    searches_masked: int = 0          # searches where at least one was left out
    offered_not_valid: int = 0        # legal plans the peer's own rules did not allow (expected 0)
    mapped: Counter[str] = field(default_factory=Counter)  # chosen actions played as more decisions
    noble_choices: int = 0            # nobles chosen by the wrapper (the peer takes all at once)
    follow_ups: int = 0               # planned returns sent
    fallbacks: int = 0                # decisions with no plan (answered by a fixed rule)
    capped_rounds: int = 0            # searches whose turn counter was capped (games past 62 turns each)
    cpu: float = 0.0                  # the peer's CPU seconds, searches only
    wall: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        out = dict(vars(self))
        out["mapped"] = dict(self.mapped)
        out["cpu"], out["wall"] = round(self.cpu, 3), round(self.wall, 3)
        out["cpu_per_search"] = round(self.cpu / self.searches, 4) if self.searches else None
        return out
