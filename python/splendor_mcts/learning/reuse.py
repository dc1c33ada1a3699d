"""What a resumed pipeline reuses, verified before it is trusted (docs/training.md, "State and resuming").

A generation's steps reuse files an earlier step, or an earlier stage, wrote: training reads the
self-play runs of its window and resumes from its checkpoint, the gate plays the candidate
training wrote (and resumes its tournament database), every step uses the accepted network.
Each is checked first, and what is wrong is named (``Pipeline.say``) and redone:

- a self-play run: every shard against its manifest (:func:`.selfplay.resume_run`, with the
  settings the run was played with): a missing, damaged or foreign shard is set aside and its
  games played again;
- the training checkpoint: against the SHA-256 written beside it (:func:`.train.checkpoint_problem`);
  another file is set aside and training begins again;
- the candidate: against the SHA-256 recorded in ``pipeline.json`` when training wrote it; another
  file is set aside with the gate's database and report (their games were the old candidate's)
  and the generation is trained again;
- the accepted network: against its recorded SHA-256; another file is put back from
  ``current.smnet`` when that copy is the one recorded, else the run is refused, saying how to
  recover (the generations after it were built on it, so nothing is redone silently).

Files written before the digests were kept are recorded the first time they are reused.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from ..atomic_write import copy_atomically
from .shards import MANIFEST, REJECTED, file_sha256, set_aside
from .train import checkpoint_of, checkpoint_problem, remove_checkpoint


class Pipeline(Protocol):
    """What these checks use of a :class:`.pipeline.Pipeline` (named here, not imported, so
    that the pipeline can import this module without an import circle)."""

    directory: Path
    state: dict[str, Any]
    settings: Any

    def say(self, line: str) -> None: ...
    def generation_dir(self, generation: int) -> Path: ...
    def selfplay_games_per_count(self) -> int: ...
    def training_data(self, generation: int) -> list[Path]: ...
    def generation_record(self, generation: int) -> dict[str, Any]: ...
    def save_state(self) -> None: ...


DIGESTS = "digests"        # pipeline.json: file (relative to the family's run) -> its SHA-256 when written
CANDIDATE = "candidate.smnet"
CURRENT_COPY = "current.smnet"
GATE_FILES = ("gate.sqlite", "gate.sqlite-journal", "gate.sqlite-wal", "gate.sqlite-shm", "gate.txt")


def before_step(pipeline: Pipeline, generation: int, step: str, deadline: float) -> bool:
    """Check what ``step`` of ``generation`` reuses. True: it may run. False: something was bad
    and has been set aside, and the state says what to redo (or the deadline came while lost
    self-play games were played again); the caller asks for the next step again.
    ``ValueError`` for an accepted network that cannot be trusted or put back."""
    _check_current(pipeline)
    if step == "train":
        return _selfplay_whole(pipeline, generation, deadline) and _checkpoint_whole(pipeline, generation)
    if step == "gate":
        return _candidate_whole(pipeline, generation)
    return True


def after_step(pipeline: Pipeline, generation: int, step: str) -> None:
    """Record the SHA-256 of what ``step`` wrote for later steps to reuse (training: the candidate)."""
    if step == "train":
        _remember(pipeline, _candidate(pipeline, generation))


def _digests(pipeline: Pipeline) -> dict[str, str]:
    digests: dict[str, str] = pipeline.state.setdefault(DIGESTS, {})
    return digests


def _relative(pipeline: Pipeline, path: Path) -> str:
    return path.relative_to(pipeline.directory).as_posix()


def _remember(pipeline: Pipeline, path: Path) -> None:
    _digests(pipeline)[_relative(pipeline, path)] = file_sha256(path)


def _problem(pipeline: Pipeline, path: Path) -> str | None:
    """What is wrong with a file the run recorded; one without a digest yet is recorded now."""
    if not path.is_file():
        return "is missing"
    recorded = _digests(pipeline).get(_relative(pipeline, path))
    if recorded is None:  # saved with the state when the step ends: a run's state file begins then
        _remember(pipeline, path)
        return None
    actual = file_sha256(path)
    return None if actual == recorded else f"is not the file written: its SHA-256 is {actual}, recorded {recorded}"


def _candidate(pipeline: Pipeline, generation: int) -> Path:
    return pipeline.generation_dir(generation) / CANDIDATE


def _selfplay_whole(pipeline: Pipeline, generation: int, deadline: float) -> bool:
    from .selfplay import resume_run

    games = pipeline.selfplay_games_per_count()
    for run in pipeline.training_data(generation):
        if (run / MANIFEST).is_file():
            if resume_run(run, games, pipeline.settings.workers, deadline, notice=pipeline.say).stopped:
                return False
    return True


def _checkpoint_whole(pipeline: Pipeline, generation: int) -> bool:
    checkpoint = checkpoint_of(_candidate(pipeline, generation))
    problem = checkpoint_problem(checkpoint)
    if problem is None:
        return True
    set_aside(checkpoint.parent, checkpoint.name)
    remove_checkpoint(checkpoint)  # its digest
    pipeline.say(f"{checkpoint}: {problem}; moved to {REJECTED}/: generation {generation}'s training begins again")
    return True


def _candidate_whole(pipeline: Pipeline, generation: int) -> bool:
    candidate = _candidate(pipeline, generation)
    problem = _problem(pipeline, candidate)
    if problem is None:
        return True
    moved = [name for name in (CANDIDATE, *GATE_FILES) if set_aside(candidate.parent, name)]
    record: dict[str, Any] = pipeline.generation_record(generation)
    record["done"] = [step for step in record["done"] if step not in ("train", "gate")]
    record["seconds"].pop("train", None)
    _digests(pipeline).pop(_relative(pipeline, candidate), None)
    pipeline.save_state()
    where = f"moved {', '.join(moved)} to {REJECTED}/; " if moved else ""
    pipeline.say(f"{candidate}: {problem}; {where}generation {generation} is trained again and its gate begins anew")
    return False


def _check_current(pipeline: Pipeline) -> None:
    current = pipeline.state.get("current")
    if not current:
        return
    path = pipeline.directory / current
    problem = _problem(pipeline, path)
    if problem is None:
        return
    recorded = _digests(pipeline).get(current)
    copy = pipeline.directory / CURRENT_COPY
    if recorded is not None and copy.is_file() and copy != path and file_sha256(copy) == recorded:
        copy_atomically(copy, path)
        pipeline.say(f"{path}: {problem}; put back from {CURRENT_COPY}, the copy of the accepted network")
        return
    accepted = f" (SHA-256 {recorded})" if recorded else ""
    raise ValueError(f"{path}: {problem}; it is the run's accepted network, which later generations were built on: "
                     f"put back the file accepted{accepted} or begin the run again in another --dir")
