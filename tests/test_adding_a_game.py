"""The game seam of docs/adding-a-game.md: the generic C++ (the search, the core) includes no
game, and the places a full-featured game touches outside its own files are the ones the page
lists, counted from the code."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GENERIC = ("core", "search")  # cpp/ folders that know no game
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def game_includes(folder: Path) -> list[str]:
    """``file: header`` for each project header a folder's C++ includes from outside the generic folders."""
    return [f"{path.relative_to(folder.parent).as_posix()}: {header}"
            for path in sorted(folder.glob("*.[ch]pp"))
            for header in INCLUDE.findall(path.read_text(encoding="utf-8"))
            if "/" in header and header.split("/")[0] not in GENERIC]


def test_the_include_reader_finds_a_game_header(tmp_path: Path):
    (tmp_path / "a.cpp").write_text('#include <vector>\n#include "search/mcts.hpp"\n  # include "duel/state.hpp"\n')
    assert [line.split(": ")[1] for line in game_includes(tmp_path)] == ["duel/state.hpp"]


def test_the_generic_search_and_core_include_no_game():
    for folder in GENERIC:
        assert game_includes(REPO / "cpp" / folder) == []
