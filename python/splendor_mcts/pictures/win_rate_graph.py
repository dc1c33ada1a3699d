"""A reviewed game's win-rate graph, as Go's review tools draw it: what it shows, and
``review --plot FILE`` (matplotlib, PNG or SVG by the suffix).

One module decides what the graph holds (:func:`graph_of`); two renderers draw it: the
matplotlib figure here (``review --plot``) and the web page's clickable SVG
(``pictures/graph.py``), which needs no matplotlib.

* One line per seat: its win % at the start of each turn (turns as players count them,
  from 1; the search of the turn's first decision values every seat).
* One point per reviewed turn (a take and its returns, a buy and its noble: one turn),
  on its mover's colour at its win % there.
* Each mistake (a drop of at least the review's threshold against the best whole turn)
  is marked, the largest with the win % they lost.

It takes a :class:`~splendor_mcts.analysis.review.Review` (typed ``Any`` here: review.py's
command imports this module, so this one does not import it back).
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..charts import pyplot, save_chart
from ..wording import seat_name, turn_name

SEAT_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")
MISTAKE_COLOUR = "#d62728"
LABELLED_MISTAKES = 5  # the largest drops get their size written beside the mark


@dataclass(frozen=True)
class GraphPoint:
    """A reviewed turn on the graph: ``x`` in turns (from 1), ``win`` in % for its mover."""

    decision: Any
    x: float
    win: float
    mistake: bool
    labelled: bool  # one of the largest mistakes: its drop is written beside it


@dataclass(frozen=True)
class WinRateGraph:
    """What the graph shows, whatever draws it."""

    title: str
    seats: list[str]          # the legend's names: ``seat 1 (mcts)``
    lines: list[list[tuple[float, float]]]  # per seat: (turn, win %) at each turn's start
    points: list[GraphPoint]  # per reviewed turn, in record order
    threshold: float
    last_turn: float          # the x axis runs from 1 to here

    x_label = "turn"
    y_label = "win % (search of the turn's first decision)"

    @property
    def even(self) -> float:
        """The win % of an even game (a dashed line)."""
        return 100 / len(self.seats)

    def mistake_label(self) -> str:
        return f"mistake (loses at least {100 * self.threshold:.0f}%)"

    @staticmethod
    def tip(point: GraphPoint) -> str:
        """A reviewed turn in words (the page's tooltip)."""
        d = point.decision
        return (f"{seat_name(d.seat)}, turn {turn_name(d.turn_number)}: {d.played_turn} ({100 * d.played_win_rate:.1f}%), "
                f"best {d.best_turn} ({100 * d.best_win_rate:.1f}%), loss {100 * d.drop:.1f}%")


def graph_of(review: Any) -> WinRateGraph:
    """The graph of ``review`` (:class:`~splendor_mcts.analysis.review.Review`)."""
    ordered = sorted(review.decisions, key=lambda d: d.action_number)
    labelled = {id(d) for d in sorted(review.mistakes(), key=lambda d: -d.drop)[:LABELLED_MISTAKES]}
    points = [GraphPoint(d, float(turn_name(d.turn_number)), 100 * d.position_win_rate, d.drop >= review.threshold,
                         id(d) in labelled) for d in ordered]
    lines = [[(float(turn_name(d.turn_number)), 100 * d.win_rates[seat]) for d in ordered]
             for seat in range(len(review.seats))]
    return WinRateGraph(title=f"Review of {review.game}",
                        seats=[f"{seat_name(s)} ({name})" for s, name in enumerate(review.seats)],
                        lines=lines, points=points, threshold=review.threshold,
                        last_turn=max((p.x for p in points), default=1.0) + 0.5)


def review_figure(review: Any) -> Any:
    """The graph (a matplotlib figure)."""
    graph = graph_of(review)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.5), layout="constrained")
    for seat, line in enumerate(graph.lines):
        ax.plot([x for x, _ in line], [y for _, y in line], marker="o", markersize=2.5, linewidth=1.4,
                color=SEAT_COLOURS[seat % len(SEAT_COLOURS)], label=graph.seats[seat])
    mistakes = [p for p in graph.points if p.mistake]
    ax.scatter([p.x for p in mistakes], [p.win for p in mistakes], marker="v", s=40, color=MISTAKE_COLOUR, zorder=3,
               label=graph.mistake_label())
    for p in (p for p in mistakes if p.labelled):
        ax.annotate(f"-{100 * p.decision.drop:.0f}", (p.x, p.win), textcoords="offset points", xytext=(0, -12),
                    ha="center", fontsize=7, color=MISTAKE_COLOUR)
    ax.axhline(graph.even, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(-5, 105)
    ax.set_xlabel(graph.x_label)
    ax.set_ylabel(graph.y_label)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    ax.set_title(textwrap.fill(graph.title.replace(",", ", "), 110), fontsize=10)
    return fig


def plot_review(review: Any, path: str | Path) -> None:
    """Save :func:`review_figure` as PNG or SVG (by the suffix)."""
    save_chart(review_figure(review), path)
