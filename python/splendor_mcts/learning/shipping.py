"""A pipeline run's accepted network shipped into a networks folder, its provenance beside.

A networks folder holds only each family's final network, ``<family>-<hash>.smnet``, and
its index (:mod:`..search.network_index`; docs/network-format.md, "The networks folder").
:func:`ship` writes the run's ``current.smnet`` there with a header whose ``training``
section names no path (:func:`.provenance.path_free_training`), points the family's index
entry at it (keeping the entry's search settings) and removes the family's earlier file;
the run's provenance goes into the flat provenance folder, ``<provenance>/<hash>/``
(:mod:`.provenance`). A run that began from a network (``pipeline --start``) names it by its
hash, whose provenance must already be there: every shipped network traces back, hash by
hash, to a run from nothing. ``tools/ship_networks.py`` ships into the package (provenance:
``bench/networks/``); ``splendor-mcts pipeline --recipe`` into its own folder.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..search.network_index import HASH_LENGTH, install, read_index
from ..search.networks import short_hash
from .pipeline import LOG_FILE, START_FILE, STATE_FILE
from .provenance import path_free_training, run_root, write_provenance
from .weights import parse_network, with_training


def ship(run: Path, family: str, networks: Path, provenance: Path, step: str | None = None) -> Path:
    """Ship ``run``'s accepted network of ``family`` into the networks folder ``networks``,
    its provenance into ``provenance``; the weight file written. ``step``: the recipe step
    that made it (``<recipe>/<folder>/<family>``), recorded in its header. ``ValueError``,
    with nothing written, when the run accepted no network, or began from a network whose
    provenance is not in ``provenance`` (ship the run that made that network first)."""
    source = run / family
    state = _state(source)
    parent = _parent(source, state)
    if parent is not None and not (provenance / parent).is_dir():
        raise ValueError(f"{source}: the run began from the network {parent}, whose provenance is not in "
                         f"{provenance}; ship the run that made that network first, so that its provenance is kept")
    data, training, roots = _shipped_bytes(source, step, parent)
    sha = hashlib.sha256(data).hexdigest()
    gates = {path.parent.name: path.read_text(encoding="utf-8") for path in sorted(source.glob(str(Path("gen-*", "gate.txt"))))}
    log = (source / LOG_FILE).read_text(encoding="utf-8") if (source / LOG_FILE).is_file() else ""
    write_provenance(provenance, sha[:HASH_LENGTH], {"family": family, "sha256": sha, "training": training}, state,
                     log, gates, roots)
    return install(networks, family, data)


def shipped_from(run: Path, family: str, networks: Path, provenance: Path, step: str | None = None) -> bool:
    """Whether ``networks`` and ``provenance`` hold ``run``'s network of ``family`` as
    :func:`ship` (with the same ``step``) left them."""
    source = run / family
    try:
        data = _shipped_bytes(source, step, _parent(source, _state(source)))[0]
        entry = read_index(networks).get(family)
    except (OSError, ValueError):
        return False
    sha = hashlib.sha256(data).hexdigest()
    return entry is not None and entry.sha256 == sha and (provenance / sha[:HASH_LENGTH]).is_dir()


def _state(source: Path) -> dict[str, Any]:
    """The run's state, which must have accepted a network."""
    state = json.loads((source / STATE_FILE).read_text(encoding="utf-8"))
    if state.get("current") in (None, START_FILE):
        raise ValueError(f"{source}: no network was accepted in this run")
    return state


def _parent(source: Path, state: dict[str, Any]) -> str | None:
    """The short hash of the network the run began from (recorded in its state by runs
    begun since the pipeline records it; else its copy's), or None: from nothing."""
    if state.get("parent"):
        return str(state["parent"])
    began_from = source / START_FILE
    return short_hash(began_from) if began_from.is_file() else None


def _shipped_bytes(source: Path, step: str | None, parent: str | None) -> tuple[bytes, dict[str, Any], list[str]]:
    """The run's accepted network with its header's training section made path-free (the
    same bytes for the same run, so :func:`shipped_from` can compare), that section, and the
    run's folder as its files may name it: as given, resolved, and as the trainer wrote it."""
    current = source / "current.smnet"
    data = current.read_bytes()
    trained = parse_network(data, str(current)).training
    roots = [str(source), str(source.resolve()), *([str(root)] if (root := run_root(trained)) else [])]
    training = path_free_training(trained, parent, step, roots)
    return with_training(data, training, str(current)), training, roots
