"""``rami serve``: the web server where people play in the browser (issues 6, 14).

Everything a user can get wrong (``--db``, ``--host``, ``--port``, ``--public-url``) is
checked, and the port is bound, before the start line is printed: a fault is one
``error:`` line and exit status 2, never "playing at …" followed by a traceback.
"""

from __future__ import annotations

from typing import Annotated

import typer

from rami.errors import InputError


def serve(
    host: Annotated[
        str,
        typer.Option(help="Address to listen on; 0.0.0.0 lets friends on your network in."),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address people use to reach this server, for invite links "
            "(default: this machine's network address when --host is 0.0.0.0)."
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="A SQLite file path, or a database URL such as postgresql://user@host/rami "
            "(default: a SQLite file in your data folder)."
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Mean pause in seconds before a bot moves.")
    ] = 0.9,
    invite_only: Annotated[
        bool,
        typer.Option(
            "--invite-only/--open-seats",
            help="Taking a free seat needs the table's invite link (the default); with "
            "--open-seats the public table code is enough.",
        ),
    ] = True,
    limits: Annotated[
        bool,
        typer.Option(
            "--limits/--no-limits",
            help="Per-client rate limits (docs/protocol.md); --no-limits is for load benches.",
        ),
    ] = True,
    limits_scale: Annotated[
        float,
        typer.Option(
            help="Multiply every rate and connection limit by this (e.g. 10 for a club "
            "behind one address, or a load bench).",
        ),
    ] = 1.0,
    secret_file: Annotated[
        str | None,
        typer.Option(
            envvar="RAMI_SECRET_FILE",
            help="The file of the server's secret key (seat codes), made on first start "
            "(default: beside a SQLite database, else in your data folder). Give every "
            "process of one database the same file.",
        ),
    ] = None,
) -> None:
    """Play in the browser: tables with friends and bots (open the printed address)."""
    try:
        import uvicorn

        from rami.server import ServerConfig, create_app
        from rami.server.addresses import (
            ALL_INTERFACES,
            bind_socket,
            check_public_url,
            lan_address,
            start_lines,
        )
        from rami.server.config import default_db_url
        from rami.server.dburl import check_db, resolve_db_url
        from rami.server.limits import MAX_HEADER_BYTES, MAX_WS_MESSAGE_BYTES
    except ImportError as exc:
        raise InputError(
            f"the web server needs the 'web' extra ({exc.name} is missing): pip install 'rami[web]'"
        ) from None
    if bot_delay < 0:
        raise InputError("--bot-delay must not be negative")
    if not 0 < limits_scale <= 1_000_000:
        raise InputError(f"--limits-scale must be above 0 and at most 1000000, not {limits_scale}")
    public = check_public_url(public_url) if public_url is not None else None
    url = resolve_db_url(db) if db is not None else default_db_url()
    sock = bind_socket(host, port)  # before the database: a refused start creates no file
    try:
        check_db(url)
    except InputError:
        sock.close()
        raise
    invite_base = public
    if invite_base is None and host in ALL_INTERFACES:
        lan = lan_address()
        invite_base = f"http://{lan}:{port}" if lan else None
    from rami.server.ratelimit import RateLimits
    from rami.server.secret import load_secret, secret_path

    rate_limits = RateLimits().scaled(limits_scale) if limits else RateLimits.off()
    key = load_secret(secret_path(url, secret_file))
    app = create_app(
        ServerConfig(
            db_url=url,
            bot_delay=bot_delay,
            public_url=invite_base,
            rate_limits=rate_limits,
            require_invite=invite_only,
            allowed_hosts=() if host in ALL_INTERFACES else (host,),
            seat_secret=key,
        )
    )
    config = uvicorn.Config(
        app,
        log_level="warning",
        http="h11",  # h11 bounds the request head; httptools accepts megabytes of headers
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        ws_max_size=MAX_WS_MESSAGE_BYTES,
        ws_per_message_deflate=False,
    )
    for line in start_lines(host, port, public):
        print(line, flush=True)
    print(f"      database: {url}", flush=True)
    uvicorn.Server(config).run(sockets=[sock])
