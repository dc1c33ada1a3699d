"""Agent specs (``mcts:iterations=2000,exploration=0.6``, ``greedy``, ``pkg.mod:Class``) and agent construction.

Grammar::

    spec      := builtin [":" params] | module ":" Class [":" params] | "splendor-tools:" params
    builtin   := "mcts" | "greedy" | "random" | "engine"
    params    := key "=" value ("," key "=" value)*
    value     := text without "," | '"' text '"'      (inside the quotes a backslash escapes " and itself)

Every spec may carry ``name=<display name>`` (letters, digits, ``._-+``); it is not passed to the
agent. Without it the display name is the spec itself (minus ``name=``).

Values are parsed as int, then float, then ``true``/``false``, else kept as a string; a
quoted value is always a string.
An ``mcts`` spec takes every search setting of docs/search.md by its spec key
(``iterations``, ``time``, ``threads``, ``parallelism``, ``exploration``, ``evaluator`` or
``rollout``, ``rollout_cutoff``, ``perfect_information``, ``memory_limit``, ``reuse_tree``, ``solver``,
``probe``, ``analysis_moves``, ``network``, ``value_mix``, ``puct``, ``policy_cache``),
checked by the engine when the spec is parsed. ``network=shipped`` is the package's network
of the game's family and ``network=none`` no network (docs/search.md, "Shipped networks");
the tournament checks the shipped one for its game before any game starts.

An ``engine`` spec starts an external program speaking the engine protocol
(``engine:cmd="./mybot --level 3",tc=60+0.5``); its keys are in
:mod:`splendor_mcts.tournament.engine_agent`.

What each agent sees:

* built-in bots (``mcts``, ``greedy``, ``random``) get the full state; they never read hidden
  information from it (MCTS determinizes from the mover's view inside the engine).
* a user agent ``module:Class`` is built as ``Class(game, seed=..., **params)`` and its
  ``step(state)`` gets ``game.state_from_observation(state.observation_json(seat), seed=...)``:
  a state consistent with what its seat knows, with hidden cards resampled, so it cannot peek.
  Action ids are the same in both states.
* an ``engine`` is sent its seat's view (``observation_json``) and the legal moves, nothing more.
* a ``splendor-tools:cmd="..."`` agent is a program written for the splendor-tools referee, run
  once per turn and told only its seat's view (docs/splendor-tools.md).
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..games.registry import SearchDefaults
from ..search.defaults import BOT_ITERATIONS
from ..search.networks import shipped_used
from ..search.settings import BY_NAME, SETTINGS, Setting, SettingError, make_params
from ..seeds import MAX_SEED
from ..spec_text import format_value, parse_value, split_items

BUILTIN_KINDS = ("mcts", "greedy", "random", "engine")
_SPLENDOR_TOOLS = "splendor-tools"  # a referee-format agent program (splendor_tools.seat)
_NAME_RE = re.compile(r"^[A-Za-z0-9._+\-]+$")
_MODULE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_CLASS_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Agent(Protocol):
    """What the tournament needs from an agent: one action id per decision."""

    def step(self, state: Any) -> int: ...


# The mcts agent's parameters: the search settings an agent spec takes (docs/search.md),
# by their spec key. The tournament seeds every agent itself, so `seed` is not one of them.
MCTS_PARAMS: dict[str, Setting] = {key: s for s in SETTINGS if s.spec is not None for key in (s.spec, *s.aliases)}
_BUILTIN_PARAMS: dict[str, tuple[str, ...]] = {"mcts": tuple(MCTS_PARAMS), "greedy": (), "random": ()}



def mcts_settings(params: Mapping[str, Any]) -> dict[str, Any]:
    """An mcts spec's parameters as ``MCTSBot`` keywords (``time`` -> ``time_limit``)."""
    settings: dict[str, Any] = {}
    keys: dict[str, str] = {}
    for key, value in params.items():
        name = MCTS_PARAMS[key].name
        if name in settings:
            raise ValueError(f"{name} is given twice (as {keys[name]} and as {key})")
        settings[name], keys[name] = value, key
    return settings


def _check_mcts(params: list[tuple[str, Any]], spec: str) -> None:
    """The engine's check of the settings (the game's own defaults fill the rest)."""
    try:
        settings = mcts_settings(dict(params))
    except ValueError as exc:
        raise ValueError(f"agent spec {spec!r}: {exc}") from None
    if "iterations" not in settings and "time_limit" not in settings:
        settings["iterations"] = BOT_ITERATIONS
    try:
        make_params(SearchDefaults(), **settings)
    except SettingError as exc:
        key = BY_NAME[exc.setting].spec
        raise ValueError(f"agent spec {spec!r}: parameter {key!r}: {exc}") from None


def protocol_variant(spec: "AgentSpec") -> tuple[dict[str, Any], str]:
    """The variant fields an agent's own protocol fixes, and the rule's name: a splendor-tools
    program plays under the referee's take rule (``take_fewer_distinct=always``), so the game a
    tournament seats it in is played with it. ({}, "") for the other agents."""
    if spec.kind != _SPLENDOR_TOOLS:
        return {}, ""
    from ..splendor_tools.seat import REFEREE_RULE, REFEREE_VARIANT

    return dict(REFEREE_VARIANT), REFEREE_RULE


def check_seatable(spec: "AgentSpec", game: Any) -> None:
    """ValueError naming the agent when ``game`` is one it cannot play (a splendor-tools program:
    anything but the base game under the referee's rules), before any game starts."""
    if spec.kind == _SPLENDOR_TOOLS:
        from ..splendor_tools.seat import check_game

        try:
            check_game(game)
        except ValueError as exc:
            raise ValueError(f"agent {spec.name!r}: {exc}") from None


def shipped_network_of(spec: "AgentSpec", game: Any) -> str | None:
    """The shipped network an ``mcts`` agent searches ``game`` with (``network=shipped``, or
    by default: its entry in the networks index, ``search.network_index``) as ``shipped:<family>@<hash>``; None
    for another network, none, or another kind of agent. ``ValueError`` when the spec asks
    for a shipped network ``game`` has not."""
    if spec.kind != "mcts":
        return None
    try:
        return shipped_used(mcts_settings(spec.kwargs()), game.entry.name, game.num_players())
    except ValueError as exc:
        raise ValueError(f"agent {spec.name!r}: {exc}") from None


@dataclass(frozen=True)
class AgentSpec:
    """A parsed, validated agent spec.

    ``kind`` is ``mcts``/``greedy``/``random`` or ``python``; ``target`` is ``module:Class`` for
    a Python agent; ``params`` keeps the order given; ``name`` is the display name.
    """

    kind: str
    params: tuple[tuple[str, Any], ...]
    name: str
    target: str | None = None

    @property
    def spec(self) -> str:
        """Canonical spec text without the display name (what game records store per seat)."""
        if self.kind == _SPLENDOR_TOOLS:
            from ..splendor_tools.seat import format_spec

            return format_spec(self.params)
        head = self.target if self.kind == "python" else self.kind
        assert head is not None
        if not self.params:
            return head
        return head + ":" + ",".join(f"{k}={format_value(v)}" for k, v in self.params)

    @property
    def full_spec(self) -> str:
        """Spec text including ``name=`` when it differs from the default; parses back equal."""
        if self.name == self.spec:
            return self.spec
        sep = "," if self.params else ":"
        return f"{self.spec}{sep}name={self.name}"

    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)


def _split_params(text: str, spec: str) -> list[tuple[str, Any]]:
    params: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for item, quoted in split_items(text, spec):
        key, eq, value = item.partition("=")
        key = key.strip()
        value = value if quoted else value.strip()
        if not eq or not key or (not value and not quoted):
            raise ValueError(f"agent spec {spec!r}: expected key=value, got {item!r}")
        if key in seen:
            raise ValueError(f"agent spec {spec!r}: parameter {key!r} given twice")
        seen.add(key)
        params.append((key, value if key == "name" or quoted else parse_value(value)))
    return params


def parse_agent_spec(spec: str) -> AgentSpec:
    """Parse and validate one agent spec; ValueError names the spec and the bad part.

    A Python agent's module is imported and its constructor signature checked against the
    parameters here, so a typo fails before any game starts.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("agent spec must be a non-empty string")
    text = spec.strip()
    head, _, rest = text.partition(":")
    head = head.strip()
    if head == _SPLENDOR_TOOLS:
        from ..splendor_tools.seat import parse_spec

        tools_params, tools_name = parse_spec(text)
        return _named(AgentSpec(kind=head, params=tools_params, name=""), tools_name, spec)
    if head in BUILTIN_KINDS:
        kind, target, param_text = head, None, rest
    elif "=" in head or not rest:
        raise ValueError(
            f"unknown agent {head!r} in spec {spec!r}: expected one of {', '.join(BUILTIN_KINDS)}, "
            f"{_SPLENDOR_TOOLS}:cmd=\"...\" or a Python class as module:Class"
        )
    else:
        cls_name, _, param_text = rest.partition(":")
        cls_name = cls_name.strip()
        if not _MODULE_RE.match(head) or not _CLASS_RE.match(cls_name):
            raise ValueError(f"agent spec {spec!r}: expected module:Class, got {head}:{cls_name}")
        kind, target = "python", f"{head}:{cls_name}"
    params = _split_params(param_text, spec) if param_text.strip() else []
    name_values = [v for k, v in params if k == "name"]
    params = [(k, v) for k, v in params if k != "name"]
    if kind == "python":
        assert target is not None
        _check_python_agent(target, params, spec)
    else:
        if kind == "engine":  # its own keys, checked with its command (engine_agent.py)
            from .engine_agent import engine_settings

            try:
                engine_settings(dict(params))
            except ValueError as exc:
                raise ValueError(f"agent spec {spec!r}: {exc}") from None
        else:
            allowed = _BUILTIN_PARAMS[kind]
            for key, _ in params:
                if key not in allowed:
                    known = ", ".join(allowed + ("name",))
                    raise ValueError(f"agent spec {spec!r}: unknown parameter {key!r} for {kind} (known: {known})")
        if kind == "mcts":
            _check_mcts(params, spec)
    parsed = AgentSpec(kind=kind, params=tuple(params), name="", target=target)
    return _named(parsed, name_values[0] if name_values else None, spec)


def _named(parsed: AgentSpec, name: str | None, spec: str) -> AgentSpec:
    """``parsed`` with its display name: ``name`` when given (checked), else the spec itself."""
    if name is not None and not _NAME_RE.match(name):
        raise ValueError(f"agent spec {spec!r}: display name {name!r} may hold only letters, digits and ._-+")
    return AgentSpec(kind=parsed.kind, params=parsed.params, name=name or parsed.spec, target=parsed.target)


def load_python_class(target: str) -> type:
    """Import ``module:Class``; ValueError says what could not be found."""
    module_name, _, cls_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - any import failure is a bad spec
        raise ValueError(f"cannot import module {module_name!r} for agent {target!r}: {exc}") from None
    cls = getattr(module, cls_name, None)
    if cls is None or not callable(cls):
        raise ValueError(f"module {module_name!r} has no class {cls_name!r} (agent {target!r})")
    if not callable(getattr(cls, "step", None)):
        raise ValueError(f"agent class {target!r} has no step(state) method")
    return cls


def _check_python_agent(target: str, params: list[tuple[str, Any]], spec: str) -> None:
    cls = load_python_class(target)
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return  # e.g. a C extension class: cannot check, constructing it will tell
    try:
        signature.bind(None, seed=0, **dict(params))
    except TypeError as exc:
        raise ValueError(
            f"agent spec {spec!r}: {target} cannot be built as {target.split(':')[1]}(game, seed=..., "
            f"{', '.join(f'{k}=...' for k, _ in params)}): {exc}"
        ) from None


class ObservingAgent:
    """Wraps a user agent so that it only sees its seat's observation (hidden cards resampled)."""

    def __init__(self, inner: Agent, game: Any, seed: int) -> None:
        self.inner = inner
        self.game = game
        self.seed = seed
        self.calls = 0

    def step(self, state: Any) -> int:
        seat = state.current_player()
        self.calls += 1
        view = self.game.state_from_observation(
            state.observation_json(seat), seed=(self.seed + self.calls) % (MAX_SEED + 1)
        )
        return self.inner.step(view)


def build_agent(spec: AgentSpec, game: Any, seed: int, engine: Mapping[str, Any] | None = None,
                pool: Any = None) -> Agent:
    """Construct a fresh agent for one game.

    ``engine`` maps ``RandomBot``/``GreedyBot``/``MCTSBot`` to classes; by default they come from
    :mod:`splendor_mcts.bots`. An ``engine`` spec takes its process from ``pool`` (an
    ``engine_agent.EnginePool``) when one is idle there; the agent's ``release()`` ends or returns it.
    """
    if spec.kind == "engine":
        from .engine_agent import EngineAgent, engine_settings

        return EngineAgent(engine_settings(spec.kwargs()), game, seed, pool)
    if spec.kind == _SPLENDOR_TOOLS:
        from ..splendor_tools.seat import SplendorToolsSeat

        return SplendorToolsSeat(game, seed=seed, **spec.kwargs())
    if spec.kind == "python":
        assert spec.target is not None
        cls = load_python_class(spec.target)
        return ObservingAgent(cls(game, seed=seed, **spec.kwargs()), game, seed)
    if engine is None:
        from .. import bots

        engine = {n: getattr(bots, n) for n in ("RandomBot", "GreedyBot", "MCTSBot")}
    if spec.kind == "random":
        return engine["RandomBot"](game, seed=seed)
    if spec.kind == "greedy":
        return engine["GreedyBot"](game, seed=seed)
    return engine["MCTSBot"](game, seed=seed, **mcts_settings(spec.kwargs()))
