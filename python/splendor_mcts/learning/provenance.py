"""Where a shipped network came from, written without the paths of the machine that made it.

When a pipeline run's network is shipped (:mod:`.shipping`), two records are made of it:

- its header's ``training`` section (:func:`path_free_training`): the trainer's settings
  without its paths, the network it began from (``parent``, by hash), the recipe step
  (``step``), the generation, a hash of the data it was trained on and the losses;
- its provenance folder ``<provenance>/<hash>/`` (:func:`write_provenance`), flat and keyed
  by the shipped file's short hash: ``network.json`` (the family, the file's SHA-256 and that
  ``training`` section), the run's ``pipeline.json`` and ``pipeline.log``, and each
  generation's gate report (``gate.txt`` in ``gen-NNN``). The training rows, self-play manifests and the earlier
  networks stay behind; the parent is named by its hash, its own folder beside this one.

Every path under the run's folder becomes relative to it, and any other absolute path its
last part (:func:`path_free`), so nothing written names a folder of the machine.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import Any

from ..atomic_write import atomic_write

NETWORK_FILE = "network.json"  # in a provenance folder: the family, the file's SHA-256, its training section
# An absolute path of any machine: two or more /parts not following a word (so not "+/-" or "1/3"), or C:\...
ABSOLUTE_PATH = re.compile(r"(?<![\w.~+=-])(?:/[A-Za-z0-9_.~][\w.+~-]*){2,}/?|\b[A-Za-z]:\\[^\s\"',;]*")
_GENERATION = re.compile(r"gen-(\d+)")
_KEPT = ("version", "torch", "rows", "steps", "best", "losses")  # the trainer's record, as it wrote it


def path_free(text: str, roots: Iterable[str | PurePath] = ()) -> str:
    """``text`` with each path under one of the folders ``roots`` relative to it, and any
    other absolute path replaced by its last part."""
    for root in sorted({str(r).rstrip("/\\") for r in roots if str(r)}, key=len, reverse=True):
        text = text.replace(root + "/", "").replace(root + "\\", "")
    return ABSOLUTE_PATH.sub(lambda found: re.split(r"[\\/]", found.group().rstrip("/\\"))[-1], text)


def path_free_json(value: Any, roots: Iterable[str | PurePath] = ()) -> Any:
    """``value`` (JSON values) with :func:`path_free` applied to every string in it."""
    roots = list(roots)
    if isinstance(value, str):
        return path_free(value, roots)
    if isinstance(value, list):
        return [path_free_json(v, roots) for v in value]
    if isinstance(value, dict):
        return {k: path_free_json(v, roots) for k, v in value.items()}
    return value


def run_root(training: dict[str, Any]) -> PurePath | None:
    """The folder of the run that trained a network, from its header's ``training``: the
    trainer's ``out`` is ``<run>/gen-NNN/candidate.smnet``."""
    out = training.get("settings", {}).get("out")
    return PurePath(out).parent.parent if isinstance(out, str) and _GENERATION.search(out) else None


def path_free_training(training: dict[str, Any], parent: str | None, step: str | None,
                       roots: Iterable[str | PurePath] = ()) -> dict[str, Any]:
    """The header's ``training`` section as shipped: the trainer's record (``training``, as
    ``learning.train`` writes it) without paths. ``parent``: the short hash of the network
    the run began from (None: from nothing); ``step``: the recipe step that made it
    (``<recipe>/<folder>/<family>``; None: a run by hand). The settings lose ``data``,
    ``out`` and ``init``; ``generation`` is the run's generation that trained it, ``init``
    what its training began from (``start``: the run's start network, ``gen-NNN``: that
    generation's candidate), and ``data`` the number of shards and rows, the generations
    they came from and ``sha256``, the hash of the trainer's list of shards (each one's file
    relative to the run, rows, search and seed; compact JSON, sorted keys)."""
    roots = [*roots, *([root] if (root := run_root(training)) else [])]
    settings = dict(training.get("settings", {}))
    out, init = settings.pop("out", None), settings.pop("init", None)
    settings.pop("data", None)
    shards = path_free_json(training.get("data", []), roots)
    generations = sorted({int(found[1]) for shard in shards
                          if (found := _GENERATION.search(str(shard.get("file", ""))))})
    digest = hashlib.sha256(json.dumps(shards, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    produced = _GENERATION.search(out) if isinstance(out, str) else None
    began = path_free(init, roots) if isinstance(init, str) else None
    record = {
        "parent": parent, "step": step,
        "generation": int(produced[1]) if produced else None,
        "init": began.split("/")[0].removesuffix(".smnet") if began else None,
        "data": {"sha256": digest, "shards": len(shards), "rows": sum(int(s.get("rows", 0)) for s in shards),
                 "generations": generations},
        "settings": settings,
        **{key: training[key] for key in _KEPT if key in training},
    }
    return path_free_json(record, roots)


def write_provenance(into: Path, short_hash: str, network: dict[str, Any], state: dict[str, Any], log: str,
                     gates: dict[str, str], roots: Iterable[str | PurePath] = ()) -> Path:
    """Write the provenance folder ``into/short_hash/``, in place of one there (built beside
    it and renamed, so an interruption leaves one whole): ``network.json`` (``network``),
    ``pipeline.json`` (the run's ``state``), ``pipeline.log`` (``log``) and each of
    ``gates`` (``gen-NNN`` to its ``gate.txt``), every path relative (:func:`path_free`)."""
    roots = list(roots)
    target, staged = into / short_hash, into / f".{short_hash}.new"
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    files = {NETWORK_FILE: json.dumps(path_free_json(network, roots), indent=1) + "\n",
             "pipeline.json": json.dumps(path_free_json(state, roots), indent=1) + "\n",
             "pipeline.log": path_free(log, roots),
             **{f"{generation}/gate.txt": path_free(text, roots) for generation, text in sorted(gates.items())}}
    for name, text in files.items():
        (staged / name).parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(staged / name) as out:
            out.write(text.encode("utf-8"))
    shutil.rmtree(target, ignore_errors=True)
    staged.rename(target)
    return target


def read_provenance(folder: Path) -> dict[str, Any]:
    """A provenance folder's ``network.json``; ``ValueError`` naming it when it cannot be read."""
    path = folder / NETWORK_FILE
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or not isinstance(record.get("training"), dict):
            raise ValueError("no training section")
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read the network's provenance ({exc})") from None
    return record


def by_step(provenance: Path) -> dict[str, Path]:
    """The provenance folders in ``provenance`` by the recipe step that made their network."""
    found = {}
    for folder in sorted(provenance.glob(f"*/{NETWORK_FILE}")):
        if folder.parent.name.startswith("."):
            continue  # one being written
        step = read_provenance(folder.parent)["training"].get("step")
        if step:
            found[step] = folder.parent
    return found
