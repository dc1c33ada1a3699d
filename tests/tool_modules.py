"""The repository's tools/ and bench/ scripts loaded as modules, for the tests of what they do."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def load_tool(name: str, folder: str = "tools") -> ModuleType:
    """``<folder>/<name>.py`` as a module (registered in sys.modules, as dataclasses need)."""
    spec = importlib.util.spec_from_file_location(name, REPO / folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
