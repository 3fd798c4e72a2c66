"""The scorekeeper's HTTP API and page (issue 15): settle deals played with real cards.

The page ``/score`` keeps an evening's ledger in the browser and posts it whole to
``POST /api/score/{game}/ledger`` after every change; the server recomputes every deal
with the engine's calculators (``rami.ledger``, the same code as ``rami score`` and
``rami ledger``), so the page holds no rules. ``POST /api/score/{game}/deal`` scores one
N-2 document exactly as ``rami score GAME``. A bad document is answered 400 with one
line, ``{"error": {"code": "bad_request", "message": "deal 2: …"}}``; see docs/score.md.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from rami.games import Game, all_games, get_game
from rami.server.hooks import WebHooks
from rami.server.limits import MAX_SCORE_BODY_BYTES

__all__ = ["MAX_BODY", "router"]

STATIC = Path(__file__).parent / "static"
#: The largest document accepted (an evening of 500 deals by cards fits easily).
MAX_BODY = MAX_SCORE_BODY_BYTES  # BodyGuard lets the scorekeeper's bodies this far

router = APIRouter()

_ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}
_ERRORS: dict[int | str, dict[str, object]] = {
    400: {"description": "A bad document: one line saying what is wrong"},
    413: {"description": "The document is too large"},
}


def _hooks() -> list[tuple[Game, WebHooks]]:
    return [(g, g.web()) for g in all_games() if g.web is not None]


def _ledger_body() -> dict[str, object]:
    """The ledger schema's example and description, from every game's hooks."""
    examples = [(g, h.ledger_example) for g, h in _hooks() if h.ledger_example is not None]
    games = " or ".join(f"{g.preset_label} ({g.title.split()[0]})" for g, _ in examples)
    text = f"A ledger: game, {games}, players in seat order, first_dealer, deals. "
    text += "See docs/score.md."
    for g, doc in examples[1:]:
        text += f" Example for {g.title.split()[0]}: " + json.dumps(doc, ensure_ascii=False)
    return _body(dict(examples[0][1]) if examples else {}, text)


def _deal_body() -> dict[str, object]:
    deals = [h.deal_example for _, h in _hooks() if h.deal_example is not None]
    return _body(
        dict(deals[0]) if deals else {},
        "One finished deal, the N-2 document of `rami score GAME`.",
    )


def _body(example: Mapping[str, object], description: str) -> dict[str, object]:
    return {
        "requestBody": {
            "required": True,
            "description": description,
            "content": {"application/json": {"schema": {"type": "object"}, "example": example}},
        }
    }


def _error(message: str, status: int = 400) -> JSONResponse:
    code = "bad_request" if status == 400 else "too_large"
    first = message.strip().splitlines()[0] if message.strip() else "bad input"
    return JSONResponse({"error": {"code": code, "message": first}}, status_code=status)


async def _document(request: Request) -> object:
    """The request's JSON body, unchecked (``work`` reads it: ``rami.ledger``)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _TooLarge
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"the body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None


class _TooLarge(Exception):
    pass


async def _answer(
    request: Request, work: Callable[[str, object], Mapping[str, object]], game: str
) -> Mapping[str, object] | JSONResponse:
    """Read the JSON body and run ``work(game, doc)`` off the event loop; every user
    error (``ValueError``: InputError, CardError) becomes a one-line 400."""
    try:
        doc = await _document(request)
        result = await asyncio.to_thread(work, game, doc)
        return result
    except _TooLarge:
        return _error(f"the document is larger than {MAX_BODY // 1024} KB", 413)
    except ValueError as exc:
        return _error(str(exc))
    except RecursionError:
        return _error("the document is nested too deeply")


# ---------------------------------------------------------------------------- pages


@router.get("/score", include_in_schema=False)
async def score_page() -> FileResponse:
    return FileResponse(STATIC / "score.html")


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """At the root so that it may keep ``/score`` working offline."""
    return FileResponse(
        STATIC / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


# ---------------------------------------------------------------------------- API


@router.post(
    "/api/score/{game}/ledger",
    tags=["score"],
    responses=_ERRORS,
    openapi_extra=_ledger_body(),
    response_model=None,
)
async def post_ledger(game: str, request: Request) -> Mapping[str, object] | JSONResponse:
    """Recompute a whole ledger: every deal's result and dealer, the running totals
    (Marriage: balances summing to zero; Tunisian: totals, eliminations, the winner)."""
    from rami.ledger import compute

    def work(name: str, doc: object) -> Mapping[str, object]:
        return compute(doc, get_game(name).name)

    return await _answer(request, work, game)


@router.post(
    "/api/score/{game}/deal",
    tags=["score"],
    responses=_ERRORS,
    openapi_extra=_deal_body(),
    response_model=None,
)
async def post_deal(game: str, request: Request) -> Mapping[str, object] | JSONResponse:
    """Score one deal exactly as ``rami score GAME`` (Marriage adds ``pairs``: who pays
    whom)."""
    from rami.ledger import compute_deal

    return await _answer(request, compute_deal, game)


def error_response(message: str, status: int = 400) -> JSONResponse:
    """The one-line error answer of the score API (for the games' own routes too)."""
    return _error(message, status)


for _game, _web in _hooks():  # each game's own routes (``/api/score/NAME/…``)
    if _web.add_routes is not None:
        _web.add_routes(router, _ERRORS)
