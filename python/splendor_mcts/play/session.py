"""A game played in the terminal: moves typed in the notation, the engine's replies, commands.

Two modes:

* **play** — people at some seats, the engine at the others. Card reveals are dealt
  from the game's seed.
* **follow** — every move is typed by the user, who follows a game on a real table
  from ``seat``: the user also types each chance outcome seen on the table — a card
  revealed (by description, ``green 1pt W2U3K2`` / ``red 2pt 1cr W2U2G2P1``, or id,
  ``#53``), in Duel the tokens the bag fills the board with and the first player. An
  opponent's blind reserve stays unknown; when it is bought the user names it
  (``buy r1 #43``) and the hidden draw is re-dealt to that card.

A game may start from the deal of a seed or from a typed position (``load`` of a position
file, docs/position-format.md): a game already under way. Cards the position gave only by
colour and points are drawn from the unseen ones; a card the table then reveals that the
draw had put among them is drawn again elsewhere (``release_sampled_card``).

The game runs with explicit chance, so the record (:mod:`splendor_mcts.records`) holds
every reveal and replays to the same state. Commands: a move, ``hint [SECONDS]``,
``moves``, ``board``, ``undo``, ``save FILE``, ``load FILE``, ``help``, ``quit``.
"""
from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from rich.console import Console

from rich.text import Text

from ..analysis.advice import advise
from ..analysis.hint import print_hint
from ..analysis.turns import turn_label
from ..analysis.running import SearchLimits, decision_problem, run_search
from ..atomic_write import atomic_write_text
from ..games.game import load_game
from ..games.play_table import NotNowError
from ..games.positions import PositionError, read_position
from ..json_input import JsonInputError, read_json
from ..records import GameRecord, start_of
from ..wording import counted, seat_name, seats_named
from . import hidden
from .followed import FollowedRecord
from .tables import table_for

Engine = Callable[[Any], int]
# A search's progress report while it runs: made for a label ("seat 1 thinks:") and a budget;
# a context manager giving the callback for run_search, or None to show nothing.
Thinking = Callable[[str, SearchLimits], AbstractContextManager[Callable[[Any], None] | None]]


def no_thinking(label: str, limits: SearchLimits) -> AbstractContextManager[None]:
    """Shows nothing while a search runs (not on a terminal, or in tests)."""
    return nullcontext()


def illegal_move_reason(state: Any, action: int) -> str:
    """``buy 2.4: needs 2 more red (you have ...)``: the move and why the game's rules
    (``why_illegal``) refuse it."""
    return f"{state.action_to_string(action)}: {state.why_illegal(action)}"


def game_over_text(state: Any) -> str:
    """``seat 1 wins with 15 points (seat 2: 12 points)``: who won, with each seat's points
    (Duel's crowns too), and the cards bought when a tie on points was broken by them."""
    returns = state.returns()
    players = json.loads(state.to_json())["players"]
    winners = [s for s, r in enumerate(returns) if r == max(returns)]
    best = {players[w]["points"] for w in winners}
    show_cards = len(winners) > 1 or any(p["points"] in best for s, p in enumerate(players) if s not in winners)

    def score(p: dict[str, Any]) -> str:
        parts = [counted(p["points"], "point")]
        if "crowns" in p:
            parts.append(counted(p["crowns"], "crown"))
        if show_cards:
            parts.append(counted(len(p["cards"]), "card"))
        return ", ".join(parts)

    if len(winners) == 1:
        others = "; ".join(f"{seat_name(s)}: {score(p)}" for s, p in enumerate(players) if s != winners[0])
        return f"{seat_name(winners[0])} wins with {score(players[winners[0]])} ({others})"
    return f"{seats_named(winners)} share the win (" + "; ".join(
        f"{seat_name(s)}: {score(p)}" for s, p in enumerate(players)) + ")"


class PlaySession(FollowedRecord):
    """One game with its record, driven line by line (``handle``); prints to ``console``."""

    def __init__(self, game: Any, console: Console, humans: set[int], engine: Engine | None,
                 seed: int = 0, follow: bool = False, viewer: int = 0, engine_name: str = "mcts",
                 hint_limits: SearchLimits | None = None) -> None:
        super().__init__(game, viewer, seed)
        self.console = console
        self.humans = set(range(game.num_players())) if follow else humans
        self.engine = engine
        self.follow = follow
        self.engine_name = engine_name
        self.hint_limits = hint_limits or SearchLimits()
        self.finished = False
        self.unsaved = False  # a person changed the game since it was started, saved or loaded
        self.thinking: Thinking = no_thinking

    # ---------------------------------------------------------------- state
    def seat_names(self) -> list[str]:
        if self.follow:
            return ["(you)" if s == self.viewer else "" for s in range(self.game.num_players())]
        return ["(you)" if s in self.humans else f"({self.engine_name})" for s in range(self.game.num_players())]

    def record(self) -> GameRecord:
        names = ["human" if s in self.humans else self.engine_name for s in range(self.game.num_players())]
        over = self.state.is_terminal()
        meta: dict[str, Any] = {"mode": "follow" if self.follow else "play", "viewer": self.viewer}
        if self.position is not None:
            meta["position"] = json.loads(self.position.to_json())  # the actions start there, not at the deal
        return GameRecord(game=self.game.spec, seed=self.seed, seats=tuple(names), actions=tuple(self.actions),
                          result=tuple(self.state.returns()) if over else None,
                          termination="normal" if over else "unfinished", explicit_chance=True, meta=meta)

    def view_seat(self) -> int:
        seat = self.state.current_player()
        if self.follow or seat < 0 or seat not in self.humans:
            return self.viewer
        return seat

    def advance(self) -> None:
        """Play the engine's moves and the dealt reveals until a person must act; each
        engine turn is shown whole once it is over (``seat 2 plays take WUK, return R``)."""
        turn_start: tuple[Any, int] | None = None  # the engine turn in progress: its state and first action
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                if self.follow and not self.pending_blind_of_other():
                    break  # the user types what was revealed
                self.apply(self.state.dealt_outcome())
                continue
            seat = self.state.current_player()
            if turn_start is not None and seat != turn_start[0].current_player():
                self.show_engine_turn(*turn_start)
                turn_start = None
            if seat in self.humans or self.engine is None:
                break
            if turn_start is None:
                turn_start = (self.state.clone(), len(self.actions))
            self.apply(self.engine(self.state))
        if turn_start is not None:
            self.show_engine_turn(*turn_start)
        if self.state.is_terminal() and not self.finished:
            self.finished = True
            self.draw()
            self.console.print(f"game over: {game_over_text(self.state)}", highlight=False)

    def show_engine_turn(self, start: Any, first: int) -> None:
        """``seat 2 plays take WUK, return R``: the engine's turn from ``start``, the
        record's actions from ``first`` on (its reveals show on the table)."""
        label = turn_label(start, self.actions[first:])
        self.console.print(f"{seat_name(start.current_player())} plays [bold]{label}[/bold]")

    def draw(self) -> None:
        self.table.draw(self.console, self.state, self.view_seat(), self.seat_names())

    def prompt(self) -> str:
        if self.state.is_terminal():
            return "game over> "
        if self.state.is_chance_node():
            return self.table.prompt(self.state)
        return f"{seat_name(self.state.current_player())}> "

    # ---------------------------------------------------------------- commands
    def handle(self, line: str) -> bool:
        """Run one typed line; False when the session should end."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("quit", "exit"):
            return False
        if command == "help":
            self.console.print(self.table.help + ("\n" + self.table.follow_help if self.follow else ""), highlight=False)
        elif command == "board":
            self.draw()
        elif command == "moves":
            self.show_moves()
        elif command == "hint":
            self.hint(rest.strip())
        elif command == "undo":
            self.undo()
        elif command == "save":
            self.save(rest.strip())
        elif command == "load":
            self.load(rest.strip())
        else:
            self.play_text(text)
        return True

    def show_moves(self) -> None:
        if self.state.is_terminal():
            self.console.print("the game is over")
            return
        self.console.print(", ".join(self.state.action_label(a) for a in self.state.legal_actions()), highlight=False)

    def hint(self, arg: str) -> None:
        problem = decision_problem(self.state)
        if problem:
            self.console.print(problem)
            return
        limits = self.hint_limits
        if arg:
            try:
                seconds = float(arg)
                if not 0 < seconds <= 3600:
                    raise ValueError
            except ValueError:
                self.console.print(f"hint takes a number of seconds (e.g. hint 5), not {arg!r}")
                return
            limits = limits.replace(iterations=None, time_limit=seconds)
        with self.thinking("thinking about a hint:", limits) as progress:
            analysis = run_search(self.state, limits, on_progress=progress, turns=True)
        print_hint(self.console, self.game, analysis, limits.resolved_threads(), advice=advise(self.state, analysis))

    def undo(self) -> None:
        """Back to before the last move a person typed (a reveal typed in follow mode counts)."""
        last = None
        probe = hidden.start_state(self.game, self.start)
        for index, action in enumerate(self.actions):
            typed = (not probe.is_chance_node() and probe.current_player() in self.humans) or (
                self.follow and probe.is_chance_node())
            if typed and not (probe.is_chance_node() and self.pending_blind_of_other(probe)):
                last = index
            probe.apply_action(action)
        if last is None:
            self.console.print("nothing to undo")
            return
        undone = hidden.replay_actions(self.game, self.start, self.actions[:last]).action_label(self.actions[last])
        self.reset_to(self.actions[:last])
        self.unsaved = True
        self.console.print(f"undid {undone}")
        self.advance()
        self.draw()

    def reset_to(self, actions: list[int]) -> None:
        super().reset_to(actions)
        self.finished = False

    def save(self, path: str) -> None:
        if not path:
            self.console.print("save needs a file name: save game.json")
            return
        try:
            with atomic_write_text(path) as handle:  # a save that fails keeps the previous one
                handle.write(self.record().to_json() + "\n")
        except OSError as exc:
            self.console.print(f"cannot save to {path}: {exc.strerror or exc}")
            return
        self.unsaved = False
        self.console.print(f"saved {len(self.actions)} actions to {path}")

    def load(self, path: str) -> bool:
        """Go on with a saved game record, or start from a typed position (a game under way);
        False (and why, printed) when the file cannot be."""
        if not path:
            self.console.print("load needs a file name: load game.json")
            return False
        try:
            with open(path, encoding="utf-8") as handle:
                game, seed, position, actions = self.read_saved(handle.read())
        except OSError as exc:
            self.console.print(f"cannot load {path}: {exc.strerror or exc}")
            return False
        except ValueError as exc:
            self.console.print(f"cannot load {path}: {exc}")
            return False
        if game.num_players() != self.game.num_players():
            self.console.print(f"cannot load {path}: it is a {game.num_players()}-player game, this session has "
                               f"{self.game.num_players()} seats")
            return False
        self.game, self.seed, self.position, self.table = game, seed, position, table_for(game)
        self.reset_to(actions)
        self.unsaved = False
        if position is not None and not actions:
            self.console.print(f"loaded the position {path}")
        else:
            self.console.print(f"loaded {len(self.actions)} actions from {path}")
        self.advance()
        self.draw()
        return True

    def read_saved(self, text: str) -> tuple[Any, int, Any, list[int]]:
        """A record (with its starting position, if it has one) or a typed position: the game,
        seed, starting state (None: the deal of seed) and actions. ``ValueError`` says why not."""
        try:
            data = read_json(text)
        except JsonInputError:
            data = None
        if not (isinstance(data, dict) and "actions" in data):
            try:
                read = read_position(text, seed=self.seed)
            except PositionError as exc:
                raise ValueError(f"it is neither a game record nor a position:\n{exc}") from None
            state = read.state
            if read.state.is_terminal():
                raise ValueError("the position is over: there is nothing left to play")
            state.set_explicit_chance(True)
            return read.game, 0, state, []
        record = GameRecord.from_json(text)
        game = self.game if record.game == self.game.spec else load_game(record.game)
        if not record.explicit_chance:
            raise ValueError("the record was played without explicit chance; play needs every reveal recorded")
        start = start_of(record, game) if "position" in record.meta else None
        hidden.replay_actions(game, record.seed if start is None else start, list(record.actions))
        return game, record.seed, start, list(record.actions)

    def play_text(self, text: str) -> None:
        if self.state.is_terminal():
            self.console.print("the game is over (undo, save, load or quit)")
            return
        if self.state.is_chance_node():
            self.play_reveal(text)
            return
        seat = self.state.current_player()
        if seat not in self.humans:
            self.console.print(f"it is {seat_name(seat)}'s turn (the engine's)")
            return
        try:
            move, actions = self.name_hidden_reserve(seat, text) if self.follow else (text, self.actions)
            state = self.state if actions == self.actions else hidden.replay_actions(self.game, self.start, actions)
            action = state.string_to_action(move)
            if not state.is_legal(action):
                raise ValueError(illegal_move_reason(state, action))
        except ValueError as exc:
            self.console.print(f"[red]cannot play {text!r}[/red]: {exc}", highlight=False)
            self.suggest(text)
            return
        if actions != self.actions:
            self.reset_to(actions)  # the opponent's hidden reserve is now the card they showed
        label = self.state.action_label(action)
        self.apply(action)
        self.unsaved = True
        self.console.print(f"{seat_name(seat)} plays [bold]{label}[/bold]")
        self.advance()
        if not self.state.is_terminal():
            self.draw()

    def suggest(self, text: str) -> None:
        """The legal moves closest to what was typed (same verb first)."""
        plain = {self.state.action_to_string(a).lower(): a for a in self.state.legal_actions()}
        typed = " ".join(text.lower().split())
        verb = typed.split(" ", 1)[0]
        same_verb = [t for t in plain if difflib.SequenceMatcher(None, t.split(" ", 1)[0], verb).ratio() >= 0.75]
        close = difflib.get_close_matches(typed, same_verb or list(plain), n=4, cutoff=0.4)
        if close:
            self.console.print("did you mean: " + " | ".join(self.state.action_label(plain[c]) for c in close), highlight=False)
        else:
            self.console.print("type 'moves' for the legal moves, 'help' for the notation", highlight=False)

    def play_reveal(self, text: str) -> None:
        """Follow mode: the chance outcome(s) seen on the table (a card, bag draws, the first
        player). Several typed at once are applied together or not at all."""
        try:
            try:
                actions = self.table.read_chance(self.state, text)
            except NotNowError as exc:
                if not self.free_for_reveal(exc.action):
                    raise
                actions = [exc.action]
            probe = self.state.clone()
            for n, action in enumerate(actions):
                if not probe.is_chance_node():
                    raise ValueError(f"only {n} of the {len(actions)} outcomes typed are due now; nothing was applied")
                if not probe.is_legal(action):
                    raise ValueError(f"{probe.action_to_string(action)} is not possible now (outcomes: "
                                     f"{', '.join(probe.action_to_string(a) for a, _ in probe.chance_outcomes())})"
                                     + ("; nothing was applied" if len(actions) > 1 else ""))
                probe.apply_action(action)
        except ValueError as exc:
            self.console.print(Text(str(exc), style="red"))
            return
        for action in actions:
            self.apply(action)
        self.unsaved = True
        self.advance()
        if not self.state.is_chance_node():
            self.draw()

    def describe_chance(self) -> str:
        return self.table.describe_chance(self.state, self.viewer)
