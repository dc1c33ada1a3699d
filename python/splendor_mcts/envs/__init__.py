"""Learning environments (needs the ``[pettingzoo]`` extra).

``env(game, **kwargs)`` is a PettingZoo AEC environment for any game of the package;
``raw_env`` is the same without PettingZoo's order-enforcing wrapper. See
``pettingzoo_env`` and docs/learning-environments.md.
"""
from __future__ import annotations

from .pettingzoo_env import agent_name, env, raw_env

__all__ = ["agent_name", "env", "raw_env"]
