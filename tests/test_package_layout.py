"""The package's layout keeps its promises: no import circle, no module taking names from a
package's ``__init__``, no two sibling modules whose names differ only by a suffix
(``search`` / ``searching``). Read from the source with ``ast``, nothing is imported."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "splendor_mcts"
ROOT = PACKAGE.name


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
