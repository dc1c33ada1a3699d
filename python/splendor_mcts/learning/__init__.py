"""Learning from self-play: game families (``families``); shards of training examples
(``shards``) written by the C++ search playing itself (``selfplay``, the ``splendor-mcts
selfplay`` command in ``cli``); the observation tensor's layout as data
(``observation_layout``, shown in docs/observation.md); the policy-value network's weight
format (``weights``) and its training (``train``, ``pipeline``; docs/training.md). Nothing
here imports torch at module level except ``model``; ``train`` imports it when a run starts."""
