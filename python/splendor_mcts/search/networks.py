"""The networks shipped with the package, one per game family, and the words that name them.

The package's folder ``networks/`` (:func:`folder`) holds, for each family that has trained
weights (``splendor-2p``, ``splendor-3-4p``, ``duel``; :mod:`splendor_mcts.search.families`),
its final network ``<family>-<hash>.smnet``, and the index ``index.json`` naming each family's
file and the search settings it is used with (:mod:`.network_index`; docs/network-format.md,
"The networks folder"); nothing else. Where each network came from is kept outside the
package, in ``bench/networks/<hash>/`` (docs/training.md, "Shipping a network").

At every door that takes the ``network`` search setting (agent specs, the command lines'
``--network``, the analysis protocol's ``network``, ``sm.analyze(network=...)``), the word
:data:`SHIPPED` stands for the shipped network of the searched game's family,
``shipped:<family>`` and ``shipped:<family>@<hash>`` (how reports name one, so a name
copied from a report searches with it again) for that family's, and :data:`NO_NETWORK` for
none; anything else is a ``.smnet`` file. Whether the search uses the shipped network when
no ``network`` is given, and with which ``value_mix`` and ``puct``, is the index's entry
(:class:`.network_index.ShippedNetwork`); :func:`network_settings` applies both, once, for
``search.settings.make_params``.

The environment variable :data:`FOLDER_VARIABLE` names another folder laid out the same way
(a recipe's networks tried before they are shipped here; the tests' random networks).
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from .families import FAMILIES, family, family_of
from .network_index import HASH_LENGTH, INDEX_FILE, SUFFIX, ShippedNetwork, read_index

SHIPPED = "shipped"        # network=shipped: the shipped network of the game's family
NO_NETWORK = "none"        # network=none: no network, whatever the default
FOLDER_VARIABLE = "SPLENDOR_MCTS_NETWORKS"


def folder() -> Path:
    """The folder of shipped networks: ``$SPLENDOR_MCTS_NETWORKS`` when set, else the package's."""
    override = os.environ.get(FOLDER_VARIABLE)
    return Path(override) if override else Path(__file__).resolve().parents[1] / "networks"


def index(within: Path | None = None) -> dict[str, ShippedNetwork]:
    """The index of the networks folder ``within`` (by default :func:`folder`) by family;
    ``ValueError`` for a bad one (:func:`.network_index.read_index`)."""
    return read_index(within or folder())


def shipped_file(family_name: str, within: Path | None = None) -> Path | None:
    """Family ``family_name``'s network in the networks folder ``within`` (by default
    :func:`folder`), or None when its index lists none."""
    where = within or folder()
    entry = read_index(where).get(family_name)
    return where / entry.file if entry else None


def shipped_families() -> list[str]:
    """The families with a shipped network, in the order of ``families.FAMILIES``."""
    return list(index())


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
    """Family ``family_name``'s shipped network; ``ValueError`` naming it when none is
    shipped, or when the file is not the one the index names (replaced without shipping)."""
    where = folder()
    entry = read_index(where).get(family_name)
    if entry is None:
        shipped = ", ".join(shipped_families()) or "none"
        looked = f"{where / INDEX_FILE} lists none" if (where / INDEX_FILE).is_file() else f"no {INDEX_FILE} in {where}"
        raise ValueError(f"no network is shipped for the family {family_name} ({looked}; shipped: {shipped}); "
                         f"give a .smnet file or {NO_NETWORK}")
    path = where / entry.file
    if short_hash(path) != entry.short_hash:
        raise ValueError(f"{path}: the file's SHA-256 begins {short_hash(path)}, not {entry.short_hash} as "
                         f"{where / INDEX_FILE} says (weights replaced without shipping them: docs/training.md, "
                         "\"Shipping a network\")")
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
        where = folder()
        for family_name, entry in read_index(where).items():
            if (where / entry.file).resolve() == resolved:
                return f"{SHIPPED}:{family_name}@{short_hash(resolved)}"
    except (OSError, ValueError):  # a folder that cannot be read names no file: the file is shown as given
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
    (none), and no network at all the shipped one where the family's index entry turns
    it on (:class:`.network_index.ShippedNetwork`). With the shipped network, ``value_mix`` and ``puct`` not given
    are the index entry's. ``game`` None (a door checking settings before it knows the game):
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
        family_name, path = stand_in, _installed_file(stand_in)
    else:
        assert players is not None, "a game's search knows its players"
        game_family_name = game_family(game, players)
        use = index().get(game_family_name) if game_family_name is not None else None
        if not explicit and (use is None or not use.default_for(players)):
            return out  # the table's default: no network
        family_name, path = game_family_name, shipped_network(game, players)
    out["network"] = str(path)
    use = index()[family_name]  # type: ignore[index]
    if out.get("value_mix") is None:
        out["value_mix"] = use.value_mix
    if out.get("puct") is None and use.puct is not None:
        out["puct"] = use.puct
    return out


def _named_shipped(network: str, game: str | None, players: int | None) -> tuple[str, Path] | None:
    """For ``shipped:<family>`` or ``shipped:<family>@<hash>`` (how reports name a shipped
    network, so a name copied from one searches again with it): the family and its file,
    refused with a ``ValueError`` when that family has none shipped, the hash is not the
    installed file's (nor one the same weights had before, the entry's ``formerly``), or
    ``game`` is not the family's. None for any other value."""
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
        if digits.lower() != installed and digits.lower() not in index()[family_name].formerly:
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
    for name, entry in index().items():
        counts = [p for p in family(name).players if entry.default_for(p)]
        summary[name] = {"network": shipped_label(str(_installed_file(name))), "default": bool(counts),
                         "defaultPlayers": counts}
    return summary


def _stand_in(explicit: bool) -> str | None:
    """For a check without a game: a family whose shipped network the settings may use
    (asked for by name: any shipped; by default: any the table turns on), or None."""
    for family_name, entry in index().items():
        if explicit or entry.on:
            return family_name
    return None


__all__ = ["FOLDER_VARIABLE", "NO_NETWORK", "SHIPPED", "SUFFIX", "folder", "game_family", "index", "network_label",
           "network_settings", "short_hash", "shipped_families", "shipped_file", "shipped_label", "shipped_network", "shipped_summary", "shipped_used"]
