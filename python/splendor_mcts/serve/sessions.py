"""One game on the web board: its state, what was played (for undo) and how it is played.

A :class:`BoardSession` holds no web code: the app (:mod:`.app`) calls it. Modes:

* ``analyze``: the user enters every move (any seat), reveals are dealt by the game;
* ``play``: the user holds ``seat``, the engine the others (:meth:`BoardSession.engine_turns`);
* ``follow``: a real table followed from ``seat``: the user enters every move and every
  card revealed (``#53`` or ``green 1pt W2U3K2``), as ``play --follow`` reads them; a card
  drawn blind into another seat's reserve is dealt unseen. When the table later shows
  that card (an opponent buys the reserve, ``buy r1 #43`` / ``buy reserved 1 #43``, or the
  card is revealed elsewhere, or it is one the position gave only by colour and points),
  the record is mended as ``play --follow`` mends it (:class:`~splendor_mcts.play.followed.FollowedRecord`:
  the hidden draw or the position's sampled cards drawn again, the record replayed) and
  the history is rebuilt from it: nothing the user saw changes.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from ..analysis.running import decision_problem
from ..analysis.turns import turn_label
from ..games.game import Game, load_game
from ..games.play_table import NotNowError, Table
from ..games.positions import read_position
from ..pictures.board import board_svg
from ..play.session import game_over_text, illegal_move_reason
from ..play.followed import FollowedRecord
from ..play.tables import table_for
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
    sample_seed: int = 0  # draws again the cards a position gave by colour and points, when the table shows one
    seat_names: tuple[str, ...] | None = None  # a loaded record's names of its seats (random, mcts, ...), kept

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if not 0 <= self.seat < self.game.num_players():
            raise ValueError(f"seat must be 0-{self.game.num_players() - 1}, got {self.seat}")
        if self.mode == "follow":
            self.state.set_explicit_chance(True)
        self.start = self.state.clone()  # where the history starts (mended in follow mode)
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
        saved = self.state, self.start, list(self.history)
        try:
            return self._play(move, by)
        except ValueError:
            self.state, self.start, self.history = saved  # a hidden card named or freed on the way is put back too
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
            except NotNowError as exc:  # the card shown was put where the user cannot see it
                followed = self.followed()
                if not followed.free_for_reveal(exc.action):
                    raise
                self.adopt(followed)
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
            followed = self.followed()
            move, actions = followed.name_hidden_reserve(state.current_player(), move)
            if actions != followed.actions:
                followed.reset_to(actions)
            self.adopt(followed)
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
    def followed(self) -> FollowedRecord:
        """The history as a record followed from the user's seat, to be mended."""
        return FollowedRecord(self.game, self.seat, seed=self.sample_seed, position=self.start,
                              actions=[step.action for step in self.history])

    def adopt(self, followed: FollowedRecord) -> None:
        """Take the start and actions of a mended record: each step keeps its label and who
        made it (only cards the user never saw changed), its state before is replayed."""
        actions = [step.action for step in self.history]
        if followed.position is self.start and followed.actions == actions:
            return
        state = followed.position.clone()
        history = []
        for step, action in zip(self.history, followed.actions):
            history.append(Step(state.clone(), action, step.label, step.by))
            state.apply_action(action)
        self.start, self.state, self.history = followed.position, state, history

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
        names = self.seat_names or tuple(
            "human" if self.mode != "play" or s == self.seat else "mcts" for s in range(self.game.num_players()))
        return GameRecord(game=self.game.spec, seed=self.seed, seats=names, actions=actions,
                          result=tuple(self.state.returns()) if over else None,
                          termination="normal" if over else "unfinished", explicit_chance=self.state.explicit_chance,
                          meta={"mode": self.mode})

    def state_at(self, ply: int) -> Any:
        """The state before the history's step ``ply`` (the present at ``len(history)``)."""
        if not 0 <= ply <= len(self.history):
            raise ValueError(f"ply must be 0-{len(self.history)}, got {ply}")
        return self.state if ply == len(self.history) else self.history[ply].before


def new_game_session(game_name: str, players: int | None, seed: int, mode: str, seat: int) -> BoardSession:
    """A new game of ``game_name`` with ``players`` seats (None: its default count), dealt from
    ``seed``; ``ValueError`` for a count the game is not played by."""
    game = load_game(game_name, **({} if players is None else {"players": players}))
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
    return BoardSession(game=position.game, state=position.state, mode=mode, seat=seat, sample_seed=seed)


def record_session(text: str, mode: str = "analyze", seat: int = 0) -> BoardSession:
    """A session from a game record (docs/records.md): its moves in the history (undo steps
    back through them), at the record's last position."""
    record = GameRecord.from_json(text)
    game = load_game(record.game)
    replay(record, game=game)  # every problem of the record before anything else
    session = BoardSession(game=game, state=start_of(record, game), mode="analyze", seat=seat, seed=record.seed,
                           seat_names=tuple(record.seats))
    for action in record.actions:
        session.apply(action, "dealt" if session.state.is_chance_node() else "user")
    session.mode = mode
    return session
