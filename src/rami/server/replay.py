"""Replaying a finished deal move by move from a table's event log.

The log holds every accepted action and each ``next_deal``; a new match from the stored
rules and seed, fed the log, passes through every position again. Once a deal is over
nothing in it is hidden any more, so each frame shows every seat's hand (the views of
all seats are used only for deals that have ended). Goes through the registry's
``Match`` protocol only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TypedDict

from rami.games import Game, Match
from rami.server.live import ACTION, NEXT_DEAL, LiveTable
from rami.server.protocol import TableError
from rami.server.records import table_record
from rami.server.storage import EventRecord
from rami.views import RulesJson

__all__ = ["MAX_FRAMES", "Frame", "deal_frames", "open_record", "replay_deal"]

MAX_FRAMES = 2000


class Frame(TypedDict):
    """One position of a replayed deal: who moved and how, every hand, the pile's top."""

    seat: int | None
    move: str | None
    hands: list[list[str]]
    pile_top: str | None
    stock_size: int | None


def _frame(match: Match, players: int, seat: int | None, move: str | None) -> Frame:
    views = [match.view(s) for s in range(players)]
    pile = list(views[0].get("discard_pile") or ())
    return {
        "seat": seat,
        "move": move,
        "hands": [list(v.get("hand") or ()) for v in views],
        "pile_top": pile[-1] if pile else None,
        "stock_size": views[0].get("stock_size"),
    }


def replay_deal(
    spec: Game,
    rules: RulesJson,
    players: int,
    seed: int,
    events: Sequence[EventRecord],
    deal: int,
) -> list[Frame]:
    """The frames of deal ``deal`` (0-based): its start, then one per action.

    Refuses (``bad_request``) a deal that has not been played or is not over yet.
    """
    if deal < 0:
        raise TableError("bad_request", "deal must be 0 or more")
    match = spec.new_match(rules, players, seed)
    current = 0
    frames: list[Frame] = []
    if deal == 0:
        frames.append(_frame(match, players, None, None))
    for event in events:
        if event.kind == NEXT_DEAL:
            if current == deal:
                break
            match.next_deal()
            current += 1
            if current == deal:
                frames.append(_frame(match, players, None, None))
            continue
        if event.kind != ACTION or event.action is None:
            continue
        applied = str(match.apply(event.action, event.seat))  # the canonical text
        if current == deal and len(frames) < MAX_FRAMES:
            frames.append(_frame(match, players, event.seat, applied))
    if current != deal or not frames:
        raise TableError("bad_request", f"deal {deal + 1} has not been played at this table")
    if not match.current.is_over and current == deal:
        raise TableError("bad_request", "a deal can be replayed once it is over")
    return frames


async def deal_frames(live: LiveTable, deal: int) -> list[Frame]:
    """The frames of a finished deal of a live table (its log read under its lock)."""
    async with live.lock:
        events = list(live.log)
    return await asyncio.to_thread(
        replay_deal,
        live.spec,
        live.game_rules,
        live.record.players,
        live.record.seed,
        events,
        deal,
    )


async def open_record(live: LiveTable, ascii: bool = False) -> str:
    """The table's open record (``rami.server.records``): hidden cards never in it."""
    async with live.lock:
        return await asyncio.to_thread(
            table_record,
            live.spec,
            live.match,
            list(live.seats),
            live.record.seed,
            live.record.created_at,
            ascii,
        )
