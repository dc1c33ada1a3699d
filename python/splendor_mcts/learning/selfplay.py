"""Self-play: games played by the C++ search against itself, written as training shards.

Every decision of a game is searched by one MCTS (an agent spec as the tournament takes,
``mcts:iterations=800`` by default) that plays every seat; the row it adds holds the mover's
observation tensor, the legal actions, the root's visit share per action, the root's mean
return per seat and, once the game is over, its result, both rotated to the mover
(:mod:`.shards` describes the format).

So that games differ, the first ``temperature_moves`` decisions of a game are drawn from the
root's visits raised to ``1 / temperature`` (AlphaZero's temperature); later decisions play
the search's best move. The policy row is the visit share of every root move
(:func:`visit_policy`; a best move proven to win takes it all). A game is fixed by the run's seed and its index in the run: the deal,
the search's seed and the draws come from ``derive_seed(seed, index, ...)``, never from the
worker or the order games finish in. With one worker (and an iteration budget) the same
settings write identical shards; with more, the same games in shards cut in finishing order.

Runs resume: games are written in shards of ``games_per_shard`` and ``manifest.json`` names
every finished shard with its games' indexes and the file's SHA-256, so running the same call
again plays only the games not yet in a shard (a kill loses at most the games of the shard being
filled). A resume first checks every shard against its entry: one missing, changed or another
run's is named (``notice``), moved to ``rejected/`` and dropped from the manifest, and its games
are played again; a manifest that is not one (an entry twice, a path out of the run) is refused. A
``deadline`` ends a call the same way, but writes every finished game first: a pipeline's
stage stops in the middle of a long self-play and the next stage goes on from there. A run
directory keeps its settings; another game, search, seed, temperature, shard size or cap there is
refused with a message naming each setting that differs. ``games`` is the run's target and
may grow between calls.

Neither game has a turn limit, and a weak search can play a cycle for ever (both seats at the
token limit in Duel: ``replenish``, ``take``, ``discard`` the token, round after round), so a
game stops after ``max_decisions`` decisions (default ``games.limits.MAX_DECISIONS``, shared
with tournaments) and is scored as a draw (every seat an equal share), its rows kept; the
summary counts such games.
"""
from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..games.game import Game, load_game
from ..games.limits import MAX_DECISIONS, check_max_decisions
from ..games.registry import DEFAULT_GAME
from ..search import families
from ..search.defaults import SELFPLAY_ITERATIONS
from ..search.families import VALUE_SIZE
from ..search.networks import shipped_used
from ..search.settings import make_params
from ..seeds import check_seed
from ..spec_text import format_value
from ..stopping import deferred_interrupts
from ..tournament.agents import mcts_settings, parse_agent_spec
from ..tournament.backends import make_backend
from ..tournament.schedule import derive_seed
from ..version import __version__
from ..wording import counted
from .shards import (
    DIGEST, FORMAT, MANIFEST, Manifest, ShardError, concatenate, entry_problem, file_sha256, set_aside, write_shard,
)

DEFAULT_SEARCH = f"mcts:iterations={SELFPLAY_ITERATIONS}"
TEMPERATURE_MOVES = 20   # decisions of a game drawn from the visits (about 10 turns each in 2-player games)
TEMPERATURE = 1.0
GAMES_PER_SHARD = 32
_MOVE_NUMBERS = np.iinfo(np.int16).max + 1  # the shards' move_number column is 16 bits
deadline_clock = time.monotonic  # what a deadline is an instant of
# derive_seed paths below a game's index: its deal, its search and its temperature draws
_DEAL, _SEARCH, _DRAWS = 0, 1, 2


def family_of(game: Game) -> str:
    """The network family a game belongs to (``families.family_of``); a game no family
    plays (the toy Nim) is named by itself."""
    try:
        return families.family_of(game.name, game.num_players()).name
    except ValueError:
        return game.name


@dataclass(frozen=True)
class SelfPlaySettings:
    """What fixes a run's games (kept in its manifest; a run continues only with the same)."""

    game: str            # the game's canonical spec
    search: str          # the canonical mcts agent spec
    seed: int
    temperature_moves: int
    temperature: float
    games_per_shard: int
    max_decisions: int = MAX_DECISIONS
    # the shipped network the search uses (shipped:<family>@<hash>; search.networks), so a run
    # is not continued with other weights; None: another or none (and left out of the manifest)
    shipped: str | None = None

    def to_dict(self) -> dict[str, Any]:
        settings = asdict(self)
        if settings["shipped"] is None:
            del settings["shipped"]  # the manifests of runs without one, as they were
        return settings


def make_settings(game: Game | str = DEFAULT_GAME, search: str = DEFAULT_SEARCH, seed: int = 0,
                  temperature_moves: int = TEMPERATURE_MOVES, temperature: float = TEMPERATURE,
                  games_per_shard: int = GAMES_PER_SHARD, max_decisions: int = MAX_DECISIONS) -> SelfPlaySettings:
    """Checked settings; ``ValueError`` names the bad one."""
    loaded = game if isinstance(game, Game) else load_game(game)
    if loaded.num_players() > VALUE_SIZE:
        raise ValueError(f"self-play shards hold at most {VALUE_SIZE} seats, {loaded.spec} has {loaded.num_players()}")
    if not isinstance(search, str):
        raise ValueError(f"search must be an agent spec string such as {DEFAULT_SEARCH!r}, got {search!r}")
    parsed = parse_agent_spec(search)
    if parsed.kind != "mcts":
        raise ValueError(f"search {search!r}: self-play needs the search's root visits, so an mcts agent "
                         f"spec (e.g. {DEFAULT_SEARCH!r}), not {parsed.kind!r}")
    params = dict(parsed.params)
    if "iterations" not in params and "time" not in params:
        params["iterations"] = SELFPLAY_ITERATIONS
    canonical = parse_agent_spec("mcts:" + ",".join(f"{k}={format_value(v)}" for k, v in params.items())).spec
    check_seed(seed)
    if isinstance(temperature_moves, bool) or not isinstance(temperature_moves, int) or temperature_moves < 0:
        raise ValueError(f"temperature_moves must be a whole number of decisions >= 0, got {temperature_moves!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
            or not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be a positive number, got {temperature!r}")
    if isinstance(games_per_shard, bool) or not isinstance(games_per_shard, int) or games_per_shard < 1:
        raise ValueError(f"games_per_shard must be a positive whole number, got {games_per_shard!r}")
    check_max_decisions(max_decisions, limit=_MOVE_NUMBERS, why="the shards number a game's rows in 16 bits")
    shipped = shipped_used(mcts_settings(params), loaded.entry.name, loaded.num_players())
    return SelfPlaySettings(loaded.spec, canonical, seed, temperature_moves, float(temperature), games_per_shard,
                            max_decisions, shipped)


@dataclass(frozen=True)
class SelfPlayTask:
    """One game to play: the run's settings and the game's index in the run."""

    settings: SelfPlaySettings
    index: int


@dataclass
class SelfPlayGame:
    """A finished game: its rows (the arrays of :data:`.shards.COLUMNS`) and its cost.
    ``capped``: stopped at ``max_decisions`` and scored as a draw."""

    index: int
    game_id: int
    arrays: dict[str, np.ndarray]
    wall_time: float
    capped: bool = False

    @property
    def decisions(self) -> int:
        return int(len(self.arrays["game_id"]))


def visit_policy(analysis: Any, num_actions: int) -> np.ndarray:
    """The root's visit share per action (float64, sums to 1).

    Two roots where visits do not say what the search knows put everything on its best move:
    a best move proven to win (the solver may prove it with few or no visits while the
    others still get them), and a root without visits."""
    visits = np.zeros(num_actions, dtype=np.float64)
    for move in analysis.moves:
        visits[move.action] += move.visits
    best = analysis.moves[0] if analysis.moves else None
    if visits.sum() <= 0 or (best is not None and best.proof == "win"):
        visits[:] = 0.0
        visits[analysis.best_action] = 1.0
    return visits / visits.sum()


def search_value(analysis: Any, players: int) -> np.ndarray | None:
    """The root's mean return per seat (absolute seats) as win shares, or None when the search
    says nothing (no iteration and no proof). A best move proven to win gives the mover it all,
    as :func:`visit_policy` gives it every visit."""
    best = analysis.moves[0] if analysis.moves else None
    if best is not None and best.proof == "win":
        shares = np.zeros(players)
        shares[analysis.root.player] = 1.0
        return shares
    values = np.clip(np.asarray(analysis.root.win_rates, dtype=np.float64)[:players], 0.0, None)
    return values / values.sum() if values.sum() > 0 else None


def rotate_to_mover(per_seat: np.ndarray, seats: np.ndarray, players: int) -> np.ndarray:
    """Rows of win shares by absolute seat turned into the shards' layout: column k holds the
    k-th seat after the row's mover in turn order, 0 past the players."""
    rotated = np.zeros((len(seats), VALUE_SIZE), dtype=np.float32)
    for k in range(players):
        rotated[:, k] = per_seat[np.arange(len(seats)), (seats.astype(np.int64) + k) % players]
    return rotated


def play_selfplay_game(task: SelfPlayTask) -> SelfPlayGame:
    """Play one game of the run (every seat searched by the same MCTS) and return its rows."""
    start = time.perf_counter()
    settings = task.settings
    game = load_game(settings.game)
    game_id = derive_seed(settings.seed, task.index, _DEAL)
    spec = parse_agent_spec(settings.search)
    params = make_params(game.entry.search_defaults, game=game.entry.name, players=game.num_players(),
                         seed=derive_seed(settings.seed, task.index, _SEARCH),
                         **mcts_settings(spec.kwargs()))
    searcher = game.entry.searcher(params)
    draws = np.random.default_rng(derive_seed(settings.seed, task.index, _DRAWS))
    num_actions, players = game.num_distinct_actions(), game.num_players()
    observations, legal, policies, seats, searched = [], [], [], [], []
    state = game.new_initial_state(seed=game_id)
    while not state.is_terminal() and len(seats) < settings.max_decisions:
        if state.current_player() == _core.CHANCE:
            state.apply_action(state.dealt_outcome())
            continue
        seat = state.current_player()
        analysis = searcher.search(state)
        policy = visit_policy(analysis, num_actions)
        observations.append(state.observation_tensor(seat))
        legal.append(state.legal_actions_mask())
        policies.append(policy)
        searched.append(search_value(analysis, players))
        seats.append(seat)
        if len(seats) <= settings.temperature_moves:
            weights = policy ** (1.0 / settings.temperature)
            action = int(draws.choice(num_actions, p=weights / weights.sum()))
        else:
            action = int(analysis.best_action)
        state.apply_action(action)
    capped = not state.is_terminal()
    returns = np.zeros(players) if capped else np.asarray(state.returns(), dtype=np.float64)
    shares = returns / returns.sum() if returns.sum() > 0 else np.full(players, 1.0 / players)  # capped: a draw
    n = len(seats)
    seat_array = np.asarray(seats, dtype=np.int8)
    outcome = np.tile(shares, (n, 1))
    # a root the search said nothing about (none in practice) takes the game's result
    root_values = np.asarray([outcome[i] if v is None else v for i, v in enumerate(searched)]).reshape(n, players)
    arrays = {
        "observation": np.asarray(observations, dtype=np.float32).reshape(n, game.observation_tensor_size()),
        "legal": np.asarray(legal, dtype=np.bool_).reshape(n, num_actions),
        "policy": np.asarray(policies, dtype=np.float32).reshape(n, num_actions),
        "value": rotate_to_mover(outcome, seat_array, players),
        "search_value": rotate_to_mover(root_values, seat_array, players),
        "players": np.full(n, players, dtype=np.int8),
        "seat": seat_array,
        "move_number": np.arange(n, dtype=np.int16),
        "game_id": np.full(n, game_id, dtype=np.int64),
    }
    return SelfPlayGame(task.index, game_id, arrays, time.perf_counter() - start, capped)


def play_selfplay_games(batch: list[SelfPlayTask]) -> list[SelfPlayGame]:
    """A worker's batch (the backends' ``work``)."""
    return [play_selfplay_game(task) for task in batch]


@dataclass(frozen=True)
class SelfPlayProgress:
    """Where a run is, for a progress display: games and rows finished (in shards or not)."""

    games_done: int
    games_total: int
    rows: int
    decisions_this_call: int
    seconds: float


@dataclass(frozen=True)
class SelfPlaySummary:
    """What a call did: games and decisions played now (``games_capped`` of them stopped at
    ``max_decisions`` as draws), and the run's totals on disk."""

    directory: Path
    games_played: int
    decisions_played: int
    seconds: float
    games_total: int
    rows_total: int
    shards_total: int
    games_capped: int = 0
    stopped: bool = False  # the deadline came before every game of the run was played
    rejected: tuple[str, ...] = ()  # what the resume found wrong with each shard it set aside (notice's lines)


def meta_of(settings: SelfPlaySettings) -> dict[str, Any]:
    """The ``meta`` of the run's shards."""
    game = load_game(settings.game)
    return {"format": FORMAT, "game": game.name, "variant": game.spec, "family": family_of(game),
            "search": settings.search, "seed": settings.seed, "version": __version__}


def selfplay(directory: str | os.PathLike[str], games: int, game: Game | str = DEFAULT_GAME,
             search: str = DEFAULT_SEARCH, seed: int = 0, workers: int | None = None, backend: str = "local",
             ray_address: str | None = None, temperature_moves: int = TEMPERATURE_MOVES,
             temperature: float = TEMPERATURE, games_per_shard: int = GAMES_PER_SHARD,
             progress: Callable[[SelfPlayProgress], Any] | None = None,
             max_decisions: int = MAX_DECISIONS, deadline: float | None = None,
             notice: Callable[[str], Any] | None = None) -> SelfPlaySummary:
    """Play the run's games ``0 .. games-1`` not yet in ``directory``'s shards and write them.

    ``workers`` processes (None: every core; 1: in this process) on the ``local`` backend, or
    Ray tasks on ``backend="ray"`` (``ray_address`` or a local Ray). ``progress`` is called
    after each finished game; a game still going after ``max_decisions`` decisions is stopped
    and scored as a draw. ``deadline`` (a ``time.monotonic()`` instant): no game is awaited
    past it; the games under way are abandoned (the next call plays them), the finished ones
    written, and the summary says ``stopped``. ``ValueError`` names a bad argument or a
    setting that differs from the run's, :class:`.ShardError` a manifest that cannot be trusted;
    Ctrl-C (``KeyboardInterrupt``) keeps the finished shards. A shard of the run that is missing
    or not the file written is set aside (:func:`set_aside_bad_shards`) with a line to ``notice``
    (default: standard error) and its games played again.
    """
    settings = make_settings(game, search, seed, temperature_moves, temperature, games_per_shard, max_decisions)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive whole number, got {games!r}")
    for name, hook in (("progress", progress), ("notice", notice)):
        if hook is not None and not callable(hook):
            raise ValueError(f"{name} must be callable, got {hook!r}")
    if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float))
                                 or math.isnan(deadline)):
        raise ValueError(f"deadline must be a time.monotonic() instant, got {deadline!r}")
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    try:
        manifest = Manifest.load(out)
    except ShardError as exc:
        raise ShardError(f"{exc}; the run cannot resume from it: mend {MANIFEST} (the games of an entry taken out "
                         "are played again) or use another directory") from None
    rejected: list[str] = []
    if manifest is None:
        manifest = Manifest(out, settings.to_dict())
        manifest.save()
    else:
        # A run begun before the cap existed: its games all ended by themselves, so it continues with one.
        manifest.settings.setdefault("max_decisions", settings.max_decisions)
        manifest.check_settings(settings.to_dict())
        rejected = set_aside_bad_shards(manifest, notice or _to_stderr)
    done = manifest.done_indexes()
    todo = [i for i in range(games) if i not in done]
    meta = meta_of(settings)
    start = time.perf_counter()
    buffer: list[SelfPlayGame] = []
    played = decisions = capped = 0

    def flush() -> None:
        buffer.sort(key=lambda g: g.index)
        file = manifest.next_file()
        arrays = concatenate([g.arrays for g in buffer])
        with deferred_interrupts():  # a shard the manifest does not list would be played again
            write_shard(out / file, arrays, meta)
            manifest.add(file, len(arrays["game_id"]), [g.game_id for g in buffer], [g.index for g in buffer])
            buffer.clear()

    def past_deadline() -> bool:
        return deadline is not None and deadline_clock() >= deadline

    stopped = bool(todo) and past_deadline()
    if todo and not stopped:
        runner = make_backend(backend, workers, ray_address, work=play_selfplay_games, option="--workers")
        try:
            for result in runner.run(SelfPlayTask(settings, i) for i in todo):
                buffer.append(result)
                played += 1
                decisions += result.decisions
                capped += result.capped
                if len(buffer) == settings.games_per_shard:
                    flush()
                if progress is not None:
                    progress(SelfPlayProgress(len(done) + played, games, manifest.rows + sum(g.decisions for g in buffer),
                                              decisions, time.perf_counter() - start))
                if played < len(todo) and past_deadline():
                    stopped = True
                    break
        finally:
            runner.close()
        if buffer:
            flush()
    return SelfPlaySummary(out, played, decisions, time.perf_counter() - start, manifest.games, manifest.rows,
                           len(manifest.shards), capped, stopped, tuple(rejected))


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def set_aside_bad_shards(manifest: Manifest, notice: Callable[[str], Any]) -> list[str]:
    """Check every shard of a run against its manifest entry (:func:`.shards.entry_problem`);
    each that is missing or not the file written is moved to the run's ``rejected/`` folder and
    its entry dropped, so its games are played again, with a line to ``notice`` naming it and
    what is wrong. Entries of runs from before digests whose shards read back as the manifest
    says get their SHA-256 now (one line says how many). Returns the lines about bad shards."""
    kept: list[dict[str, Any]] = []
    lines: list[str] = []
    recorded = 0
    for entry in manifest.shards:
        problem = entry_problem(manifest.directory, entry, manifest.settings)
        if problem is None:
            if DIGEST not in entry:
                entry[DIGEST] = file_sha256(manifest.directory / entry["file"])
                recorded += 1
            kept.append(entry)
            continue
        with deferred_interrupts():  # the file moved and the manifest saved together
            moved = set_aside(manifest.directory, entry["file"])
            manifest.shards = [e for e in manifest.shards if e is not entry]
            manifest.save()
        lines.append(f"{manifest.directory / entry['file']}: {problem}; "
                     f"{f'moved to {moved}' if moved else 'dropped from the manifest'}: its "
                     f"{counted(len(entry['indexes']), 'game')} will be played again")
        notice(lines[-1])
    manifest.shards = kept
    if recorded:
        manifest.save()
        notice(f"{manifest.directory / MANIFEST}: recorded the SHA-256 of {counted(recorded, 'shard')} written "
               "before digests were kept (each read back as its entry says)")
    return lines


def resume_run(directory: str | os.PathLike[str], games: int, workers: int | None = None,
               deadline: float | None = None, notice: Callable[[str], Any] | None = None) -> SelfPlaySummary:
    """:func:`selfplay` of the run in ``directory`` with the settings its manifest holds (a
    pipeline's earlier generation, whose search the caller no longer knows): its shards checked
    and the games of any bad one played again. :class:`.ShardError` when there is no run."""
    manifest = Manifest.load(directory)
    if manifest is None:
        raise ShardError(f"{directory}: no {MANIFEST}: not a self-play run directory")
    s = manifest.settings
    try:
        return selfplay(directory, games, s["game"], search=s["search"], seed=s["seed"], workers=workers,
                        temperature_moves=s["temperature_moves"], temperature=s["temperature"],
                        games_per_shard=s["games_per_shard"], max_decisions=s.get("max_decisions", MAX_DECISIONS),
                        deadline=deadline, notice=notice)
    except KeyError as exc:
        raise ShardError(f"{Path(directory) / MANIFEST}: the settings miss {exc}") from None


__all__ = ["DEFAULT_SEARCH", "GAMES_PER_SHARD", "MAX_DECISIONS", "TEMPERATURE", "TEMPERATURE_MOVES", "SelfPlayGame",
           "SelfPlayProgress", "SelfPlaySettings", "SelfPlaySummary", "SelfPlayTask", "family_of",
           "make_settings", "meta_of", "play_selfplay_game", "play_selfplay_games", "resume_run", "rotate_to_mover",
           "search_value", "selfplay", "set_aside_bad_shards", "visit_policy"]
