"""The networks shipped with the package, one per game family, and the words that name them.

The package's folder ``networks/`` (:func:`folder`) holds ``<family>/<family>.smnet`` for
each family that has trained weights (``splendor-2p``, ``splendor-3-4p``, ``duel``;
:mod:`splendor_mcts.learning.families`), with the provenance of the run that made them beside
it (its ``pipeline.json``, logs and gate reports). The wheel takes the whole folder
(pyproject.toml: ``wheel.packages``); networks/README.md describes it.

At every door that takes the ``network`` search setting (agent specs, the command lines'
``--network``, the analysis protocol's ``network``, ``sm.analyze(network=...)``), the word
:data:`SHIPPED` stands for the shipped network of the searched game's family,
``shipped:<family>`` and ``shipped:<family>@<hash>`` (how reports name one, so a name
copied from a report searches with it again) for that family's, and :data:`NO_NETWORK` for
none; anything else is a ``.smnet`` file. Whether the search uses the
shipped network when no ``network`` is given is the table
``search.defaults.SHIPPED_NETWORKS``; :func:`network_settings` applies both, once, for
``search.settings.make_params``.

The environment variable :data:`FOLDER_VARIABLE` names another folder laid out the same way
(a run's candidates tried before they are copied here; the tests' random networks).
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..learning.families import FAMILIES, family, family_of
from .defaults import SHIPPED_NETWORKS

SHIPPED = "shipped"        # network=shipped: the shipped network of the game's family
NO_NETWORK = "none"        # network=none: no network, whatever the default
FOLDER_VARIABLE = "SPLENDOR_MCTS_NETWORKS"
SUFFIX = ".smnet"
HASH_LENGTH = 8            # hex digits of the file's SHA-256 that name a shipped network


def folder() -> Path:
    """The folder of shipped networks: ``$SPLENDOR_MCTS_NETWORKS`` when set, else the package's."""
    override = os.environ.get(FOLDER_VARIABLE)
    return Path(override) if override else Path(__file__).resolve().parents[1] / "networks"


def shipped_file(family_name: str, within: Path | None = None) -> Path:
    """Where family ``family_name``'s shipped network is (whether or not it is there), in the
    networks folder ``within`` (by default :func:`folder`)."""
    return (within or folder()) / family_name / f"{family_name}{SUFFIX}"


def shipped_families() -> list[str]:
    """The families with a shipped network, in the order of ``families.FAMILIES``."""
    return [name for name in FAMILIES if shipped_file(name).is_file()]


def game_family(game: str, players: int) -> str | None:
    """The family whose network plays ``game`` with ``players`` seats, or None (no network
    is trained for it, e.g. a test's game)."""
    try:
        return family_of(game, players).name
    except ValueError:
        return None


def shipped_network(game: str, players: int) -> Path:
    """The shipped network of ``game`` with ``players`` seats; ``ValueError`` naming the
    family (or the game, when no family plays it) when none is shipped."""
    family_name = game_family(game, players)
    if family_name is None:
        raise ValueError(f"no network family plays {game} with {players} players, so no network is shipped "
                         f"for it; give a .smnet file or {NO_NETWORK}")
    return _installed_file(family_name)


def _installed_file(family_name: str) -> Path:
    """Family ``family_name``'s shipped network; ``ValueError`` naming it when none is shipped."""
    path = shipped_file(family_name)
    if not path.is_file():
        shipped = ", ".join(shipped_families()) or "none"
        raise ValueError(f"no network is shipped for the family {family_name} (looked for {path}; "
                         f"shipped: {shipped}); give a .smnet file or {NO_NETWORK}")
    return path


def short_hash(path: str | Path) -> str:
    """The first :data:`HASH_LENGTH` hex digits of the file's SHA-256."""
    stat = Path(path).stat()
    return _hash(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _hash(path: str, mtime_ns: int, size: int) -> str:  # keyed by mtime and size: a replaced file is hashed again
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:HASH_LENGTH]


def shipped_label(path: str | None) -> str | None:
    """``shipped:<family>@<hash>`` when ``path`` is a shipped network, else None."""
    if not path:
        return None
    try:
        resolved = Path(path).resolve()
        for family_name in shipped_families():
            if shipped_file(family_name).resolve() == resolved:
                return f"{SHIPPED}:{family_name}@{short_hash(resolved)}"
    except OSError:
        pass
    return None


def network_label(path: str | None) -> str | None:
    """How reports name the network a search used: a shipped one by family and hash
    (:func:`shipped_label`, not its site-packages path), a file as given, None for none."""
    return shipped_label(path) or path or None


def network_settings(values: Mapping[str, Any], game: str | None, players: int | None) -> dict[str, Any]:
    """``values`` (search settings by name) with ``network`` made a file or empty: the word
    :data:`SHIPPED` becomes the family's shipped network, ``shipped:<family>`` (and
    ``shipped:<family>@<hash>``, as reports name it) that family's, :data:`NO_NETWORK` empty
    (none), and no network at all the shipped one where ``search.defaults.SHIPPED_NETWORKS`` turns
    it on for the family. With the shipped network, ``value_mix`` and ``puct`` not given
    are the table's. ``game`` None (a door checking settings before it knows the game):
    any family's shipped network stands in, and the searched game's is found when its
    search is made. ``ValueError`` when the shipped network is asked for and there is none,
    or a named one is not the installed file or not the searched game's.
    """
    out = dict(values)
    network = out.get("network")
    if network == NO_NETWORK:
        out["network"] = ""
        return out
    explicit = network == SHIPPED
    named = _named_shipped(network, game, players) if isinstance(network, str) else None
    if named is not None:
        family_name, path = named
    elif network is not None and network != SHIPPED:
        return out  # a file (or empty: none), checked by the engine; a non-string by make_params
    elif game is None:
        stand_in = _stand_in(explicit)
        if stand_in is None:
            if explicit:
                raise ValueError("no network is shipped with this package; give a .smnet file or leave the network out")
            return out
        family_name, path = stand_in, shipped_file(stand_in)
    else:
        assert players is not None, "a game's search knows its players"
        game_family_name = game_family(game, players)
        use = SHIPPED_NETWORKS.get(game_family_name) if game_family_name is not None else None
        if not explicit and (use is None or not use.default_for(players)):
            return out  # the table's default: no network
        family_name, path = game_family_name, shipped_network(game, players)
    out["network"] = str(path)
    use = SHIPPED_NETWORKS[family_name]  # type: ignore[index]
    if out.get("value_mix") is None:
        out["value_mix"] = use.value_mix
    if out.get("puct") is None and use.puct is not None:
        out["puct"] = use.puct
    return out


def _named_shipped(network: str, game: str | None, players: int | None) -> tuple[str, Path] | None:
    """For ``shipped:<family>`` or ``shipped:<family>@<hash>`` (how reports name a shipped
    network, so a name copied from one searches again with it): the family and its file,
    refused with a ``ValueError`` when that family has none shipped, the hash is not the
    installed file's, or ``game`` is not the family's. None for any other value."""
    prefix = f"{SHIPPED}:"
    if not network.startswith(prefix):
        return None
    family_name, at, digits = network[len(prefix):].partition("@")
    if family_name not in FAMILIES:
        raise ValueError(f"{network!r} names no network family (families: {', '.join(FAMILIES)}); "
                         f"write {SHIPPED}:<family>, {SHIPPED}:<family>@<hash>, {SHIPPED}, {NO_NETWORK} or a .smnet file")
    try:
        path = _installed_file(family_name)
    except ValueError as exc:
        raise ValueError(f"{network!r}: {exc}") from None
    if at:
        installed = short_hash(path)
        if digits.lower() != installed:
            raise ValueError(f"{network!r}: the installed {family_name} network is {prefix}{family_name}@{installed}, "
                             f"other weights than those named (a report of another version of the package?); "
                             f"write {prefix}{family_name} for the installed one, or give the other weights' .smnet file")
    if game is not None:
        assert players is not None, "a game's search knows its players"
        searched = game_family(game, players)
        if searched != family_name:
            named_family = family(family_name)
            counts = " or ".join(str(count) for count in named_family.players)
            fix = (f"the family {searched}: write {SHIPPED} or {prefix}{searched}" if searched
                   else "no network family plays it")
            raise ValueError(f"{network!r} is the network of {named_family.game} with {counts} players; this "
                             f"search plays {game} with {players} players ({fix})")
    return family_name, path


def shipped_used(values: Mapping[str, Any], game: str, players: int) -> str | None:
    """The shipped network a search of ``game`` with these settings uses, named as
    :func:`shipped_label` does; None when it uses another or none. ``ValueError`` as
    :func:`network_settings`."""
    return shipped_label(network_settings(values, game, players).get("network"))


def shipped_summary() -> dict[str, dict[str, Any]]:
    """Each shipped network by family: ``{"network": shipped:<family>@<hash>, "default":
    whether the default search uses it, "defaultPlayers": the player counts whose default
    search uses it}`` (the analysis protocol's ``query_version``)."""
    summary = {}
    for name in shipped_families():
        counts = [p for p in family(name).players if SHIPPED_NETWORKS[name].default_for(p)]
        summary[name] = {"network": shipped_label(str(shipped_file(name))), "default": bool(counts),
                         "defaultPlayers": counts}
    return summary


def _stand_in(explicit: bool) -> str | None:
    """For a check without a game: a family whose shipped network the settings may use
    (asked for by name: any shipped; by default: any the table turns on), or None."""
    for family_name in shipped_families():
        if explicit or SHIPPED_NETWORKS[family_name].on:
            return family_name
    return None


__all__ = ["FOLDER_VARIABLE", "NO_NETWORK", "SHIPPED", "folder", "game_family", "network_label", "network_settings",
           "short_hash", "shipped_families", "shipped_file", "shipped_label", "shipped_network", "shipped_summary", "shipped_used"]
