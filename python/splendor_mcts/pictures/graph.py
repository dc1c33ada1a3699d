"""A review's win-rate graph as SVG for the web page, drawn from
:func:`~splendor_mcts.pictures.win_rate_graph.graph_of` (what the graph shows is decided
there; ``review --plot`` draws the same graph with matplotlib).

Each point is one reviewed decision (``data-ply`` is its index in the record, so the page
can show that board); a mistake is drawn larger, in red. No matplotlib: the page's
server needs only the ``serve`` extra.
"""
from __future__ import annotations

from html import escape
from typing import Any

from .win_rate_graph import MISTAKE_COLOUR, SEAT_COLOURS, graph_of

WIDTH, HEIGHT, LEFT, TOP, BOTTOM, RIGHT = 720, 240, 44, 16, 28, 12


def win_rate_graph_svg(review: Any) -> str:
    """The graph of ``review`` (:class:`~splendor_mcts.analysis.review.Review`) as an SVG element."""
    graph = graph_of(review)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(graph.last_turn - 1, 1e-9)

    def x(turn: float) -> float:
        return LEFT + plot_w * (turn - 1) / span

    def y(win: float) -> float:
        return TOP + plot_h * (1 - win / 100)

    def text(x_at: float, y_at: float, words: str, more: str = "") -> str:
        return f'<text x="{x_at:.1f}" y="{y_at:.1f}" font-size="11" font-family="sans-serif" {more}>{escape(words)}</text>'

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'class="graph"><rect width="{WIDTH}" height="{HEIGHT}" fill="#fffdf7"/>']
    for win in (0, 25, 50, 75, 100):
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(win):.1f}" y2="{y(win):.1f}" stroke="#ddd"/>'
                   + text(LEFT - 6, y(win) + 4, f"{win}%", 'text-anchor="end"'))
    out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(graph.even):.1f}" y2="{y(graph.even):.1f}" '
               f'stroke="#999" stroke-dasharray="4 3"/>')
    out.append(text(LEFT + plot_w, HEIGHT - 6, graph.x_label, 'text-anchor="end"'))
    for seat, line in enumerate(graph.lines):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        points = " ".join(f"{x(turn):.1f},{y(win):.1f}" for turn, win in line)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" '
                   f'class="seat-line" data-seat="{seat}"/>')
        for p in (p for p in graph.points if p.decision.seat == seat):
            out.append(f'<circle cx="{x(p.x):.1f}" cy="{y(p.win):.1f}" r="{5 if p.mistake else 3}" '
                       f'fill="{MISTAKE_COLOUR if p.mistake else colour}" class="point" '
                       f'data-ply="{p.decision.action_number}" data-seat="{seat}"><title>{escape(graph.tip(p))}</title></circle>')
            if p.labelled:
                out.append(text(x(p.x), y(p.win) + 16, f"-{100 * p.decision.drop:.0f}",
                                f'text-anchor="middle" fill="{MISTAKE_COLOUR}"'))
        out.append(f'<text x="{LEFT + seat * 150}" y="{HEIGHT - 6}" font-size="12" fill="{colour}" '
                   f'font-family="sans-serif" font-weight="bold">{escape(graph.seats[seat])}</text>')
    out.append("</svg>")
    return "".join(out)
