"""What the routers share: the table manager of the app, finding a table as a client
(counted against its look-up limits), the error responses and the table's link."""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request, WebSocket

from rami.server.config import ServerConfig
from rami.server.guards import link_host_allowed
from rami.server.live import LiveTable
from rami.server.protocol import ErrorResponse, TableError
from rami.server.ratelimit import Limiter
from rami.server.tables import TableManager

__all__ = [
    "ERRORS",
    "STATIC",
    "Manager",
    "client",
    "config",
    "find",
    "invited",
    "manager",
    "table_url",
]

STATIC = Path(__file__).resolve().parent.parent / "static"

ERRORS: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorResponse},
    403: {"model": ErrorResponse},
    404: {"model": ErrorResponse},
    409: {"model": ErrorResponse},
}


def manager(request: Request) -> TableManager:
    """The app's table manager (made by its lifespan)."""
    found: TableManager = request.app.state.manager
    return found


Manager = Annotated[TableManager, Depends(manager)]


def config(request: Request) -> ServerConfig:
    """The configuration the app was made with (``create_app``)."""
    found: ServerConfig = request.app.state.config
    return found


def client(conn: Request | WebSocket) -> str:
    """The client's address (its proxy's ``X-Forwarded-For`` when uvicorn trusts it)."""
    return conn.client.host if conn.client is not None else "?"


async def find(
    conn: Request | WebSocket,
    mgr: TableManager,
    code: str,
    token: str | None = None,
    invite: str | None = None,
) -> LiveTable:
    """The table ``code``, counted against the client's look-up limits.

    A client out of misses is refused, unless ``token`` opens a seat of this very table
    or ``invite`` is its invite: players behind an address a prober shares are not
    locked out of their own tables, nor friends of the table they were invited to.
    """
    limiter: Limiter = conn.app.state.limiter
    who = client(conn)
    blocked = limiter.out_of_misses(who)
    if blocked is not None and not token and not invite:
        raise blocked
    limiter.count_lookup(who)
    try:
        live = await mgr.get(code)
    except TableError as exc:
        if exc.code == "no_table":
            limiter.miss(who)
            if blocked is not None:
                raise blocked from None
        raise
    if blocked is not None and not (live.opens_seat(token) or invited(live, invite)):
        raise blocked
    return live


def invited(live: LiveTable, invite: str | None) -> bool:
    """Whether ``invite`` is the table's invite (compared in constant time)."""
    expected = live.record.invite
    if not invite or expected is None:
        return False
    return hmac.compare_digest(invite.encode(), expected.encode())


def table_url(request: Request, code: str) -> str:
    """The table page's link: the public URL, the request's own host if it is allowed,
    else a relative link (an unknown Host header never makes the links)."""
    cfg = config(request)
    if cfg.public_url:
        return f"{cfg.public_url}/t/{code}"
    if link_host_allowed(request.url.hostname, cfg.allowed_hosts):
        return str(request.url_for("table_page", code=code))
    return f"/t/{code}"
