"""The decision cap shared by every door that plays whole games without a human.

Neither Splendor nor Splendor Duel has a turn limit, and a weak search can play a cycle for
ever (both seats at the token limit in Duel: ``replenish``, ``take``, ``discard`` the token,
round after round). Self-play (``learning.selfplay``), tournaments (``tournament.play``, so the
training pipeline's gate too) and engine-against-engine play stop a game that is still going
after ``max_decisions`` decisions (chance outcomes do not count) and score it as a draw: every
seat an equal share, like cutechess-cli's move-number adjudication.
"""

from __future__ import annotations

# Far above the longest games measured (Duel about 320 decisions, a 64-64 random network at
# 200 iterations; Splendor 4p about 130 on average), low enough that a looping game costs
# seconds and a few MB of record, not the run.
MAX_DECISIONS = 1000
# The largest cap accepted where nothing smaller binds (a tournament record of a million
# decisions is a few MB of JSON; a game that long is a loop, not a game).
MAX_DECISIONS_LIMIT = 1_000_000


def check_max_decisions(value: object, name: str = "max_decisions", limit: int = MAX_DECISIONS_LIMIT,
                        why: str = "") -> int:
    """``value`` as a decision cap, or ValueError naming ``name``, the range and the value.

    ``why`` explains a ``limit`` below :data:`MAX_DECISIONS_LIMIT` (e.g. a 16-bit column)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        reason = f" ({why})" if why else ""
        raise ValueError(f"{name} must be a whole number of decisions from 1 to {limit}{reason}, got {value!r}")
    return value


def draw_result(num_seats: int) -> tuple[float, ...]:
    """The result of a game adjudicated a draw: every seat an equal share of the point."""
    return tuple(1.0 / num_seats for _ in range(num_seats))


def adjudication_reason(max_decisions: int) -> str:
    """Why a game was stopped, as records, the tournament database and reports say it."""
    return f"still going after max-decisions {max_decisions}"
