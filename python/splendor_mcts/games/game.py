"""Games: the entry point of the Python API (``load_game``)."""
from __future__ import annotations

from typing import Any

from ..seeds import seed_or_random
from .registry import GameEntry, game_entry
from .variants import parse_spec


class Game:
    """A game with its variant. Creates states; holds no mutable state itself."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.name: str = config.game_name
        self.entry: GameEntry = game_entry(self.name)
        self._rules = config.to_engine()
        self._state_class = self.entry.state

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
        return self.entry.num_distinct_actions

    def observation_tensor_size(self) -> int:
        return self.entry.observation_size

    def new_initial_state(self, seed: int | None = None, explicit_chance: bool = False) -> Any:
        """A new game. The deal (deck order, nobles) comes from ``seed`` (random if None).

        With ``explicit_chance`` every card reveal, including the opening deal, is a
        chance node (``current_player() == CHANCE``) whose outcome the caller picks
        (to follow a real table) or takes from ``state.dealt_outcome()``.
        """
        return self._state_class.initial(self._rules, seed_or_random(seed), bool(explicit_chance))

    def state_from_json(self, text: str) -> Any:
        """A full state from ``state.to_json()`` text (docs/position-format.md).

        Every problem raises ``ValueError`` naming its JSON path.
        """
        return self._state_class.from_json(self._rules, _text(text))

    def state_from_observation(self, text: str, seed: int | None = None) -> Any:
        """A full state consistent with a player's view (``observation_json``): the
        unknown deck order and the opponents' blind reserves are drawn from the
        unseen cards with ``seed``."""
        return self._state_class.from_observation(self._rules, _text(text), seed_or_random(seed))

    def cards(self) -> list[dict[str, Any]]:
        """The development cards: id (CSV row number), level, bonus, points, cost, and
        ``text``, the readable description accepted wherever a card id is."""
        return self.entry.cards()

    def card_from_text(self, text: str) -> int:
        """The id of the card a readable description names, e.g. ``"green 1pt W2U3K2"``
        (bonus colour, points, cost) or, in Duel, ``"red 2pt 1cr W2U2G2P1"`` (also a
        double bonus ``x2``, crowns, abilities, pearl cost ``P``); the ``text`` field of
        ``cards()``. ``ValueError`` says what could not be read, or which card is closest."""
        if not isinstance(text, str):
            raise ValueError(f"a card description must be a string, got {type(text).__name__}")
        if self.entry.card_from_text is None:
            raise ValueError(f"{self.entry.title} has no card descriptions")
        return int(self.entry.card_from_text(text))

    def nobles(self) -> list[dict[str, Any]]:
        """The nobles (base game): id, points, requirement."""
        return self._card_table("nobles")

    def royals(self) -> list[dict[str, Any]]:
        """The royal cards (Duel): id, points, abilities."""
        return self._card_table("royals")

    def _card_table(self, kind: str) -> list[dict[str, Any]]:
        table = self.entry.card_tables.get(kind)
        if table is None:
            others = ", ".join(f"{k}()" for k in self.entry.card_tables)
            raise ValueError(f"{self.name} has no {kind}" + (f" (see {others})" if others else ""))
        return table()


def _text(text: Any) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if not isinstance(text, str):
        raise ValueError(f"a position must be JSON text, got {type(text).__name__}")
    return text


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


def player_counts(name: str, most: int = 8) -> list[int]:
    """The player counts game ``name`` is played with (up to ``most``): those its variant
    accepts, as ``load_game(name, players=n)`` does."""
    counts = []
    for n in range(1, most + 1):
        try:
            load_game(name, players=n)
        except ValueError:
            continue
        counts.append(n)
    return counts


def spec_with_players(name: str, players: int) -> str:
    """The spec of game ``name`` with ``players`` seats, as short as it reads: the name alone
    for a game played by that count only (``"duel"``), else ``"splendor(players=3)"``."""
    return name if player_counts(name) == [players] else f"{name}(players={players})"


class UnknownVariantField(ValueError):
    """A variant keyword that game ``game`` does not have: ``field``, beside its ``known`` fields."""

    def __init__(self, game: str, field: str, known: tuple[str, ...]) -> None:
        super().__init__(f"{game}: unknown variant field {field!r}; fields: {', '.join(sorted(known))}")
        self.game, self.field, self.known = game, field, known


def make_config(name: str, kwargs: dict[str, Any]) -> Any:
    """The validated config of game ``name``; unknown names and fields are errors
    (:class:`UnknownVariantField` for a field). ``players`` is every game's keyword: a game
    whose count is fixed (no ``players`` field, e.g. Duel) takes its own count and refuses
    any other, so each tool's ``--players`` needs no case of its own."""
    entry = game_entry(name)
    known = entry.variant_fields()
    fixed_count = "players" in kwargs and "players" not in known
    rest = {k: v for k, v in kwargs.items() if not (fixed_count and k == "players")}
    for key in rest:
        if key not in known:
            raise UnknownVariantField(name, key, known)
    config = entry.config(**rest)
    if fixed_count:
        players, count = kwargs["players"], config.num_players()
        if isinstance(players, bool) or not isinstance(players, int) or players != count:
            raise ValueError(f"players must be {count}, got {players!r}: {entry.title} is a {count}-player game")
    return config
