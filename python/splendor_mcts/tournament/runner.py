"""Running a tournament: validate everything, open (or resume) the database, play what is missing.

>>> from splendor_mcts.tournament import TournamentConfig, run_tournament
>>> result = run_tournament(TournamentConfig(game="splendor", players=2,
...                                          agents=("greedy", "random"), deals=10))
>>> print(result.report())
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..games.limits import MAX_DECISIONS, check_max_decisions
from ..ranges import COUNT
from ..seeds import check_seed
from ..games.variants import format_spec_value, parse_spec
from .agents import AgentSpec, check_seatable, parse_agent_spec, protocol_variant, shipped_network_of
from .backends import BACKENDS, make_backend
from .engine_agent import CLOCK_RULE, timed, with_time_control
from .matches import all_matches
from .places import tally_places
from .play import DEFAULT_LOADER, GameTask, resolve_loader
from .ratings import RatingTable, ScoredGame, rating_table
from .report import SprtStatus, TournamentResult
from .schedule import DEALS, MODES, ScheduledGame, agent_seed, make_pairings, make_schedule
from .elo import mean_score, share_from_elo
from .sprt import SprtConfig, llr, llr_scores
from .store import DatabaseReadOnly, PlayedGame, TournamentStore

@dataclass(frozen=True)
class TournamentConfig:
    """What defines a tournament and how to run it.

    ``game`` is a game name or spec string (``"splendor"``, ``"duel"``,
    ``"splendor(players=4,points_to_win=18)"``); ``players`` is passed to the loader as a keyword
    when given. ``deals`` counts deals per pairing; each deal is played once per seat rotation.
    ``concurrency=None`` means all cores. ``loader`` (``module:function``) loads a game from its
    spec in every worker; it is ``splendor_mcts:load_game`` unless you bring your own game.
    ``tc`` (``"60+0.5"``) and ``movetime`` (seconds) are the time control of every ``engine``
    agent that has no limit in its own spec (docs/engine-protocol.md). A game still going after
    ``max_decisions`` decisions is adjudicated a draw (``games.limits``; neither game has a turn
    limit and weak agents can loop).
    """

    game: str
    agents: tuple[str, ...]
    players: int | None = None
    mode: str = "round-robin"
    deals: int = 10
    seed: int = 0
    db: str | Path = "results.sqlite"
    concurrency: int | None = None
    backend: str = "local"
    ray_address: str | None = None
    sprt: SprtConfig | None = None
    loader: str = DEFAULT_LOADER
    tc: str | None = None  # engines' clock, BASE+INC seconds, for engine specs without a limit of their own
    movetime: float | None = None  # engines' seconds per decision, likewise
    max_decisions: int = MAX_DECISIONS  # then a game is adjudicated a draw


def _load_game(loader: str, game: str, players: int | None) -> Any:
    load = resolve_loader(loader)
    try:
        return load(game) if players is None else load(game, players=players)
    except (ValueError, TypeError, KeyError) as exc:
        shown = game if players is None else f"{game} with players={players}"
        raise ValueError(f"cannot load game {shown}: {exc}") from None


def _protocol_rules(game: Any, specs: list[AgentSpec], game_text: str, loader: str) -> tuple[Any, str | None]:
    """``game`` under the variant fields the seated agents' own protocols fix (a splendor-tools
    program: the referee's take rule), and the report's line naming them (None: no agent fixes
    one). A field the game spec leaves unsaid takes the protocol's value; one it gives otherwise
    is refused (ValueError naming the value to give), as such a game would forfeit a legal move
    of the agent's."""
    fixed: dict[str, tuple[Any, str, list[str]]] = {}  # field -> value, rule, agents
    for spec in specs:
        fields, rule = protocol_variant(spec)
        for key, value in fields.items():
            fixed.setdefault(key, (value, rule, []))[2].append(spec.name)
    if not fixed:
        return game, None
    config = getattr(game, "config", None)  # a game brought by --game-loader may have none
    known = {f.name for f in dataclasses.fields(config)} if dataclasses.is_dataclass(config) else set()
    fixed = {k: v for k, v in fixed.items() if k in known}  # another game: check_seatable says why not
    if not fixed:
        return game, None
    try:
        given = parse_spec(game_text)[1]
    except ValueError:  # a custom loader's own syntax: nothing said in ours
        given = {}
    changes: dict[str, Any] = {}
    for key, (value, rule, agents) in fixed.items():
        if getattr(config, key) == value:
            continue
        wanted = f"{key}={format_spec_value(value)}"
        if key in given:
            raise ValueError(f"agent {agents[0]!r} plays under {rule} ({wanted}), which the game {game_text!r} "
                             f"forbids ({key}={format_spec_value(given[key])}): give {wanted} or leave {key} out of "
                             "the game spec")
        changes[key] = value
    if changes:  # through the loader, as every worker loads the game again from its spec
        game = _load_game(loader, dataclasses.replace(config, **changes).spec(), None)
    note = "; ".join(f"{key}={format_spec_value(value)}, {rule}, which {', '.join(agents)} "
                     f"play{'s' if len(agents) == 1 else ''} under" for key, (value, rule, agents) in fixed.items())
    return game, note


class SprtTracker:
    """Agent 0's results against the others, one finished deal (every seat rotation of it) at a
    time: pentanomial counts in a 2-player game; in an N-player game each deal's mean share,
    tested against the shares that elo0 and elo1 give over N - 1 equal opponents."""

    def __init__(self, config: SprtConfig, players: int) -> None:
        self.config = config
        self.players = players
        self.counts = [0, 0, 0, 0, 0]
        self.deal_shares: list[float] = []
        self._open: dict[tuple[int, int], list[float]] = {}

    def add(self, game: ScoredGame) -> None:
        if len(game.seats) != self.players or 0 not in game.seats:
            return
        key = (game.pairing, game.deal)
        scores = self._open.setdefault(key, [])
        scores.append(game.result[game.seats.index(0)])
        if len(scores) < self.players:
            return
        del self._open[key]
        if self.players == 2:
            self.counts[round(2 * sum(scores))] += 1
        else:
            self.deal_shares.append(sum(scores) / self.players)

    def status(self) -> SprtStatus:
        c = self.config
        if self.players == 2:
            value = llr(self.counts, c.elo0, c.elo1)
            return SprtStatus(c, value, c.verdict(value), sum(self.counts))
        value = llr_scores(self.deal_shares, share_from_elo(c.elo0, self.players), share_from_elo(c.elo1, self.players))
        mean, error = mean_score(self.deal_shares)
        return SprtStatus(c, value, c.verdict(value), len(self.deal_shares), self.players, mean, error)


@dataclass(frozen=True)
class Progress:
    """Passed to ``on_game`` after each stored game (cheap: ratings are computed on demand)."""

    names: list[str]
    num_players: int
    games: list[ScoredGame]  # every stored game so far
    total: int  # games scheduled
    played_now: int  # games played by this run
    todo: int  # games this run had to play
    elapsed: float
    sprt: SprtStatus | None

    def table(self) -> RatingTable:
        return rating_table(self.names, self.games, self.num_players)


def _scored(g: ScheduledGame, played: PlayedGame) -> ScoredGame:
    assert played.record.result is not None
    return ScoredGame(g.game_id, g.pairing, g.deal, g.seats, played.record.result)


class Tournament:
    """A validated tournament bound to its database. :meth:`run` plays what is missing."""

    def __init__(self, config: TournamentConfig) -> None:
        # Everything is checked here, before the database is touched or any game starts.
        if config.mode not in MODES:
            raise ValueError(f"unknown --mode {config.mode!r}: expected one of {', '.join(MODES)}")
        if config.backend not in BACKENDS:
            raise ValueError(f"unknown --backend {config.backend!r}: expected one of {', '.join(BACKENDS)}")
        if config.concurrency is not None:
            COUNT.check(config.concurrency, "--concurrency")
        if config.ray_address is not None and config.backend != "ray":
            raise ValueError("--ray-address needs --backend ray")
        check_seed(config.seed, "--seed")
        DEALS.check(config.deals, "--deals")
        check_max_decisions(config.max_decisions, "--max-decisions")
        if len(config.agents) < 2:
            raise ValueError(f"a tournament needs at least 2 agents, got {len(config.agents)}")
        self.config = config
        self.specs: list[AgentSpec] = [with_time_control(parse_agent_spec(s), config.tc, config.movetime)
                                       for s in config.agents]
        names = [s.name for s in self.specs]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(
                f"agent name {duplicates[0]!r} is used twice; give each copy its own name, e.g. {duplicates[0]}:...,name=B"
                if ":" not in duplicates[0]
                else f"agent {duplicates[0]!r} is listed twice; add name=... to tell the copies apart"
            )
        self.game = _load_game(config.loader, config.game, config.players)
        # Agents whose protocol has its own rules play under them, and the report says so.
        self.game, self.rules = _protocol_rules(self.game, self.specs, config.game, config.loader)
        for spec in self.specs:
            check_seatable(spec, self.game)
        timed_engines = [s.name for s in self.specs if timed(s)]
        self.clocks = f"{', '.join(timed_engines)}: {CLOCK_RULE}" if timed_engines else None
        self.game_spec: str = self.game.spec
        self.num_players: int = self.game.num_players()
        # The shipped network each mcts agent searches with, by name and hash: in the report,
        # and in the fingerprint, so a database is not resumed with other weights.
        self.networks: dict[str, str] = {}
        for spec in self.specs:
            if (label := shipped_network_of(spec, self.game)) is not None:
                self.networks[spec.name] = label
        self.pairings = make_pairings(len(self.specs), self.num_players, config.mode)
        if config.sprt is not None and len(self.specs) != self.num_players:
            raise ValueError(
                f"--sprt tests the first agent against the others, which every game must seat: a {self.num_players}-player "
                f"game needs exactly {self.num_players} agents, got {len(self.specs)}")
        self.schedule: list[ScheduledGame] = make_schedule(
            len(self.specs), self.num_players, config.mode, config.deals, config.seed
        )

    def fingerprint(self) -> dict[str, Any]:
        """What must match for a database to be resumed: game, agents, mode, seed, decision cap."""
        return {
            "game": self.game_spec,
            "agents": [s.full_spec for s in self.specs],
            "mode": self.config.mode,
            "seed": self.config.seed,
            "max_decisions": self.config.max_decisions,
            **({"networks": self.networks} if self.networks else {}),  # as before where none is shipped
        }

    def open_store(self) -> TournamentStore:
        return TournamentStore.create_or_resume(
            self.config.db, self.fingerprint(), [(s.name, s.spec) for s in self.specs]
        )

    def task(self, g: ScheduledGame) -> GameTask:
        return GameTask(
            game_id=g.game_id,
            game_spec=self.game_spec,
            seed=g.seed,
            seats=tuple(self.specs[a].full_spec for a in g.seats),
            agent_seeds=tuple(agent_seed(self.config.seed, g.deal, a) for a in g.seats),
            loader=self.config.loader,
            meta={"game_id": g.game_id, "deal": g.deal, "rotation": g.rotation, "pairing": g.pairing},
            max_decisions=self.config.max_decisions,
        )

    def run(self, on_game: Callable[[Progress], None] | None = None) -> TournamentResult:
        """Play every scheduled game not yet in the database; stop early on an SPRT verdict.

        ``on_game`` is called once before the first game and after each stored game.
        """
        started = time.perf_counter()
        store = self.open_store()
        try:
            games = store.scored_games()
            finished = {g.game_id for g in games}
            by_id = {g.game_id: g for g in self.schedule}
            todo = [g for g in self.schedule if g.game_id not in finished]
            tracker = SprtTracker(self.config.sprt, self.num_players) if self.config.sprt else None
            for g in games:
                if tracker:
                    tracker.add(g)
            names = [s.name for s in self.specs]
            played_now = 0

            def progress() -> Progress:
                return Progress(names, self.num_players, games, len(self.schedule), played_now, len(todo),
                                time.perf_counter() - started, tracker.status() if tracker else None)

            if on_game is not None:
                on_game(progress())
            stopped = tracker is not None and tracker.status().verdict is not None
            if todo and not stopped and store.read_only:
                raise DatabaseReadOnly(
                    f"{store.path} is read-only: {len(todo)} of {len(self.schedule)} scheduled games remain to be "
                    "played; make it (and its folder) writable or use another --db")
            if todo and not stopped:
                backend = make_backend(self.config.backend, self.config.concurrency, self.config.ray_address)
                try:
                    for played in backend.run(self.task(g) for g in todo):
                        scheduled = by_id[played.game_id]
                        store.write_game(scheduled, played)
                        played_now += 1
                        games.append(_scored(scheduled, played))
                        if tracker:
                            tracker.add(games[-1])
                        if on_game is not None:
                            on_game(progress())
                        if tracker and tracker.status().verdict:
                            break
                finally:
                    backend.close()
            return self._result(store, played_now, started)
        finally:
            store.close()

    def stored(self) -> TournamentResult:
        """The result of the games already in the database, playing none: the state of a run
        that was stopped, or of one still playing in another process (the database is read, not
        locked). Refuses (TournamentDatabaseError) a missing file, creating none, and a database
        of another tournament."""
        started = time.perf_counter()
        store = TournamentStore.open_existing(self.config.db)
        try:
            store.check_tournament(self.fingerprint())
            return self._result(store, 0, started)
        finally:
            store.close()

    def _result(self, store: TournamentStore, played_now: int, started: float) -> TournamentResult:
        games = store.scored_games()
        names = [s.name for s in self.specs]
        return TournamentResult(
            game_spec=self.game_spec,
            num_players=self.num_players,
            names=names,
            games=games,
            scheduled=len(self.schedule),
            played_now=played_now,
            table=rating_table(names, games, self.num_players),
            matches=all_matches(len(names), games) if self.num_players == 2 else [],
            sprt=sprt_final(self.config.sprt, games, self.num_players) if self.config.sprt else None,
            forfeits=store.forfeits(),
            adjudicated=store.adjudicated(),
            think_times=store.think_times(),
            elapsed=time.perf_counter() - started,
            places=tally_places(names, self.num_players, games, store.records(), self.game)
            if self.num_players > 2 else None,
            contradictions=store.result_contradictions(
                lambda spec: self.game if spec == self.game_spec else _load_game(self.config.loader, spec, None)),
            networks=dict(self.networks),
            rules=self.rules,
            clocks=self.clocks,
        )


def sprt_final(config: SprtConfig, games: list[ScoredGame], players: int) -> SprtStatus:
    tracker = SprtTracker(config, players)
    for g in sorted(games, key=lambda g: g.game_id):
        tracker.add(g)
    return tracker.status()


def run_tournament(config: TournamentConfig, on_game: Callable[[Progress], None] | None = None) -> TournamentResult:
    """Validate, open or resume the database, and play the missing games (see :class:`Tournament`)."""
    return Tournament(config).run(on_game)
