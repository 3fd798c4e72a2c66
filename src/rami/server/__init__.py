"""The rami web server: tables with friends and bots, played in the browser (``rami serve``).

This package needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy); the engines never
import it.
"""

from __future__ import annotations

from rami.server.app import create_app
from rami.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
