"""The web application: HTTP API, the WebSocket of each table, and the pages.

``create_app(config)`` assembles a FastAPI app from its parts: the lifespan (one
``Store`` and one ``TableManager``, ``rami.server.lifespan``), the middleware, the static
folders and one router per concern (``rami.server.routes``). The pages are plain HTML,
CSS and ES modules from ``static/``; there is no build step. The message protocol is
described in ``docs/protocol.md``; the HTTP part's schema is served at ``/openapi.json``.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.staticfiles import StaticFiles

from rami.games import all_games
from rami.server.config import ServerConfig, default_db_url
from rami.server.guards import Guard
from rami.server.install import router as install_router
from rami.server.lifespan import lifespan
from rami.server.limits import BodyGuard, SafeJSONResponse
from rami.server.replays import router as replays_router
from rami.server.routes import lobby, operations, pages, play, records, socket, tables
from rami.server.routes.common import STATIC
from rami.server.routes.errors import add_error_handlers
from rami.server.rules_info import client_folders
from rami.server.score_api import router as score_router
from rami.server.solo_site import add_solo_routes

__all__ = ["STATIC", "create_app"]


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The rami web app; ``config`` None means the default SQLite file and bot pace."""
    cfg = config if config is not None else ServerConfig(db_url=default_db_url())
    app = FastAPI(
        title="rami",
        version="0.1.0",
        summary=f"{' and '.join(g.title for g in all_games())} tables with friends and bots",
        description="The HTTP part of the rami server. Play itself goes over the table's "
        "WebSocket `/ws/tables/{code}`; see docs/protocol.md.",
        lifespan=lifespan(cfg),
        default_response_class=SafeJSONResponse,
    )
    app.state.config = cfg
    app.add_middleware(BodyGuard)
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # pages, scripts, strings (issue 21)
    app.add_middleware(Guard, limits=cfg.rate_limits)  # outermost: its headers on every answer
    for name, folder in client_folders().items():  # before /static, which would take them
        app.mount(f"/static/games/{name}", StaticFiles(directory=folder), name=f"game-{name}")
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(score_router)  # the scorekeeper: /score, /api/score/… (issue 15)
    app.include_router(replays_router)  # replay links /r/{id}, record checks, reviews (issue 24)
    app.include_router(install_router)  # the manifest and the app shell's worker (issue 21)
    add_solo_routes(app)  # solo play in the browser, no server moves: /solo (issue 26)
    add_error_handlers(app)
    for part in (pages, operations, lobby, tables, play, records, socket):
        app.include_router(part.router)
    return app
