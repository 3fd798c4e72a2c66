"""A table's past over HTTP: a finished deal move by move, and the open ``.rami`` record.
Private replays open only with a seat's token (``rami.server.replays``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from rami.server.bearer import Token
from rami.server.protocol import ReplayResponse
from rami.server.replay import deal_frames, open_record
from rami.server.replays import check_replays_open
from rami.server.routes.common import ERRORS, Manager, find

__all__ = ["router"]

router = APIRouter(tags=["play"])


@router.get("/api/tables/{code}/replay", response_model=ReplayResponse, responses=ERRORS)
async def get_replay(
    code: str,
    request: Request,
    token: Token,
    mgr: Manager,
    deal: Annotated[int, Query(ge=0, le=10_000, description="the deal, from 0")] = 0,
) -> dict[str, object]:
    """A finished deal move by move, every hand shown (nothing is hidden once it is over)."""
    live = await find(request, mgr, code, token)
    await check_replays_open(mgr.store, live, token)
    return {"deal": deal, "frames": await deal_frames(live, deal)}


@router.get(
    "/api/tables/{code}/record",
    response_class=Response,
    responses={**ERRORS, 200: {"content": {"text/plain": {}}}},
)
async def get_record(
    code: str,
    request: Request,
    token: Token,
    mgr: Manager,
    ascii: Annotated[bool, Query(description="cards as 10C, QH; ASCII only")] = False,
) -> Response:
    """The table's open .rami record (docs/records.md): finished deals in full with
    their seeds and salts; the deal in play only as its public moves and commitment.
    Private replays: only with a seat's token."""
    live = await find(request, mgr, code, token)  # counted like every table look-up
    await check_replays_open(mgr.store, live, token)
    text = await open_record(live, ascii)
    filename = f"rami-{live.code}.rami"
    return Response(
        text.encode("utf-8"),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
