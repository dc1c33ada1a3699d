"""Learning environments (needs the ``[pettingzoo]`` extra).

``env(game, **kwargs)`` is a PettingZoo AEC environment for any game of the package;
``raw_env`` is the same without PettingZoo's order-enforcing wrapper (``pettingzoo_env``).
``SingleAgentEnv`` is a Gymnasium environment for one seat, the others played by a given
agent (``gymnasium_env``). See docs/learning-environments.md.
"""
from __future__ import annotations

from .gymnasium_env import SingleAgentEnv
from .pettingzoo_env import agent_name, env, raw_env

__all__ = ["SingleAgentEnv", "agent_name", "env", "raw_env"]
