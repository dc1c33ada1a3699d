"""The options several commands share, each written once: its flag, its type (a range of
:mod:`splendor_mcts.ranges`), its default (taken from the module that owns it, never typed
again here) and its help.

A command adds one with ``add(parser, "json", what="the review")``: the keywords fill the
fields of the help (``{what}``; ``{default}`` is the option's default) or replace the
table's own keywords where this command's option differs (``default=`` its owner's
constant, ``required=True``, ``help=`` a text of its own where the option means more for
it). The search settings (``--exploration``, ``--network``, ...) come from
:data:`splendor_mcts.search.settings.SETTINGS`, the table every door reads them from;
:func:`add_search_options` adds them with the budget (``--time``, ``--iterations``,
``--threads``, ``--seed``) and :func:`search_limits` reads them back.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..analysis.running import SearchLimits, check_option_limits
from ..games.limits import MAX_DECISIONS
from ..games.registry import DEFAULT_GAME
from ..learning.train import (DEFAULT_DROPOUT, DEFAULT_HIDDEN, DEFAULT_POSITIONS_PER_GAME, DEFAULT_SEARCH_VALUE_SHARE,
                              TrainSettings, hidden_sizes)
from ..ranges import ANY_NUMBER, WHOLE, Number, NumberError, Whole
from ..search.defaults import HINT_SECONDS
from ..search.networks import shipped_summary
from ..search.settings import SETTINGS, Setting
from ..tournament.backends import BACKENDS
from ..tournament.play import DEFAULT_LOADER


def arg(kind: Whole | Number) -> Callable[[str], Any]:
    """A range as an option's type: a bad value is refused as argparse refuses any
    (``argument --flag: must be a whole number ..., got 'x'``, exit code 2)."""
    def parse(text: str) -> Any:
        try:
            return kind.parse(text, None)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = kind.kind_words
    return parse


def text_type(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """A library's reader of a text (``ValueError`` saying what is wrong) as an option's type."""
    def parse(text: str) -> Any:
        try:
            return read(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = read.__name__
    return parse


# The keywords of argparse's add_argument an Option may hold (the others fill its help).
_ARGUMENT_KEYWORDS = ("type", "default", "metavar", "action", "choices", "required", "dest", "nargs")


@dataclass(frozen=True)
class Option:
    """One option as every command that takes it reads it: ``help`` is a ``str.format``
    template over ``{default}`` and ``fields`` (a command may give its own values);
    ``keywords`` are argparse's (``type``, ``default``, ``metavar``, ``action``, ...)."""

    flag: str
    help: str
    keywords: Mapping[str, Any] = field(default_factory=dict)
    fields: Mapping[str, str] = field(default_factory=dict)

    def add(self, parser: Any, help: str | None = None, **changes: Any) -> argparse.Action:
        """Add the option to ``parser`` (a parser or an argument group)."""
        keywords = {**self.keywords, **{k: v for k, v in changes.items() if k in _ARGUMENT_KEYWORDS}}
        fields = {**self.fields, **{k: v for k, v in changes.items() if k not in _ARGUMENT_KEYWORDS}}
        text = (self.help if help is None else help).format(default=keywords.get("default"), **fields)
        return parser.add_argument(self.flag, help=text, **keywords)


def _setting_option(setting: Setting) -> Option:
    """A search setting of :data:`SETTINGS` as a command-line option, under its ``flag``."""
    text = setting.help.replace("%", "%%").replace("{", "{{").replace("}", "}}")  # argparse formats help with %
    if setting.kind is bool:
        return Option(str(setting.flag), text, {"dest": setting.name, "action": argparse.BooleanOptionalAction})
    return Option(str(setting.flag), text, {"dest": setting.name, "type": setting.kind})


# The budget and seed of a search have a command-line help of their own (the others: SETTINGS').
_OWN_FLAGS = ("iterations", "time_limit", "threads", "seed")
SEARCH_SETTINGS: dict[str, Option] = {s.name: _setting_option(s) for s in SETTINGS
                                      if s.flag is not None and s.name not in _OWN_FLAGS}

OPTIONS: dict[str, Option] = {
    "game": Option("--game", 'game name or spec, e.g. duel, "splendor(players=3)" (default: {default})',
                   {"default": DEFAULT_GAME}),
    "players": Option("--players", "number of players (default: the game's default)", {"type": arg(WHOLE)}),
    "seed": Option("--seed", "{what} (default {default}){more}", {"type": arg(WHOLE), "default": SearchLimits.seed},
                   {"what": "search seed", "more": ""}),
    # The deal the positions of perft and random-game start from (perft's goldens are of it).
    "deal_seed": Option("--seed", "{what} (default {default})", {"type": arg(WHOLE), "default": 1},
                        {"what": "deal seed"}),
    "time": Option("--time", "thinking time per position (default: {budget})",
                   {"type": arg(ANY_NUMBER), "metavar": "SECONDS"}, {"budget": "no time limit"}),
    "iterations": Option("--iterations", "search iterations{more}", {"type": arg(WHOLE), "metavar": "N"},
                         {"more": ""}),
    "threads": Option("--threads", "search threads (default: {cores})", {"type": arg(WHOLE), "metavar": "N"},
                      {"cores": "all cores"}),
    "workers": Option("--workers", "{what} at once (default {default})", {"type": arg(WHOLE)}),
    "json": Option("--json", "print {what} as one JSON object", {"action": "store_true"}, {"what": "the results"}),
    "no_progress": Option("--no-progress", "no progress on standard error{how}", {"action": "store_true"},
                          {"how": ""}),
    "backend": Option("--backend", "local processes or a Ray cluster", {"choices": BACKENDS, "default": "local"}),
    "ray_address": Option("--ray-address", "address of an existing Ray cluster (default: start a local Ray)"),
    "game_loader": Option("--game-loader", "advanced: load the game{why} with another function taking {takes} "
                          "(imports and runs that module{where})",
                          {"default": DEFAULT_LOADER, "metavar": "MODULE:FUNCTION"},
                          {"why": "", "takes": "the record's game spec", "where": ""}),
    "db": Option("--db", "{what} (default: ./{default})", {"default": "results.sqlite"},
                 {"what": "tournament database"}),
    "plot": Option("--plot", "save {what} (PNG or SVG by the suffix; matplotlib): {shows}", {"metavar": "FILE"}),
    "max_decisions": Option("--max-decisions", "{what} after N decisions {outcome} (default {default}{why})",
                            {"type": arg(WHOLE), "default": MAX_DECISIONS, "metavar": "N"}),
    "network": SEARCH_SETTINGS["network"],
    # What train and pipeline (which trains) share.
    "hidden": Option("--hidden", "the trunk's layer sizes (default {sizes}){more}",
                     {"type": text_type(hidden_sizes), "default": DEFAULT_HIDDEN, "metavar": "H1,H2"},
                     {"sizes": ",".join(map(str, DEFAULT_HIDDEN)), "more": ""}),
    "dropout": Option("--dropout", "dropout after each trunk layer while training (default {default:g})",
                      {"type": arg(ANY_NUMBER), "default": DEFAULT_DROPOUT}),
    "positions_per_game": Option("--positions-per-game", "rows of each game an epoch trains on, drawn anew each "
                                 "epoch; 0 = all (default {default})",
                                 {"type": arg(WHOLE), "default": DEFAULT_POSITIONS_PER_GAME}),
    "search_value_share": Option("--search-value-share", "the value head learns S x the search root's mean return "
                                 "+ (1 - S) x the game's result (0..1, default {default:g}; above 0 needs shards of "
                                 "format 2){more}",
                                 {"type": arg(ANY_NUMBER), "default": DEFAULT_SEARCH_VALUE_SHARE, "metavar": "S"},
                                 {"more": ""}),
    "features": Option("--features", "input features the network reads beside the observation "
                       "(docs/network-format.md{sets}); a {start} network without them starts with zero weights from "
                       "them (default: none)", {"default": TrainSettings.features, "metavar": "NAME"}, {"sets": "", "start": "--init"}),
}


def command_parser(subparsers: Any, name: str, help: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """A command's parser: its one-line ``help`` in ``splendor-mcts --help``, its ``description``,
    and its ``epilog`` (the examples and exit codes) printed as written, line for line."""
    return subparsers.add_parser(name, help=help, description=description, epilog=epilog,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)


def add(parser: Any, name: str, help: str | None = None, **changes: Any) -> argparse.Action:
    """Add the shared option ``name`` of :data:`OPTIONS` to ``parser`` (see the module's text)."""
    return OPTIONS[name].add(parser, help, **changes)


def add_search_options(parser: argparse.ArgumentParser, default_time: float | None = HINT_SECONDS,
                       default_iterations: int | None = None) -> None:
    """The search's budget, threads, seed and every other search setting, as hint, review and
    play take them; the defaults are those of the help texts (``default_time`` seconds, or else
    ``default_iterations``, when neither option is given): :func:`search_limits` applies none."""
    add(parser, "time", budget=f"{default_time:g} s unless --iterations is given" if default_time else "no time limit")
    add(parser, "iterations", more=" (stops at whichever limit comes first)"
        + (f"; default {default_iterations} unless --time is given" if default_iterations else ""))
    add(parser, "threads")
    add(parser, "seed", more="; one thread + --iterations is reproducible")
    group = parser.add_argument_group("search settings", "default: the game's measured values (docs/search.md)")
    for name, option in SEARCH_SETTINGS.items():
        text = None
        if name == "network" and (shipped := shipped_summary()):
            text = option.help + "; shipped: " + ", ".join(
                f"{n['network']} (default {_default_text(n['defaultPlayers'])})" for n in shipped.values())
        option.add(group, text)


def _default_text(players: list[int]) -> str:
    return "on for " + " and ".join(map(str, players)) + " players" if players else "off"


def search_limits(args: argparse.Namespace, top_k: int | None = None) -> SearchLimits:
    """The limits of a command line given :func:`add_search_options`, checked (``ValueError``
    naming the option) before any search."""
    settings = {name: getattr(args, name) for name in SEARCH_SETTINGS if getattr(args, name) is not None}
    limits = SearchLimits(iterations=args.iterations, time_limit=args.time, threads=args.threads, seed=args.seed,
                          top_k=top_k, settings=settings)
    check_option_limits(limits)
    return limits


def parameter_default(function: Callable[..., Any], name: str) -> Any:
    """The default of ``function``'s parameter ``name``: an option that passes its value on
    defaults to what the library does without it."""
    import inspect

    return inspect.signature(function).parameters[name].default
