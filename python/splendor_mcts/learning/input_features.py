"""Input features a network may read beside the observation tensor (``train --features``).

They are derived from the observation alone, in C++ (``cpp/search/input_features.hpp``), so
the trainer computes from self-play shards exactly what the search computes at a leaf; the
public observation (docs/observation.md) stays as it is. A network that reads them says so
in its header (docs/network-format.md, "features"): its first layer takes the observation,
then ``per_seat`` floats for each of the most seats its family plays.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from ..search.families import family


def feature_sets() -> dict[str, dict[str, Any]]:
    """The engine's input feature sets by name: game, help, observation_size, per_seat, max_seats."""
    return {str(f["name"]): dict(f) for f in _core.input_feature_sets()}


def check_features(name: str | None, family_name: str) -> None:
    """``ValueError`` unless ``name`` is empty (none) or a feature set of the family's game."""
    if not name:
        return
    sets = feature_sets()
    found = sets.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown input features {name!r}; known: {', '.join(sets)}")
    fam = family(family_name)
    if found["game"] != fam.game:
        raise ValueError(f"input features {name!r} are for {found['game']}, not {fam.name} ({fam.game})")
    if max(fam.players) > found["max_seats"]:
        raise ValueError(f"input features {name!r} know at most {found['max_seats']} seats, "
                         f"{fam.name} plays {max(fam.players)}")


def feature_width(name: str | None, family_name: str) -> int:
    """Floats the features add to the first layer's input for the family (0 for none)."""
    if not name:
        return 0
    check_features(name, family_name)
    return int(feature_sets()[name]["per_seat"]) * max(family(family_name).players)


def with_features(name: str | None, family_name: str, observation: np.ndarray,
                  players: np.ndarray | int) -> np.ndarray:
    """The first layer's input for observations [n, N] of games of ``players`` seats (an int
    or [n]): the observations, then the features (the observations alone for none)."""
    if not name:
        return np.asarray(observation, dtype=np.float32)
    check_features(name, family_name)
    seats = max(family(family_name).players)
    observation = np.ascontiguousarray(observation, dtype=np.float32)
    features = _core.input_features(name, observation, np.asarray(players, dtype=np.int64), seats)
    return np.concatenate([observation, features], axis=1)
