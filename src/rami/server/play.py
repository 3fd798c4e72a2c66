"""Play from a seat: a move, the next deal, and what a seat may read (state, hint, hand).

The server is authoritative. A client names an intended action; the table checks that
the client's seat is to move, lets the engine check the action itself (all-or-nothing),
appends it to the table's event log and commits (``rami.server.commits``), and only then
acknowledges it and pushes every connection its own seat's view. Anything refused is
answered with an error to that client and changes nothing.
"""

from __future__ import annotations

import asyncio
from typing import TypedDict

from rami.server.arrange import arrange_hand
from rami.server.bot_driver import BotDriver
from rami.server.broadcast import Broadcaster
from rami.server.commits import Commits
from rami.server.connection import Connection
from rami.server.hints import Hint, hint_for
from rami.server.live import ACTION, NEXT_DEAL, LiveTable, TableSummaryJson
from rami.server.protocol import TableError
from rami.server.shared import Shared
from rami.views import GameView

__all__ = ["MAX_ACTION_TEXT", "Play", "TableState"]

MAX_ACTION_TEXT = 200


class TableState(TypedDict):
    """A seat's state over HTTP (``protocol.StateResponse``)."""

    version: int
    seat: int | None
    table: TableSummaryJson
    view: GameView


class Play:
    """A seat's moves and reads, each under the table's lock."""

    def __init__(
        self, shared: Shared, commits: Commits, broadcast: Broadcaster, bots: BotDriver
    ) -> None:
        self.shared = shared
        self.commits = commits
        self.broadcast = broadcast
        self.bots = bots

    async def act(
        self, live: LiveTable, seat: int | None, text: object, conn: Connection | None, ref: object
    ) -> int:
        """Play ``text`` for ``seat``; returns the new version (``TableError`` if refused)."""
        if seat is None:
            raise TableError("spectator", "spectators cannot play")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_TEXT:
            raise TableError("bad_message", "'action' must be an action's text, e.g. 'draw'")
        async with live.lock:
            live.check_playing()
            current = live.match.current
            if current.is_over:
                raise TableError("illegal", "the deal is over: start the next deal")
            try:  # the deal checks the turn and keeps the action's canonical text
                await self.commits.commit(live, ACTION, seat, text)
            except TableError as exc:
                if exc.code != "not_your_turn":
                    live.auto.discard(seat)  # a player who plays is back
                raise
            live.auto.discard(seat)
            if conn is not None:
                conn.send({"type": "ack", "id": ref, "version": live.version})
            await self.broadcast.push(live)
            self.bots.kick(live)
            return live.version

    async def next_deal(
        self, live: LiveTable, seat: int | None, conn: Connection | None, ref: object
    ) -> int:
        """Deal the next deal once the current one is over; returns the new version."""
        if seat is None:
            raise TableError("spectator", "spectators cannot start a deal")
        async with live.lock:
            live.check_playing()
            if not live.match.current.is_over:
                raise TableError("deal_not_over", "the current deal is not over yet")
            await self.commits.commit(live, NEXT_DEAL, seat, None)
            if conn is not None:
                conn.send({"type": "ack", "id": ref, "version": live.version})
            await self.broadcast.push(live)
            self.bots.kick(live)
            return live.version

    async def state(self, live: LiveTable, seat: int | None) -> TableState:
        """The current version, summary and view of ``seat`` (HTTP and reconnects)."""
        async with live.lock:
            view = await asyncio.to_thread(live.match.view, seat)
            return {"version": live.version, "seat": seat, "table": live.summary(), "view": view}

    async def hint(self, live: LiveTable, seat: int | None) -> Hint:
        """A suggested move and notes on the seat's own cards (from its view only)."""
        if seat is None:
            raise TableError("spectator", "spectators get no hints")
        async with live.lock:
            view = await asyncio.to_thread(live.match.view, seat)
            seed = live.record.seed ^ (seat + 1) ^ live.version
        level = self.shared.config.hint_level
        return await asyncio.to_thread(hint_for, live.spec.name, view, level, seed)

    async def arrange(self, live: LiveTable, seat: int | None) -> list[list[str]]:
        """The solvers' grouping of the seat's own hand (from its view only)."""
        if seat is None:
            raise TableError("spectator", "spectators have no hand")
        async with live.lock:
            view = await asyncio.to_thread(live.match.view, seat)
        return await asyncio.to_thread(arrange_hand, live.spec.name, view)
