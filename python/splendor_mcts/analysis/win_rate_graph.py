"""``review --plot FILE``: the win-rate graph over a reviewed game, as Go's review tools draw it.

One line per seat: its win % at the start of each turn (turns as players count them, from 1;
the search of the turn's first decision values every seat). Each mistake is marked on its
mover's line at the decision where it was made, with the win % it lost.

It takes a :class:`~splendor_mcts.analysis.review.Review` (typed ``Any`` here: review.py's
command imports this module, so this one does not import it back).
"""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from ..charts import pyplot, save_chart
from ..wording import seat_name, turn_name

MISTAKE_COLOUR = "#d62728"
LABELLED_MISTAKES = 5  # the largest drops get their size written beside the mark


def turn_starts(review: Any) -> list[Any]:
    """The first reviewed decision of each turn, in game order."""
    starts: dict[int, Any] = {}
    for d in sorted(review.decisions, key=lambda d: d.action_number):
        starts.setdefault(d.turn_number, d)
    return list(starts.values())


def review_figure(review: Any) -> Any:
    """The graph (a matplotlib figure)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.5), layout="constrained")
    starts = turn_starts(review)
    turns = [int(turn_name(d.turn_number)) for d in starts]
    for seat, name in enumerate(review.seats):
        ax.plot(turns, [100 * d.win_rates[seat] for d in starts], marker="o", markersize=2.5, linewidth=1.4,
                label=f"{seat_name(seat)} ({name})")
    mistakes = review.mistakes()
    ax.scatter([int(turn_name(d.turn_number)) for d in mistakes], [100 * d.position_win_rate for d in mistakes],
               marker="v", s=40, color=MISTAKE_COLOUR, zorder=3,
               label=f"mistake (loses at least {100 * review.threshold:.0f}%)")
    for d in sorted(mistakes, key=lambda d: -d.drop)[:LABELLED_MISTAKES]:
        ax.annotate(f"-{100 * d.drop:.0f}", (int(turn_name(d.turn_number)), 100 * d.position_win_rate),
                    textcoords="offset points", xytext=(0, -12), ha="center", fontsize=7, color=MISTAKE_COLOUR)
    ax.axhline(100 / len(review.seats), color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(-5, 105)
    ax.set_xlabel("turn")
    ax.set_ylabel("win % (search of the turn's first decision)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    title = f"Review of {review.game}"
    ax.set_title(textwrap.fill(title.replace(",", ", "), 110), fontsize=10)
    return fig


def plot_review(review: Any, path: str | Path) -> None:
    """Save :func:`review_figure` as PNG or SVG (by the suffix)."""
    save_chart(review_figure(review), path)
