"""``rami serve``: the web server where people play in the browser (issue 6)."""

from __future__ import annotations

from typing import Annotated

import typer

from rami.errors import InputError


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy database URL (default: a SQLite file in your data folder)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Mean pause in seconds before a bot moves.")
    ] = 0.9,
) -> None:
    """Play in the browser: tables with friends and bots (open the printed address)."""
    try:
        import uvicorn

        from rami.server import ServerConfig, create_app
        from rami.server.config import default_db_url
    except ImportError as exc:
        raise InputError(
            f"the web server needs the 'web' extra ({exc.name} is missing): pip install 'rami[web]'"
        ) from None
    if not 0 < port < 65536:
        raise InputError(f"port must be 1 to 65535, not {port}")
    if bot_delay < 0:
        raise InputError("--bot-delay must not be negative")
    url = db or default_db_url()
    app = create_app(ServerConfig(db_url=url, bot_delay=bot_delay))
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"rami: playing at http://{shown}:{port}/  (database: {url})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
