"""The search settings, listed once: every door (``sm.analyze``, ``MCTSBot``, agent specs,
the command lines, the analysis protocol) takes them from :data:`SETTINGS` under its own
spelling, and :func:`make_params` builds the engine's ``SearchParams`` from them.

The values are checked once, by the engine (``SearchParams.problem()``, C++); a bad one
raises :class:`SettingError` naming the setting, which each door renames to what its user
typed (``--time``, ``maxTime``, ``time=``). Python checks only what the engine cannot see:
the type of a value. docs/search.md lists the settings with their ranges and defaults.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import _core
from ..games.registry import SearchDefaults
from .networks import network_settings
from ..ranges import shown
from ..seeds import check_seed


class SettingError(ValueError):
    """A bad search setting; ``setting`` is its name in :data:`SETTINGS`."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


@dataclass(frozen=True)
class Setting:
    """One field of ``SearchParams`` and its names at the doors.

    ``name`` is the field and the Python keyword; ``spec`` the key of an agent spec and
    ``flag`` the command-line option (``None``: that door does not take it); ``field``
    the analysis protocol's query field (``None``: not taken there).
    """

    name: str
    kind: type
    help: str
    spec: str | None
    flag: str | None
    field: str | None
    aliases: tuple[str, ...] = ()


SETTINGS: tuple[Setting, ...] = (
    Setting("iterations", int, "search iterations per search, over all threads (0: no iteration budget)",
            "iterations", "--iterations", "maxIterations"),
    Setting("time_limit", float, "seconds per search (0: no time budget; not deterministic)",
            "time", "--time", "maxTime"),
    Setting("threads", int, "search threads", "threads", "--threads", "threads"),
    Setting("parallelism", str, "how threads share the work: 'root' (a tree each, merged) or 'tree' (one shared tree)",
            "parallelism", "--parallelism", "parallelism"),
    Setting("seed", int, "search seed (one thread and an iteration budget: reproducible)",
            None, "--seed", "seed"),
    Setting("exploration", float, "UCT exploration constant", "exploration", "--exploration", "exploration"),
    Setting("evaluator", str, f"how a new leaf is valued: one of {', '.join(_core.EVALUATORS)}",
            "evaluator", "--evaluator", "evaluator", aliases=("rollout",)),
    Setting("rollout_cutoff", int, "rollout plies before the heuristic evaluation (0: play out to the end)",
            "rollout_cutoff", "--rollout-cutoff", "rolloutCutoff"),
    Setting("perfect_information", bool, "search the true hidden cards (experiments only)",
            "perfect_information", "--perfect-information", "perfectInformation"),
    Setting("memory_limit", int, "bytes of tree over all threads; the tree stops growing there",
            "memory_limit", "--memory-limit", "memoryLimit"),
    Setting("analysis_moves", int,
            "analysis mode: the k moves shown each get at least 5% of the visits and rank by their lower bound "
            "(0: off, the search for play)",
            "analysis_moves", "--analysis-moves", "analysisMoves"),
    Setting("reuse_tree", bool, "keep the subtree of the position reached between a bot's moves",
            "reuse_tree", None, None),
    Setting("network", str,
            "a policy-value network: its value values the leaves, its policy gives PUCT priors; a .smnet file "
            "(docs/network-format.md), 'shipped' (the package's network of the game's family), "
            "'shipped:FAMILY' (that family's, also as reports name it: 'shipped:FAMILY@HASH') or 'none' "
            "(default: the shipped network where its entry in networks/index.json turns it on, else none)",
            "network", "--network", "network"),
    Setting("value_mix", float, "with a network: leaf value = value_mix * network + (1 - value_mix) * evaluator",
            "value_mix", "--value-mix", "valueMix"),
    Setting("puct", float, "with a network: PUCT c in Q + c * prior * sqrt(availability) / (1 + visits)",
            "puct", "--puct", "puct"),
    Setting("policy_cache", bool,
            "with a network: a node's later expansions reuse the policy its first one computed (false: the "
            "policy runs at every expansion)",
            "policy_cache", "--policy-cache", "policyCache"),
    Setting("solver", bool, "prove wins and losses inside the search (off: the search as before the solver)",
            "solver", "--solver", "solver"),
    Setting("probe", bool,
            "the solver's root probe: prove a win within two turns before the iterations "
            "(default: on where a person reads the answer, off for play)",
            "probe", "--probe", "probe"),
)
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
_ALIASES: dict[str, str] = {alias: s.name for s in SETTINGS for alias in s.aliases}
_OUT_OF_RANGE = "{} is out of range, got {}"
_KIND_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}


def canonical(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` under the settings' names (aliases such as ``rollout`` resolved); values
    of None are left out. ``SettingError`` for an unknown name or a setting given twice."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        name = _ALIASES.get(key, key)
        if name not in BY_NAME:
            raise SettingError(key, f"unknown search setting {key!r} (known: {', '.join(BY_NAME)})")
        if value is None:
            continue
        if name in out:
            raise SettingError(name, f"{name} is given twice (as {name} and as {key})")
        out[name] = value
    return out


def _check_type(setting: Setting, value: Any) -> Any:
    kind = setting.kind
    ok = isinstance(value, bool) if kind is bool else (
        not isinstance(value, bool) and isinstance(value, (int, float) if kind is float else kind))
    if not ok:
        raise SettingError(setting.name, f"{setting.name} must be {_KIND_WORDS[kind]}, got {shown(value)}")
    try:
        return float(value) if kind is float else value
    except OverflowError:  # an int no float holds: out of every setting's range (the engine checks the rest)
        raise SettingError(setting.name, _OUT_OF_RANGE.format(setting.name, shown(value))) from None


def make_params(defaults: SearchDefaults, *, game: str | None = None, players: int | None = None,
                **values: Any) -> Any:
    """``_core.SearchParams`` from settings by name (None: the default); ``defaults`` are the
    game's measured exploration, evaluator and cut-off. ``game`` and ``players`` name the
    family whose shipped network ``network=shipped`` and the default search use
    (:func:`splendor_mcts.search.networks.network_settings`); without them the settings are only
    checked. ``SettingError`` names a bad one."""
    try:
        chosen = network_settings(canonical(values), game, players)
    except SettingError:
        raise
    except ValueError as exc:
        raise SettingError("network", str(exc)) from None
    given = {"exploration": defaults.exploration, "evaluator": defaults.evaluator,
             "rollout_cutoff": defaults.rollout_cutoff, **chosen}
    params = _core.SearchParams()
    for name, value in given.items():
        setting = BY_NAME[name]
        value = _check_type(setting, value)
        if name == "seed":
            try:
                value = check_seed(value)
            except ValueError as exc:
                raise SettingError(name, str(exc)) from None
        try:
            setattr(params, name, value)
        except TypeError:  # outside the field's C++ type
            raise SettingError(name, _OUT_OF_RANGE.format(name, shown(value))) from None
        except ValueError as exc:  # parallelism: not one of its names
            raise SettingError(name, str(exc)) from None
    problem = params.problem()
    if problem is not None:
        raise SettingError(*problem)
    return params


def settings_of(params: Any) -> dict[str, Any]:
    """Every setting of a ``SearchParams`` by name (e.g. to build another one like it)."""
    return {s.name: getattr(params, s.name) for s in SETTINGS}
