"""A PettingZoo AEC environment for any game of the package (Splendor 2-4 players, Duel).

Usage::

    from splendor_mcts.envs import env

    e = env("splendor(players=3)")          # or env("splendor", players=3), env("duel")
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            action = e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. Every decision of the game is
one ``step`` of the agent to move; decisions that take several steps (returning tokens
above the limit, choosing a noble, Duel ability choices) are consecutive turns of the same
agent, so ``agent_selection`` simply stays on it.

Observations are ``{"observation": state.observation_tensor(seat), "action_mask": ...}``:
the tensor is that seat's own view (hidden cards stay hidden) and the mask is
``state.legal_actions_mask()`` as ``int8`` for the agent to move, all zeros for everyone
else and after the end.

Rewards are ``state.returns()`` given once, when the game ends: 1 for a win, 0 for a
loss, a shared win split between the winners. They are **not centred** (a two-player
learner wanting zero-sum values can use ``2 * r - 1``). Every other step rewards 0.

Neither game has a turn limit, and agents can loop for ever (in Duel: replenish, take a token,
discard it, ...), so a game still going after ``max_decisions`` decisions (default
:data:`~splendor_mcts.games.limits.MAX_DECISIONS`, as self-play and tournaments; None: no cap)
is **truncated**: every agent's truncation is set, no reward is given, and the mask is all
zeros; ``infos[agent]["max_decisions"]`` names the cap.

Chance is resolved inside the environment; agents never see a chance node. With
``chance="deal"`` (default) ``reset(seed=s)`` deals exactly the game
``game.new_initial_state(seed=s)`` deals: card reveals follow the deck order that seed
shuffled (any chance node the engine still surfaces takes ``state.dealt_outcome()``). With
``chance="sample"`` the state runs with explicit chance and every reveal is drawn from
``state.chance_outcomes()`` by its probability with the environment's own RNG (seeded by
``reset``). Either way the same ``reset(seed)`` and the same actions give the same game.

An illegal action (not in the mask, out of range, not an integer) raises ``ValueError``
naming the action, the agent and (for a known move) why it is not legal, and changes
nothing, so the caller can pick again. To end the game with a penalty instead (PettingZoo's
classic environments), wrap the raw environment:
``TerminateIllegalWrapper(raw_env(...), illegal_reward=-1)``.

All rules come from the engine's state (legal actions, returns, observations); this module
only moves data between the state and the PettingZoo API.
"""
from __future__ import annotations

import inspect
import json
import operator
from typing import Any, Literal

import numpy as np

from ..wording import install_hint

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "splendor_mcts.envs needs PettingZoo and Gymnasium: "
        f"{install_hint('pettingzoo')} (or pip install pettingzoo gymnasium)"
    ) from err

from .. import _core
from ..games.game import Game, UnknownVariantField, load_game
from ..games.limits import MAX_DECISIONS, check_max_decisions
from ..games.registry import DEFAULT_GAME, load_attribute
from ..wording import counted

ChanceMode = Literal["deal", "sample"]
_RENDER_MODES = ("ansi", "human")
_HISTORY_SHOWN = 8
# Features are counts of finite things and flags (docs/observation.md): never negative, and
# far below this (90 cards, 40 tokens, under 200 points); a finite bound keeps Gymnasium's checker quiet.
OBSERVATION_HIGH = 255.0


def agent_name(seat: int) -> str:
    """The agent of a seat: ``player_<seat>``."""
    return f"player_{seat}"


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention for the unwrapped class
    """The unwrapped AEC environment; ``env()`` adds PettingZoo's order checks.

    Args:
        game: a ``Game`` from ``sm.load_game``, or a name/spec for it
            (``"splendor"``, ``"splendor(players=4)"``, ``"duel"``).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text) or ``"human"``
            (``render()`` prints it).
        chance: ``"deal"`` or ``"sample"``; how reveals are resolved (module docstring).
        **variant: variant keywords for ``sm.load_game`` when ``game`` is a name.
    """

    metadata: dict[str, Any] = {
        "name": "splendor_mcts_v0",
        "render_modes": list(_RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game | str = DEFAULT_GAME,
        render_mode: str | None = None,
        chance: ChanceMode = "deal",
        max_decisions: int | None = MAX_DECISIONS,
        **variant: Any,
    ) -> None:
        super().__init__()
        self.game = game_of(game, variant, type(self))
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be one of {_RENDER_MODES} or None, got {render_mode!r}")
        if chance not in ("deal", "sample"):
            raise ValueError(f"chance must be 'deal' or 'sample', got {chance!r}")
        if max_decisions is not None:
            check_max_decisions(max_decisions)
        self.render_mode = render_mode
        self.chance: ChanceMode = chance
        self.max_decisions = max_decisions
        self.metadata = {**type(self).metadata, "name": f"splendor_mcts_{self.game.name}_v0"}

        num_actions = self.game.num_distinct_actions()
        self.possible_agents: list[str] = [agent_name(s) for s in range(self.game.num_players())]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space_of(self.game) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}
        self._no_actions = np.zeros(num_actions, dtype=np.int8)
        self._rng: np.random.Generator | None = None
        self._state: Any = None
        self._history: list[str] = []

    # -- spaces -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict(observation=Box(float32, size), action_mask=Box(int8 0/1, actions))``."""
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(game.num_distinct_actions())``: the engine's action ids."""
        return self.action_spaces[self._known(agent)]

    # -- episode ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game. ``seed`` fixes the deal (and, with ``chance="sample"``, the
        reveals); without it the next deal comes from the environment's RNG, itself
        seeded by the last seeded reset. ``options`` is accepted and ignored."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            deal_seed = seed
        else:
            if self._rng is None:
                self._rng = np.random.default_rng()
            deal_seed = int(self._rng.integers(0, 2**63))
        self._state = self.game.new_initial_state(seed=deal_seed, explicit_chance=self.chance == "sample")
        self._history = []
        self._resolve_chance()

        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = agent_name(self._state.current_player())

    def step(self, action: Any) -> None:
        """Plays ``action`` for ``agent_selection`` (``None`` for an agent that is done).

        Raises ``ValueError`` naming the action and the agent if the action is not legal
        here; nothing changes then.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._checked_action(agent, action)

        text = self._state.action_to_string(move)
        self._state.apply_action(move)
        self._history.append(f"{agent}: {text}")
        self._cumulative_rewards[agent] = 0.0
        self._resolve_chance()
        self._clear_rewards()
        if self._state.is_terminal():
            for seat, value in enumerate(self._state.returns()):
                name = agent_name(seat)
                self.rewards[name] = float(value)
                self.terminations[name] = True
            mover = self._seat_of[agent]
            self.agent_selection = agent_name((mover + 1) % self.game.num_players())
        elif self.max_decisions is not None and len(self._history) >= self.max_decisions:
            for name in self.agents:  # a loop must end somewhere: no turn limit in the rules
                self.truncations[name] = True
                self.infos[name] = {**self.infos[name], "max_decisions": self.max_decisions}
            self.agent_selection = agent_name(self._state.current_player())
        else:
            self.agent_selection = agent_name(self._state.current_player())
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own view and, if it is to move, its legal actions as a 0/1 mask."""
        seat = self._seat_of[self._known(agent)]
        state = self._require_state()
        if state.current_player() == seat and not self.truncations.get(agent, False):
            mask = state.legal_actions_mask().astype(np.int8)
        else:
            mask = self._no_actions.copy()
        return {"observation": state.observation_tensor(seat), "action_mask": mask}

    # -- access for learning code and tests --------------------------------------------

    @property
    def game_state(self) -> Any:
        """The engine state being played (read it, or ``clone()`` it for search; applying
        actions to it directly bypasses the environment's bookkeeping)."""
        return self._require_state()

    # -- rendering --------------------------------------------------------------------

    def render(self) -> str | None:
        """The position as text: who moves, the last moves, then the view of the agent
        to move (for Splendor the board of ``splendor-mcts play``, otherwise the fields of
        its ``observation_json``); after the end, the returns."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; drops the state."""
        self._state = None

    # -- internals --------------------------------------------------------------------

    def _known(self, agent: str) -> str:
        if agent not in self._seat_of:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        return agent

    def _require_state(self) -> Any:
        if self._state is None:
            raise RuntimeError("call reset() before using the environment")
        return self._state

    def _checked_action(self, agent: str, action: Any) -> int:
        """The action as an int if the agent may play it; ``ValueError`` otherwise."""
        if action is None:
            raise ValueError(f"{agent} is to move and must give an action, not None")
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            move = operator.index(action)
        except TypeError:
            raise ValueError(f"action {action!r} for {agent} is not an integer action id") from None
        num_actions = self.game.num_distinct_actions()
        if not 0 <= move < num_actions:
            raise ValueError(f"action {move} for {agent} is out of range (0..{num_actions - 1})")
        if not self._state.is_legal(move):
            raise ValueError(
                f"illegal action {move} ({self._state.action_to_string(move)}) for {agent}: "
                f"{self._state.why_illegal(move)}; "
                f"legal: {self._state.legal_actions()}"
            )
        return move

    def _resolve_chance(self) -> None:
        """Applies chance outcomes until a player is to move or the game is over."""
        state = self._state
        while state.current_player() == _core.CHANCE:
            if self.chance == "sample":
                outcomes = state.chance_outcomes()
                probabilities = np.array([p for _, p in outcomes], dtype=np.float64)
                index = self._rng.choice(len(outcomes), p=probabilities / probabilities.sum())
                outcome = outcomes[int(index)][0]
            else:
                outcome = state.dealt_outcome()
            state.apply_action(outcome)

    def _render_text(self) -> str:
        state = self._require_state()
        lines = [f"{self.game.spec}: {counted(len(self._history), 'decision')} played"]
        if self._history:
            lines.append("last moves: " + " | ".join(self._history[-_HISTORY_SHOWN:]))
        seat = state.current_player()
        if state.is_terminal():
            returns = ", ".join(f"{agent_name(s)} {v:g}" for s, v in enumerate(state.returns()))
            lines.append(f"game over; returns: {returns}")
            seat = 0
        else:
            lines.append(f"{agent_name(seat)} to move")
        lines.append(f"as {agent_name(seat)} sees it:")
        lines.append(view_text(self.game, state, seat, list(self.possible_agents)))
        return "\n".join(lines)


def game_of(game: Game | str, variant: dict[str, Any], environment: type) -> Game:
    """An environment's game: a ``Game`` as it is, or a name/spec loaded with ``variant``.
    A keyword that is no variant field is named with ``environment``'s own keywords too
    (a misspelt ``opponent`` lands among the variant keywords)."""
    if isinstance(game, Game):
        if variant:
            raise ValueError(f"{environment.__name__}: unknown keywords {sorted(variant)} "
                             f"(its keywords: {_keywords(environment)}; variant keywords need a game name, not a Game)")
        return game
    try:
        return load_game(game, **variant)
    except UnknownVariantField as exc:
        if exc.field not in variant:
            raise  # in the spec string, not a keyword
        raise ValueError(f"{environment.__name__}: unknown keyword {exc.field!r} (its keywords: "
                         f"{_keywords(environment)}; {exc.game}'s variant fields: {', '.join(sorted(exc.known))})") from None


def _keywords(environment: type) -> str:
    """The keywords of ``environment``'s constructor, as an error lists them."""
    return ", ".join(name for name in inspect.signature(environment.__init__).parameters
                     if name not in ("self", "variant"))


def observation_space_of(game: Game) -> spaces.Dict:
    """``Dict(observation=Box(float32, size), action_mask=Box(int8 0/1, actions))`` of a game."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, OBSERVATION_HIGH, (game.observation_tensor_size(),), np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_distinct_actions(),), np.int8),
        }
    )


def view_text(game: Game, state: Any, seat: int, names: list[str]) -> str:
    """The game's board as ``seat`` sees it (seats named by ``names``), or its view as JSON
    for a game without a board."""
    if game.entry.board is not None:
        import io

        from rich.console import Console

        out = io.StringIO()
        console = Console(file=out, width=160, color_system=None, force_terminal=False)
        load_attribute(game.entry.board)(console, state, seat, names)
        return out.getvalue().rstrip("\n")
    view = json.loads(state.observation_json(seat))
    return "\n".join(f"{key}: {json.dumps(value, separators=(',', ':'))}" for key, value in view.items())


def env(game: Game | str = DEFAULT_GAME, **kwargs: Any) -> AECEnv:
    """The environment for ``game`` (a ``Game`` or a ``sm.load_game`` name/spec), wrapped
    in PettingZoo's ``OrderEnforcingWrapper``. Keywords: ``render_mode``, ``chance``,
    and variant keywords (``env("splendor", players=3)``); see ``raw_env``."""
    return OrderEnforcingWrapper(raw_env(game, **kwargs))
