"""Engines in other processes, spoken to over the engine protocol (docs/engine-protocol.md).

* :mod:`.process` runs a program and reads its lines against deadlines (timeouts, grace
  kill, stderr tail, output limits, death with the parent);
* :mod:`.wire` writes and reads the protocol's lines (options, ``go`` limits, ``info``);
* :mod:`.manager` is the tournament's side (handshake, new game, one move under a clock);
* :mod:`.server` is ``splendor-mcts engine``, this package's MCTS as such an engine.
"""
from .process import FAILURE_KINDS, EngineFailure, EngineProcess

__all__ = ["FAILURE_KINDS", "EngineFailure", "EngineProcess"]
