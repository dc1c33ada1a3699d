"""Learning from self-play: shards of training examples (``shards``) written by the C++
search playing itself (``selfplay``, the ``splendor-mcts selfplay`` command in ``cli``), for
the game families of ``search.families``; the policy-value network's weight
format (``weights``) and its training (``train``, ``pipeline``; docs/training.md). Nothing
here imports torch at module level except ``model``; ``train`` imports it when a run starts."""
