"""Charts saved from the command line (``review --plot``, ``tournament --plot``): the one place
that imports matplotlib, checks a chart's file name before any work is done, and saves it.

The file's suffix picks the format: ``.png`` or ``.svg``. matplotlib is an optional dependency
(``pip install ".[tournament]"`` in the project's folder); without it ``--plot`` is refused up front.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .wording import install_hint

FORMATS = (".png", ".svg")
PNG_DPI = 100


def check_chart_path(path: str | Path, option: str = "--plot") -> Path:
    """The chart's path if it can be written: a ``.png`` or ``.svg`` name in an existing folder,
    and matplotlib importable; else ``ValueError`` naming the problem (before a long run)."""
    chart = Path(path)
    if chart.suffix.lower() not in FORMATS:
        raise ValueError(f"{option} wants a file name ending in .png or .svg, got {str(path)!r}")
    folder = chart.parent
    if not folder.is_dir():
        raise ValueError(f"{option} {str(path)!r}: the folder {str(folder)!r} does not exist")
    if chart.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder, not a file name")
    pyplot(option)
    return chart


def pyplot(option: str = "--plot") -> Any:
    """matplotlib's pyplot on the file-only Agg backend, or ``ValueError`` saying how to install it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError(f"{option} needs matplotlib: {install_hint('tournament')}") from None
    return plt


def save_chart(fig: Any, path: str | Path, option: str = "--plot") -> None:
    """Write ``fig`` as PNG or SVG (by the suffix) and close it; ``ValueError`` if it cannot be written."""
    plt = pyplot(option)
    chart = Path(path)
    svg = chart.suffix.lower() == ".svg"
    try:
        # An SVG keeps its words as text (smaller, searchable) and no date (the same run, the same file).
        with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "splendor-mcts"}):
            fig.savefig(chart, dpi=PNG_DPI, format="svg" if svg else "png", metadata={"Date": None} if svg else None)
    except OSError as exc:
        raise ValueError(f"{option}: cannot write {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
