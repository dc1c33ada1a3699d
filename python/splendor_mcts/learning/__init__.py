"""Learning from self-play: shards of training examples (``shards``) written by the C++
search playing itself (``selfplay``, the ``splendor-mcts selfplay`` command in ``cli``), and
the observation tensor's layout as data (``observation_layout``, shown in docs/observation.md)."""
