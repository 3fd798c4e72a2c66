"""The lobby's read-only API: the games with their presets and bot levels, and a
preset's rules with one line of help per option."""

from __future__ import annotations

from fastapi import APIRouter

from rami.server.protocol import GameInfo, RulesSummary
from rami.server.routes.common import ERRORS
from rami.server.rules_info import games_info, rules_summary

__all__ = ["router"]

router = APIRouter(tags=["lobby"])


@router.get("/api/games", response_model=list[GameInfo])
async def list_games() -> list[dict[str, object]]:
    """The games, their presets (or modes) with player counts, and the bot levels."""
    return games_info()


@router.get("/api/rules/{game}/{preset}", response_model=RulesSummary, responses=ERRORS)
async def get_rules(game: str, preset: str) -> dict[str, object]:
    """The options of a preset with one line of help each (the rules page)."""
    return rules_summary(game, preset)
