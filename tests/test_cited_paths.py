"""Every repository file that the README, the docs, bench/RESULTS.md or a comment or
docstring in python/ cites exists: a renamed or deleted file must take its citations along.

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


def sources() -> list[Path]:
    return [REPO / "README.md", REPO / "bench" / "RESULTS.md", *sorted((REPO / "docs").glob("*.md")),
            *sorted((REPO / "python").rglob("*.py"))]


def test_the_citation_reader_finds_paths_and_skips_the_rest():
    text = ("see docs/search.md and `DESIGN.md`, rules/*.md, cpp/search/, mcts.hpp (nodes/s, true/false,\n"
            "https://example.org/a/b.md, position.json, games/<game>/config.py, examples/{a,b}-view.json)")
    assert [p for _, p in cited_in(text)] == ["docs/search.md", "DESIGN.md", "rules/*.md", "cpp/search/", "mcts.hpp"]
    readme = REPO / "README.md"
    assert exists("docs/search.md", readme) and exists("mcts.hpp", readme) and exists("core/*.hpp", REPO / "cpp" / "x")
    assert not exists("DESIGN.md", readme) and not exists("rules/*.md", readme) and not exists("mcts2.hpp", readme)


def test_every_cited_repository_file_exists():
    missing = [f"{source.relative_to(REPO)}:{line}: {path}"
               for source in sources()
               for line, path in cited_in(source.read_text(encoding="utf-8"))
               if not exists(path, source)]
    assert missing == []
