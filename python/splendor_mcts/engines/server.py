"""``splendor-mcts engine``: this package's MCTS speaking the engine protocol (docs/engine-protocol.md).

One command per line on standard input, answers on standard output. A search runs in a
thread of its own, so ``stop``, ``isready`` and ``quit`` are answered while it thinks. A
line that cannot be obeyed is answered ``info string error ...`` and the engine reads on;
a ``go`` that cannot search answers ``bestmove (none)`` after the error, so the other side
never waits for nothing.
"""
from __future__ import annotations

import io
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from ..analysis.running import decision_problem
from ..games.game import load_game
from ..games.positions import read_position
from ..games.registry import SearchDefaults, entries
from ..play import hidden
from ..search.defaults import BOT_ITERATIONS
from ..search.networks import shipped_used
from ..search.settings import SETTINGS, SettingError, make_params
from ..ranges import MAX_SECONDS, Whole
from ..seeds import MAX_SEED
from ..version import __version__
from . import wire

NO_MOVE = "(none)"
UNSEEN = "?"                     # a chance outcome the engine's seat did not see, in startpos moves
INFO_EVERY = 1.0                 # seconds between info lines while thinking
_POLL = 0.02                     # seconds between checks for stop while thinking
_INFINITE_SECONDS = MAX_SECONDS  # go infinite: the engine's longest time budget
_SEEDS = Whole(0, MAX_SEED)


def _options() -> dict[str, wire.Option]:
    """The engine's options: the search settings of docs/search.md by their agent-spec key."""
    from .. import _core

    evaluators = tuple(_core.EVALUATORS)
    declared = [
        wire.Option("iterations", "spin", str(BOT_ITERATIONS), 1, 2**62),
        wire.Option("threads", "spin", "1", 1, 256),
        wire.Option("parallelism", "combo", "root", choices=("root", "tree")),
        wire.Option("seed", "spin", "0", 0, MAX_SEED),
        wire.Option("exploration", "float", wire.AUTO, 0, 1000),
        wire.Option("evaluator", "combo", wire.AUTO, choices=(wire.AUTO, *evaluators)),
        wire.Option("rollout_cutoff", "spin", wire.AUTO, 0, 10000),
        wire.Option("memory_limit", "spin", str(1 << 30), 1 << 20, 2**62),
        wire.Option("reuse_tree", "check", "true"),
        # auto: the default search's (the shipped network where its entry in the networks index,
        # search.network_index, turns it on); a .smnet file, shipped or none (docs/search.md, "Networks").
        wire.Option("network", "string", wire.AUTO),
        wire.Option("value_mix", "float", wire.AUTO, 0, 1),
        wire.Option("puct", "float", wire.AUTO, 0, 1000),
    ]
    known = {s.spec for s in SETTINGS} | {"seed"}
    assert all(o.name in known for o in declared), "every option is a search setting"
    return {o.name: o for o in declared}


def _value(option: wire.Option, text: str) -> Any:
    if text == wire.AUTO:
        return None
    if option.type == "check":
        return text == "true"
    if option.type == "spin":
        return int(text)
    if option.type == "float":
        return float(text)
    return text


class EngineServer:
    """The protocol loop. ``run()`` reads ``stdin`` until ``quit`` or its end."""

    def __init__(self, stdin: IO[str], stdout: IO[str]) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.options = _options()
        self.values: dict[str, str] = {name: o.default for name, o in self.options.items()}
        self.game: Any = None
        self.state: Any = None
        self.legal: list[str] | None = None
        self._searchers: dict[tuple[Any, ...], Any] = {}
        self._out = threading.Lock()
        self._stop = threading.Event()
        self._thinking: threading.Thread | None = None
        self._busy = False  # a search runs: set by go, cleared with the bestmove (under _out)
        self._unwritten: OSError | None = None  # the search thread's answer could not be written
        self._commands: dict[str, Callable[[str], None]] = {
            wire.HELLO: self._hello, "isready": lambda _: self.send("readyok"), "setoption": self._setoption,
            "newgame": self._newgame, "position": self._position, "legalmoves": self._legalmoves,
            "go": self._go, "stop": lambda _: self._stop.set(),
        }

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        with self._out:
            self.stdout.write(line + "\n")
            self.stdout.flush()

    def error(self, message: str) -> None:
        self.send(f"info string error {' '.join(message.split())}")

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        try:
            for raw in self.stdin:
                if self._unwritten is not None:
                    break
                line = raw.strip()
                if not line:
                    continue
                word, _, rest = line.partition(" ")
                if word == "quit":
                    break
                self.handle(word, rest.strip())
        finally:
            self._stop.set()
            if self._thinking is not None:
                self._thinking.join()
        if self._unwritten is not None:  # raised here, where the command line reports it, as for any line
            raise self._unwritten
        return 0

    def handle(self, word: str, rest: str) -> None:
        command = self._commands.get(word)
        if command is None:
            self.error(f"unknown command {word!r} (known: {', '.join([*self._commands, 'quit'])})")
            return
        if self.busy() and word not in ("stop", "isready", wire.HELLO):
            self.error(f"{word}: the engine is thinking; send stop first")
            return
        try:
            command(rest)
        except ValueError as exc:
            self.error(f"{word}: {exc}")

    def busy(self) -> bool:
        return self._busy

    # ------------------------------------------------------------------ commands
    def _hello(self, _: str) -> None:
        self.send(f"id name splendor-mcts {__version__}")
        self.send("id author splendor_mcts")
        self.send(f"id protocol {wire.PROTOCOL_VERSION}")
        self.send("feature games " + " ".join(entry.name for entry in entries()))
        self.send("feature reuse")  # one process plays game after game (newgame resets it)
        for option in self.options.values():
            self.send(option.line())
        self.send(wire.HELLO_OK)

    def _setoption(self, rest: str) -> None:
        words = rest.split()
        if len(words) < 2 or words[0] != "name" or "value" not in words:
            raise ValueError("expected: setoption name NAME value VALUE")
        at = words.index("value")
        name, value = " ".join(words[1:at]), " ".join(words[at + 1:])
        option = self.options.get(name)
        if option is None:
            raise ValueError(f"unknown option {name!r} (known: {', '.join(self.options)})")
        option.check(value)
        self._search_params({**self.values, name: value}, iterations=1)  # the engine's own check
        self.values[name] = value
        self._searchers.clear()

    def _newgame(self, rest: str) -> None:
        if not rest:
            raise ValueError("expected: newgame GAME (a game spec: splendor, duel, 'splendor(players=3)')")
        self.game = load_game(rest)
        self.state = None
        self.legal = None
        self._searchers.clear()
        settings = {name: _value(self.options[name], text) for name, text in self.values.items()}
        shipped = shipped_used(settings, self.game.entry.name, self.game.num_players())
        if shipped is not None:  # which weights the search uses: by family and hash, not a path
            self.send(f"info string network {shipped}")

    def _position(self, rest: str) -> None:
        kind, _, body = rest.partition(" ")
        self.legal = None
        self.state = None  # a refused position leaves none: a go then answers (none), never a stale move
        if kind == "view" and self.game is not None:
            # The tournament's path, once per decision: the game is known, so skip finding it
            # from the JSON (a view of another variant is still refused, naming the field).
            self.state = self.game.state_from_observation(body, seed=self._seed())
        elif kind in ("view", "state"):
            position = read_position(body, seed=self._seed())
            if kind == "view" and position.observer is None:
                raise ValueError("position view: this is a full state, not a player's view (use position state)")
            if kind == "state" and position.observer is not None:
                raise ValueError("position state: this is a player's view (use position view)")
            if self.game is not None and position.game.spec != self.game.spec:
                raise ValueError(f"the position is of {position.game.spec}, the game is {self.game.spec} "
                                 "(send newgame first)")
            self.game = position.game
            self.state = position.state
        elif kind == "startpos":
            self.state = self._startpos(body)
        else:
            raise ValueError(f"expected position view JSON | state JSON | startpos [seed N] [moves ...], "
                             f"got {kind!r}")

    def _startpos(self, body: str) -> Any:
        if self.game is None:
            raise ValueError("startpos: send newgame GAME first")
        head, _, moves_text = body.partition("moves")
        words = head.split()
        seed = 0
        if words:
            if words[0] != "seed" or len(words) != 2:
                raise ValueError(f"startpos: expected 'seed N' (0 to 2**64-1) then 'moves ...', got {head.strip()!r}")
            seed = _SEEDS.parse(words[1], "startpos: seed")
        state = self.game.new_initial_state(seed=seed, explicit_chance=True)
        actions: list[int] = []
        unseen: list[int] = []  # indexes in actions of the outcomes written '?'
        for number, move in enumerate(wire.split_moves(moves_text), start=1):
            if move == UNSEEN:
                if not state.is_chance_node():
                    raise ValueError(f"startpos: move {number} is '?', but no chance outcome is due there")
                unseen.append(len(actions))
                action = state.dealt_outcome()
            else:
                action = state.string_to_action(move)
                if not state.is_legal(action):
                    repaired = self._redeal(seed, actions, unseen, state, action)
                    if repaired is None:
                        raise ValueError(f"startpos: move {number} ({move}) is not legal: {state.why_illegal(action)}")
                    actions = repaired
                    state = hidden.replay_actions(self.game, seed, actions)
            state.apply_action(action)
            actions.append(action)
        return state

    def _redeal(self, seed: int, actions: list[int], unseen: list[int], state: Any, action: int) -> list[int] | None:
        """``actions`` with an unseen outcome that took ``action``'s card given another card, so
        that ``action`` (a reveal of that card) is legal now; None when none fits."""
        if not state.is_chance_node():
            return None
        for index in (i for i in unseen if actions[i] == action):
            for candidate in state.legal_actions():
                changed = hidden.with_draw(self.game, seed, actions, index, candidate, unseen)
                if changed is not None and hidden.replay_actions(self.game, seed, changed).is_legal(action):
                    return changed
        return None

    def _legalmoves(self, rest: str) -> None:
        self.legal = wire.split_moves(rest)

    def _go(self, rest: str) -> None:
        try:
            limits = wire.parse_go(rest.split())
            problem = "no position: send position first" if self.state is None else decision_problem(self.state)
            if problem is not None:
                raise ValueError(problem)
            searcher = self._searcher(limits)
        except (ValueError, SettingError) as exc:
            self.error(f"go: {exc}")
            self.send(f"bestmove {NO_MOVE}")
            return
        self._stop.clear()
        self._busy = True
        self._thinking = threading.Thread(target=self._think, args=(searcher, self.state), daemon=True,
                                          name="engine-search")
        self._thinking.start()

    # ------------------------------------------------------------------ searching
    def _seed(self) -> int:
        return int(self.values["seed"])

    def _search_params(self, values: dict[str, str], **budget: Any) -> Any:
        settings = {name: _value(self.options[name], text) for name, text in values.items() if name != "iterations"}
        where: dict[str, Any] = {}  # without a game (setoption before newgame): the settings checked
        defaults = SearchDefaults()
        if self.game is not None:
            defaults, where = self.game.entry.search_defaults, {"game": self.game.entry.name,
                                                                 "players": self.game.num_players()}
        try:
            return make_params(defaults, **where, **{**settings, **budget})
        except SettingError as exc:
            raise ValueError(str(exc)) from None

    def _searcher(self, limits: wire.Limits) -> Any:
        """The searcher for this budget: one per budget, kept for the game, so a repeated
        budget reuses its tree (as the built-in ``mcts`` agent does)."""
        seconds = _INFINITE_SECONDS if limits.infinite else limits.budget_seconds()
        iterations = limits.iterations
        if iterations is None and seconds is None:
            iterations = int(self.values["iterations"])
        key = (iterations, seconds)
        if key not in self._searchers:
            params = self._search_params(self.values, iterations=iterations, time_limit=seconds)
            self._searchers = {key: self.game.entry.searcher(params)}  # one kept: its tree follows the game
        return self._searchers[key]

    def _think(self, searcher: Any, state: Any) -> None:
        last = [time.monotonic()]

        def progress(partial: Any) -> bool:
            if time.monotonic() - last[0] >= INFO_EVERY and partial.moves:
                last[0] = time.monotonic()
                try:
                    self.send(self._info(partial, state).line())
                except OSError as exc:  # nobody reads the answers any more: stop thinking
                    self._unwritten = exc
                    return True
            return self._stop.is_set()

        try:
            analysis = searcher.search(state, progress, _POLL, 1)
            lines = [self._info(analysis, state).line(), f"bestmove {state.action_to_string(analysis.best_action)}"]
        except (ValueError, RuntimeError) as exc:  # the engine refused: say so, never go silent
            lines = [f"info string error go: {' '.join(str(exc).split())}", f"bestmove {NO_MOVE}"]
        with self._out:  # idle before the answer is out: the next command may follow it at once
            self._busy = False
            try:
                self.stdout.write("\n".join(lines) + "\n")
                self.stdout.flush()
            except OSError as exc:  # a full disk, a closed pipe: the reading loop ends on it
                self._unwritten = exc

    def _info(self, analysis: Any, state: Any) -> wire.Info:
        root = analysis.root
        best = analysis.moves[0] if analysis.moves else None
        return wire.Info(iterations=root.iterations, time=root.seconds, nps=int(root.iterations_per_second),
                         winrate=None if best is None else 100.0 * best.win_rate,
                         pv=[] if best is None else _turns(state, best.pv_actions, best.pv))


def _turns(state: Any, actions: list[int], texts: list[str]) -> list[list[str]]:
    """The principal variation cut into turns: one list per run of decisions by one player."""
    probe = state.clone()
    probe.set_explicit_chance(False)
    turns: list[list[str]] = []
    mover = None
    for action, text in zip(actions, texts):
        player = probe.current_player()
        if player != mover or not turns:
            turns.append([])
            mover = player
        turns[-1].append(text)
        try:
            probe.apply_action(action)
        except ValueError:  # the line ran on a sample of the hidden cards: show it unsplit from here
            turns[-1].extend(texts[len(sum(turns, [])):])
            break
    return turns


def serve(stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Speak the protocol on standard input and output until ``quit`` or end of input."""
    if stdin is None:  # bytes that are not UTF-8 make a line that is refused, never a crash
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    return EngineServer(stdin, stdout or sys.stdout).run()
