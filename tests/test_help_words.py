"""Words a new player reads (issue 50, item 6): every --help filled in and its examples
typed as they run, install hints that name what can be installed (the project's folder,
not a `splendor-mcts[...]` PyPI name), the docs saying what the commands do."""
from __future__ import annotations

import argparse
import re
import tokenize
from pathlib import Path

from splendor_mcts import _core
from splendor_mcts.cli import build_parser
from splendor_mcts.search import defaults
from splendor_mcts.wording import install_hint

ROOT = Path(__file__).resolve().parents[1]
# Names of code that a help text may mention only filled in (e.g. "one of EVALUATORS").
CONSTANTS = {name for module in (_core, defaults) for name in dir(module) if re.fullmatch(r"[A-Z][A-Z_]{3,}", name)}


def helps() -> dict[str, str]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    texts = {"splendor-mcts": parser.format_help()}
    for name, sub in action.choices.items():
        texts[name] = sub.format_help()
    return texts


def test_no_help_names_a_constant_instead_of_its_values():
    assert "EVALUATORS" in CONSTANTS
    for name, text in helps().items():
        text = re.sub(r"--[a-z-]+ [A-Z_]+", "", text)  # an option's metavar (--analysis-moves ANALYSIS_MOVES)
        unfilled = sorted(c for c in CONSTANTS if re.search(rf"\b{c}\b", text))
        assert not unfilled, f"{name} --help says {unfilled}"
    assert all(evaluator in helps()["hint"] for evaluator in _core.EVALUATORS)


def test_no_string_joins_its_lines_by_a_lone_backslash():
    """A backslash at a line's end inside a Python string joins the lines, the next one's
    indent kept: ``tournament --help`` read ``name=c04       --deals 2000``. An example
    that shows a shell continuation writes ``\\``."""
    joined = []
    for path in ROOT.joinpath("python").rglob("*.py"):
        with tokenize.open(path) as handle:
            for token in tokenize.generate_tokens(handle.readline):
                if token.type == tokenize.STRING and re.search(r"(?<!\\)(?:\\\\)*\\\n", token.string):
                    joined.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    assert not joined
    examples = helps()["tournament"].split("examples:")[1]
    assert not re.search(r"\S {3,}--", examples)


def test_install_hints_name_the_projects_folder_not_a_pypi_name():
    assert install_hint("serve") == 'pip install ".[serve]" (in the project\'s folder)'
    files = [*ROOT.joinpath("python").rglob("*.py"), *ROOT.joinpath("docs").glob("*.md"), ROOT / "README.md"]
    offenders = [str(f.relative_to(ROOT)) for f in files if "splendor-mcts[" in f.read_text(encoding="utf-8")]
    assert not offenders


def test_readme_says_serve_prints_the_address_and_open_opens_it():
    readme = " ".join(ROOT.joinpath("README.md").read_text().split())
    assert "splendor-mcts serve` opens" not in readme
    assert "prints its address" in readme and "`--open`" in readme


def test_no_paragraph_of_the_position_format_is_written_twice():
    paragraphs = [p.strip() for p in ROOT.joinpath("docs", "position-format.md").read_text().split("\n\n")
                  if len(p.strip()) > 200 and not p.lstrip().startswith(("```", "{", "|"))]
    assert len(paragraphs) == len(set(paragraphs))
