"""How the shipped networks were made, as one command: ``splendor-mcts pipeline --recipe shipped``.

The package's networks come from several pipeline runs, a later one beginning from the
network an earlier one made (``--start shipped``). A recipe lists such runs in order with
their settings; :data:`RECIPES` ``["shipped"]`` is the package's, with the settings the
``pipeline.json`` files of its networks' provenance record (``bench/networks/<hash>/``;
tests/test_learning_recipe.py reads them there). :func:`run_recipe` runs them in
``DIR/<folder>/<family>/``, all within one stage's deadline (the same command again goes on,
as the pipeline's does), and after each run ships its network into ``DIR/networks/``, laid
out as the package's folder, and its provenance into ``DIR/provenance/<hash>/``
(:mod:`.shipping`); a run that begins from ``shipped`` begins from that folder's network.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic_write import atomic_write
from ..search.networks import FOLDER_VARIABLE, SHIPPED, index
from .pipeline import START_FILE, Pipeline, PipelineSettings, budget, compute_text, run_report, run_seconds
from .provenance import by_step
from .shipping import ship, shipped_from

NETWORKS_FOLDER = "networks"  # in the recipe's directory: what it has shipped so far
PROVENANCE_FOLDER = "provenance"  # in the recipe's directory: where each network it shipped came from, by hash
STATE_FILE = "recipe.json"    # the recipe's name and the runs it has shipped


@dataclass(frozen=True)
class RecipeRun:
    """One family's pipeline run in a recipe: its folder (under the recipe's directory) and
    the options it gives :func:`.pipeline.budget` beside the family's defaults and the
    recipe's workers. ``start="shipped"`` begins from the network the recipe shipped last for
    the family."""

    folder: str
    family: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.folder}/{self.family}"


RECIPES: dict[str, tuple[RecipeRun, ...]] = {
    # About 3 h 50 min of compute on the 2-core machine (docs/training.md, "How the shipped networks were made").
    "shipped": (
        RecipeRun("first", "splendor-2p", {"generations": 8}),
        RecipeRun("first", "splendor-3-4p", {"generations": 8}),
        RecipeRun("first", "duel", {"generations": 6}),
        # Duel's value head over-fitted on 500 games a generation; 2,000 ended it.
        RecipeRun("duel-2000-games", "duel", {"start": SHIPPED, "selfplay_games": 2000, "generations": 5, "seed": 1}),
        # Splendor 2p learns from 10,000 games only with dropout 0 and every position, and its
        # gains need more gate games than the family's 400 to reach a verdict.
        RecipeRun("splendor-2p-10000-games", "splendor-2p",
                  {"start": SHIPPED, "selfplay_games": 10000, "gate_games": 2000, "dropout": 0.0,
                   "positions_per_game": 0, "generations": 3, "seed": 6}),
        # A deeper teacher: 800 iterations a self-play decision instead of 200.
        RecipeRun("splendor-2p-800-iterations", "splendor-2p",
                  {"start": SHIPPED, "selfplay_games": 10000, "iterations": 800, "gate_games": 2000, "dropout": 0.0,
                   "positions_per_game": 0, "generations": 2, "seed": 7}),
        # Told what each player still lacks for each card and noble (the "needs" input features).
        RecipeRun("splendor-2p-needs", "splendor-2p",
                  {"start": SHIPPED, "features": "needs", "selfplay_games": 10000, "iterations": 800, "gate_games": 2000,
                   "dropout": 0.0, "positions_per_game": 0, "generations": 1, "seed": 8}),
        # Splendor 3-4p had none of the three above; here all three at once (the 10,000 games
        # half with 3 players, half with 4). Its gate plays 3 players only, so more games.
        RecipeRun("splendor-3-4p-needs", "splendor-3-4p",
                  {"start": SHIPPED, "features": "needs", "selfplay_games": 10000, "iterations": 800, "gate_games": 3000,
                   "dropout": 0.0, "positions_per_game": 0, "generations": 1, "seed": 9}),
    ),
}


def recipe_settings(runs: tuple[RecipeRun, ...], workers: int) -> list[PipelineSettings]:
    """Each run's settings; ``ValueError`` names a bad one (``workers``)."""
    return [budget(run.family, workers=workers, **run.options) for run in runs]


def run_recipe(name: str, directory: str | Path, workers: int, deadline: float,
               say: Callable[[str], None] = print, runs: tuple[RecipeRun, ...] | None = None) -> bool:
    """Run recipe ``name``'s runs in ``directory`` until all are done and shipped (True) or
    until a step would pass ``deadline`` (``time.monotonic()`` seconds; False). ``runs``
    replaces the recipe's (the tests' small ones). ``ValueError`` when ``directory`` holds
    another recipe, or one of its runs with other settings (``workers``): nothing more runs.
    ``RuntimeError`` when a run accepted no network and a later run must begin from it."""
    directory = Path(directory)
    runs = RECIPES[name] if runs is None else runs
    networks, provenance = directory / NETWORKS_FOLDER, directory / PROVENANCE_FOLDER
    state = _load_state(directory, name)
    _save_state(directory, state)  # the directory is this recipe's from its first step
    for run, settings in zip(runs, recipe_settings(runs, workers)):
        if run.key in state["shipped"]:
            continue
        pipeline = Pipeline(settings, directory / run.folder / run.family, say=say, networks=networks)
        if pipeline.next_step() is not None and not pipeline.run(deadline):
            return False
        if pipeline.state["current"] in (None, START_FILE):
            if any(later.family == run.family and later.options.get("start") == SHIPPED
                   for later in runs[runs.index(run) + 1:]):
                raise RuntimeError(f"{directory / run.key}: no network was accepted in this run, and a later run of "
                                   "the recipe begins from it, so the recipe stops here (each generation's gate.txt "
                                   "there says why its candidate was rejected)")
            say(f"{run.key}: no network was accepted; nothing shipped")
        elif not shipped_from(directory / run.folder, run.family, networks, provenance, f"{name}/{run.key}"):
            # (else shipped before an interruption)
            shipped = ship(directory / run.folder, run.family, networks, provenance, f"{name}/{run.key}")
            say(f"{run.key}: shipped into {shipped}")
        state["shipped"].append(run.key)
        _save_state(directory, state)
    say(f"recipe {name} done: the networks are in {networks} ({FOLDER_VARIABLE}={networks} makes every door use "
        "them as network=shipped)")
    return True


def recipe_report(name: str, directory: str | Path, runs: tuple[RecipeRun, ...] | None = None) -> list[str]:
    """Where recipe ``name`` stands in ``directory``, read from its state files (nothing is
    written): a line for the recipe (with the compute of every run's steps done so far),
    then each run's: shipped, or its pipeline's :func:`.pipeline.run_report` (indented), or
    not begun. A shipped run needs nothing but ``recipe.json``, ``networks/`` and
    ``provenance/``: those, copied to another machine, go on there from the next run.
    ``ValueError`` when ``directory`` holds no recipe or another one."""
    directory = Path(directory)
    runs = RECIPES[name] if runs is None else runs
    if not (directory / STATE_FILE).is_file():
        raise ValueError(f"{directory}: no recipe has begun here (no {STATE_FILE})")
    shipped = _load_state(directory, name)["shipped"]
    lines = []
    seconds = 0.0
    networks = directory / NETWORKS_FOLDER
    made = by_step(directory / PROVENANCE_FOLDER)
    for run in runs:
        if run.key in shipped:
            where = made.get(f"{name}/{run.key}")
            if where is None:
                lines.append(f"{run.key}: shipped (its provenance is not in {directory / PROVENANCE_FOLDER})")
                continue
            seconds += run_seconds(where)
            lines.append(f"{run.key}: shipped as {where.name} ({run_report(where)[0]})")
            continue
        seconds += run_seconds(directory / run.folder / run.family)
        progress = run_report(directory / run.folder / run.family)
        lines.append(f"{run.key}: {progress[0]}")
        lines += [f"  {line}" for line in progress[1:]]
    lines.insert(0, f"recipe {name} in {directory}: {len(shipped)} of {len(runs)} runs shipped, {compute_text(seconds)}")
    families = list(index(networks))
    lines.append(f"networks: {networks} ({', '.join(families)})" if families
                 else f"networks: not in {networks} (its provenance only is kept)" if shipped else "networks: none shipped yet")
    return lines


def _load_state(directory: Path, name: str) -> dict[str, Any]:
    path = directory / STATE_FILE
    if not path.exists():
        return {"recipe": name, "shipped": []}
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
        recorded, shipped = state["recipe"], list(state["shipped"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: cannot read the recipe's state ({exc})") from None
    if recorded != name:
        raise ValueError(f"{path}: the recipe {recorded!r} is in this directory; give --recipe {recorded} to "
                         "resume it, or another --dir")
    return {"recipe": name, "shipped": shipped}


def _save_state(directory: Path, state: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    with atomic_write(directory / STATE_FILE) as out:
        out.write((json.dumps(state, indent=1) + "\n").encode())
