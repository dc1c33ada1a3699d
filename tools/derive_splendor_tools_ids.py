#!/usr/bin/env python3
"""Derive the splendor-tools referee's card and noble ids in terms of ours.

The referee (github.com/nerdvana-ro/splendor-tools) numbers cards and nobles by the rows of its
own ``cards.csv`` and ``nobles.csv`` (columns red, green, blue, white, black[, bonus colour 0-4 in
that order, points]; a card's level is its id range: 1-40, 41-70, 71-90). We number them by the
rows of ``data/splendor/cards.csv`` and ``nobles.csv``. A card is the same card when its level,
cost, bonus colour and points agree; a noble when its requirement agrees. This script matches
every row of theirs to exactly one row of ours (refusing anything that is not one-to-one) and
writes ``python/splendor_mcts/splendor_tools/id_table.py``: the two id maps, and for each of
their rows a short digest of the row's facts so the tests can check the map against their data
without this repository holding a copy of it.

    python tools/derive_splendor_tools_ids.py SOURCE [--check]

SOURCE is a checkout of the referee or its bare git directory (then HEAD is read). ``--check``
compares with the committed table instead of writing it.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "python" / "splendor_mcts" / "splendor_tools" / "id_table.py"
OURS = ROOT / "data" / "splendor"

# Our colour order (the column order of data/splendor/*.csv) and theirs (red, green, blue, white, black).
OUR_COLOURS = ("white", "blue", "green", "red", "black")
THEIR_COLOURS = ("red", "green", "blue", "white", "black")
THEIR_LEVEL_LAST_ID = (40, 70, 90)


def card_fact(level: int, cost: dict[str, int], bonus: str, points: int) -> str:
    """A card's facts in one normal form (our colour order); both sides build it the same way."""
    counts = ",".join(str(cost[c]) for c in OUR_COLOURS)
    return f"level {level}; cost {counts}; bonus {bonus}; points {points}"


def noble_fact(requirement: dict[str, int]) -> str:
    return "requires " + ",".join(str(requirement[c]) for c in OUR_COLOURS)


def digest(fact: str) -> str:
    return hashlib.sha256(fact.encode()).hexdigest()[:12]


def _read_source(source: Path, name: str) -> str:
    if (source / name).is_file():
        return (source / name).read_text()
    try:  # a bare git directory, as the mirror of the referee's repository is
        return subprocess.run(["git", "--git-dir", str(source), "show", f"HEAD:{name}"], check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise SystemExit(f"cannot read {name} from {source}: {exc}") from None


def _rows(text: str) -> list[list[int]]:
    """Data rows of their CSV: header skipped, blank lines (their group separators) ignored."""
    lines = [line for line in text.splitlines()[1:] if line.strip()]
    return [[int(x) for x in row] for row in csv.reader(io.StringIO("\n".join(lines)), skipinitialspace=True)]


def their_cards(source: Path) -> list[str]:
    facts = []
    for i, row in enumerate(_rows(_read_source(source, "cards.csv")), start=1):
        level = next(lv for lv, last in enumerate(THEIR_LEVEL_LAST_ID, start=1) if i <= last)
        cost = dict(zip(THEIR_COLOURS, row[:5]))
        facts.append(card_fact(level, cost, THEIR_COLOURS[row[5]], row[6]))
    return facts


def their_nobles(source: Path) -> list[str]:
    return [noble_fact(dict(zip(THEIR_COLOURS, row[:5]))) for row in _rows(_read_source(source, "nobles.csv"))]


def our_cards() -> list[str]:
    with open(OURS / "cards.csv", newline="") as f:
        return [card_fact(int(r["level"]), {c: int(r[c]) for c in OUR_COLOURS}, r["bonus"], int(r["points"]))
                for r in csv.DictReader(f)]


def our_nobles() -> list[str]:
    with open(OURS / "nobles.csv", newline="") as f:
        return [noble_fact({c: int(r[c]) for c in OUR_COLOURS}) for r in csv.DictReader(f)]


def match(theirs: list[str], ours: list[str], what: str) -> tuple[int, ...]:
    """Their id i (from 1) -> our id, refusing anything but a one-to-one map."""
    index: dict[str, int] = {}
    for our_id, fact in enumerate(ours, start=1):
        if fact in index:
            raise SystemExit(f"our {what} {index[fact]} and {our_id} are the same ({fact})")
        index[fact] = our_id
    if len(theirs) != len(ours):
        raise SystemExit(f"they have {len(theirs)} {what}s, we have {len(ours)}")
    mapped = []
    for their_id, fact in enumerate(theirs, start=1):
        if fact not in index:
            raise SystemExit(f"their {what} {their_id} ({fact}) is not one of ours")
        mapped.append(index[fact])
    if len(set(mapped)) != len(mapped):
        raise SystemExit(f"two of their {what}s map to one of ours")
    return tuple(mapped)


def render(card_ids: tuple[int, ...], noble_ids: tuple[int, ...], theirs_cards: list[str],
           theirs_nobles: list[str]) -> str:
    def rows(values: list[str] | tuple[int, ...], per_line: int) -> str:
        items = [repr(v) for v in values]
        return "\n".join("    " + ", ".join(items[i:i + per_line]) + "," for i in range(0, len(items), per_line))

    return f'''"""The splendor-tools referee's card and noble ids in terms of ours (generated: do not edit).

Written by tools/derive_splendor_tools_ids.py from the referee's cards.csv and nobles.csv and
our data/splendor/cards.csv and nobles.csv, matched by level, cost, bonus colour and points
(cards) and by requirement (nobles). Index i holds their id i + 1. The digests are the first
12 hex digits of the SHA-256 of each of their rows' facts in the script's normal form
(``card_fact``, ``noble_fact``), for checking the map against their data without a copy of it.
"""

# their card id - 1 -> our card id
CARD_IDS = (
{rows(card_ids, 15)}
)

# their noble id - 1 -> our noble id
NOBLE_IDS = (
{rows(noble_ids, 10)}
)

CARD_DIGESTS = (
{rows([digest(f) for f in theirs_cards], 6)}
)

NOBLE_DIGESTS = (
{rows([digest(f) for f in theirs_nobles], 5)}
)
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="a checkout of nerdvana-ro/splendor-tools or its bare git directory")
    parser.add_argument("--check", action="store_true", help="compare with the committed table, write nothing")
    args = parser.parse_args(argv)
    theirs_cards, theirs_nobles = their_cards(args.source), their_nobles(args.source)
    text = render(match(theirs_cards, our_cards(), "card"), match(theirs_nobles, our_nobles(), "noble"),
                  theirs_cards, theirs_nobles)
    if args.check:
        if TABLE.read_text() != text:
            print(f"{TABLE.relative_to(ROOT)} differs from what the sources give", file=sys.stderr)
            return 1
        print(f"{TABLE.relative_to(ROOT)} agrees with the sources")
        return 0
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_text(text)
    print(f"wrote {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
