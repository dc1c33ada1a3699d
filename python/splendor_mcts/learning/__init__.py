"""Learning from self-play: shards of training examples (``shards``) written by the C++
search playing itself (``selfplay``); docs/observation.md describes the observation tensor."""
