"""The play API over HTTP: a seat's view, an action, the next deal, a hint. The same
checks as over the WebSocket (``rami.server.play``)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from rami.server.bearer import Token
from rami.server.hints import Hint
from rami.server.play import TableState
from rami.server.protocol import ActionRequest, HintResponse, StateResponse
from rami.server.routes.common import ERRORS, Manager, find

__all__ = ["router"]

router = APIRouter(tags=["play"])


@router.get("/api/tables/{code}/view", response_model=StateResponse, responses=ERRORS)
async def get_view(code: str, request: Request, token: Token, mgr: Manager) -> TableState:
    """The view of the token's seat; without a token, the spectators' view."""
    live = await find(request, mgr, code, token)
    return await mgr.play.state(live, live.seat_for_token(token))


@router.post("/api/tables/{code}/actions", response_model=StateResponse, responses=ERRORS)
async def post_action(
    code: str, body: ActionRequest, request: Request, token: Token, mgr: Manager
) -> TableState:
    """Play one action for the token's seat (the same check as over the WebSocket)."""
    live = await find(request, mgr, code, token)
    seat = live.seat_for_token(token)
    await mgr.play.act(live, seat, body.action, None, None)
    return await mgr.play.state(live, seat)


@router.post("/api/tables/{code}/next-deal", response_model=StateResponse, responses=ERRORS)
async def post_next_deal(code: str, request: Request, token: Token, mgr: Manager) -> TableState:
    """Deal the next deal of the match once the current one is over."""
    live = await find(request, mgr, code, token)
    seat = live.seat_for_token(token)
    await mgr.play.next_deal(live, seat, None, None)
    return await mgr.play.state(live, seat)


@router.get("/api/tables/{code}/hint", response_model=HintResponse, responses=ERRORS)
async def get_hint(code: str, request: Request, token: Token, mgr: Manager) -> Hint:
    """A suggested move and notes on the seat's own cards."""
    live = await find(request, mgr, code, token)
    return await mgr.play.hint(live, live.seat_for_token(token))
