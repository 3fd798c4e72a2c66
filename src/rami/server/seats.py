"""Who sits at a table: connections coming and going, seats a bot plays for a while,
and the preset reactions seats send each other.

A human seat whose clock ran out (``rami.server.turn_clock``) or that another player
handed over is played by a bot (``LiveTable.auto``) until its player is back: by
connecting, by playing, or by asking (``resume``).
"""

from __future__ import annotations

import asyncio

from rami.server.bot_driver import BotDriver
from rami.server.broadcast import Broadcaster
from rami.server.connection import Connection
from rami.server.live import LiveTable
from rami.server.protocol import REACTIONS, TableError

__all__ = ["Seats"]


class Seats:
    """Connections, presence and the seats bots play for absent humans."""

    def __init__(self, broadcast: Broadcaster, bots: BotDriver) -> None:
        self.broadcast = broadcast
        self.bots = bots

    async def connect(self, live: LiveTable, conn: Connection) -> None:
        """A client joins the table: welcome, its seat's state, and presence to the rest."""
        async with live.lock:
            live.conns.add(conn)
            if conn.seat is not None:
                live.online[conn.seat] = live.online.get(conn.seat, 0) + 1
            if conn.seat in live.auto:  # the player is back: the bot gives the seat back
                live.auto.discard(conn.seat)
            clock = self.broadcast.clock
            clock.arm(live)  # a clock that should run does (a table loaded from storage)
            view = await asyncio.to_thread(live.match.view, conn.seat)
            conn.send({"type": "welcome", "code": live.code, "seat": conn.seat})
            conn.send(self.broadcast.state_message(live, conn.seat, view, clock.info(live)))
            self.broadcast.presence(live, skip=conn)

    async def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """A client left: its seat is offline once its last connection is gone."""
        conn.close()
        async with live.lock:
            if conn in live.conns:
                live.conns.discard(conn)
                if conn.seat is not None:
                    live.online[conn.seat] = max(0, live.online.get(conn.seat, 0) - 1)
                self.broadcast.presence(live)

    async def resume(self, live: LiveTable, seat: int | None) -> None:
        """The seat's player is back: the bot stops playing for them."""
        if seat is None:
            raise TableError("spectator", "spectators have no seat to take back")
        async with live.lock:
            if seat in live.auto:
                live.auto.discard(seat)
                await self.broadcast.push(live)

    async def hand_to_bot(self, live: LiveTable, seat: int | None, target: object) -> None:
        """A seated player lets a bot play an absent human's seat (until they return)."""
        if seat is None:
            raise TableError("spectator", "spectators cannot hand a seat to a bot")
        if isinstance(target, bool) or not isinstance(target, int):
            raise TableError("bad_message", "'seat' must be a seat number")
        async with live.lock:
            live.check_playing()
            if not 0 <= target < len(live.seats):
                raise TableError("bad_message", f"seat must be 0 to {len(live.seats) - 1}")
            info = live.seats[target]
            if info.kind != "human" or target == seat:
                raise TableError("bad_request", "only another player's seat can be handed over")
            if live.online.get(target, 0) > 0:
                raise TableError("bad_request", "that player is here: only an absent seat")
            live.auto.add(target)
            await self.broadcast.push(live)
            self.bots.kick(live)

    def react(self, live: LiveTable, seat: int | None, key: object) -> None:
        """A preset reaction from a seat to everyone at the table (no free text)."""
        if seat is None:
            raise TableError("spectator", "spectators cannot react")
        if key not in REACTIONS:
            raise TableError("bad_message", f"'key' must be one of {', '.join(REACTIONS)}")
        for conn in live.conns:
            conn.send({"type": "reaction", "seat": seat, "key": key})
