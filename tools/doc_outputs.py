"""The command outputs shown in README.md and docs/*.md, checked against real runs and regenerated.

Every ```console block is a test. A line starting with "$ " is a command (a trailing backslash
continues it on the next line); the lines under it, up to the next command, are what it prints,
standard output and error together, as run by bash at 100 columns without colour and without a
terminal. A command that exits non-zero shows "(exit status N)" as its last line. The commands of
one document run in order in one scratch folder (so a later command sees the files an earlier one
wrote), with the repository's examples/ linked in.

What may differ from run to run, and is compared loosely:
- durations and rates ("4.2 s", "1.39 ms", "35,120 it/s") are compared as <time> / <rate>;
- runs of spaces count as one space (a table's columns widen with its widest cell);
- a line "[...]" stands for any number of lines (a long output shown in part).
Everything else must match exactly, so a documented output that is no longer true fails.

    python tools/doc_outputs.py                 # check every document; exit 1 on a difference
    python tools/doc_outputs.py --write         # regenerate the outputs in place
    python tools/doc_outputs.py docs/hints.md   # only some documents
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ELLIPSIS = "[...]"
COMMAND_TIMEOUT = 600  # seconds; a documented command that runs longer is a bad example
_TIME = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:ns|us|µs|ms|s|min|h)\b")
_RATE = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:[kM]?(?:it|iterations|games|moves|decisions)/s)\b")


@dataclass
class Example:
    """One command of a console block and the output the document shows for it."""

    line: int  # 1-based line of the "$ " in the document
    command: str
    expected: list[str]
    first_output_line: int  # 0-based index into the document's lines
    end_output_line: int  # exclusive


@dataclass
class Document:
    path: Path
    lines: list[str]
    examples: list[Example] = field(default_factory=list)


def shown(path: Path) -> str:
    """A document's path as messages give it."""
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def documents() -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def parse(path: Path) -> Document:
    """The console examples of a Markdown file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    doc = Document(path, lines)
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        i += 1
        current: Example | None = None
        while i < len(lines) and lines[i].strip() != "```":
            text = lines[i]
            if text.startswith("$ "):
                if current is not None:
                    current.end_output_line = i
                    doc.examples.append(current)
                start = i
                command = text[2:]
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1] + "\n" + lines[i]
                current = Example(start + 1, command, [], i + 1, i + 1)
            elif current is None:
                raise SystemExit(f"{shown(path)}:{i + 1}: a console block must start with a '$ ' command")
            else:
                current.expected.append(text)
            i += 1
        if current is not None:
            current.end_output_line = i
            doc.examples.append(current)
        i += 1
    return doc


def run(command: str, folder: Path) -> list[str]:
    """What the command prints, as the document shows it."""
    env = dict(os.environ, COLUMNS="100", LINES="40", TERM="dumb", NO_COLOR="1", PYTHONHASHSEED="0",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("FORCE_COLOR", None)
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        return [f"(timed out after {COMMAND_TIMEOUT} s)"]
    out = done.stdout.decode("utf-8", errors="replace").rstrip("\n")
    lines = [line.rstrip() for line in out.split("\n")] if out else []
    if done.returncode != 0:
        lines.append(f"(exit status {done.returncode})")
    return lines


def loose(line: str) -> str:
    """A line with what varies between runs taken out."""
    line = _RATE.sub("<rate>", line)
    line = _TIME.sub("<time>", line)
    return " ".join(line.split())


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output fits the documented lines ("[...]" matching any number of lines)."""
    pattern = "".join(r"(?:.*\n)*?" if line.strip() == ELLIPSIS else re.escape(loose(line)) + r"\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(loose(line) + "\n" for line in actual)) is not None


def regenerated(expected: list[str], actual: list[str]) -> list[str]:
    """New documented lines: the actual output, keeping the document's "[...]" cut if it had one."""
    if ELLIPSIS not in [line.strip() for line in expected]:
        return actual
    cut = [line.strip() for line in expected].index(ELLIPSIS)
    head, tail = cut, len(expected) - cut - 1
    if head + tail >= len(actual):
        return actual
    return actual[:head] + [ELLIPSIS] + (actual[len(actual) - tail:] if tail else [])


def check(doc: Document, write: bool) -> list[str]:
    """Run a document's examples; the differences found (rewriting them when `write`)."""
    problems: list[str] = []
    replacements: list[tuple[Example, list[str]]] = []
    with tempfile.TemporaryDirectory(prefix="doc-outputs-") as scratch:
        folder = Path(scratch)
        (folder / "examples").symlink_to(REPO / "examples")
        for example in doc.examples:
            actual = run(example.command, folder)
            if not matches(example.expected, actual):
                where = f"{shown(doc.path)}:{example.line}"
                diff = "\n".join([f"    documented: {line}" for line in example.expected]
                                 + [f"    printed:    {line}" for line in actual])
                problems.append(f"{where}: `{example.command}` prints something else\n{diff}")
                replacements.append((example, regenerated(example.expected, actual)))
    if write and replacements:
        lines = list(doc.lines)
        for example, new in sorted(replacements, key=lambda r: r[0].first_output_line, reverse=True):
            lines[example.first_output_line:example.end_output_line] = new
        doc.path.write_text("\n".join(lines), encoding="utf-8")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, help="documents to check (default: README.md and docs/*.md)")
    ap.add_argument("--write", action="store_true", help="regenerate the documented outputs in place")
    args = ap.parse_args(argv)
    paths = [p.resolve() for p in args.files] or documents()
    problems: list[str] = []
    count = 0
    for path in paths:
        doc = parse(path)
        count += len(doc.examples)
        problems += check(doc, args.write)
    for problem in problems:
        print(problem)
    verb = "rewritten" if args.write else "differ"
    print(f"{count} documented commands run, {len(problems)} {verb}")
    return 1 if problems and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
