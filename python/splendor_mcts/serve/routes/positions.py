"""Games, their cards' pictures, and positions before any session: a dealt table for the
set-up editor and a position's preview (its problems, or its board)."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ...games.game import load_game, player_counts
from ...games.positions import PositionError, read_position
from ...games.registry import DEFAULT_GAME, game_entry, game_names
from ...pictures.board import board_svg, picture_of, standalone_card_svg
from ..reading import field, json_body, text_field
from ..sessions import new_game_session
from ..web import endpoint


@endpoint
async def games(request: Request) -> Any:
    out = []
    for name in sorted(game_names(), key=lambda n: n != DEFAULT_GAME):
        entry = game_entry(name)
        if entry.play_table is None:
            continue
        out.append({"name": name, "title": entry.title, "players": player_counts(name), "legend": entry.legend,
                    "page": web_page(name)})
    return {"games": out}


def web_page(name: str) -> dict[str, Any]:
    """What the page (static/) needs of a game: its entry's ``web_page`` and the token kinds a
    seat holds, in the order of the engine's views."""
    view = json.loads(load_game(name).new_initial_state(seed=0).observation_json(0))
    return {"token_kinds": list(view["players"][0]["tokens"]), **game_entry(name).web_page}


@endpoint
async def cards(request: Request) -> Any:
    name = request.path_params["game"]
    game = load_game(name)
    out: dict[str, Any] = {"cards": [{"id": c["id"], "level": c["level"], "text": c["text"],
                                      "svg": standalone_card_svg(game.name, c["id"])} for c in game.cards()]}
    # The game's other card tables (Splendor's nobles, Duel's royals), each piece with its picture.
    for kind, piece_svg in picture_of(game.name).pieces.items():
        out[kind] = [{**piece, "svg": piece_svg(piece["id"])} for piece in game.entry.card_tables[kind]()]
    return out


@endpoint
async def new_position(request: Request) -> Any:
    body = await json_body(request)
    session = new_game_session(field(body, "game", str, DEFAULT_GAME), field(body, "players", int),
                               field(body, "seed", int, 0), "analyze", 0)
    return {"position": json.loads(session.state.observation_json(0))}


@endpoint
async def preview(request: Request) -> Any:
    body = await json_body(request)
    try:
        position = read_position(text_field(body, "position"))
    except PositionError as exc:
        return {"valid": False, "problems": [dict(p) for p in exc.problems]}
    viewer = position.observer if position.observer is not None else None
    return {"valid": True, "problems": [], "svg": board_svg(position.state, viewer=viewer)}


ROUTES: list[BaseRoute] = [
    Route("/api/games", games),
    Route("/api/cards/{game}", cards),
    Route("/api/new-position", new_position, methods=["POST"]),
    Route("/api/preview", preview, methods=["POST"]),
]
