"""The one seed range of the package: the engine takes any unsigned 64-bit seed."""
from __future__ import annotations

import secrets
from typing import Any

MAX_SEED = 2**64 - 1


def check_seed(value: Any, name: str = "seed") -> int:
    """``value`` as a seed; ``ValueError`` naming ``name`` when it is not in 0..MAX_SEED."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not 0 <= value <= MAX_SEED:
        raise ValueError(f"{name} must be between 0 and 2**64-1, got {value}")
    return value


def seed_or_random(value: int | None, name: str = "seed") -> int:
    """A checked seed, or a fresh random one for None."""
    return secrets.randbits(64) if value is None else check_seed(value, name)
