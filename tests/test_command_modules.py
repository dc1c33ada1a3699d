"""One convention for the commands (issue 48, item 3; docs/commands.md): each subcommand of
``splendor-mcts`` is a module of ``splendor_mcts.commands`` with ``register`` and ``run``; the
library (every other module but ``cli.py``) builds no parser and imports no argparse; the
options several commands share come from one table."""
from __future__ import annotations

import argparse
import ast
from pathlib import Path

from splendor_mcts import commands
from splendor_mcts import cli
from splendor_mcts.cli import build_parser
from splendor_mcts.commands.options import OPTIONS
from splendor_mcts.tournament.runner import TournamentConfig

PACKAGE = Path(commands.__file__).resolve().parents[1]
COMMAND_LINE = {PACKAGE / "cli.py", *Path(commands.__file__).parent.glob("*.py")}
PARSER_CALLS = {"add_parser", "add_subparsers", "add_argument", "add_argument_group", "add_mutually_exclusive_group"}


def subparsers() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def library_modules() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if path not in COMMAND_LINE]


def test_no_library_module_imports_argparse_or_builds_a_parser():
    offenders = []
    for path in library_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            imported = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                        else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(name.split(".")[0] == "argparse" for name in imported):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} imports argparse")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PARSER_CALLS:
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} calls {node.func.attr}")
    assert library_modules() and not offenders, offenders


def test_every_subcommand_is_a_module_of_the_commands_package():
    modules = {f"{commands.__name__}.{name}" for name in cli.COMMANDS}
    for name, parser in subparsers().items():
        run = parser.get_default("func")
        assert run.__module__ == f"{commands.__name__}.{name.replace('-', '_')}", (name, run.__module__)
        assert run.__name__ == "run", name
    assert {f"{commands.__name__}.{n.replace('-', '_')}" for n in subparsers()} == modules
    files = {p.stem for p in Path(commands.__file__).parent.glob("*.py")} - {"__init__", "options"}
    assert files == set(cli.COMMANDS), "a module of commands/ that is not a command, or one not listed"


def test_the_shared_options_are_the_tables_and_their_defaults_their_owners():
    parsers = subparsers()
    for name in ("perft", "random-game", "tournament", "play", "selfplay"):
        game = next(a for a in parsers[name]._actions if "--game" in a.option_strings)
        assert game.default == OPTIONS["game"].keywords["default"], name
        assert game.help == parsers["perft"]._option_string_actions["--game"].help, name
    tournament = vars(build_parser().parse_args(["tournament", "random", "greedy"]))
    for option, field in (("seed", "seed"), ("db", "db"), ("mode", "mode"), ("backend", "backend"),
                          ("game_loader", "loader"), ("max_decisions", "max_decisions")):
        assert tournament[option] == getattr(TournamentConfig, field), option
    help_text = parsers["tournament"].format_help()
    assert f"default {TournamentConfig.deals})" in help_text and f"(default {TournamentConfig.max_decisions}," in help_text
