"""Several processes on one PostgreSQL (rami.server.pubsub, storage): a stored event
travels in its notification, so the other processes apply it without reading it back;
a bot lease is one query per table, not one per move, and released it frees the table."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from rami.games import get_game
from rami.server.storage import (
    EventRecord,
    SeatRecord,
    Store,
    TableRecord,
    event_payload,
    parse_payload,
)


def test_a_notification_carries_its_event_whole() -> None:
    for event in (
        EventRecord.read(7, "action", 2, "meld 7♣ 8♣ 9♣"),
        EventRecord.read(8, "action", 2, "add 8♥ @2"),
        EventRecord.read(12, "next_deal", None, ""),
        EventRecord.read(1, "action", 0, "draw"),
    ):
        assert parse_payload(event_payload(41, "abc123", event)) == (41, "abc123", event)
    # a change of seats or status, or an older process: the table id and origin only
    assert parse_payload("41 abc123") == (41, "abc123", None)
    assert parse_payload("41") is None and parse_payload("x abc") is None
    assert parse_payload("41 abc123 x action 0 draw") == (41, "abc123", None)


def one_table(store: Store) -> TableRecord:
    spec = get_game("tunisian")
    rules = dict(spec.rules_from({"preset": spec.presets[0]}).to_json())
    seats = [SeatRecord(i, "bot", "random", f"Bot {i + 1}") for i in range(4)]
    return store.create_table(spec.name, rules, 4, 7, "playing", seats)


def test_another_process_hears_the_event_itself(pg_cluster: Any) -> None:
    from rami.server.pubsub import Listener

    url = pg_cluster.new_database()
    mine, theirs = Store(url), Store(url)
    heard: list[tuple[int, EventRecord | None]] = []

    async def listen() -> None:
        loop = asyncio.get_running_loop()
        ready = asyncio.Event()

        def on_change(table_id: int, event: EventRecord | None) -> None:
            if table_id == -1:
                ready.set()  # listening: catch up on all, then each change
            else:
                heard.append((table_id, event))

        listener = Listener(url, loop, on_change, mine.origin)
        listener.start()
        try:
            await asyncio.wait_for(ready.wait(), 10)
            table = one_table(theirs)
            drawn = EventRecord.read(1, "action", 0, "draw")
            await asyncio.to_thread(theirs.append_events, [(table.id, drawn)])
            await asyncio.to_thread(
                mine.append_event, table.id, EventRecord.read(2, "action", 0, "discard 7♣")
            )
            for _ in range(100):
                if any(event is not None for _, event in heard):
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # this process's own event would come by now
            assert (table.id, drawn) in heard
            assert all(event is None or event.seq == 1 for _, event in heard), heard
        finally:
            await asyncio.to_thread(listener.stop)

    try:
        asyncio.run(listen())
    finally:
        mine.close()
        theirs.close()


def test_a_lease_is_asked_once_and_released_for_good(pg_cluster: Any) -> None:
    """Each bot turn asks for the table's lease: asked again it must not pile up session
    locks, or releasing it once (the table left this process) would keep the other
    processes out for good."""
    url = pg_cluster.new_database()
    mine, theirs = Store(url), Store(url)
    try:
        table = one_table(mine)
        assert not mine.holds(table.id)
        assert all(mine.lease(table.id) for _ in range(3))
        assert mine.holds(table.id)  # the bots' driver asks this first: no query
        assert not theirs.lease(table.id) and not theirs.holds(table.id)
        mine.release(table.id)
        assert not mine.holds(table.id)
        assert theirs.lease(table.id)
        assert not mine.lease(table.id)
    finally:
        mine.close()
        theirs.close()


def test_two_processes_batches_of_the_same_tables_never_deadlock(pg_cluster: Any) -> None:
    """Two processes commit batches of the same tables, listed in opposite orders: the
    tables' locks are taken in table order, so neither waits for the other in a cycle
    (PostgreSQL would abort one with "deadlock detected"); every event is stored."""
    url = pg_cluster.new_database()
    stores = [Store(url), Store(url)]
    errors: list[Exception] = []
    try:
        tables = [one_table(stores[0]).id for _ in range(4)]

        def batches(store: Store, order: list[int], first_seq: int) -> None:
            try:
                for i in range(40):
                    store.append_events(
                        [(t, EventRecord.read(first_seq + i, "action", 0, "draw")) for t in order]
                    )
            except Exception as exc:
                errors.append(exc)

        workers = [
            threading.Thread(target=batches, args=(stores[0], tables, 1)),
            threading.Thread(target=batches, args=(stores[1], tables[::-1], 1001)),
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert not errors, errors
        for t in tables:
            events, _ = stores[0].events_since(t, 0)
            assert len(events) == 80
    finally:
        for store in stores:
            store.close()
