"""Games, their cards' pictures, and positions before any session: a dealt table for the
set-up editor and a position's preview (its problems, or its board)."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ...games.game import load_game
from ...games.positions import PositionError, read_position
from ...games.registry import DEFAULT_GAME, game_entry, game_names
from ...pictures.board import board_svg, standalone_card_svg
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
        players = [2, 3, 4] if name == "splendor" else [2]
        out.append({"name": name, "title": entry.title, "players": players, "legend": entry.legend})
    return {"games": out}


@endpoint
async def cards(request: Request) -> Any:
    name = request.path_params["game"]
    game = load_game(name)
    from ...pictures.board import noble_svg, royal_svg

    out: dict[str, Any] = {"cards": [{"id": c["id"], "level": c["level"], "text": c["text"],
                                      "svg": standalone_card_svg(game.name, c["id"])} for c in game.cards()]}
    if game.name == "splendor":
        out["nobles"] = [{"id": n["id"], "points": n["points"], "requirement": n["requirement"],
                          "svg": noble_svg(n["id"])} for n in game.nobles()]
    else:
        out["royals"] = [{"id": r["id"], "svg": royal_svg(r["id"])} for r in game.royals()]
    return out


@endpoint
async def new_position(request: Request) -> Any:
    body = await json_body(request)
    session = new_game_session(field(body, "game", str, "splendor"), field(body, "players", int),
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
