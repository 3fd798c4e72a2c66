"""The turn clock: how long the human to move has before a bot plays their seat.

One clock per table, keyed by (version, seat): a move, a new deal or a seat handed to a
bot changes the key and restarts or stops it. When time runs out the seat goes to a bot
(``LiveTable.auto``) until its player is back (``rami.server.seats``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypedDict

from rami.server.live import LiveTable
from rami.server.shared import Shared

__all__ = ["ClockInfo", "TurnClock"]

log = logging.getLogger(__name__)


class ClockInfo(TypedDict):
    """A running clock as the clients get it (``timer`` in state and presence messages)."""

    seat: int | None
    remaining: float
    seconds: int | None


class TurnClock:
    """Arms, reads and expires the tables' turn clocks (on the event loop, lock held)."""

    def __init__(self, shared: Shared, on_timeout: Callable[[LiveTable], Awaitable[None]]):
        self.shared = shared
        self._on_timeout = on_timeout  # a bot now plays a seat: push the table, kick its bots

    def info(self, live: LiveTable) -> ClockInfo | None:
        """The running clock: whose it is and the seconds left (None: no clock runs)."""
        if live.deadline is None or live.timer_key is None:
            return None
        left = max(0.0, live.deadline - asyncio.get_running_loop().time())
        seat = live.timer_key[1]
        return {"seat": seat, "remaining": round(left, 1), "seconds": live.turn_seconds}

    def arm(self, live: LiveTable) -> None:
        """(Re)start the clock of the human to move, if the table has one (lock held)."""
        seat = live.human_to_move()
        key = (live.version, seat)
        if live.timer_key == key and (live.timer_task is not None or live.deadline is None):
            return
        if live.timer_task is not None:
            live.timer_task.cancel()
            live.timer_task = None
        live.timer_key = key
        seconds = live.turn_seconds
        if seat is None or not seconds or self.shared.closing:
            live.deadline = None
            return
        loop = asyncio.get_running_loop()
        live.deadline = loop.time() + seconds
        live.timer_task = asyncio.create_task(self._expire(live, key, float(seconds)))

    async def _expire(self, live: LiveTable, key: tuple[int, int | None], seconds: float) -> None:
        """When the mover's time is up, a bot plays their seat until they come back."""
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            return
        async with live.lock:
            if live.timer_key != key or live.human_to_move() != key[1] or key[1] is None:
                return
            live.timer_task = None
            live.deadline = None
            live.auto.add(key[1])
            log.info("table %s: seat %s ran out of time; a bot plays it", live.code, key[1])
            await self._on_timeout(live)
