"""Generations of self-play, training and gating: ``splendor-mcts pipeline`` (docs/training.md).

Each family's run directory holds ``pipeline.json``, the state file: the settings, the
network currently accepted, and per generation the steps done (``selfplay``, ``train``,
``gate``), their seconds and the gate's verdict. A step is marked done only when it has
finished, and every step resumes its own partial work (self-play's manifest, training's
checkpoint, the gate's tournament database), so the same command started again after an
interruption at any point carries on. A stage stops before a step that its time limit
would not hold (estimated from the step's last run), so a run can be cut into stages;
self-play, the longest step and the only one whose length a first run cannot estimate,
stops at the stage's deadline itself, keeping its finished games, and its seconds so far are
kept in the generation's ``partial`` until it is done.
"""
from __future__ import annotations

import json
import math
import time
from datetime import datetime, timezone
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..atomic_write import atomic_write, copy_atomically
from ..games.game import spec_with_players
from ..search.families import Family, family
from ..search.networks import NO_NETWORK, SHIPPED, folder, index, shipped_file, short_hash
from .input_features import check_features
from .reuse import after_step, before_step
from .weights import read_warm_start
from .train import (
    DEFAULT_DROPOUT, DEFAULT_EPOCHS, DEFAULT_HIDDEN, DEFAULT_POSITIONS_PER_GAME, DEFAULT_SEARCH_VALUE_SHARE,
    TrainSettings, check_dropout, check_positions_per_game, check_search_value_share, train,
)

STEPS = ("selfplay", "train", "gate")
STATE_FILE = "pipeline.json"
START_FILE = "start.smnet"  # the --start network's copy in the run
LOG_FILE = "pipeline.log"


@dataclass(frozen=True)
class PipelineSettings:
    """The budget of one family's run (:func:`budget` gives the defaults)."""

    family: str
    selfplay_games: int             # per generation, split evenly over the family's player counts
    gate_games: int                 # at most; in 2-player families the SPRT usually stops sooner
    generations: int = 4
    iterations: int = 200           # search iterations per decision, in self-play and in the gate
    epochs: int = DEFAULT_EPOCHS
    window: int = 3                 # train on the self-play of the last `window` generations
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    elo1: float = 20.0              # the gate's SPRT: elo0=0 elo1=20
    search_value_share: float = DEFAULT_SEARCH_VALUE_SHARE  # of the value target (TrainSettings)
    dropout: float = DEFAULT_DROPOUT                        # TrainSettings'
    positions_per_game: int = DEFAULT_POSITIONS_PER_GAME    # TrainSettings'
    features: str = ""                                      # TrainSettings': input features, "" = none
    seed: int = 0
    workers: int = 2
    # a network to begin from (a file, or "shipped": the package's network of the family):
    # generation 1's self-play uses it and its gate plays against it; None: the search without one
    start: str | None = None

    def __post_init__(self) -> None:
        family(self.family)
        for name in ("generations", "selfplay_games", "iterations", "epochs", "window", "gate_games", "workers"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1, got {getattr(self, name)}")
        if self.gate_games < 2:
            raise ValueError(f"gate-games must be at least 2, got {self.gate_games}")
        check_search_value_share(self.search_value_share)
        check_dropout(self.dropout)
        check_positions_per_game(self.positions_per_game)
        check_features(self.features, self.family)

    def recorded(self) -> dict[str, Any]:
        values = asdict(self)
        values["hidden"] = list(self.hidden)
        if values["start"] is None:
            del values["start"]  # the state files of runs from nothing, as they were
        if not values["features"]:
            del values["features"]  # and of runs without input features
        return values

    def start_file(self, networks: Path | None = None) -> Path | None:
        """The start network's file, checked: ``ValueError`` names a file that is missing or
        bad, or of another family or trunk than this run's. ``shipped`` is the family's network
        in the networks folder ``networks`` (by default the package's)."""
        if self.start is None:
            return None
        path = shipped_file(self.family, networks) if self.start == SHIPPED else Path(self.start)
        if path is None:
            raise ValueError(f"--start {SHIPPED}: no network of {self.family} is shipped in {networks or folder()}")
        if not path.is_file():
            raise ValueError(f"--start {self.start}: no such network file ({path})")
        read_warm_start(path, self.family, self.hidden, f"--start {self.start}", self.features)
        return path


def budget(family_name: str, **given: Any) -> PipelineSettings:
    """A family's settings: the documented budget (its game's registry entry declares its games
    per generation), with the ``given`` ones that are not None."""
    declared = family(family_name)
    games, gate = declared.selfplay_games, declared.gate_games
    chosen = {key: value for key, value in given.items() if value is not None}
    return PipelineSettings(**{"family": family_name, "selfplay_games": games, "gate_games": gate, **chosen})


NETWORK_VALUE_MIX = 0.5


def network_agent(network: str | None, iterations: int, family_name: str | None = None) -> str:
    """The agent spec of the search guided by ``network`` (the search without a network
    without one). The network's value is mixed half and half with the rollout's: after the
    first generation that scored 0.617 against the plain search at equal iterations, the
    network's value alone 0.180 (docs/training.md; bench/notes/2026-12-02-first-generation.md).
    Where the default search of ``family_name`` uses its shipped network (its entry in
    the networks index, ``search.network_index``), the spec without a network says ``network=none``;
    elsewhere it stays as it was, so that runs begun before resume."""
    base = f"mcts:iterations={iterations}"
    if network:
        return f"{base},network={network},value_mix={NETWORK_VALUE_MIX}"
    if family_name is not None and (entry := index().get(family_name)) is not None and entry.on:
        return f"{base},network={NO_NETWORK}"
    return base


def run_selfplay(game: str, players: int, agent: str, games: int, out: Path, seed: int, workers: int,
                 deadline: float | None = None) -> bool:
    """Self-play games into shard directory ``out`` (``splendor-mcts selfplay``'s function),
    which resumes from its manifest when ``out`` holds part of the run; False when
    ``deadline`` (``time.monotonic()``) came first."""
    from .selfplay import selfplay

    return not selfplay(out, games, spec_with_players(game, players), search=agent,
                        seed=seed, workers=workers, deadline=deadline).stopped


class Pipeline:
    """One family's generations in ``directory`` (see the module's docstring)."""

    def __init__(self, settings: PipelineSettings, directory: str | Path, say: Callable[[str], None] = print,
                 networks: Path | None = None) -> None:
        """``networks``: the networks folder where ``start="shipped"`` looks (by default the
        package's; a recipe's own folder, :mod:`.recipe`)."""
        self.settings = settings
        self.family: Family = family(settings.family)
        self.directory = Path(directory)
        self._say = say
        self._networks = networks
        self.state = self._load_state()

    def say(self, line: str) -> None:
        """A line for the terminal, also kept with its UTC time in ``pipeline.log`` (the run's log,
        which is shipped beside the weights with the gate reports)."""
        self._say(line)
        self.directory.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with open(self.directory / LOG_FILE, "a", encoding="utf-8") as log:
            log.write(f"{stamp} {line}\n")

    def _load_state(self) -> dict[str, Any]:
        path = self.directory / STATE_FILE
        if not path.exists():
            start = self.settings.start_file(self._networks)
            if start is not None:  # kept in the run, as an accepted candidate is
                self.directory.mkdir(parents=True, exist_ok=True)
                copy_atomically(start, self.directory / START_FILE)
                copy_atomically(start, self.directory / "current.smnet")
            # The network begun from, by its hash: the key of its provenance when it was shipped.
            parent = {"parent": short_hash(start)} if start else {}
            return {"settings": self.settings.recorded(), "current": START_FILE if start else None, **parent,
                    "generations": []}
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: cannot read the pipeline state ({exc})") from None
        recorded = state.get("settings", {})
        recorded.setdefault("search_value_share", 0.0)  # runs begun before the setting trained on results only
        recorded.setdefault("dropout", 0.3)  # and runs begun before these two trained with the values then fixed
        recorded.setdefault("positions_per_game", 8)
        given = self.settings.recorded()
        differ = sorted(k for k in set(given) | set(recorded) if k != "generations" and recorded.get(k) != given.get(k))
        if differ:
            raise ValueError(f"{path}: a run with other settings ({', '.join(differ)}) is in this directory; "
                             "give the same settings to resume, or another --dir")
        # More generations continue a run (the spare hours of the budget); fewer than it has begun cannot.
        begun = sum(1 for r in state.get("generations", []) if r.get("done"))
        if self.settings.generations < begun:
            raise ValueError(f"{path}: the run in this directory has begun {begun} generations; --generations "
                             f"{self.settings.generations} would leave them unfinished (give at least {begun})")
        state["settings"] = self.settings.recorded()
        return state

    def save_state(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        with atomic_write(self.directory / STATE_FILE) as out:  # whole or the previous one, never half written
            out.write((json.dumps(self.state, indent=1) + "\n").encode())

    def generation_dir(self, generation: int) -> Path:
        return self.directory / f"gen-{generation:03d}"

    def generation_record(self, generation: int) -> dict[str, Any]:
        records = self.state["generations"]
        while len(records) < generation:
            records.append({"generation": len(records) + 1, "done": [], "seconds": {}})
        return records[generation - 1]

    def next_step(self) -> tuple[int, str] | None:
        """(generation, step) to run next, or None when every generation is done."""
        for generation in range(1, self.settings.generations + 1):
            done = self.generation_record(generation)["done"]
            for step in STEPS:
                if step not in done:
                    return generation, step
        return None

    def estimate(self, step: str) -> float:
        """Seconds the step (train or gate: self-play ends at the deadline itself) took the
        last time it ran in a generation that, like this one, was (or was not) guided by a
        network: a gate against the rollout default is far faster. 0 when it has not run so yet,
        and for self-play, which needs no room before the deadline."""
        if step == "selfplay":
            return 0.0
        guided = self.state["current"] is not None
        times = [r["seconds"][step] for r in self.state["generations"]
                 if step in r["seconds"] and r.get("guided") == guided]
        return float(times[-1]) if times else 0.0

    def run(self, deadline: float) -> bool:
        """Run steps until done (True) or until the next step would pass ``deadline``
        (``time.monotonic()`` seconds; False)."""
        while (todo := self.next_step()) is not None:
            generation, step = todo
            if time.monotonic() + self.estimate(step) >= deadline:
                self.say(f"{self.family.name}: stage time is up before generation {generation} {step}")
                return False
            if not before_step(self, generation, step, deadline):
                continue  # something the step reuses was bad: the state now says what to redo
            self.say(f"{self.family.name}: generation {generation}: {step}")
            began = time.monotonic()
            record = self.generation_record(generation)
            record.setdefault("guided", self.state["current"] is not None)
            if step == "selfplay":
                finished = self._selfplay(generation, deadline)
            else:
                getattr(self, f"_{step}")(generation)
                finished = True
            # Steps run in order, so only the step under way can have seconds from an earlier stage.
            seconds = record.pop("partial", {}).get(step, 0.0) + time.monotonic() - began
            if not finished:
                record["partial"] = {step: round(seconds, 1)}
                self.save_state()
                self.say(f"{self.family.name}: stage time is up during generation {generation} {step} "
                         "(its finished games are kept)")
                return False
            record["seconds"][step] = round(seconds, 1)
            record["done"].append(step)
            after_step(self, generation, step)
            self.save_state()
        self.say(f"{self.family.name}: all {self.settings.generations} generations done; "
                 f"network: {self.state['current'] or 'none accepted'}")
        return True

    def selfplay_games_per_count(self) -> int:
        """Self-play games a generation plays of each of the family's player counts."""
        return math.ceil(self.settings.selfplay_games / len(self.family.players))

    def training_data(self, generation: int) -> list[Path]:
        """The self-play runs ``generation`` trains on: those of the last ``window`` generations."""
        first = max(1, generation - self.settings.window + 1)
        return [self.generation_dir(g) / f"selfplay-{p}p" for g in range(first, generation + 1)
                for p in self.family.players]

    def _selfplay(self, generation: int, deadline: float) -> bool:
        s, current = self.settings, self._current_path()
        per_count = self.selfplay_games_per_count()
        return all(run_selfplay(self.family.game, players, network_agent(current, s.iterations, s.family), per_count,
                                self.generation_dir(generation) / f"selfplay-{players}p",
                                seed=s.seed * 1_000_003 + generation * 10 + players, workers=s.workers,
                                deadline=deadline)
                   for players in self.family.players)

    def _train(self, generation: int) -> None:
        s = self.settings
        data = tuple(str(run) for run in self.training_data(generation))
        train(TrainSettings(family=s.family, data=data, out=str(self.generation_dir(generation) / "candidate.smnet"),
                            epochs=s.epochs, hidden=s.hidden, seed=s.seed * 1_000_003 + generation,
                            search_value_share=s.search_value_share, dropout=s.dropout,
                            positions_per_game=s.positions_per_game, features=s.features, init=self._current_path()),
              say=self.say)

    def _gate(self, generation: int) -> None:
        from ..tournament.runner import Tournament, TournamentConfig
        from ..tournament.sprt import SprtConfig

        s, where = self.settings, self.generation_dir(generation)
        candidate = network_agent(str(where / "candidate.smnet"), s.iterations, s.family) + ",name=candidate"
        current = network_agent(self._current_path(), s.iterations, s.family)
        players = min(self.family.players)
        agents = (candidate, *(f"{current},name=current{i}" for i in range(1, players)))
        config = TournamentConfig(
            game=spec_with_players(self.family.game, players),
            agents=agents, mode="gauntlet", deals=max(1, s.gate_games // players), seed=s.seed * 1_000_003 + generation,
            db=where / "gate.sqlite", concurrency=s.workers,
            sprt=SprtConfig(elo0=0.0, elo1=s.elo1) if players == 2 else None)
        result = Tournament(config).run()
        verdict = gate_verdict([g.result[g.seats.index(0)] for g in result.games], players,
                               result.sprt.verdict if result.sprt else None)
        (where / "gate.txt").write_text(result.report() + "\n", encoding="utf-8")
        self.generation_record(generation)["gate"] = verdict
        self.say(f"{self.family.name}: generation {generation}: candidate "
                 f"{'accepted' if verdict['accepted'] else 'rejected'}: {verdict['why']}")
        if verdict["accepted"]:
            copy_atomically(where / "candidate.smnet", self.directory / "current.smnet")
            self.state["current"] = str((where / "candidate.smnet").relative_to(self.directory))

    def _current_path(self) -> str | None:
        current = self.state["current"]
        return str(self.directory / current) if current else None


def run_report(directory: str | Path) -> list[str]:
    """Where the run in ``directory`` stands, read from its ``pipeline.json`` (nothing is
    written): a line for the run (with the seconds of its steps done, as compute), then one
    per generation begun (its steps' seconds and the gate's verdict). Without a state file,
    ``["not begun"]``, or a line saying its first step is under way if the run's folder has
    anything in it (the state is written when a step ends); ``ValueError`` for a state file
    that cannot be read."""
    folder = Path(directory)
    if not (folder / STATE_FILE).exists() and folder.is_dir() and any(folder.iterdir()):
        return [f"begun, no step finished yet; next: generation 1 {STEPS[0]}"]
    return _from_state(directory, _report_lines, ["not begun"])


def run_seconds(directory: str | Path) -> float:
    """The seconds of the steps done in the run in ``directory`` (0 if it has not begun);
    ``ValueError`` for a state file that cannot be read."""
    return _from_state(directory, _step_seconds, 0.0)


def compute_text(seconds: float) -> str:
    """``seconds`` of compute as a person reads them: "41 min of compute", "2 h 5 min of compute"."""
    minutes = round(seconds / 60)
    return (f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min") + " of compute"


def _from_state(directory: str | Path, read: Callable[[dict[str, Any]], Any], absent: Any) -> Any:
    """``read`` of the run's state, ``absent`` without one; ``ValueError`` naming the file for
    one that cannot be read."""
    path = Path(directory) / STATE_FILE
    if not path.exists():
        return absent
    try:
        return read(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: cannot read the pipeline state ({exc!r})") from None


def _step_seconds(state: dict[str, Any]) -> float:
    """The seconds of the steps done, and of those begun in a stage that ended before them."""
    return sum(float(record.get("seconds", {}).get(step, 0.0)) if step in record.get("done", [])
               else float(record.get("partial", {}).get(step, 0.0))
               for record in state.get("generations", []) for step in STEPS)


def _report_lines(state: dict[str, Any]) -> list[str]:
    generations = int(state["settings"]["generations"])
    records = list(state.get("generations", []))
    current = state.get("current")
    finished = sum(1 for r in records if all(step in r.get("done", []) for step in STEPS))
    network = {None: "none accepted", START_FILE: "the one it began from"}.get(current, current)
    head = f"{finished} of {generations} generations done, {compute_text(_step_seconds(state))}, network: {network}"
    todo = next(((g, step) for g in range(1, generations + 1) for step in STEPS
                 if g > len(records) or step not in records[g - 1].get("done", [])), None)
    lines = [head + (f"; next: generation {todo[0]} {todo[1]}" if todo else "")]
    for number, record in enumerate(records, start=1):
        steps = ", ".join([f"{step} {record['seconds'][step]:.0f} s" for step in STEPS
                           if step in record.get("done", []) and step in record.get("seconds", {})]
                          + [f"{step} {seconds:.0f} s so far" for step, seconds in record.get("partial", {}).items()])
        line = f"generation {number}: {steps or 'nothing done yet'}"
        if gate := record.get("gate"):
            line += f"; candidate {'accepted' if gate['accepted'] else 'rejected'}: {gate['why']}"
        lines.append(line)
    return lines


def gate_verdict(scores: Sequence[float], players: int, sprt: str | None) -> dict[str, Any]:
    """Accept or reject a candidate from its game scores (win 1, shared wins split) against
    the current network: by the SPRT's H1 in 2-player games, else by the 95% interval of its
    mean score lying above the 1/players an equal agent gets."""
    n = len(scores)
    mean = sum(scores) / n if n else 0.0
    spread = math.sqrt(sum((x - mean) ** 2 for x in scores) / max(1, n - 1) / max(1, n))
    lower = mean - 1.96 * spread
    if players == 2:
        accepted = sprt == "H1"
        why = f"SPRT {sprt or 'no verdict'} after {n} games, score {mean:.3f}"
    else:
        accepted = lower > 1 / players
        why = f"score {mean:.3f} (95% lower bound {lower:.3f}) over {n} games against 1/{players}"
    return {"accepted": accepted, "why": why, "games": n, "score": mean, "sprt": sprt}
