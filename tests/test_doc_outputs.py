"""Docs as tests: every command README.md and docs/ show with its output prints that output
today (tools/doc_outputs.py runs them), and a changed output is caught."""
from __future__ import annotations

import pytest
from tool_modules import load_tool

checker = load_tool("doc_outputs")


@pytest.mark.parametrize("path", checker.documents(), ids=lambda p: p.name)
def test_documented_outputs_are_what_the_commands_print(path):
    problems = checker.check(checker.parse(path), write=False)
    assert not problems, "\n".join(problems) + "\n(regenerate with: python tools/doc_outputs.py --write)"


def test_every_document_with_outputs_is_checked():
    assert sum(len(checker.parse(p).examples) for p in checker.documents()) >= 2


SAMPLE = """# A page
```console
$ printf 'seat 1 wins\\nafter 4.2 s\\n[2/4] elapsed 0:00:02\\n'
seat 1 wins
after 0.3 s
[2/4] elapsed 0:00:00
$ printf 'a\\nb\\nc\\n'
a
[...]
c
$ exit 3
(exit status 3)
```
"""


def test_a_true_page_passes_and_durations_may_differ(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(SAMPLE)
    assert checker.check(checker.parse(page), write=False) == []


def test_a_changed_output_fails_and_write_regenerates_it(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(SAMPLE.replace("seat 1 wins\n", "seat 2 wins\n", 1))
    problems = checker.check(checker.parse(page), write=False)
    assert len(problems) == 1 and "documented: seat 2 wins" in problems[0] and "printed:    seat 1 wins" in problems[0]
    checker.check(checker.parse(page), write=True)
    assert page.read_text() == SAMPLE.replace("after 0.3 s", "after 4.2 s").replace("0:00:00", "0:00:02")  # the real run
    assert checker.check(checker.parse(page), write=False) == []


def test_a_block_must_start_with_a_command(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\nno prompt\n```\n")
    with pytest.raises(SystemExit, match="must start with a '\\$ ' command"):
        checker.parse(page)


SESSION = """A session, in two blocks sharing names:
```pycon
>>> seats = ["greedy", "random"]
>>> len(seats)
2
```
```pycon
>>> seats[2]
Traceback (most recent call last):
  ...
IndexError: list index out of range
```
"""


def test_python_sessions_are_checked_in_order_and_regenerated(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(SESSION)
    assert checker.check(checker.parse(page), write=False) == []
    page.write_text(SESSION.replace("len(seats)\n2", "len(seats)\n3").replace("IndexError: list", "KeyError: list"))
    problems = checker.check(checker.parse(page), write=True)
    assert len(problems) == 2 and "printed:    2" in problems[0] and "IndexError" in problems[1]
    assert page.read_text() == SESSION
