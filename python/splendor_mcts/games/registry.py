"""The games of the package, each declared once: every tool looks a game up here.

A game's Python side is one package under ``games/`` whose ``GAME`` is a :class:`GameEntry`:
its config class, the engine's state and searcher classes, and every other per-game part
(search defaults, card tables, boards, play table, observation layout, network families,
bench positions, the web page's data). A move's readable label is the state's own
``action_label(action)``. Adding a game is its own package and one line in
``BUILTIN_GAMES`` (docs/adding-a-game.md); a game from outside the package (e.g. a test's)
calls :func:`register`.
"""
from __future__ import annotations

import copyreg
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .. import _core


@dataclass(frozen=True)
class SearchDefaults:
    """A game's parameters for any left as None: the strongest measured at 1,000
    iterations per move (docs/search.md, "Defaults"). Each game's registry entry holds one."""

    exploration: float = 0.4
    evaluator: str = "heuristic"
    rollout_cutoff: int = 30


@dataclass(frozen=True)
class NetworkFamily:
    """One network family of a game (:mod:`splendor_mcts.search.families`): the player counts
    its network plays, and the self-play and gate games of each generation of its training
    pipeline (docs/training.md has the arithmetic: time allows far more; the training rows of
    a window of 3 generations held in memory, about 1.5-1.7 GB, set these)."""

    players: tuple[int, ...]
    selfplay_games: int
    gate_games: int


BUILTIN_GAMES = ("splendor_mcts.games.splendor", "splendor_mcts.games.duel")
DEFAULT_GAME = "splendor"  # the game of a command or position that names none


@dataclass(frozen=True, eq=False)  # one entry per game: compared and hashed by identity
class GameEntry:
    """Everything the tools need to know about one game: every per-game part of the package
    is reached from here (docs/adding-a-game.md).

    ``config`` is a frozen dataclass with a ``game_name`` class variable, ``num_players()``,
    ``to_engine()`` (the rules object of the engine) and ``spec()``; ``state`` and
    ``searcher`` are the engine's classes, ``random_playouts(rules, n, seed)`` its playout
    loop, ``engine`` the extension module that binds them (``_core`` for the shipped games;
    its ``random_agent_action``, ``perft``... take the game's states). ``card_tables`` holds
    the other card lists by name (``nobles``, ``royals``). ``search_defaults`` are its search
    parameters.

    Named as ``"module:attribute"`` and imported when first used (so that ``games/`` imports
    nothing of the layers above it, docs/layers.md): ``board``, drawing a seat's view on a rich
    console; ``play_table``, a :class:`splendor_mcts.games.play_table.Table`; ``picture``, the
    SVG board of the web page and ``hint --svg`` (a
    :class:`splendor_mcts.pictures.board.BoardPicture`); ``observation_layout``, the layout of
    its observation tensor (:mod:`splendor_mcts.games.observation_layout`); ``bought_summary``,
    ``shown(bought, card, entry)``, the counts of a seat's ``bought`` summary (as the table
    shows its bought cards, docs/position-format.md) that a bought card adds to, beyond its
    ``cards`` (:func:`splendor_mcts.games.positions.as_the_table_shows`).

    ``legend`` explains the letters of the game's notation and board in one line (printed
    under a hint's table and on the board). ``network_families`` maps the name of each
    network family of the game to its :class:`NetworkFamily`
    (:mod:`splendor_mcts.search.families`).
    ``bench_positions`` are its positions of ``splendor-mcts bench`` (variant spec, deal
    seed, plies of first legal moves played before the search). ``web_page`` is what the web
    board (docs/board.md) needs to know of the game beyond its positions: the set-up editor's
    data and the moves a click types (served by ``/api/games``, read by ``serve/static/``).
    """

    name: str
    title: str
    config: type[Any]
    state: type[Any]
    searcher: type[Any]
    random_playouts: Callable[..., Any]
    num_distinct_actions: int
    observation_size: int
    cards: Callable[[], list[dict[str, Any]]] = list
    card_from_text: Callable[[str], int] | None = None
    card_tables: Mapping[str, Callable[[], list[dict[str, Any]]]] = field(default_factory=dict)
    search_defaults: SearchDefaults = SearchDefaults()
    board: str | None = None
    picture: str | None = None
    bought_summary: str | None = None
    play_table: str | None = None
    legend: str = ""
    observation_layout: str | None = None
    network_families: Mapping[str, NetworkFamily] = field(default_factory=dict)
    bench_positions: tuple[tuple[str, int, int], ...] = ()
    web_page: Mapping[str, Any] = field(default_factory=dict)
    engine: Any = _core

    @classmethod
    def from_engine(cls, name: str, title: str, config: type[Any], engine: Any = _core, **more: Any) -> "GameEntry":
        """The entry of a game bound in module ``engine``: its engine parts by the bindings'
        names (:func:`engine_parts`, and ``<name>_cards`` / ``<name>_card_from_text`` where
        the game has cards); ``more`` sets the rest."""
        parts = engine_parts(name, engine)
        if hasattr(engine, f"{name}_cards"):
            parts.update(cards=getattr(engine, f"{name}_cards"),
                         card_from_text=getattr(engine, f"{name}_card_from_text"))
        return cls(name=name, title=title, config=config, engine=engine, **{**parts, **more})

    def variant_fields(self) -> tuple[str, ...]:
        """The names of the config's fields (the variant keywords of ``load_game``)."""
        return tuple(f.name for f in fields(self.config))


def engine_parts(name: str, engine: Any = _core) -> dict[str, Any]:
    """The engine's side of game ``name`` as :class:`GameEntry` keywords: its state and
    searcher classes, playout loop and sizes, bound in module ``engine`` under the names the
    C++ bindings give every game (``bind_state``, ``bind_searcher``: ``DuelState``,
    ``DuelSearcher``, ``duel_random_playouts``, ``DUEL_NUM_DISTINCT_ACTIONS``,
    ``DUEL_OBSERVATION_SIZE``)."""
    prefix, upper = name[:1].upper() + name[1:], name.upper()
    return {"state": getattr(engine, f"{prefix}State"), "searcher": getattr(engine, f"{prefix}Searcher"),
            "random_playouts": getattr(engine, f"{name}_random_playouts"),
            "num_distinct_actions": getattr(engine, f"{upper}_NUM_DISTINCT_ACTIONS"),
            "observation_size": getattr(engine, f"{upper}_OBSERVATION_SIZE")}


_GAMES: dict[str, GameEntry] = {}
_BY_STATE: dict[type, GameEntry] = {}
_builtins_loaded = False


def register(entry: GameEntry) -> GameEntry:
    """Add a game; ``ValueError`` if its name or state class is taken."""
    _games()
    _add(entry)
    return entry


def _add(entry: GameEntry) -> None:
    if entry.name != canonical_name(entry.name):
        raise ValueError(f"a game's name is written in lower case without spaces, got {entry.name!r}")
    if entry.name in _GAMES or entry.state in _BY_STATE:
        raise ValueError(f"a game named {entry.name!r} (or with its state class) is already registered")
    _GAMES[entry.name] = entry
    _BY_STATE[entry.state] = entry
    copyreg.pickle(entry.state, _reduce_state)  # pickle (multiprocessing) and copy by the game's name


def _reduce_state(state: Any) -> tuple[Any, ...]:
    return (state_from_pickle, (entry_of_state(state).name, state.to_json()))


def state_from_pickle(game_name: str, text: str) -> Any:
    """A pickled state back: its game's config from the variant its JSON carries."""
    entry = game_entry(game_name)
    config = entry.config(**json.loads(text).get("variant", {}))
    return entry.state.from_json(config.to_engine(), text)


def _games() -> dict[str, GameEntry]:
    # The built-in games are imported on first use: their modules import this one.
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        for module in BUILTIN_GAMES:
            _add(importlib.import_module(module).GAME)
    return _GAMES


def entries() -> list[GameEntry]:
    """Every registered game's entry, in the order of registration (the built-in games first)."""
    return list(_games().values())


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(_games())


def canonical_name(name: str) -> str:
    """How a game's name is looked up: case and surrounding spaces do not matter (``"Splendor"``)."""
    return name.strip().lower()


def game_entry(name: str) -> GameEntry:
    """The game called ``name`` (in any case); ``ValueError`` listing the known games otherwise."""
    if not isinstance(name, str):
        raise ValueError(f"a game name must be a string, got {name!r}")
    try:
        return _games()[canonical_name(name)]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None


def entry_of_state(state: Any) -> GameEntry:
    """The game a state belongs to; ``ValueError`` for anything that is not a game state."""
    _games()
    try:
        return _BY_STATE[type(state)]
    except KeyError:
        raise ValueError(
            f"state must be a game state (from game.new_initial_state), got {type(state).__name__}") from None


def position_readers() -> dict[str, Callable[..., Any]]:
    """The position readers of the games bound outside ``_core`` (``engine.read_position``),
    by name: ``_core.read_position`` hands such a game's position to its own module."""
    return {name: entry.engine.read_position for name, entry in _games().items() if entry.engine is not _core}


def load_attribute(path: str) -> Any:
    """The object a ``"module:attribute"`` path names (a game's board or play table)."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)
