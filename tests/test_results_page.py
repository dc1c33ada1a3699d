"""bench/RESULTS.md is the page of today's figures, not a diary: short, every section with the
command that produced its figures, the date and the machine; past experiments are dated notes in
bench/notes/; and every citation of a bench/RESULTS.md section, anywhere in the sources and docs, names
a section the page has."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench/RESULTS.md"
NOTES = REPO / "bench" / "notes"
MAX_LINES = 400
NOTE_MAX_LINES = 60
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
FENCE = re.compile(r"^```", re.M)
COMMAND_LINE = re.compile(r"^Command: ", re.M)
# A citation: bench/RESULTS.md (or a Markdown link to it), then one or more quoted section names.
_QUOTED = r'"[A-Z`][^"\n]*"'  # a section name begins with a capital or a backtick
CITATION = re.compile(r"RESULTS\.md(?:\]\([^)]*\))?\)?[,:]?\s*\(?((?:" + _QUOTED + r"(?:,\s*|\s+and\s+)?)+)")


def sections(text: str) -> dict[str, str]:
    """The page's ``##`` sections by heading (their ``###`` subsections included)."""
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def machines(text: str) -> list[str]:
    """The machines the page's header names (``*Name*:`` in its **Machines.** paragraph)."""
    header = text.split("\n## ", 1)[0]
    paragraph = header[header.index("**Machines.**"):].split("\n\n", 1)[0]
    return re.findall(r"\*([^*\n]+)\*:", paragraph)


def problems(text: str) -> list[str]:
    """What keeps a results page from being one: too long, a section without a command, a date or
    a machine, a section named after an issue, a "tried, not kept" story."""
    found = []
    if len(text.splitlines()) > MAX_LINES:
        found.append(f"{len(text.splitlines())} lines, more than {MAX_LINES}")
    if "bench/notes/" not in text.split("\n## ", 1)[0]:
        found.append("the header does not say where older runs went (bench/notes/ and git history)")
    names = machines(text) if "**Machines.**" in text else []
    if not names:
        found.append("the header names no machine (a **Machines.** paragraph with *Name*: entries)")
    for heading, body in sections(text).items():
        if not (FENCE.search(body) or COMMAND_LINE.search(body)):
            found.append(f'"{heading}": no command (a fenced block or a "Command: " line)')
        if not DATE.search(body):
            found.append(f'"{heading}": no date (YYYY-MM-DD)')
        if names and not any(name in body for name in names):
            found.append(f'"{heading}": names none of the header\'s machines {names}')
        if re.search(r"\bissue \d+", heading, re.I):
            found.append(f'"{heading}": a section named after an issue')
    if re.search(r"not kept", text, re.I):
        found.append('a "tried, not kept" story (those are bench/notes/)')
    return found


def cited_sections(text: str) -> list[str]:
    """The bench/RESULTS.md section names a text cites, comment markers and line breaks read through."""
    flat = re.sub(r"\s*\n\s*(?:#|//|\*)?\s*", " ", text)
    return [name for m in CITATION.finditer(flat) for name in re.findall(r'"([^"]+)"', m.group(1))]


def citing_files() -> list[Path]:
    roots = [REPO / d for d in ("python", "cpp", "tools", "bench", "tests", "docs")]
    files = [REPO / "README.md"] + [p for root in roots for p in sorted(root.rglob("*"))
                                    if p.suffix in (".py", ".md", ".hpp", ".cpp", ".h") and "recipe-run" not in p.parts]
    return [p for p in files if p.is_file() and p != Path(__file__).resolve()]


def test_the_results_page_is_short_and_every_section_names_its_command_date_and_machine():
    assert problems(RESULTS.read_text(encoding="utf-8")) == []


def test_the_page_check_catches_a_diary():
    diary = ("# Results\n\n**Machines.** *Box*: 2 cores.\n\nOlder runs: bench/notes/.\n\n"
             "## Speed (issue 3)\n\n2026-12-01 on Box:\n\n```\npython bench/strength.py\n```\n\n"
             "## Strength\n\nNo command here, 2026-12-02 on Box; tried, not kept.\n\n"
             "## Latency\n\nCommand: `python bench/board_latency.py`, 2026-12-03, somewhere else.\n"
             + "filler\n" * MAX_LINES)
    found = problems(diary)
    assert any("more than 400" in p for p in found)
    assert '"Speed (issue 3)": a section named after an issue' in found
    assert '"Strength": no command (a fenced block or a "Command: " line)' in found
    assert any(p.startswith('"Latency": names none') for p in found)
    assert any("not kept" in p for p in found)
    assert not any(p.startswith('"Latency": no command') or p.startswith('"Speed (issue 3)": no') for p in found)


def test_the_citation_reader_reads_through_comments_and_lists():
    text = ('x = 1  # as measured (bench/RESULTS.md, "Solver\n    # on vs off") and\n'
            '// bench/RESULTS.md: "A", "B" and "C"\n'
            '[bench/RESULTS.md](../bench/RESULTS.md), "Web board latency". Also bench/RESULTS.md ("D").')
    assert cited_sections(text) == ["Solver on vs off", "A", "B", "C", "Web board latency", "D"]


def test_every_cited_results_section_exists():
    headings = set(sections(RESULTS.read_text(encoding="utf-8")))
    missing = [f"{path.relative_to(REPO)}: \"{name}\""
               for path in citing_files()
               for name in cited_sections(path.read_text(encoding="utf-8"))
               if name not in headings]
    assert missing == []


def test_notes_are_dated_short_and_name_their_command():
    notes = sorted(NOTES.glob("*.md"))
    assert notes, "bench/notes/ holds the past experiments"
    for note in notes:
        text = note.read_text(encoding="utf-8")
        date = re.match(r"(\d{4}-\d\d-\d\d)-[a-z0-9-]+\.md$", note.name)
        assert date, f"{note.name}: name it YYYY-MM-DD-topic.md"
        assert text.startswith(f"# {date.group(1)}"), f"{note.name}: its title begins with its date"
        assert len(text.splitlines()) <= NOTE_MAX_LINES, f"{note.name}: more than {NOTE_MAX_LINES} lines"
        assert FENCE.search(text), f"{note.name}: no command"
        assert "**Conclusion.**" in text, f"{note.name}: no conclusion"
