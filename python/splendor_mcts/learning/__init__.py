"""Learning from self-play: game families, training data, the policy-value network's weight
format and its training (docs/training.md). Nothing here imports torch at module level
except ``model``; ``train`` imports it when a run starts."""
