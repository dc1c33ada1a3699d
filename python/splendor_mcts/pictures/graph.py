"""A review's win-rate graph as SVG: each seat's win % at its decisions over the game.

Each point is one reviewed decision (``data-ply`` is its index in the record, so the
page can show that board); a decision that lost at least the review's threshold against
the best move is drawn larger, in red.
"""
from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from ..wording import seat_name, turn_name

SEAT_COLOURS = ("#1f5fbf", "#c9302c", "#1e8f4e", "#8a4fbf")
WIDTH, HEIGHT, LEFT, TOP, BOTTOM = 720, 240, 44, 16, 28


def win_rate_graph(decisions: Sequence[Any], players: int, threshold: float = 0.05) -> str:
    """The graph of ``decisions`` (:class:`~splendor_mcts.analysis.review.Decision`, in
    record order) of a game of ``players`` seats."""
    plot_w, plot_h = WIDTH - LEFT - 12, HEIGHT - TOP - BOTTOM
    last = max((d.action_number for d in decisions), default=1) or 1

    def x(ply: int) -> float:
        return LEFT + plot_w * ply / last

    def y(rate: float) -> float:
        return TOP + plot_h * (1 - rate)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'class="graph"><rect width="{WIDTH}" height="{HEIGHT}" fill="#fffdf7"/>']
    for rate in (0, 0.25, 0.5, 0.75, 1):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(rate):.1f}" y2="{y(rate):.1f}" '
                   f'stroke="{"#999" if rate == 0.5 else "#ddd"}"/>'
                   f'<text x="{LEFT - 6}" y="{y(rate) + 4:.1f}" font-size="11" text-anchor="end" '
                   f'font-family="sans-serif">{int(rate * 100)}%</text>')
    out.append(f'<text x="{LEFT + plot_w}" y="{HEIGHT - 6}" font-size="11" text-anchor="end" '
               f'font-family="sans-serif">move in the record</text>')
    for seat in range(players):
        own = [d for d in decisions if d.seat == seat]
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        if len(own) > 1:
            points = " ".join(f"{x(d.action_number):.1f},{y(d.best_win_rate):.1f}" for d in own)
            out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" '
                       f'class="seat-line" data-seat="{seat}"/>')
        for d in own:
            mistake = d.drop >= threshold
            tip = (f"{seat_name(seat)}, turn {turn_name(d.turn_number)}: {d.played} ({100 * d.played_win_rate:.1f}%), "
                   f"best {d.best} ({100 * d.best_win_rate:.1f}%), loss {100 * d.drop:.1f}%")
            out.append(f'<circle cx="{x(d.action_number):.1f}" cy="{y(d.best_win_rate):.1f}" r="{5 if mistake else 3}" '
                       f'fill="{"#e0245e" if mistake else colour}" class="point" data-ply="{d.action_number}" '
                       f'data-seat="{seat}"><title>{escape(tip)}</title></circle>')
        out.append(f'<text x="{LEFT + seat * 70}" y="{HEIGHT - 6}" font-size="12" fill="{colour}" '
                   f'font-family="sans-serif" font-weight="bold">{seat_name(seat)}</text>')
    out.append("</svg>")
    return "".join(out)
