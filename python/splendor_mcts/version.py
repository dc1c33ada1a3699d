"""The package version, read from the installed package's metadata (pyproject.toml sets it)."""
from __future__ import annotations

from importlib.metadata import version

__version__ = version("splendor-mcts")
