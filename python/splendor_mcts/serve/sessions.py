"""One game on the web board: its state, what was played (for undo) and how it is played.

A :class:`BoardSession` holds no web code: the app (:mod:`.app`) calls it. Modes:

* ``analyze``: the user enters every move (any seat), reveals are dealt by the game;
* ``play``: the user holds ``seat``, the engine the others (:meth:`BoardSession.engine_turns`);
* ``follow``: a real table followed from ``seat``: the user enters every move and every
  card revealed (``#53`` or ``green 1pt W2U3K2``), as ``play --follow`` reads them; a card
  drawn blind into another seat's reserve is dealt unseen. When the table later shows
  that card (an opponent buys the reserve, ``buy r1 #43`` / ``buy reserved 1 #43``, or the
  card is revealed elsewhere), the unseen card the game had put there trades places with
  it (:meth:`BoardSession.swap_unseen`): nothing the user saw changes.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..analysis.running import decision_problem
from ..analysis.turns import turn_label
from ..games.game import Game, load_game
from ..games.positions import read_position
from ..pictures.board import board_svg
from ..play.session import game_over_text, illegal_move_reason
from ..play.tables import NotNowError, Table, card_id_of, table_for
from ..records import GameRecord, replay, start_of
from ..wording import seat_name

MODES = ("analyze", "play", "follow")
MAX_TURNS_LISTED = 2000  # whole turns enumerated for the legal-turns list


@dataclass
class Step:
    """One entry of the history: the state before it, what was played, and who played it
    (``user``, ``engine`` or ``dealt``, a reveal the game dealt)."""

    before: Any
    action: int
    label: str
    by: str


@dataclass
class BoardSession:
    """A game in progress on the board (see the module's text)."""

    game: Game
    state: Any
    mode: str = "analyze"
    seat: int = 0
    history: list[Step] = field(default_factory=list)
    ident: str = field(default_factory=lambda: secrets.token_urlsafe(9))
    seed: int | None = None  # the deal of a game started here or loaded from a record
    review: Any = None       # the last review of this session's record (analysis.review.Review)
    hint_searcher: Any = None  # keeps its tree: a hint asked again on the same position continues
    hint_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if not 0 <= self.seat < self.game.num_players():
            raise ValueError(f"seat must be 0-{self.game.num_players() - 1}, got {self.seat}")
        if self.mode == "follow":
            self.state.set_explicit_chance(True)
        self.table: Table = table_for(self.game)
        self.deal_unseen()

    # ------------------------------------------------------------ what it shows
    def viewer(self) -> int:
        """The seat whose view the board shows: the user's in play and follow, else the mover."""
        mover = self.state.current_player()
        if self.mode != "analyze" or mover < 0:
            return self.seat
        return mover

    def names(self) -> list[str]:
        if self.mode == "play":
            return ["(you)" if s == self.seat else "(engine)" for s in range(self.game.num_players())]
        if self.mode == "follow":
            return ["(you)" if s == self.seat else "" for s in range(self.game.num_players())]
        return [""] * self.game.num_players()

    def svg(self, marks: set[str] | None = None, state: Any = None) -> str:
        return board_svg(state or self.state, viewer=self.viewer(), marks=marks or set(), names=self.names())

    def summary(self) -> dict[str, Any]:
        """What the page shows besides the board: whose turn, what is awaited, the history."""
        state = self.state
        waiting = "move"
        if state.is_terminal():
            waiting = "over"
        elif state.is_chance_node():
            waiting = "reveal"
        elif self.mode == "play" and state.current_player() != self.seat:
            waiting = "engine"
        return {
            "id": self.ident, "game": self.game.name, "spec": self.game.spec, "title": self.game.entry.title,
            "players": self.game.num_players(), "mode": self.mode, "seat": self.seat, "viewer": self.viewer(),
            "toMove": state.current_player(), "waiting": waiting,
            "revealPrompt": self.table.describe_chance(state, self.seat) if waiting == "reveal" else None,
            "over": game_over_text(state) if state.is_terminal() else None,
            "history": [{"label": s.label, "by": s.by} for s in self.history],
            "canUndo": self.undo_point() is not None, "legend": self.game.entry.legend,
            "hasRecord": self.seed is not None,
        }

    # ------------------------------------------------------------ moves
    def legal_moves(self) -> list[dict[str, Any]]:
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return []
        return [{"action": a, "text": state.action_to_string(a), "label": state.action_label(a)}
                for a in state.legal_actions()]

    def legal_turns(self) -> tuple[list[dict[str, Any]], bool]:
        """Every whole turn of the player to move (depth first, at most ``MAX_TURNS_LISTED``);
        whether the list was cut short."""
        if decision_problem(self.state):
            return [], False
        seat = self.state.current_player()
        turns: list[dict[str, Any]] = []
        stack: list[tuple[Any, list[int]]] = [(self.state, [])]
        while stack:
            state, actions = stack.pop()
            for action in reversed(state.legal_actions()):
                probe = state.clone()
                probe.apply_action(action)
                line = actions + [action]
                if probe.is_terminal() or probe.is_chance_node() or probe.current_player() != seat:
                    if len(turns) == MAX_TURNS_LISTED:
                        return turns, True
                    turns.append({"actions": line, "label": turn_label(self.state, line)})
                else:
                    stack.append((probe, line))
        return turns, False

    def play(self, move: str | int, by: str = "user") -> str:
        """Play a move (its notation, or an action id), or in follow mode a reveal; the label
        played. ``ValueError`` with the engine's reason when it cannot be played."""
        saved = self.state
        try:
            return self._play(move, by)
        except ValueError:
            self.state = saved  # a hidden card named or freed on the way is put back too
            raise

    def _play(self, move: str | int, by: str) -> str:
        state = self.state
        if state.is_terminal():
            raise ValueError("the game is over")
        if state.is_chance_node():
            if self.mode != "follow":
                raise ValueError("a reveal is due; the game deals it")
            try:
                actions = self.table.read_chance(state, str(move))
            except NotNowError as exc:  # the card shown was dealt unseen into another seat's reserve
                self.free_for_reveal(exc)
                actions = [exc.action]
            state = self.state
            probe = state.clone()
            for action in actions:  # all of them or none
                if not probe.is_chance_node() or not probe.is_legal(action):
                    raise ValueError(f"{probe.action_to_string(action)} is not possible now; nothing was applied")
                probe.apply_action(action)
            labels = []
            for action in actions:
                self.apply(action, "user")
                labels.append(self.history[-1].label)
            return ", ".join(labels)
        if by == "user" and self.mode == "play" and state.current_player() != self.seat:
            raise ValueError(f"it is {seat_name(state.current_player())}'s turn (the engine's)")
        if isinstance(move, str) and self.mode == "follow":
            move = self.name_hidden_reserve(move)
            state = self.state
        action = move if isinstance(move, int) else state.string_to_action(move)
        if not 0 <= action < self.game.num_distinct_actions() or not state.is_legal(action):
            if not 0 <= action < self.game.num_distinct_actions():
                raise ValueError(f"action {action} does not exist (ids are 0-{self.game.num_distinct_actions() - 1})")
            raise ValueError(illegal_move_reason(state, action))
        label = state.action_label(action)
        self.apply(action, by)
        return label

    def apply(self, action: int, by: str) -> None:
        before = self.state.clone()
        label = before.action_to_string(action) if before.is_chance_node() else before.action_label(action)
        self.state.apply_action(action)
        self.history.append(Step(before, action, label, by))
        self.deal_unseen()

    # ------------------------------------------------------------ cards the user never saw
    def unseen(self) -> set[int]:
        """The cards the user's seat cannot see: in a deck or in another seat's blind reserve."""
        view = json.loads(self.state.observation_json(self.seat))
        seen = {c for row in view.get("table", view.get("pyramid", [])) for c in row if c}
        for player in view["players"]:
            seen |= {c if isinstance(c, int) else c["card"] for c in player["cards"]}
            seen |= {r["card"] for r in player["reserved"] if "card" in r}
        return {c["id"] for c in self.game.cards()} - seen

    def swap_unseen(self, a: int, b: int) -> None:
        """Cards ``a`` and ``b``, both unseen by the user and of one level, trade places."""
        levels = {c["id"]: c["level"] for c in self.game.cards()}
        unseen = self.unseen()
        for card in (a, b):
            if card not in unseen:
                raise ValueError(f"card #{card} is on the table as you see it: it cannot be a hidden card")
        if levels[a] != levels[b]:
            raise ValueError(f"card #{b} is a level-{levels[b]} card, the hidden one is of level {levels[a]}")

        def swapped(card: Any) -> Any:
            return b if card == a else a if card == b else card

        data = json.loads(self.state.to_json())
        data["decks"] = [[swapped(c) for c in deck] for deck in data["decks"]]
        for player in data["players"]:
            for entry in player["reserved"]:
                entry["card"] = swapped(entry["card"])
        self.state = self.game.state_from_json(json.dumps(data))

    def name_hidden_reserve(self, text: str) -> str:
        """``buy r1 #43``: the mover's reserved card 1, hidden from the user, is card #43 (it
        trades places with the unseen card the game had dealt there); the move without the card."""
        match = self.table.named_reserve_move.match(text)
        if match is None:
            return text
        seat, index, card = self.state.current_player(), int(match.group(2)), card_id_of(self.game, match.group(3))
        reserved = json.loads(self.state.to_json())["players"][seat]["reserved"]
        if not 1 <= index <= len(reserved):
            raise ValueError(f"{seat_name(seat)} has {len(reserved)} reserved card{'s' if len(reserved) != 1 else ''}")
        if reserved[index - 1]["card"] != card:
            self.swap_unseen(reserved[index - 1]["card"], card)
        return match.group(1)

    def free_for_reveal(self, exc: NotNowError) -> None:
        """The card revealed on the table had been dealt unseen into another seat's blind
        reserve: it trades places with a card that may be revealed now."""
        card = int("".join(ch for ch in self.state.action_to_string(exc.action) if ch.isdigit()))
        held = {entry["card"] for p in json.loads(self.state.to_json())["players"] for entry in p["reserved"]}
        if card not in held or card not in self.unseen():
            raise exc
        for outcome, _ in self.state.chance_outcomes():
            other = int("".join(ch for ch in self.state.action_to_string(outcome) if ch.isdigit()))
            try:
                self.swap_unseen(card, other)
                return
            except ValueError:
                continue
        raise exc

    def deal_unseen(self) -> None:
        """In follow mode a card drawn blind into another seat's reserve is not typed (the user
        cannot see it): the game deals it."""
        while self.mode == "follow" and self.state.is_chance_node() and \
                self.table.hidden_draw(json.loads(self.state.observation_json(self.seat))):
            before = self.state.clone()
            action = self.state.dealt_outcome()
            self.state.apply_action(action)
            self.history.append(Step(before, action, "a card drawn unseen", "dealt"))

    def undo_point(self) -> int | None:
        """The history index of the last step the user made (the engine's replies after it
        are undone with it)."""
        for index in range(len(self.history) - 1, -1, -1):
            if self.history[index].by == "user":
                return index
        return None

    def undo(self) -> str:
        """Take back the user's last move or reveal and everything after it; its label."""
        index = self.undo_point()
        if index is None:
            raise ValueError("nothing to undo")
        step = self.history[index]
        self.state = step.before
        del self.history[index:]
        return step.label

    def engine_to_move(self) -> bool:
        state = self.state
        return self.mode == "play" and not state.is_terminal() and not state.is_chance_node() \
            and state.current_player() != self.seat

    def position_json(self) -> str:
        """The position as the user's seat sees it (docs/position-format.md), readable back."""
        return self.state.observation_json(self.viewer())

    def record(self) -> GameRecord:
        """The game as a record, for a game started here or loaded from a record."""
        if self.seed is None:
            raise ValueError("a game set up from a position has no record (export the position instead)")
        over = self.state.is_terminal()
        actions = tuple(step.action for step in self.history)
        names = ["human" if self.mode != "play" or s == self.seat else "mcts" for s in range(self.game.num_players())]
        return GameRecord(game=self.game.spec, seed=self.seed, seats=tuple(names), actions=actions,
                          result=tuple(self.state.returns()) if over else None,
                          termination="normal" if over else "unfinished", explicit_chance=self.state.explicit_chance,
                          meta={"mode": self.mode})

    def state_at(self, ply: int) -> Any:
        """The state before the history's step ``ply`` (the present at ``len(history)``)."""
        if not 0 <= ply <= len(self.history):
            raise ValueError(f"ply must be 0-{len(self.history)}, got {ply}")
        return self.state if ply == len(self.history) else self.history[ply].before


def new_game_session(game_name: str, players: int | None, seed: int, mode: str, seat: int) -> BoardSession:
    """A new game of ``game_name`` (``players`` for Splendor), dealt from ``seed``."""
    variant = {"players": players} if players is not None and game_name.strip().lower() == "splendor" else {}
    game = load_game(game_name, **variant)
    if mode == "follow":
        raise ValueError("follow starts from a position set up as the table shows it (every card of a new deal "
                         "would have to be entered)")
    state = game.new_initial_state(seed=seed)
    return BoardSession(game=game, state=state, mode=mode, seat=seat, seed=seed)


def position_session(text: str, mode: str, seat: int | None, seed: int = 0) -> BoardSession:
    """A session from position JSON text (``PositionError`` lists its problems by path).
    ``seat`` defaults to the position's observer, else the seat to move."""
    position = read_position(text, seed=seed)
    if seat is None:
        seat = position.observer if position.observer is not None else max(position.state.current_player(), 0)
    return BoardSession(game=position.game, state=position.state, mode=mode, seat=seat)


def record_session(text: str, mode: str = "analyze", seat: int = 0) -> BoardSession:
    """A session from a game record (docs/records.md): its moves in the history (undo steps
    back through them), at the record's last position."""
    record = GameRecord.from_json(text)
    game = load_game(record.game)
    replay(record, game=game)  # every problem of the record before anything else
    session = BoardSession(game=game, state=start_of(record, game), mode="analyze", seat=seat, seed=record.seed)
    for action in record.actions:
        session.apply(action, "dealt" if session.state.is_chance_node() else "user")
    session.mode = mode
    return session
