"""The game seam of docs/adding-a-game.md: the generic C++ (the search, the core) includes no
game, and the places a full-featured game touches outside its own files are the ones the page
lists, counted from the code."""
from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CPP, PY = "cpp", "py"  # the fake sources' extensions, apart: their names cite no repository file
GENERIC = ("core", "search")  # cpp/ folders that know no game
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def game_includes(folder: Path) -> list[str]:
    """``file: header`` for each project header a folder's C++ includes from outside the generic folders."""
    return [f"{path.relative_to(folder.parent).as_posix()}: {header}"
            for path in sorted(folder.glob("*.[ch]pp"))
            for header in INCLUDE.findall(path.read_text(encoding="utf-8"))
            if "/" in header and header.split("/")[0] not in GENERIC]


def test_the_include_reader_finds_a_game_header(tmp_path: Path):
    (tmp_path / f"a.{CPP}").write_text('#include <vector>\n#include "search/mcts.hpp"\n  # include "duel/state.hpp"\n')
    assert [line.split(": ")[1] for line in game_includes(tmp_path)] == ["duel/state.hpp"]


def test_the_generic_search_and_core_include_no_game():
    for folder in GENERIC:
        assert game_includes(REPO / "cpp" / folder) == []


# ---- the places a game touches outside its own files --------------------------------------
PACKAGE = REPO / "python" / "splendor_mcts"
ADDING_DOC = REPO / "docs" / "adding-a-game.md"
FULL_GAME = "duel"  # the full-featured game the page counts for (networks, web board, bench...)
NOT_COUNTED = ("cpp/tests/", "cpp/fuzz/")  # tests of the shared code run each game as they choose


def own_file(path: str, game: str) -> bool:
    """A file of the game's own: its folders, or a file named after it (bind_duel.cpp, duel_board.py)."""
    stem = path.rsplit("/", 1)[-1].split(".")[0]
    return (path.startswith((f"cpp/{game}/", f"python/splendor_mcts/games/{game}/"))
            or game in stem.split("_"))


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def names_game_in_python(text: str, game: str) -> bool:
    """Whether Python source registers or branches on ``game``: imports its package, names a
    module of it, compares a value with its name or keys a table by it (a name handed on as a
    value, a default or an example, is not a place of the game's)."""
    tree = ast.parse(text)
    prose = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and re.search(rf"(^|\.)games\.{game}(\.|$)", node.module):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose and re.search(
                rf"\bgames\.{game}\b|\b{game}_board\b", node.value):
            return True
        if isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Constant) and c.value == game for c in [node.left, *node.comparators]):
            return True
        if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == game for k in node.keys):
            return True
    return False


def places(game: str, root: Path = REPO) -> list[str]:
    """The files outside ``game``'s own that name it in code, read from the source: C++ that
    includes its headers, uses its namespace or its bind function; Python and the page's
    scripts that register it or branch on its name; CMake that builds its folder."""
    cpp = re.compile(rf'#\s*include\s+"{game}/|\b{game}::|\bbind_{game}\b')
    found = []
    for path in sorted(root.glob("cpp/**/*.[ch]pp")):
        rel = path.relative_to(root).as_posix()
        if not rel.startswith(NOT_COUNTED) and not own_file(rel, game) and cpp.search(path.read_text(encoding="utf-8")):
            found.append(rel)
    for path in sorted([*(root / "python" / "splendor_mcts").rglob("*.py"), *(root / "tools").glob("*.py")]):
        rel = path.relative_to(root).as_posix()
        if not own_file(rel, game) and names_game_in_python(path.read_text(encoding="utf-8"), game):
            found.append(rel)
    for path in sorted((root / "python" / "splendor_mcts" / "serve" / "static").glob("*.js")):
        if re.search(rf'[=!]==?\s*"{game}"|"{game}"\s*[=!]==?|\b{game}\s*:', path.read_text(encoding="utf-8")):
            found.append(path.relative_to(root).as_posix())
    if f"cpp/{game}/" in (root / "CMakeLists.txt").read_text(encoding="utf-8"):
        found.append("CMakeLists.txt")
    return found


def documented_places(text: str) -> list[str]:
    """The paths of the table under "## Every place a game touches" in docs/adding-a-game.md."""
    section = text.split("## Every place a game touches", 1)[1].split("\n## ", 1)[0]
    return [m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", section, re.MULTILINE)]


def test_the_place_reader_finds_registrations_and_branches(tmp_path: Path):
    def write(folder: str, name: str, text: str) -> None:
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / name).write_text(text)

    package = "python/splendor_mcts"
    write("cpp/bindings", "games.hpp", '#include "duel/game.hpp"\n')
    write("cpp/bindings", f"bind_duel.{CPP}", "duel::Game g;\n")  # its own file
    write("cpp/tests", f"test_search.{CPP}", "duel::State s;\n")  # a test of the shared code: not counted
    write(f"{package}/serve/static", "a.js", 'const rows = game === "duel" ? 1 : 2;\n')
    write(f"{package}/serve/static", "b.js", '// Duel\nconst x = "duel-ish";\n')
    write(package, f"branch.{PY}", 'def f(g):\n    """about "duel"."""\n    return g == "duel"\n')
    write(package, f"table.{PY}", 'SIZES = {"duel": 2}\n')
    write(package, f"call.{PY}", 'f(family="duel")\n')  # a value handed on, not a branch
    write(package, f"entry.{PY}", '"""See ``games.duel``."""\nPATH = "splendor_mcts.pictures.duel_board:PICTURE"\n')
    write(package, f"prose.{PY}", '"""The module ``splendor_mcts.games.duel``."""\n')
    write("tools", f"seeds.{PY}", 'VARIANTS = {"duel": [{}]}\n')
    write(".", "CMakeLists.txt", "file(GLOB S cpp/core/*.cpp cpp/duel/*.cpp)\n")
    python = [f"{package}/{name}.{PY}" for name in ("branch", "entry", "table")]
    assert places("duel", tmp_path) == ["cpp/bindings/games.hpp", *python, f"tools/seeds.{PY}",
                                        f"{package}/serve/static/a.js", "CMakeLists.txt"]


def test_the_page_lists_every_place_a_full_game_touches():
    listed = documented_places(ADDING_DOC.read_text(encoding="utf-8"))
    assert listed == sorted(set(listed), key=listed.index), "a place is listed twice"
    assert sorted(listed) == sorted(places(FULL_GAME))
    count = re.search(r"touches \*\*(\d+)\*\* places", ADDING_DOC.read_text(encoding="utf-8"))
    assert count is not None and int(count.group(1)) == len(listed)
