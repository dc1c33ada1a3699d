"""The games: the registry (``registry``), ``Game`` and ``load_game`` (``game``), variants,
positions typed by people, readable move labels, and each game's own package."""
