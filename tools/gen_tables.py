#!/usr/bin/env python3
"""Generate the engine's C++ component tables from the CSV files in data/.

Run by CMake at build time; card data is never typed by hand. Each CSV is checked
against the component counts of the rules before anything is written, so a damaged
data file stops the build with a message instead of producing a wrong engine.

Usage: gen_tables.py DATA_DIR OUT_DIR
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

GEM_COLOURS = ["white", "blue", "green", "red", "black"]
DUEL_BONUS = GEM_COLOURS + ["joker", "none"]
DUEL_ABILITIES = ["again", "bonus_copy", "token", "privilege", "steal"]


def fail(msg: str) -> None:
    sys.exit(f"gen_tables.py: {msg}")


def read_rows(path: Path, columns: list[str]) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != columns:
            fail(f"{path}: expected columns {columns}, found {reader.fieldnames}")
        return list(reader)


def read_components(path: Path, columns: list[str], count: int, what: str) -> list[dict[str, str]]:
    """The rows of a component CSV, which must hold as many ``what`` as the rules say."""
    rows = read_rows(path, columns)
    if len(rows) != count:
        fail(f"{path}: {len(rows)} {what}, the rules say {count}")
    return rows


def as_int(path: Path, row_no: int, row: dict[str, str], key: str, lo: int, hi: int) -> int:
    try:
        value = int(row[key])
    except ValueError:
        fail(f"{path} row {row_no}: {key}={row[key]!r} is not an integer")
    if not lo <= value <= hi:
        fail(f"{path} row {row_no}: {key}={value} outside {lo}..{hi}")
    return value


def check_level_counts(path: Path, levels: list[int], expected: dict[int, int]) -> None:
    for level, count in expected.items():
        found = levels.count(level)
        if found != count:
            fail(f"{path}: {found} level-{level} rows, the rules say {count}")


def bonus_index(path: Path, row_no: int, text: str, names: list[str]) -> int:
    if text not in names:
        fail(f"{path} row {row_no}: unknown bonus {text!r}")
    return names.index(text)


def abilities_mask(path: Path, row_no: int, text: str) -> int:
    if text == "none":
        return 0
    mask = 0
    for part in text.split("+"):
        if part not in DUEL_ABILITIES:
            fail(f"{path} row {row_no}: unknown ability {part!r}")
        mask |= 1 << DUEL_ABILITIES.index(part)
    return mask


def splendor_tables(data: Path) -> str:
    cards_path = data / "splendor" / "cards.csv"
    rows = read_components(cards_path, ["level", "bonus", "points"] + GEM_COLOURS, 90, "cards")
    cards = []
    for i, row in enumerate(rows, start=1):
        bonus = bonus_index(cards_path, i, row["bonus"], GEM_COLOURS)
        level = as_int(cards_path, i, row, "level", 1, 3)
        points = as_int(cards_path, i, row, "points", 0, 5)
        cost = [as_int(cards_path, i, row, c, 0, 7) for c in GEM_COLOURS]
        cards.append((level, bonus, points, cost))
    check_level_counts(cards_path, [c[0] for c in cards], {1: 40, 2: 30, 3: 20})

    nobles_path = data / "splendor" / "nobles.csv"
    rows = read_components(nobles_path, ["points"] + GEM_COLOURS, 10, "nobles")
    nobles = []
    for i, row in enumerate(rows, start=1):
        points = as_int(nobles_path, i, row, "points", 0, 9)
        nobles.append((points, [as_int(nobles_path, i, row, c, 0, 9) for c in GEM_COLOURS]))

    out = ["namespace splendor::tables {", "", f"inline constexpr int kNumCards = {len(cards)};",
           f"inline constexpr int kNumNobles = {len(nobles)};", "",
           "// Index i holds CSV row i+1 (card id i+1): level, bonus colour, points, cost W U G R K.",
           "inline constexpr CardRow kCards[kNumCards] = {"]
    for level, bonus, points, cost in cards:
        out.append(f"    {{{level}, {bonus}, {points}, {{{', '.join(map(str, cost))}}}}},")
    out += ["};", "", "inline constexpr NobleRow kNobles[kNumNobles] = {"]
    for points, req in nobles:
        out.append(f"    {{{points}, {{{', '.join(map(str, req))}}}}},")
    out += ["};", "", "}  // namespace splendor::tables", ""]
    return "\n".join(out)


def duel_tables(data: Path) -> str:
    cards_path = data / "splendor_duel" / "cards.csv"
    cost_cols = GEM_COLOURS + ["pearl"]
    rows = read_components(cards_path, ["level", "bonus", "bonus_count", "points", "crowns", "ability"] + cost_cols,
                           67, "cards")
    cards = []
    for i, row in enumerate(rows, start=1):
        bonus = bonus_index(cards_path, i, row["bonus"], DUEL_BONUS)
        level = as_int(cards_path, i, row, "level", 1, 3)
        cards.append((
            level,
            bonus,
            as_int(cards_path, i, row, "bonus_count", 0, 2),
            as_int(cards_path, i, row, "points", 0, 9),
            as_int(cards_path, i, row, "crowns", 0, 9),
            abilities_mask(cards_path, i, row["ability"]),
            [as_int(cards_path, i, row, c, 0, 9) for c in cost_cols],
        ))
    check_level_counts(cards_path, [c[0] for c in cards], {1: 30, 2: 24, 3: 13})

    royals_path = data / "splendor_duel" / "royals.csv"
    rows = read_components(royals_path, ["points", "ability"], 4, "royal cards")
    royals = [(as_int(royals_path, i, r, "points", 0, 9), abilities_mask(royals_path, i, r["ability"]))
              for i, r in enumerate(rows, start=1)]

    spiral_path = data / "splendor_duel" / "board_spiral.csv"
    rows = read_rows(spiral_path, ["order", "row", "col"])
    cells = []
    for i, row in enumerate(rows, start=1):
        if as_int(spiral_path, i, row, "order", 0, 24) != i - 1:
            fail(f"{spiral_path} row {i}: order must count 0..24")
        cells.append(as_int(spiral_path, i, row, "row", 0, 4) * 5 + as_int(spiral_path, i, row, "col", 0, 4))
    if sorted(cells) != list(range(25)):
        fail(f"{spiral_path}: the spiral must visit each of the 25 cells once")

    ability_consts = "\n".join(f"inline constexpr uint8_t kAbility_{name} = {1 << i};"
                               for i, name in enumerate(DUEL_ABILITIES))
    out = ["namespace duel::tables {", "", ability_consts, "",
           f"inline constexpr int kNumCards = {len(cards)};", "inline constexpr int kNumRoyals = 4;", "",
           "// Index i holds CSV row i+1 (card id i+1). bonus: 0-4 colours W U G R K, 5 joker, 6 none.",
           "// cost: W U G R K pearl. abilities: bit mask of kAbility_*.",
           "inline constexpr CardRow kCards[kNumCards] = {"]
    for level, bonus, count, points, crowns, abil, cost in cards:
        out.append(f"    {{{level}, {bonus}, {count}, {points}, {crowns}, {abil}, {{{', '.join(map(str, cost))}}}}},")
    out += ["};", "", "inline constexpr RoyalRow kRoyals[kNumRoyals] = {"]
    out += [f"    {{{p}, {a}}}," for p, a in royals]
    out += ["};", "", "// Cell index (row * 5 + col) of each spiral position, centre first.",
            f"inline constexpr uint8_t kSpiral[25] = {{{', '.join(map(str, cells))}}};", "",
            "}  // namespace duel::tables", ""]
    return "\n".join(out)


def write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def main() -> None:
    if len(sys.argv) != 3:
        fail("usage: gen_tables.py DATA_DIR OUT_DIR")
    data, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    banner = "// Generated by tools/gen_tables.py from data/*/*.csv. Do not edit.\n#pragma once\n"
    write_if_changed(out / "splendor_tables.inc",
                     banner + '#include "splendor/card_types.hpp"\n\n' + splendor_tables(data))
    write_if_changed(out / "duel_tables.inc",
                     banner + '#include "duel/card_types.hpp"\n\n' + duel_tables(data))


if __name__ == "__main__":
    main()
