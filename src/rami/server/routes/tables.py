"""The tables API: create a table, list and read tables, join a seat, share the invite,
start play. Every look-up of a table by its code is counted (``common.find``)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
from typing import Annotated

from fastapi import APIRouter, Query, Request

from rami.server.bearer import Token
from rami.server.live import TableSummaryJson
from rami.server.protocol import (
    CreatedTable,
    CreateTable,
    Invite,
    Joined,
    JoinRequest,
    TableError,
    TableSummary,
)
from rami.server.ratelimit import Limiter
from rami.server.replays import created as replay_link_created
from rami.server.routes.common import ERRORS, Manager, client, config, find, table_url

__all__ = ["router"]

router = APIRouter(tags=["tables"])


@router.post("/api/tables", response_model=CreatedTable, status_code=201, responses=ERRORS)
async def create_table(body: CreateTable, request: Request, mgr: Manager) -> dict[str, object]:
    """Create a table; the creator takes a human seat and gets its token."""
    request.app.state.limiter.join(client(request))
    live, seat, token = await mgr.lifecycle.create(body)
    invite = secrets.token_urlsafe(12)
    await asyncio.to_thread(mgr.store.set_invite, live.record.id, invite)
    live.record.invite = invite
    await asyncio.to_thread(replay_link_created, mgr.store, live.record.id, seat)
    url = table_url(request, live.code)
    return {
        "code": live.code,
        "url": url,
        "seat": seat,
        "token": token,
        "table": live.summary(),
        "invite": invite,
        "invite_url": f"{url}#invite={invite}",
    }


@router.get("/api/tables", response_model=list[TableSummary])
async def list_tables(
    request: Request,
    mgr: Manager,
    codes: Annotated[str, Query(max_length=600, description="codes, comma-separated")] = "",
) -> list[TableSummaryJson]:
    """Summaries of the tables named (the page keeps the user's codes in its storage)."""
    wanted = list(dict.fromkeys(c.strip().upper() for c in codes.split(",") if c.strip()))
    wanted = wanted[:30]
    limiter: Limiter = request.app.state.limiter
    who = client(request)
    blocked = limiter.out_of_misses(who) if wanted else None
    if blocked is not None:
        raise blocked
    found = await asyncio.to_thread(mgr.store.existing_codes, wanted)
    tested: list[str] = []
    for code in wanted:  # each code tested is one look-up, and a miss if it is not there
        try:
            limiter.lookup(who)
        except TableError:
            if not tested:
                raise
            break  # the budget is spent: the codes after this one are not tested
        tested.append(code)
        if code not in found:
            limiter.miss(who)
    out = []
    for code in (c for c in tested if c in found):
        with contextlib.suppress(TableError):
            out.append((await mgr.get(code)).summary())
    return out


@router.get("/api/tables/{code}", response_model=TableSummary, responses=ERRORS)
async def get_table(code: str, request: Request, token: Token, mgr: Manager) -> TableSummaryJson:
    """A table's public summary: game, rules, seats, status."""
    return (await find(request, mgr, code, token)).summary()


@router.post("/api/tables/{code}/join", response_model=Joined, responses=ERRORS)
async def join_table(
    code: str, body: JoinRequest, request: Request, mgr: Manager
) -> dict[str, object]:
    """Take a free human seat; the answer holds the seat's secret token.

    With ``require_invite`` (``rami serve --invite-only``) the table's invite is needed:
    knowing the public code lets one watch, not sit down.
    """
    request.app.state.limiter.join(client(request))
    live = await find(request, mgr, code, invite=body.invite)
    expected = live.record.invite
    if config(request).require_invite and expected is not None:
        given = body.invite or ""
        if not hmac.compare_digest(given.encode(), expected.encode()):
            raise TableError("bad_invite", "joining this table needs its invite link: ask a player")
    seat, token = await mgr.lifecycle.join(live, body.seat, body.name)
    return {"code": live.code, "seat": seat, "token": token, "url": table_url(request, code)}


@router.get("/api/tables/{code}/invite", response_model=Invite, responses=ERRORS)
async def get_invite(code: str, request: Request, token: Token, mgr: Manager) -> dict[str, object]:
    """The table's invite, for a seated player to share (spectators: ``spectator``)."""
    live = await find(request, mgr, code, token)
    if live.seat_for_token(token) is None:
        raise TableError("spectator", "only seated players can share the invite")
    url = table_url(request, live.code)
    invite = live.record.invite
    return {"invite": invite, "invite_url": f"{url}#invite={invite}" if invite else url}


@router.post("/api/tables/{code}/start", response_model=TableSummary, responses=ERRORS)
async def start_table(code: str, request: Request, token: Token, mgr: Manager) -> TableSummaryJson:
    """Fill the free seats with bots and start play."""
    live = await find(request, mgr, code, token)
    await mgr.lifecycle.start(live, live.seat_for_token(token))
    return live.summary()
