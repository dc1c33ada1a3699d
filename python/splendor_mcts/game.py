"""Games: the entry point of the Python API (``load_game``)."""
from __future__ import annotations

from typing import Any

from . import _core
from .variants import make_config, parse_spec

_STATE_CLASSES = {"splendor": _core.SplendorState, "duel": _core.DuelState}
_CARD_TABLES = {
    "splendor": (_core.splendor_cards, _core.splendor_nobles),
    "duel": (_core.duel_cards, _core.duel_royals),
}
_CARD_FROM_TEXT = {"splendor": _core.splendor_card_from_text, "duel": _core.duel_card_from_text}
_SIZES = {
    "splendor": (_core.SPLENDOR_NUM_DISTINCT_ACTIONS, _core.SPLENDOR_OBSERVATION_SIZE),
    "duel": (_core.DUEL_NUM_DISTINCT_ACTIONS, _core.DUEL_OBSERVATION_SIZE),
}


class Game:
    """A game with its variant. Creates states; holds no mutable state itself."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.name: str = config.game_name
        self._rules = config.to_engine()
        self._state_class = _STATE_CLASSES[self.name]

    def __repr__(self) -> str:
        return f"Game({self.spec!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.config == self.config

    def __hash__(self) -> int:
        return hash(self.config)

    def __reduce__(self) -> tuple[Any, ...]:
        return (load_game, (self.spec,))

    @property
    def spec(self) -> str:
        """Canonical spec string: ``load_game(game.spec) == game``."""
        return self.config.spec()

    @property
    def rules(self) -> Any:
        """The engine-side rules object passed to the C++ core."""
        return self._rules

    def num_players(self) -> int:
        return self.config.num_players()

    def num_distinct_actions(self) -> int:
        return _SIZES[self.name][0]

    def observation_tensor_size(self) -> int:
        return _SIZES[self.name][1]

    def new_initial_state(self, seed: int | None = None, explicit_chance: bool = False) -> Any:
        """A new game. The deal (deck order, nobles) comes from ``seed`` (random if None).

        With ``explicit_chance`` every card reveal, including the opening deal, is a
        chance node (``current_player() == CHANCE``) whose outcome the caller picks
        (to follow a real table) or takes from ``state.dealt_outcome()``.
        """
        return self._state_class.initial(self._rules, _seed(seed), bool(explicit_chance))

    def state_from_json(self, text: str) -> Any:
        """A full state from ``state.to_json()`` text (docs/position-format.md).

        Every problem raises ``ValueError`` naming its JSON path.
        """
        return self._state_class.from_json(self._rules, _text(text))

    def state_from_observation(self, text: str, seed: int | None = None) -> Any:
        """A full state consistent with a player's view (``observation_json``): the
        unknown deck order and the opponents' blind reserves are drawn from the
        unseen cards with ``seed``."""
        return self._state_class.from_observation(self._rules, _text(text), _seed(seed))

    def cards(self) -> list[dict[str, Any]]:
        """The development cards: id (CSV row number), level, bonus, points, cost, and
        ``text``, the readable description accepted wherever a card id is."""
        return _CARD_TABLES[self.name][0]()

    def card_from_text(self, text: str) -> int:
        """The id of the card a readable description names, e.g. ``"green 1pt W2U3K2"``
        (bonus colour, points, cost) or, in Duel, ``"red 2pt 1cr W2U2G2P1"`` (also a
        double bonus ``x2``, crowns, abilities, pearl cost ``P``); the ``text`` field of
        ``cards()``. ``ValueError`` says what could not be read, or which card is closest."""
        if not isinstance(text, str):
            raise ValueError(f"a card description must be a string, got {type(text).__name__}")
        return int(_CARD_FROM_TEXT[self.name](text))

    def nobles(self) -> list[dict[str, Any]]:
        """The nobles (base game): id, points, requirement."""
        if self.name != "splendor":
            raise ValueError(f"{self.name} has no nobles (see royals())")
        return _CARD_TABLES[self.name][1]()

    def royals(self) -> list[dict[str, Any]]:
        """The royal cards (Duel): id, points, abilities."""
        if self.name != "duel":
            raise ValueError(f"{self.name} has no royal cards")
        return _CARD_TABLES[self.name][1]()


def _text(text: Any) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if not isinstance(text, str):
        raise ValueError(f"a position must be JSON text, got {type(text).__name__}")
    return text


def _state_from_pickle(game_name: str, text: str) -> Any:
    """Restores a pickled state (used by multiprocessing); the text names its game."""
    return _core.read_position(text, 0, True)[2]


def _seed(seed: int | None) -> int:
    if seed is None:
        import secrets

        return secrets.randbits(64)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be between 0 and 2**64-1, got {seed}")
    return seed


def load_game(name: str, **variant: Any) -> Game:
    """A game by name with its variant: ``load_game("splendor", players=3)``,
    ``load_game("duel")`` or a spec string ``"splendor(players=4,points_to_win=18)"``.
    Raises ``ValueError`` naming the field for a bad variant.
    """
    if not isinstance(name, str):
        raise ValueError(f"game name must be a string, got {name!r}")
    base, spec_kwargs = parse_spec(name)
    for key in variant:
        if key in spec_kwargs:
            raise ValueError(f"{key} is given both in the spec and as a keyword")
    return Game(make_config(base, {**spec_kwargs, **variant}))
