"""The policy-value network in PyTorch, its losses, and its conversion to and from
:class:`~splendor_mcts.learning.weights.Network` (the ``.smnet`` layers).

Imported only when torch is installed (``pip install ".[train]"`` in the project's folder): callers go
through :func:`splendor_mcts.learning.train.require_torch` first.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from ..search.families import VALUE_SIZE, family, game_sizes
from .input_features import feature_width
from .weights import Layer, Network


class PolicyValueNet(nn.Module):  # type: ignore[misc]
    """An MLP: ReLU trunk layers, then a policy head over the game's distinct actions and
    a value head of 4 win-share logits (index 0 = the seat to move)."""

    def __init__(self, observation_size: int, num_actions: int, hidden: Sequence[int],
                 dropout: float = 0.0) -> None:
        super().__init__()
        if not hidden or any(int(h) <= 0 for h in hidden):
            raise ValueError(f"hidden layer sizes must be positive, got {list(hidden)}")
        widths = [observation_size, *map(int, hidden)]
        self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(widths, widths[1:]))
        # Dropout acts in training only (model.train()); the written layers are unchanged by it.
        self.dropout = nn.Dropout(dropout)
        self.policy = nn.Linear(widths[-1], num_actions)
        self.value = nn.Linear(widths[-1], VALUE_SIZE)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        for layer in self.trunk:
            x = self.dropout(torch.relu(layer(x)))
        return self.policy(x), self.value(x)

    def named_layers(self) -> list[tuple[str, nn.Linear]]:
        """The layers in ``.smnet`` order: trunk.0 ..., policy, value."""
        return [(f"trunk.{i}", layer) for i, layer in enumerate(self.trunk)] + [("policy", self.policy), ("value", self.value)]


def new_model(family_name: str, hidden: Sequence[int], dropout: float = 0.0,
              features: str | None = None) -> PolicyValueNet:
    """A freshly initialised network for a family (torch's default init: seed torch first),
    reading the observation and the input features ``features`` (none by default); the
    trainer's default sizes are ``train.DEFAULT_HIDDEN``."""
    observation_size, num_actions = game_sizes(family(family_name).game)
    return PolicyValueNet(observation_size + feature_width(features, family_name), num_actions, hidden, dropout)


def to_network(model: PolicyValueNet, family_name: str, training: dict[str, Any] | None = None,
               features: str | None = None) -> Network:
    """The model's weights as a :class:`Network` (float32 copies) reading ``features``."""
    layers = [Layer(name, layer.weight.detach().cpu().numpy().astype(np.float32).copy(),
                    layer.bias.detach().cpu().numpy().astype(np.float32).copy())
              for name, layer in model.named_layers()]
    return Network(family_name, layers, dict(training or {}), features or None)


def from_network(network: Network, dropout: float = 0.0) -> PolicyValueNet:
    """A model holding ``network``'s weights (to continue training from it)."""
    hidden = [layer.weight.shape[0] for layer in network.trunk]
    model = PolicyValueNet(network.input_size, network.num_actions, hidden, dropout)
    with torch.no_grad():
        for name, layer in model.named_layers():
            source = network.layer(name)
            layer.weight.copy_(torch.from_numpy(np.array(source.weight)))
            layer.bias.copy_(torch.from_numpy(np.array(source.bias)))
    return model


def masked_cross_entropy(logits: torch.Tensor, mask: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean over rows of -sum(target * log_softmax(logits over mask)): the policy loss against
    the visit shares over legal actions, and the value loss against the win shares over the
    first ``players`` seats. Entries outside the mask carry no target and no gradient."""
    log_p = torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)
    return -(target * torch.where(mask, log_p, torch.zeros_like(log_p))).sum(dim=-1).mean()


def value_mask(players: torch.Tensor) -> torch.Tensor:
    """bool [n, 4]: the seats of each row's game."""
    return torch.arange(VALUE_SIZE, device=players.device)[None, :] < players[:, None].long()
