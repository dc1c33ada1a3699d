"""Every repository file that the README, the docs, bench/RESULTS.md and bench/notes/, a comment or
docstring in the Python sources (python/, tests/, bench/, tools/) or a comment or string in
cpp/ cites exists: a renamed or deleted file must take its citations along. The rules texts
live outside the repository, so ``rules/*.md`` cited anywhere here is a missing file.

A citation is a path with a folder and a known extension (``docs/search.md``,
``rules/*.md``), a folder of the repository (``cpp/search/``), or a bare name that can
only mean a repository file: a capitalised document (``DESIGN.md``) or a source file
(``self_check.hpp``). Bare data names (``position.json``, ``cards.csv``) are examples of
the user's files, URLs and absolute paths are not the repository's.
"""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXTENSIONS = ("md", "py", "hpp", "cpp", "h", "json", "jsonl", "csv", "toml", "sh", "txt", "yml", "yaml")
SOURCE_EXTENSIONS = ("py", "hpp", "cpp", "h")
TOP_DIRS = ("cpp", "python", "docs", "tests", "bench", "tools", "examples", "data", ".ci")
SOURCE_DIRS = ("cpp", "python", "tests", "bench", "tools")
_NOT_BEFORE = r"(?<![\w./:@<>{}*-])"
_NOT_AFTER = r"(?![\w/*<>{}-])"
CITATION = re.compile(_NOT_BEFORE + "("
                      r"(?:[\w*.-]+/)+[\w*-]+(?:\.[\w-]+)*\.(?:" + "|".join(EXTENSIONS) + ")"
                      r"|(?:" + "|".join(re.escape(d) for d in TOP_DIRS) + r")/(?:[\w-]+/)*"
                      r"|[A-Z][A-Z0-9_-]*\.md"
                      r"|[\w-]+\.(?:" + "|".join(SOURCE_EXTENSIONS) + ")"
                      ")" + _NOT_AFTER)


def cited_in(text: str) -> list[tuple[int, str]]:
    """(line, path) of every repository path a text cites."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = re.sub(r"\S+://\S+", "", line)
        found += [(number, m.group(1).rstrip(".")) for m in CITATION.finditer(line)]
    return found


def exists(path: str, citing: Path) -> bool:
    """Whether ``path`` names something from the repository root, the citing file's folder
    or a source root (includes are relative to cpp/, docstrings cite ``games/registry.py``);
    a bare source file name may be anywhere in the sources."""
    bases = [REPO, citing.parent, REPO / "cpp", REPO / "python" / "splendor_mcts"]
    if "/" not in path and path.endswith(tuple(f".{e}" for e in SOURCE_EXTENSIONS)):
        bases += [p.parent for d in SOURCE_DIRS for p in (REPO / d).rglob(path)]
    return any(next(base.glob(path), None) is not None if "*" in path else (base / path).exists() for base in bases)


_CPP_PROSE = re.compile(r'//.*|/\*.*?(?:\*/|$)|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')


def cpp_prose(text: str) -> str:
    """The comments and string literals of C++ source, line for line (code blanked): in
    code, ``d.h`` is a member, not a header. A block comment's inner lines count whole."""
    lines, in_block = [], False
    for line in text.splitlines():
        kept = []
        if in_block:
            end = line.find("*/")
            kept.append(line if end < 0 else line[:end])
            in_block, line = end < 0, "" if end < 0 else line[end + 2:]
        for m in _CPP_PROSE.finditer(line):
            kept.append(m.group(0))
            in_block = m.group(0).startswith("/*") and not m.group(0).endswith("*/")
        lines.append(" ".join(kept))
    return "\n".join(lines)


def sources() -> list[Path]:
    this_file = Path(__file__).resolve()  # its examples cite missing files on purpose
    python = [p for d in ("python", "tests", "bench", "tools") for p in sorted((REPO / d).rglob("*.py"))]
    return [REPO / "README.md", REPO / "bench" / "RESULTS.md", *sorted((REPO / "bench" / "notes").glob("*.md")),
            *sorted((REPO / "docs").glob("*.md")),
            *(p for p in python if p != this_file),
            *sorted(p for ext in ("hpp", "cpp") for p in (REPO / "cpp").rglob(f"*.{ext}"))]


def cited_in_file(source: Path) -> list[tuple[int, str]]:
    text = source.read_text(encoding="utf-8")
    return cited_in(cpp_prose(text) if source.suffix in (".hpp", ".cpp") else text)


def test_the_citation_reader_finds_paths_and_skips_the_rest():
    text = ("see docs/search.md and `DESIGN.md`, rules/*.md, cpp/search/, mcts.hpp (nodes/s, true/false,\n"
            "https://example.org/a/b.md, position.json, games/<game>/config.py, examples/{a,b}-view.json)")
    assert [p for _, p in cited_in(text)] == ["docs/search.md", "DESIGN.md", "rules/*.md", "cpp/search/", "mcts.hpp"]
    readme = REPO / "README.md"
    assert exists("docs/search.md", readme) and exists("mcts.hpp", readme) and exists("core/*.hpp", REPO / "cpp" / "x")
    assert not exists("DESIGN.md", readme) and not exists("rules/*.md", readme) and not exists("mcts2.hpp", readme)


def test_cpp_citations_come_from_comments_and_strings_only():
    code = ('#include "core/game.hpp"  // see docs/search.md\n'
            'f(d.h, "docs/actions.md"); /* rules/duel.md\n'
            '   DESIGN.md */ g(e.cpp);\n')
    assert [(n, p) for n, p in cited_in(cpp_prose(code))] == [
        (1, "core/game.hpp"), (1, "docs/search.md"), (2, "docs/actions.md"), (2, "rules/duel.md"), (3, "DESIGN.md")]


def test_the_sources_include_cpp_tests_and_the_readme():
    names = {p.relative_to(REPO).as_posix() for p in sources()}
    assert {"README.md", "cpp/bindings/bind_state.hpp", "cpp/core/game_loops.hpp", "tests/test_duel_rules.py",
            "tools/gen_tables.py", "bench/notes/2026-12-06-fpu.md"} <= names


def test_every_cited_repository_file_exists():
    missing = [f"{source.relative_to(REPO)}:{line}: {path}"
               for source in sources()
               for line, path in cited_in_file(source)
               if not exists(path, source)]
    assert missing == []


PACKAGE = REPO / "python" / "splendor_mcts"
# A dotted name of the package; a part followed by "<" is a placeholder (splendor_mcts.games.<game>).
MODULE_NAME = re.compile(r"(?<![\w.])splendor_mcts(?:\.[A-Za-z_]\w*)+(?![\w<]|\.<)")


def module_names_in(text: str) -> list[tuple[int, str]]:
    """(line, name) of every ``splendor_mcts.xxx.yyy`` a text cites."""
    return [(number, m.group(0)) for number, line in enumerate(text.splitlines(), start=1)
            for m in MODULE_NAME.finditer(line)]


def names_defined(module: Path) -> set[str]:
    """The top-level names a module (or a .pyi stub) defines or imports, read without importing it."""
    import ast

    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def module_name_exists(name: str) -> bool:
    """Whether ``name`` is a module of the package (a file or a package folder), or a name a
    module defines (``splendor_mcts.records.replay``); what follows that (a method) is not checked."""
    parts = name.split(".")[1:]
    here = PACKAGE
    for i, part in enumerate(parts):
        if (here / part / "__init__.py").exists():
            here = here / part
            continue
        for suffix in (".py", ".pyi"):
            if (here / f"{part}{suffix}").exists():
                here = here / f"{part}{suffix}"
                break
        else:
            return here.is_dir() and part in names_defined(here / "__init__.py")
        rest = parts[i + 1:]
        return not rest or rest[0] in names_defined(here)
    return True


def test_the_module_name_reader_resolves_modules_and_names():
    text = ("`splendor_mcts.games.positions.read_position`, splendor_mcts.load_game, splendor_mcts.games.<game>,\n"
            "splendor_mcts._core.InvalidInput: illegal action, splendor_mcts.envs.env(...), splendor_mcts.positions")
    names = [n for _, n in module_names_in(text)]
    assert names == ["splendor_mcts.games.positions.read_position", "splendor_mcts.load_game",
                     "splendor_mcts._core.InvalidInput", "splendor_mcts.envs.env", "splendor_mcts.positions"]
    assert [module_name_exists(n) for n in names] == [True, True, True, True, False]
    assert not module_name_exists("splendor_mcts.games.positions.read_positions")
    assert not module_name_exists("splendor_mcts.positions.read_position")


def test_every_module_name_the_docs_cite_exists():
    docs = [s for s in sources() if s.suffix == ".md"]
    missing = [f"{doc.relative_to(REPO)}:{line}: {name}"
               for doc in docs
               for line, name in module_names_in(doc.read_text(encoding="utf-8"))
               if not module_name_exists(name)]
    assert missing == []
