"""A table's life: created from a lobby request, joined seat by seat, started (free seats
filled with bots), and continued by a rematch with the same seats once its match is over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from rami.errors import InputError
from rami.games import Game, get_game
from rami.server.bot_driver import BotDriver
from rami.server.bots import DEFAULT_LEVEL, bot_levels
from rami.server.broadcast import Broadcaster
from rami.server.guards import clean_name
from rami.server.live import LiveTable
from rami.server.protocol import CreateTable, SeatSpec, TableError
from rami.server.records import new_match_seed
from rami.server.seat_timer import DEFAULT_TURN_SECONDS, check_turn_seconds, game_rules
from rami.server.shared import Shared
from rami.server.storage import SeatRecord, hash_token, new_token
from rami.server.turn_clock import TurnClock
from rami.views import RulesJson

__all__ = ["Lifecycle"]


def _levels(spec: Game, seats: list[SeatSpec], players: int, preset: str) -> tuple[str, ...]:
    """The bot levels a new table may seat: the bots', and shipped models if asked for."""
    levels = bot_levels()
    if any(str(s.level or "").startswith("learned:") for s in seats):
        from rami.bots.learned import learned_levels  # the shipped models only

        levels = (*levels, *learned_levels(spec.name, players, preset))
    return levels


def _seat_records(
    req: CreateTable, levels: tuple[str, ...], creator: int, token: str
) -> list[SeatRecord]:
    """The new table's seats: bots at their levels, the creator's seat, open human seats."""
    seats: list[SeatRecord] = []
    for i, s in enumerate(req.seats):
        name = s.name
        if s.kind == "bot":
            level = s.level or DEFAULT_LEVEL
            if level not in levels:
                raise TableError(
                    "bad_request",
                    f"unknown bot level {level!r}: use one of {', '.join(levels)}",
                )
            name = clean_name(name, f"Bot {i + 1}", False)
            seats.append(SeatRecord(i, "bot", level, name))
        elif i == creator:
            name = clean_name(req.name or name, f"Player {i + 1}", True)
            seats.append(SeatRecord(i, "human", None, name, hash_token(token)))
        else:
            seats.append(SeatRecord(i, "human", None, clean_name(name, f"Seat {i + 1}", True)))
    return seats


class Lifecycle:
    """Creates, joins, starts and rematches tables (each under the table's lock)."""

    def __init__(
        self,
        shared: Shared,
        keep: Callable[[LiveTable], Awaitable[None]],
        clock: TurnClock,
        broadcast: Broadcaster,
        bots: BotDriver,
    ) -> None:
        self.shared = shared
        self._keep = keep  # a new table enters the server's cache
        self.clock = clock
        self.broadcast = broadcast
        self.bots = bots

    async def _open(self, live: LiveTable) -> LiveTable:
        """A new table joins the cache; its first mover's clock or bot starts."""
        await self._keep(live)
        async with live.lock:
            self.clock.arm(live)  # a human who moves first has a clock too
            self.bots.kick(live)
        return live

    async def create(self, req: CreateTable) -> tuple[LiveTable, int | None, str | None]:
        """A new table from a ``CreateTable`` request; the creator's seat and token."""
        try:
            spec = get_game(req.game)
            preset = req.preset or spec.presets[0]
            options = dict(req.options)
            options.pop("preset", None)
            rules = spec.rules_from({"preset": preset, **options})
        except InputError as exc:
            raise TableError("bad_request", str(exc)) from None
        players = len(req.seats)
        allowed = spec.players_for(rules)
        if players not in allowed:
            raise TableError(
                "bad_request",
                f"{spec.title} with these rules is for {allowed[0]}–{allowed[-1]} players, "
                f"not {players}",
            )
        humans = [i for i, s in enumerate(req.seats) if s.kind == "human"]
        if not humans:
            raise TableError("bad_request", "a table needs at least one human seat")
        creator = humans[0] if req.seat is None else req.seat
        if creator not in humans:
            raise TableError("bad_request", f"seat {creator} is not a human seat")
        token = new_token()
        levels = _levels(spec, req.seats, players, preset)
        seats = _seat_records(req, levels, creator, token)
        seed = new_match_seed()
        try:
            match = spec.new_match(rules, players, seed)
        except InputError as exc:
            raise TableError("bad_request", str(exc)) from None
        status = "playing" if len(humans) == 1 else "waiting"
        stored: RulesJson = dict(rules.to_json())
        wanted = req.turn_seconds
        if wanted == -1:  # the default: a clock only where other people would wait
            wanted = DEFAULT_TURN_SECONDS if len(humans) > 1 else None
        stored["turn_seconds"] = check_turn_seconds(wanted)
        record = await asyncio.to_thread(
            self.shared.store.create_table, spec.name, stored, players, seed, status, seats
        )
        live = await self._open(LiveTable(record, spec, match))
        return live, creator, token

    async def join(self, live: LiveTable, seat: int | None, name: str | None) -> tuple[int, str]:
        """Give a free human seat to a new player; their token."""
        async with live.lock:
            free = [s.seat for s in live.seats if s.kind == "human" and s.token_hash is None]
            if seat is None:
                if not free:
                    raise TableError("no_free_seat", "every seat of this table is taken")
                seat = free[0]
            if not 0 <= seat < len(live.seats):
                raise TableError("bad_message", f"seat must be 0 to {len(live.seats) - 1}")
            if seat not in free:
                raise TableError("seat_taken", f"seat {seat} is not free")
            token = new_token()
            name = clean_name(name, f"Player {seat + 1}", True)
            ok = await asyncio.to_thread(
                self.shared.store.claim_seat, live.record.id, seat, hash_token(token), name
            )
            if not ok:
                raise TableError("seat_taken", f"seat {seat} is not free")
            live.seats[seat].token_hash = hash_token(token)
            live.seats[seat].name = name
            if live.record.status == "waiting" and len(free) == 1:
                await self._start_locked(live)
            else:
                self.broadcast.presence(live)
            return seat, token

    async def start(self, live: LiveTable, seat: int | None) -> None:
        """Fill the free seats with bots and start play (any seated player may)."""
        if seat is None:
            raise TableError("spectator", "spectators cannot start the table")
        async with live.lock:
            if live.record.status == "waiting":
                await self._start_locked(live)

    async def _start_locked(self, live: LiveTable) -> None:
        fill = {
            s.seat: (DEFAULT_LEVEL, f"Bot {s.seat + 1}")
            for s in live.seats
            if s.kind == "human" and s.token_hash is None
        }
        await asyncio.to_thread(self.shared.store.start, live.record.id, fill)
        for seat, (level, name) in fill.items():
            live.seats[seat].kind = "bot"
            live.seats[seat].level = level
            live.seats[seat].name = name
        live.record.status = "playing"
        await self.broadcast.push(live)
        self.bots.kick(live)

    async def rematch(self, live: LiveTable, seat: int | None) -> str:
        """A new match with the same seats (same tokens) and a new seed; its code."""
        if seat is None:
            raise TableError("spectator", "spectators cannot ask for a rematch")
        async with live.lock:
            if not live.match.is_over:
                raise TableError("bad_request", "a rematch can start once the match is over")
            if live.rematch is not None:
                return live.rematch
            seats = [SeatRecord(s.seat, s.kind, s.level, s.name, s.token_hash) for s in live.seats]
            spec = live.spec
            record = await asyncio.to_thread(
                self.shared.store.create_table,
                spec.name,
                dict(live.record.rules),
                live.record.players,
                new_match_seed(),
                "playing",
                seats,
            )
            match = spec.new_match(game_rules(record.rules), record.players, record.seed)
            new = LiveTable(record, spec, match)
            live.rematch = record.code
            for conn in live.conns:
                conn.send({"type": "rematch", "code": record.code})
        await self._open(new)  # the rematch's first mover may be an absent human
        return record.code
