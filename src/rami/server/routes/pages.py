"""The HTML pages: the lobby, a table, the rules (plain files from ``static/``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse

from rami.games import all_games, get_game
from rami.server.routes.common import STATIC

__all__ = ["router"]

router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/t/{code}", include_in_schema=False, name="table_page")
async def table_page(code: str) -> FileResponse:
    return FileResponse(STATIC / "table.html")


@router.get("/rules/{game}/{preset}", include_in_schema=False)
async def rules_page(game: str, preset: str) -> FileResponse:
    return FileResponse(STATIC / "rules.html")


@router.get("/rules", include_in_schema=False)
async def rules_first() -> RedirectResponse:
    """The rules of the registry's first game (the lobby's default)."""
    first = all_games()[0]
    return RedirectResponse(f"/rules/{first.name}/{first.presets[0]}")


@router.get("/rules/{game}", include_in_schema=False)
async def rules_default(game: str) -> RedirectResponse:
    spec = get_game(game)
    return RedirectResponse(f"/rules/{spec.name}/{spec.presets[0]}")
