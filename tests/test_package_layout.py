"""The package's layout keeps its promises: no import circle, its parts (sub-packages and
top-level modules) in the layers of docs/layers.md (no two import each other, none imports a
layer above), no module taking names from a package's ``__init__``, no two sibling modules
whose names differ only by a suffix (``search`` / ``searching``). Read from the source with
``ast`` (the imports inside functions too), nothing is imported."""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "splendor_mcts"
ROOT = PACKAGE.name
LAYERS_DOC = PACKAGE.parents[1] / "docs" / "layers.md"


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module and package of the source tree."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()
EXTENSIONS = {f"{ROOT}._core"}  # built from cpp/, not a file of the source tree


def _submodule(base: str, name: str) -> bool:
    return f"{base}.{name}" in MODULES or f"{base}.{name}" in EXTENSIONS


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> list[tuple[str, list[str], int]]:
    """(module imported from, names taken, line) for every import of a module, including
    the ones inside functions and under ``if TYPE_CHECKING:``."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if _is_package(name) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.append((base, [alias.name for alias in node.names], node.lineno))
    return found


def _edges() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports."""
    edges: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for base, names, _ in _imports(name):
            for target in [f"{base}.{n}" for n in names if _submodule(base, n)] or [base]:
                if target in MODULES and target != name:
                    edges[name].add(target)
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle (its modules in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_circle_and_passes_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle_inside_the_package():
    edges = _edges()
    assert sum(map(len, edges.values())) > 50  # the graph is really read
    assert find_cycle(edges) is None


def part_of(module: str) -> str:
    """The part a module is in: its sub-package, its own name for a top-level module, and
    ``__init__`` for the package's own module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def part_edges(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Part -> the other parts its modules import."""
    out: dict[str, set[str]] = {}
    for module, targets in edges.items():
        out.setdefault(part_of(module), set()).update(part_of(t) for t in targets if part_of(t) != part_of(module))
    return out


def documented_layers(text: str) -> list[list[str]]:
    """The parts of each numbered layer of docs/layers.md, bottom first."""
    return [re.findall(r"`([^`]+)`", line.partition(":")[2]) for line in text.splitlines()
            if re.match(r"\d+\. \*\*", line)]


def test_parts_that_import_each_other_are_found():
    lazy = {f"{ROOT}.high.a": {f"{ROOT}.low.b"}, f"{ROOT}.low.b": {f"{ROOT}.high.a"}, f"{ROOT}.low": set(),
            f"{ROOT}.wording": {f"{ROOT}.low"}, ROOT: {f"{ROOT}.high.a"}}
    assert part_edges(lazy) == {"high": {"low"}, "low": {"high"}, "wording": {"low"}, "__init__": {"high"}}
    assert find_cycle(part_edges(lazy)) == ["high", "low", "high"]


def test_no_two_parts_import_each_other():
    parts = part_edges(_edges())
    assert {"games", "search", "learning", "analysis", "pictures", "cli"} <= set(parts)
    assert find_cycle(parts) is None


def test_every_import_goes_down_the_documented_layers():
    layers = documented_layers(LAYERS_DOC.read_text(encoding="utf-8"))
    listed = [part for layer in layers for part in layer]
    assert len(listed) == len(set(listed)), "a part is listed in two layers of docs/layers.md"
    parts = part_edges(_edges())
    found = set(parts) | {name.rpartition(".")[2] for name in EXTENSIONS}
    assert sorted(found - set(listed)) == [], "parts of the package missing from docs/layers.md"
    assert sorted(set(listed) - found) == [], "docs/layers.md lists parts the package does not have"
    level = {part: k for k, layer in enumerate(layers) for part in layer}
    upwards = sorted(f"{part} -> {target}" for part, targets in parts.items() for target in targets
                     if level[target] > level[part])
    assert upwards == []


def test_no_module_takes_names_from_a_package_init():
    wrong = []
    for name in MODULES:
        for base, names, line in _imports(name):
            if base == ROOT and not names:
                wrong.append(f"{name}:{line} imports the package {ROOT} itself")
            elif base in MODULES and _is_package(base) and base != name and not name.startswith(base + ".__"):
                taken = [n for n in names if not _submodule(base, n)]
                if taken and not base.startswith(name + "."):
                    wrong.append(f"{name}:{line} takes {', '.join(taken)} from {base}/__init__.py")
    assert wrong == []


def test_no_two_sibling_modules_differ_only_by_a_suffix():
    siblings: dict[str, set[str]] = {}
    for name in MODULES:
        parent, _, stem = name.rpartition(".")
        siblings.setdefault(parent, set()).add(stem)
    for name in EXTENSIONS:
        siblings[ROOT].add(name.rpartition(".")[2])
    pairs = [(parent, a, b) for parent, stems in siblings.items() for a in stems for b in stems
             if a != b and b.startswith(a)]
    assert pairs == []
