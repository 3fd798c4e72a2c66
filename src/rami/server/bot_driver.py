"""The bots of a table play their turns: one driver task per table while a bot is due.

A bot only ever receives its seat's view. In a cluster one process holds a table's
lease and drives its bots; the others ask again later. A move the storage could not save
is tried again after a growing pause, so a table never stalls after a database fault.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

from rami.engine import Action
from rami.server.bots import DEFAULT_LEVEL, make_seat_bot, seat_bot_seed
from rami.server.broadcast import Broadcaster
from rami.server.commits import Commits
from rami.server.live import ACTION, LiveTable
from rami.server.protocol import TableError
from rami.server.shared import Shared
from rami.views import GameView

__all__ = ["LEASE_RETRY", "STORAGE_RETRY", "BotDriver"]

log = logging.getLogger(__name__)

LEASE_RETRY = 2.0  # seconds: how often a process asks whether it may drive a table's bots
STORAGE_RETRY = (0.2, 0.5, 1.0, 2.0, 5.0)  # seconds a bot waits before it tries again


class BotDriver:
    """Starts and runs each table's bot driver (``kick`` with the table's lock held)."""

    def __init__(self, shared: Shared, commits: Commits, broadcast: Broadcaster) -> None:
        self.shared = shared
        self.commits = commits
        self.broadcast = broadcast
        self._rng = random.Random()
        self._lease_refused: dict[int, float] = {}  # table id -> when to ask again

    def kick(self, live: LiveTable) -> None:
        """Start the bot driver if a bot is to move (call with the table's lock held)."""
        if self.shared.closing or live.task is not None or live.bot_to_move() is None:
            return
        live.task = asyncio.create_task(self._drive(live))

    def _pause(self, live: LiveTable, seat: int) -> float:
        """A natural pause: shorter for the next step of a turn the bot has begun."""
        delay = self.shared.config.bot_delay
        if delay <= 0:
            return 0.0
        if live.log and live.log[-1].seat == seat and live.log[-1].kind == ACTION:
            delay *= 0.5
        return delay * self._rng.uniform(0.6, 1.4)

    async def _leased(self, live: LiveTable) -> bool:
        """Whether this process drives the table's bots (else it asks again later).

        A held lease is known without a query; a refused one is asked again after
        ``LEASE_RETRY`` (the driving process may have died), and not before: every move
        another process notifies kicks the bots, and each used to ask the database
        (PostgreSQL, bench/server_load --processes 2)."""
        table_id, store = live.record.id, self.shared.store
        if store.holds(table_id):
            return True
        if time.monotonic() < self._lease_refused.get(table_id, 0.0):
            live.task = None  # refused a moment ago: the retry is pending
            return False
        try:
            leased = await asyncio.to_thread(store.lease, table_id)
        except Exception as exc:  # storage down: try again shortly
            log.warning("table %s: cannot check the bots' lease: %s", live.code, exc)
            leased = False
        if not leased:
            live.task = None  # another process drives these bots; ask again later
            self._lease_refused[table_id] = time.monotonic() + LEASE_RETRY
            loop = asyncio.get_running_loop()
            loop.call_later(LEASE_RETRY, self.shared.notify, table_id)
        return leased

    def forget(self, table_id: int) -> None:
        """The table left this process's cache."""
        self._lease_refused.pop(table_id, None)

    async def _drive(self, live: LiveTable) -> None:
        """Play the bots' moves, one after another with a short pause, while they are due.

        A move the storage could not save is tried again after a growing pause, so a
        table never stalls after a database fault (it goes on once the database is back).
        """
        failures = 0
        try:
            if not await self._leased(live):
                return
            while True:
                async with live.lock:
                    seat = live.bot_to_move()
                    if seat is None:
                        live.task = None
                        return
                    version = live.version
                    pause = self._pause(live, seat)
                await asyncio.sleep(pause)
                async with live.lock:
                    if live.version != version or live.bot_to_move() != seat:
                        continue
                    move = await asyncio.to_thread(self._bot_turn, live, seat)
                    try:
                        await self.commits.commit(live, ACTION, seat, move)
                    except TableError as exc:
                        if exc.code == "conflict":  # another process moved for this bot
                            continue
                        if exc.code != "unavailable":
                            log.error(
                                "bot move %r at table %s refused: %s", str(move), live.code, exc
                            )
                            live.task = None
                            return
                        failures += 1
                    else:
                        failures = 0
                        await self.broadcast.push(live)
                if failures:  # storage fault: wait, then the bot tries again by itself
                    wait = STORAGE_RETRY[min(failures, len(STORAGE_RETRY)) - 1]
                    log.warning("table %s: bot move not saved, retry in %.1f s", live.code, wait)
                    await asyncio.sleep(wait)
        except asyncio.CancelledError:
            live.task = None
            raise
        except Exception:
            log.exception("bot driver of table %s stopped", live.code)
            live.task = None

    def _bot_turn(self, live: LiveTable, seat: int) -> Action | str:
        """The bot's view and its move in one worker-thread hop (lock held by the caller)."""
        return self._bot_move(live, seat, live.match.view(seat))

    def _bot_move(self, live: LiveTable, seat: int, view: GameView) -> Action | str:
        """The bot's ``Action`` (given to the deal as it is: no text in between), or the
        first legal move's text if the bot failed."""
        bot = live.bots.get(seat)
        if bot is None:
            level = live.seats[seat].level or DEFAULT_LEVEL
            bot = make_seat_bot(live.spec.name, level, seat_bot_seed(live.record.seed, seat))
            live.bots[seat] = bot
        legal = list(view.get("legal_actions") or ())
        started = time.perf_counter()
        try:
            move = bot.act(view)
            if self.shared.metrics is not None:
                self.shared.metrics.bot_think_seconds.observe(time.perf_counter() - started)
        except Exception:
            log.exception("bot at table %s seat %s failed; playing a legal move", live.code, seat)
            return str(legal[0])
        return move
