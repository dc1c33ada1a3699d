"""A Gymnasium single-agent environment: one seat learns, an agent plays the other seats.

Usage::

    from splendor_mcts.envs import SingleAgentEnv

    e = SingleAgentEnv("splendor", opponent="mcts:iterations=200", seat=0)
    observation, info = e.reset(seed=42)     # or gymnasium.make("splendor_mcts/SingleAgent-v0", ...)
    while True:
        action = e.action_space.sample(observation["action_mask"])
        observation, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

The learner plays ``seat`` (None: a seat drawn by each ``reset`` from its RNG). Every other
seat is played by ``opponent``: an agent spec as the tournament takes (``"greedy"``,
``"random"``, ``"mcts:iterations=200"``, ``"module:Class"``; each seat gets its own agent,
seeded from the reset) or a callable ``opponent(state) -> action`` (or an object with
``step(state)``) given the engine's full state; it must not read what that seat cannot see
(a ``module:Class`` spec gets only the seat's view).

Observations are those of the PettingZoo environment: ``{"observation":
state.observation_tensor(learner), "action_mask": int8 mask of the learner's legal
actions}`` (all zeros once the game is over). A step is one decision of the learner; the
opponents' decisions and chance (the deal's own reveals, as ``chance="deal"`` in PettingZoo)
are played inside ``step`` and ``reset``. Reward: ``state.returns()[learner]`` when the game
ends (1 win, 0 loss, a shared win split), 0 before. Neither game has a turn limit and agents can
loop for ever, so a game still going after ``max_decisions`` decisions of all seats (default
:data:`~splendor_mcts.games.limits.MAX_DECISIONS`, as self-play and tournaments; None: no cap)
is **truncated** (``truncated`` true, reward 0, ``info["max_decisions"]`` the cap).

An action that is not legal ends the episode with ``illegal_reward`` (default -1) and
``info["illegal_action"]`` set, so that any action of the space is a valid input (as
``gymnasium.utils.env_checker.check_env`` asks); ``illegal_action="raise"`` raises
``ValueError`` naming the action and why it is illegal instead, changing nothing.
"""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from ..wording import install_hint

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"splendor_mcts.envs needs Gymnasium: {install_hint('pettingzoo')} (or pip install gymnasium)"
    ) from err

from .. import _core
from ..games.game import Game
from ..games.limits import MAX_DECISIONS, check_max_decisions
from ..games.registry import DEFAULT_GAME
from ..tournament.agents import build_agent, parse_agent_spec
from .pettingzoo_env import agent_name, game_of, observation_space_of, view_text

IllegalAction = Literal["end", "raise"]
DEFAULT_OPPONENT = "greedy"
ENV_ID = "splendor_mcts/SingleAgent-v0"  # gymnasium.make(ENV_ID, game="duel", opponent=...)
Opponent = str | Callable[[Any], int] | Any


class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc] - gymnasium.Env is generic in its stubs
    """One seat of a game as a Gymnasium environment (module docstring).

    Args:
        game: a ``Game`` or a ``sm.load_game`` name/spec (``"duel"``, ``"splendor(players=3)"``).
        opponent: agent spec, callable ``(state) -> action`` or object with ``step(state)``.
        seat: the learner's seat, or None for one drawn at each reset.
        render_mode: None, ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints it).
        illegal_action: ``"end"`` (the episode ends with ``illegal_reward``) or ``"raise"``.
        illegal_reward: the reward of an illegal action under ``"end"``.
        max_decisions: decisions (all seats) after which a game still going is truncated; None: no cap.
        **variant: variant keywords for ``sm.load_game`` when ``game`` is a name.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # fps: text, shown per step

    def __init__(self, game: Game | str = DEFAULT_GAME, opponent: Opponent = DEFAULT_OPPONENT,
                 seat: int | None = 0, render_mode: str | None = None, illegal_action: IllegalAction = "end",
                 illegal_reward: float = -1.0, max_decisions: int | None = MAX_DECISIONS, **variant: Any) -> None:
        super().__init__()
        self.game = game_of(game, variant, type(self))
        players = self.game.num_players()
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be None or a seat 0..{players - 1} of {self.game.spec}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', got {illegal_action!r}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)) \
                or not np.isfinite(illegal_reward):
            raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        if max_decisions is not None:
            check_max_decisions(max_decisions)
        self.max_decisions = max_decisions
        self._decisions = 0  # of every seat in this game, against max_decisions
        if isinstance(opponent, str):
            self._spec: Any = parse_agent_spec(opponent)
        elif callable(opponent) or callable(getattr(opponent, "step", None)):
            self._spec = None
        else:
            raise ValueError(f"opponent must be an agent spec, a callable (state) -> action or an object "
                             f"with step(state), got {opponent!r}")
        self._opponent = opponent
        self.seat_option = seat
        self.render_mode = render_mode
        self.illegal_action: IllegalAction = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_space_of(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.seat = 0 if seat is None else seat
        self._agents: dict[int, Any] = {}
        self._state: Any = None
        self._over = False

    # -- episode ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game (its deal, the learner's seat when drawn and the opponents' seeds come
        from ``seed``, or from the environment's RNG); the opponents move until the
        learner is to move. ``options`` is accepted and ignored."""
        super().reset(seed=seed)
        deal = int(self.np_random.integers(0, 2**63))
        if self.seat_option is None:
            self.seat = int(self.np_random.integers(0, self.game.num_players()))
        self._release_agents()
        self._agents = {s: self._make_agent(int(self.np_random.integers(0, 2**63)))
                        for s in range(self.game.num_players()) if s != self.seat}
        self._state = self.game.new_initial_state(seed=deal)
        self._over = False
        self._decisions = 0
        self._play_others()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Plays the learner's ``action``, then the other seats until the learner is to move
        again or the game is over."""
        if self._state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset() to start another")
        move = self._action_id(action)
        num_actions = self.game.num_distinct_actions()
        if not (0 <= move < num_actions and self._state.is_legal(move)):
            if self.illegal_action == "raise":
                if not 0 <= move < num_actions:
                    raise ValueError(f"action {move} is out of range (0..{num_actions - 1})")
                raise ValueError(f"illegal action {move} ({self._state.action_to_string(move)}) for seat {self.seat}: "
                                 f"{self._state.why_illegal(move)}; legal: {self._state.legal_actions()}")
            self._over = True
            return self._observation(), self.illegal_reward, True, False, {**self._info(), "illegal_action": move}
        self._state.apply_action(move)
        self._decisions += 1
        self._play_others()
        reward = 0.0
        info = self._info()
        truncated = False
        if self._state.is_terminal():
            self._over = True
            reward = float(self._state.returns()[self.seat])
        elif self.max_decisions is not None and self._decisions >= self.max_decisions:
            self._over = truncated = True  # a loop must end somewhere: no turn limit in the rules
            info["max_decisions"] = self.max_decisions
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._state.is_terminal(), truncated, info

    def render(self) -> str | None:
        """The learner's view of the position (the ``splendor-mcts play`` board of the game)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if self._state is None:
            raise RuntimeError("call reset() before render()")
        names = [agent_name(s) for s in range(self.game.num_players())]
        head = f"{self.game.spec}: learner {agent_name(self.seat)}"
        if self._state.is_terminal():
            head += "; game over, returns " + ", ".join(f"{r:g}" for r in self._state.returns())
        text = head + "\n" + view_text(self.game, self._state, self.seat, names)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Ends the opponents' agents (external engines) and drops the state."""
        self._release_agents()
        self._state = None

    @property
    def game_state(self) -> Any:
        """The engine state being played (``clone()`` it to search or inspect)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    # -- internals ------------------------------------------------------------------------

    def _make_agent(self, seed: int) -> Any:
        if self._spec is not None:
            return build_agent(self._spec, self.game, seed)
        return self._opponent

    def _release_agents(self) -> None:
        for agent in self._agents.values():
            release = getattr(agent, "release", None)
            if callable(release):
                release()
        self._agents = {}

    def _play_others(self) -> None:
        """Chance and the other seats, until the learner is to move or the game is over."""
        state = self._state
        while not state.is_terminal():
            mover = state.current_player()
            if mover == _core.CHANCE:
                state.apply_action(state.dealt_outcome())
            elif mover == self.seat:
                return
            else:
                agent = self._agents[mover]
                step = getattr(agent, "step", None)
                action = self._action_id(step(state) if callable(step) else agent(state))
                if not state.is_legal(action):
                    raise ValueError(f"the opponent at seat {mover} chose action {action}, which is not legal")
                state.apply_action(action)
                self._decisions += 1

    def _action_id(self, action: Any) -> int:
        try:
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            return operator.index(action)
        except TypeError:
            raise ValueError(f"action {action!r} is not an integer action id") from None

    def _observation(self) -> dict[str, np.ndarray]:
        state = self._state
        if state.is_terminal() or self._over:
            mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        else:
            mask = state.legal_actions_mask().astype(np.int8)
        return {"observation": state.observation_tensor(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        return {"seat": self.seat}


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:SingleAgentEnv")

__all__ = ["DEFAULT_OPPONENT", "ENV_ID", "SingleAgentEnv"]
