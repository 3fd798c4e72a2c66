"""The rami web server: tables with friends and bots, played in the browser (``rami serve``).

This package needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy); the engines never
import it. ``create_app`` and ``ServerConfig`` are imported on first use, so that the
game-neutral pure modules here (hints, aids, arrange, bots) import without FastAPI: the
solo table (``rami.solo``) runs them in the browser on Pyodide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rami.server.app import create_app
    from rami.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from rami.server.app import create_app

        return create_app
    if name == "ServerConfig":
        from rami.server.config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module 'rami.server' has no attribute {name!r}")
