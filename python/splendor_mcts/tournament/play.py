"""Playing one tournament game: the code every backend runs in its workers.

A :class:`GameTask` is small and picklable (strings and ints only), so it travels to a spawned
process or a Ray worker unchanged; :func:`play_game` builds the game and fresh agents there and
returns a :class:`~splendor_mcts.tournament.store.PlayedGame`.

Chance nodes take the deal's own outcome (``state.dealt_outcome()``), so every seat rotation of a
deal sees the same cards in the same order. An agent that raises (``AgentForfeit`` carries its own
reason), or returns something that is not a legal action, forfeits: it scores 0 and the other seats share the point; the record keeps
the actions up to that moment and the reason. An external engine (``engine:cmd=...``) forfeits
the same way for every failure its client reports (crash, hang, time loss, flood, bad
handshake, malformed or illegal move: ``engine_agent.forfeit_reason``), with its last stderr
lines in the record.

A game still going after ``max_decisions`` decisions (chance outcomes do not count; default
:data:`~splendor_mcts.games.limits.MAX_DECISIONS`) is adjudicated a draw: every seat an equal
share, termination ``adjudicated``, the reason in the record's ``meta["adjudication"]``.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engines.process import EngineFailure
from ..games.limits import MAX_DECISIONS, adjudication_reason, draw_result
from ..records import AgentForfeit, Forfeit, GameRecord, forfeit_result
from .agents import build_agent, parse_agent_spec
from .engine_agent import EnginePool, forfeit_reason
from .store import PlayedGame

DEFAULT_LOADER = "splendor_mcts:load_game"
_GAMES: dict[tuple[str, str], Any] = {}


def resolve_loader(loader: str) -> Callable[..., Any]:
    """``module:function`` -> the function that loads a game from a spec string."""
    module_name, _, attr = loader.partition(":")
    try:
        fn = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load the game loader {loader!r}: {exc}") from None
    return fn


@functools.lru_cache(maxsize=64)
def _parsed(spec_text: str) -> Any:
    return parse_agent_spec(spec_text)


def load_game_cached(loader: str, spec: str) -> Any:
    """The game for a canonical spec, loaded once per worker process."""
    key = (loader, spec)
    if key not in _GAMES:
        _GAMES[key] = resolve_loader(loader)(spec)
    return _GAMES[key]


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game."""

    game_id: int
    game_spec: str
    seed: int
    seats: tuple[str, ...]  # full agent spec per seat (display name included)
    agent_seeds: tuple[int, ...]
    loader: str = DEFAULT_LOADER
    meta: dict[str, Any] = field(default_factory=dict)
    max_decisions: int = MAX_DECISIONS  # then the game is adjudicated a draw


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def play_game(task: GameTask, pool: EnginePool | None = None) -> PlayedGame:
    """Play one game to the end (or to a forfeit, or to ``task.max_decisions``) and return its record.

    External engines that can play several games go back to ``pool`` at the end (without a
    pool every engine ends with its game)."""
    started = time.perf_counter()
    game = load_game_cached(task.loader, task.game_spec)
    n = len(task.seats)
    state = game.new_initial_state(seed=task.seed, explicit_chance=True)
    actions: list[int] = []
    move_times: list[float] = []
    movers: list[int] = []  # seat per decision, to sum thinking time per seat at the end
    forfeit: Forfeit | None = None

    agents: list[Any] = []
    for seat, (spec_text, seed) in enumerate(zip(task.seats, task.agent_seeds)):
        try:
            agents.append(build_agent(_parsed(spec_text), game, seed, pool=pool))
        except EngineFailure as exc:
            forfeit = Forfeit(seat, forfeit_reason(exc), exc.stderr)
            break
        except Exception as exc:  # noqa: BLE001 - a broken agent forfeits, the tournament goes on
            forfeit = Forfeit(seat, f"crashed while being built: {_describe(exc)}")
            break

    # Bound methods once per game: this loop runs for every action of every game.
    is_terminal, current_player, apply_action = state.is_terminal, state.current_player, state.apply_action
    is_legal = getattr(state, "is_legal", None)
    if is_legal is None:  # a user game without is_legal: ask for the whole list
        is_legal = lambda a: a in state.legal_actions()  # noqa: E731
    record_action, record_time, record_mover = actions.append, move_times.append, movers.append
    clock = time.perf_counter
    steps = [agent.step for agent in agents]
    cap = task.max_decisions
    adjudicated = False
    try:
        while forfeit is None and not is_terminal():
            player = current_player()
            if player < 0:  # chance: the deal decides
                action = state.dealt_outcome()
                apply_action(action)
                record_action(action)
                continue
            if len(movers) >= cap:  # Duel has no turn limit: a looping game must end somewhere
                adjudicated = True
                break
            t0 = clock()
            try:
                action = steps[player](state)
            except EngineFailure as exc:
                forfeit = Forfeit(player, forfeit_reason(exc), exc.stderr)
                break
            except AgentForfeit as exc:  # the agent says why it loses
                forfeit = Forfeit(player, str(exc))
                break
            except Exception as exc:  # noqa: BLE001
                forfeit = Forfeit(player, f"crashed: {_describe(exc)}")
                break
            elapsed = clock() - t0
            if type(action) is not int:
                if isinstance(action, bool) or not isinstance(action, int):
                    try:
                        action = int(action.__index__())  # numpy integers
                    except (AttributeError, TypeError):
                        forfeit = Forfeit(player, f"illegal move: step() returned {action!r}, not an action id")
                        break
                else:
                    action = int(action)
            try:
                legal = action >= 0 and is_legal(action)
            except (TypeError, ValueError, OverflowError):  # e.g. too large for the engine's integers
                legal = False
            if not legal:
                forfeit = Forfeit(player, f"illegal move: action {action} is not legal here")
                break
            apply_action(action)
            record_action(action)
            record_time(elapsed)
            record_mover(player)
    finally:  # engines end (or go back to the pool) however the game ends
        for agent in agents:
            release = getattr(agent, "release", None)
            if release is not None:
                release()
    times = tuple([round(t, 7) for t in move_times])  # to 0.1 us: a shorter record, nothing measurable lost
    think = [0.0] * n
    for seat, seconds in zip(movers, times):
        think[seat] += seconds
    meta = dict(task.meta)
    if forfeit is not None:
        result = forfeit_result(n, forfeit.seat)
        termination = "forfeit"
    elif adjudicated:
        result = draw_result(n)
        termination = "adjudicated"
        meta["adjudication"] = adjudication_reason(cap)
    else:
        result = tuple(float(x) for x in state.returns())
        termination = "normal"
    record = GameRecord(
        game=task.game_spec,
        seed=task.seed,
        seats=task.seats,
        actions=tuple(actions),
        move_times=times,
        result=result,
        termination=termination,
        forfeit=forfeit,
        explicit_chance=True,
        meta=meta,
    )
    # The JSON is made here, in the worker, so the process writing the database does less per game.
    return PlayedGame(task.game_id, record, tuple(think), tuple(movers.count(s) for s in range(n)),
                      time.perf_counter() - started,
                      record.to_json())


def play_games(tasks: Sequence[GameTask]) -> list[PlayedGame]:
    """Play a batch of games one after another (one worker task for several cheap games);
    external engines are kept across the batch's games when they can be, and ended with it."""
    pool = EnginePool()
    try:
        return [play_game(task, pool) for task in tasks]
    finally:
        pool.close()
