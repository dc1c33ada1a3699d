"""The tournament's charts (``--plot FILE``): the rating table with its 95% errors, the
head-to-head score matrix, and each agent's rating over the games played, in one figure.

Head to head is each agent's score against each other one in the games they shared: in
2-player games its points per game (a draw counts half), in 3-4 player games the share of
games it finished ahead (places.py; equal places count half). Ratings over games are the
table's own fit (Elo or Plackett-Luce, ratings.py) over the first n games in game-id order,
at up to ``CHECKPOINTS`` points, so the last point is the table.
"""
from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Any

from ..charts import pyplot, save_chart
from ..wording import counted
from .ratings import RatingTable, rating_table
from .report import TournamentResult

CHECKPOINTS = 20
BAR_COLOUR = "#4c78a8"


def draw_ratings(ax: Any, table: RatingTable) -> None:
    """Each agent's rating with its 95% error, best on top.

    Elo ratings are centred on their mean, so bars from 0 show who is above or below average.
    Plackett-Luce's mu has no meaningful zero (every agent starts at the model's mu), so its
    ratings are points with error bars on an axis fitted to them, the starting rating marked.
    """
    rows = list(reversed(table.rows))
    names = [r.name for r in rows]
    values = [r.rating if math.isfinite(r.rating) else table.origin for r in rows]
    errors = [r.error if math.isfinite(r.error) else 0.0 for r in rows]
    if table.kind == "elo":
        ax.barh(names, values, xerr=errors, capsize=4, color=BAR_COLOUR)
        ax.axvline(0.0, color="grey", linewidth=0.8)
        ax.set_xlabel("Elo (mean 0), 95% error")
    else:
        ax.errorbar(values, names, xerr=errors, fmt="o", capsize=4, color=BAR_COLOUR)
        ax.axvline(table.origin, color="grey", linewidth=0.8, linestyle="--")
        ax.margins(x=0.15, y=0.2)
        ax.set_xlabel(f"Plackett-Luce mu, 95% error (dashed: {table.origin:g}, the starting rating)")


def ratings_figure(table: RatingTable, title: str = "") -> Any:
    """The ratings chart alone (a matplotlib figure), its title wrapped to the figure's width."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(table.rows) + 2))
    draw_ratings(ax, table)
    ax.set_title(_wrapped(title or "Ratings", 70), fontsize=10)
    fig.tight_layout()
    return fig


def head_to_head(result: TournamentResult) -> tuple[list[int], list[list[float]]]:
    """The agents in the rating table's order and ``score[i][j]``, the score (0-1) of the i-th
    against the j-th in the games they shared (NaN: none, or the same agent)."""
    order = [r.agent for r in result.table.rows]
    n = len(result.names)
    score = [[math.nan] * n for _ in range(n)]
    if result.places is not None:
        for a in range(n):
            for b in range(n):
                if a != b and result.places.together[a][b]:
                    score[a][b] = result.places.ahead[a][b] / result.places.together[a][b]
    else:
        for m in result.matches:
            if m.overall.games:
                score[m.a][m.b] = m.overall.score
                score[m.b][m.a] = 1.0 - m.overall.score
    return order, [[score[a][b] for b in order] for a in order]


def draw_head_to_head(ax: Any, result: TournamentResult) -> None:
    """The score matrix as a grid of cells (row's agent against column's), % written in each."""
    order, score = head_to_head(result)
    names = [result.names[a] for a in order]
    image = ax.imshow([[50.0 if math.isnan(x) else 100 * x for x in row] for row in score],
                      cmap="RdBu", vmin=0, vmax=100)
    for i, row in enumerate(score):
        for j, x in enumerate(row):
            ax.text(j, i, "-" if math.isnan(x) else f"{100 * x:.0f}", ha="center", va="center", fontsize=9,
                    color="black" if math.isnan(x) or 0.2 < x < 0.8 else "white")
    ax.set_xticks(range(len(names)), [str(rank) for rank in range(1, len(names) + 1)])
    ax.set_yticks(range(len(names)), [f"{name} ({rank})" for rank, name in enumerate(names, start=1)])
    ax.set_xlabel("against (by rank)")
    what = "finished ahead" if result.places is not None else "score"
    ax.set_title(f"Head to head: % {what}", fontsize=10)
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)


def ratings_over_games(result: TournamentResult) -> tuple[list[int], dict[int, list[float]]]:
    """Game counts and, per agent, its rating fitted on that many first games (game-id order)."""
    games = sorted(result.games, key=lambda g: g.game_id)
    if not games:
        return [], {}
    step = max(1, math.ceil(len(games) / CHECKPOINTS))
    counts = sorted({*range(step, len(games), step), len(games)})
    series: dict[int, list[float]] = {a: [] for a in range(len(result.names))}
    for count in counts:
        table = rating_table(result.names, games[:count], result.num_players)
        for row in table.rows:
            series[row.agent].append(row.rating if math.isfinite(row.rating) else math.nan)
    return counts, series


def draw_ratings_over_games(ax: Any, result: TournamentResult) -> None:
    """Each agent's rating after the first n games, one line per agent."""
    counts, series = ratings_over_games(result)
    for row in result.table.rows:
        ax.plot(counts, series[row.agent], marker="o", markersize=3, label=row.name)
    ax.axhline(result.table.origin, color="grey", linewidth=0.8, linestyle="--" if result.table.kind != "elo" else "-")
    ax.set_xlabel("games played")
    ax.set_ylabel("Elo (mean 0)" if result.table.kind == "elo" else "Plackett-Luce mu")
    ax.set_title("Ratings over the games", fontsize=10)
    ax.legend(fontsize=8, loc="best")
    ax.grid(alpha=0.3)


def tournament_figure(result: TournamentResult) -> Any:
    """The whole chart: ratings and head to head side by side, ratings over games below."""
    plt = pyplot()
    n = len(result.names)
    top = max(3.0, 0.5 * n + 2)
    fig = plt.figure(figsize=(12, top + 4), layout="constrained")
    grid = fig.add_gridspec(2, 2, height_ratios=[top, 4])
    draw_ratings(fig.add_subplot(grid[0, 0]), result.table)
    draw_head_to_head(fig.add_subplot(grid[0, 1]), result)
    draw_ratings_over_games(fig.add_subplot(grid[1, :]), result)
    title = f"{result.game_spec}: {counted(len(result.games), 'game')}"
    fig.suptitle(_wrapped(title, 110), fontsize=10)
    return fig


def plot_tournament(result: TournamentResult, path: str | Path) -> None:
    """Save :func:`tournament_figure` as PNG or SVG (by the suffix)."""
    save_chart(tournament_figure(result), path)


def _wrapped(title: str, width: int) -> str:
    """A long spec broken after its commas, so the title fits the figure."""
    return textwrap.fill(title.replace(",", ", "), width)
