"""The command outputs shown in README.md and docs/*.md, checked against real runs and regenerated.

Every ```console block is a test. A line starting with "$ " is a command (a trailing backslash
continues it on the next line); the lines under it, up to the next command, are what it prints,
standard output and error together, as run by bash at 100 columns without colour and without a
terminal. A command that exits non-zero shows "(exit status N)" as its last line. The commands of
one document run in order in one scratch folder (so a later command sees the files an earlier one
wrote), with the repository's examples/ linked in.

A ```pycon block is a Python session: its ">>> " lines run in order (one namespace per document)
and what they show is compared by doctest (an exception shows its last line under a
"Traceback (most recent call last):" line, the rest cut to "...").

What may differ from run to run, and is compared loosely:
- durations and rates ("4.2 s", "1.39 ms", "Time (s): 0.007", "elapsed 0:00:02", "35,120 it/s",
  the engine protocol's "time 16 nps 124694") are compared as <time> / <rate>;
- runs of spaces count as one space (a table's columns widen with its widest cell);
- a line "[...]" stands for any number of lines (a long output shown in part).
Everything else must match exactly, so a documented output that is no longer true fails.

    python tools/doc_outputs.py                 # check every document; exit 1 on a difference
    python tools/doc_outputs.py --write         # regenerate the outputs in place
    python tools/doc_outputs.py docs/hints.md   # only some documents
"""
from __future__ import annotations

import argparse
import doctest
import io
import os
import re
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ELLIPSIS = "[...]"
COMMAND_TIMEOUT = 600  # seconds; a documented command that runs longer is a bad example
_TIME = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:ns|us|µs|ms|s|min|h)\b")
_CLOCK = re.compile(r"\b\d+:\d\d:\d\d\b")  # "elapsed 0:00:02 ETA 0:00:03", the progress lines' form
_WIRE = re.compile(r"\b(time|nps) \d+\b")  # the engine protocol's info line: milliseconds, iterations/s
_SECONDS = re.compile(r"(?<=\(s\): )\d+(?:\.\d+)?")  # "Time (s): 0.007", perft's form
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
class Session:
    """A pycon block: lines [first, end) of the document."""

    first: int
    end: int


@dataclass
class Document:
    path: Path
    lines: list[str]
    examples: list[Example] = field(default_factory=list)
    sessions: list[Session] = field(default_factory=list)


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
        if lines[i].strip() == "```pycon":
            start = i + 1
            i = start
            while i < len(lines) and lines[i].strip() != "```":
                i += 1
            doc.sessions.append(Session(start, i))
            i += 1
            continue
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
                    command = command + "\n" + lines[i]  # bash reads the backslash-newline as one line
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
    line = _SECONDS.sub("<time>", line)
    line = _CLOCK.sub("<time>", line)
    line = _WIRE.sub(r"\1 <n>", line)
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


class _Recorder(doctest.DocTestRunner):
    """A doctest runner that keeps what each failing example printed instead of reporting it."""

    def __init__(self) -> None:
        super().__init__(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        self.got: dict[int, str] = {}  # example line within the block -> what it showed

    def report_failure(self, out, test, example, got):  # noqa: ANN001
        if got.startswith("Traceback (most recent call last):"):
            got = _traceback_shown(got.rstrip("\n").splitlines()[-1])
        self.got[example.lineno] = got

    def report_unexpected_exception(self, out, test, example, exc_info):  # noqa: ANN001
        kind, value, _ = exc_info
        self.got[example.lineno] = _traceback_shown("".join(traceback.format_exception_only(kind, value)).strip())


def _traceback_shown(last_line: str) -> str:
    """An exception as a session shows it: doctest compares only the last line."""
    return f"Traceback (most recent call last):\n  ...\n{last_line}\n"


Replacement = tuple[int, int, list[str]]  # document lines [start, end) become these


def check_sessions(doc: Document) -> tuple[list[str], list[Replacement], int]:
    """Run a document's pycon blocks in order in one namespace: the differences found, the
    lines that would make the document true, and the number of examples run."""
    problems: list[str] = []
    replacements: list[Replacement] = []
    namespace: dict[str, object] = {"__name__": "__doc_session__"}
    count = 0
    for session in doc.sessions:
        text = "\n".join(doc.lines[session.first:session.end]) + "\n"
        test = doctest.DocTestParser().get_doctest(text, namespace, shown(doc.path), str(doc.path), 0)
        runner = _Recorder()
        runner.run(test, out=io.StringIO().write, clear_globs=False)
        namespace = test.globs  # the next block goes on from here
        count += len(test.examples)
        for example in test.examples:
            if example.lineno not in runner.got:
                continue
            got = runner.got[example.lineno]
            want_first = session.first + example.lineno + example.source.count("\n")
            problems.append(f"{shown(doc.path)}:{session.first + example.lineno + 1}: "
                            f"`{example.source.strip()}` shows something else\n"
                            + "\n".join([f"    documented: {line}" for line in example.want.splitlines()]
                                         + [f"    printed:    {line}" for line in got.splitlines()]))
            replacements.append((want_first, want_first + len(example.want.splitlines()),
                                 [" " * example.indent + line for line in got.rstrip("\n").splitlines()]))
    return problems, replacements, count


def check(doc: Document, write: bool) -> list[str]:
    """Run a document's examples; the differences found (rewriting them when `write`)."""
    problems: list[str] = []
    replacements: list[Replacement] = []
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
                replacements.append((example.first_output_line, example.end_output_line,
                                     regenerated(example.expected, actual)))
    session_problems, session_replacements, _ = check_sessions(doc)
    problems += session_problems
    replacements += session_replacements
    if write and replacements:
        lines = list(doc.lines)
        for start, end, new in sorted(replacements, key=lambda r: r[0], reverse=True):
            lines[start:end] = new
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
        count += len(doc.examples) + sum(len(doctest.DocTestParser().get_examples(
            '\n'.join(doc.lines[x.first:x.end]))) for x in doc.sessions)
        problems += check(doc, args.write)
    for problem in problems:
        print(problem)
    verb = "rewritten" if args.write else "differ"
    print(f"{count} documented commands run, {len(problems)} {verb}")
    return 1 if problems and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
