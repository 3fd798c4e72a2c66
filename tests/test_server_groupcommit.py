"""Group commit (rami.server.groupcommit): many tables' moves in one transaction, and
still no acknowledgement before the commit (docs/protocol.md: an acknowledged move is
stored)."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Iterator
from pathlib import Path

import pytest

from rami.games import get_game
from rami.server.groupcommit import GroupCommitter
from rami.server.storage import Conflict, EventRecord, SeatRecord, Store, TableRecord


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{tmp_path / 'group.db'}")
    yield s
    s.close()


def write(
    group: GroupCommitter, table: TableRecord, event: EventRecord, log: list[EventRecord]
) -> concurrent.futures.Future[None]:
    """Queue ``event``; ``log`` gets it once it is committed (as a table's log would)."""

    def settle(stored: EventRecord, error: Exception | None) -> None:
        if error is None:
            log.append(stored)

    return group.submit(lambda: (table.id, event), settle)


def make_tables(store: Store, count: int) -> list[TableRecord]:
    spec = get_game("tunisian")
    rules = dict(spec.rules_from({"preset": spec.presets[0]}).to_json())
    seats = [SeatRecord(i, "bot", "random", f"Bot {i + 1}") for i in range(4)]
    return [store.create_table(spec.name, rules, 4, 7 + i, "playing", seats) for i in range(count)]


def test_queued_moves_of_many_tables_share_one_commit_and_resolve_only_after_it(
    store: Store,
) -> None:
    tables = make_tables(store, 12)
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    try:
        with store._write_lock:  # a commit in progress: the moves queue behind it
            futures = [write(group, t, EventRecord(1, "action", 0, "draw"), log) for t in tables]
            done, _ = concurrent.futures.wait(futures, timeout=0.2)
            assert not done and not log  # nothing settled nor acknowledged before its commit
        for future in futures:
            future.result(timeout=10)
        assert group.events == 12 and len(log) == 12
        assert group.batches <= 2  # the first may have gone alone; the rest together
        for t in tables:
            events, _ = store.events_since(t.id, 0)
            assert [(e.seq, e.data) for e in events] == [(1, "draw")]
    finally:
        group.close()


def test_a_cancelled_waiter_does_not_stop_the_writer(store: Store) -> None:
    """A request cancelled while its move waits (its socket closed, the server stopping)
    cancels its future; the writer stores the move and goes on with the next ones (setting
    a cancelled future raises: it once ended the thread, and every later commit with it)."""
    first, second = make_tables(store, 2)
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    try:
        with store._write_lock:  # both queue behind a commit in progress
            gone = write(group, first, EventRecord(1, "action", 0, "draw"), log)
            assert gone.cancel()
        write(group, second, EventRecord(1, "action", 0, "draw"), log).result(timeout=10)
        assert group._thread.is_alive()
        later = write(group, first, EventRecord(2, "action", 0, "discard 7♣"), log)
        later.result(timeout=10)
        assert [e.data for e in store.events_since(first.id, 0)[0]] == ["draw", "discard 7♣"]
    finally:
        group.close()


def test_a_taken_sequence_number_fails_alone(store: Store) -> None:
    a, b, c = make_tables(store, 3)
    store.append_event(b.id, 1, "action", 0, "draw")
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    try:
        with store._write_lock:
            good1 = write(group, a, EventRecord(1, "action", 0, "draw"), log)
            bad = write(group, b, EventRecord(1, "action", 0, "take"), log)
            good2 = write(group, c, EventRecord(1, "action", 0, "draw"), log)
        good1.result(timeout=10)
        good2.result(timeout=10)
        with pytest.raises(Conflict):
            bad.result(timeout=10)
        assert [e.data for e in store.events_since(b.id, 0)[0]] == ["draw"]
        assert len(store.events_since(c.id, 0)[0]) == 1
        assert len(log) == 2
    finally:
        group.close()


def test_close_stores_what_is_queued_then_refuses(store: Store) -> None:
    (t,) = make_tables(store, 1)
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    future = write(group, t, EventRecord(1, "action", 0, "draw"), log)
    group.close()
    future.result(timeout=1)
    with pytest.raises(RuntimeError):
        write(group, t, EventRecord(2, "action", 1, "draw"), log).result(timeout=1)


def test_a_refused_move_is_not_stored(store: Store) -> None:
    (t,) = make_tables(store, 1)
    group = GroupCommitter(store)

    def illegal() -> tuple[int, EventRecord]:
        raise ValueError("not a legal move")

    try:
        with pytest.raises(ValueError):
            group.submit(illegal, lambda e, err: None).result(timeout=10)
        assert store.events_since(t.id, 0)[0] == []
    finally:
        group.close()


def test_a_move_whose_group_commit_fails_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A storage fault: the move is answered ``unavailable`` (no ack), the match stays as
    logged, and the same move is accepted once the database answers again."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from sqlalchemy.exc import OperationalError

    from rami.server import ServerConfig, create_app

    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0))
    with TestClient(app) as client:
        body = {"game": "tunisian", "preset": "1v1", "seats": [{"kind": "human"}] * 2}
        made = client.post("/api/tables", json=body).json()
        joined = client.post(f"/api/tables/{made['code']}/join", json={}).json()
        tokens = {0: made["token"], joined["seat"]: joined["token"]}
        store: Store = app.state.manager.store
        real = store.append_events
        calls = {"n": 0}

        def failing(events: list[tuple[int, EventRecord]]) -> None:
            calls["n"] += 1
            if calls["n"] == 1:
                raise OperationalError("INSERT", {}, Exception("disk I/O error"))
            real(events)

        store.append_events = failing  # type: ignore[method-assign]
        first = client.get(
            f"/api/tables/{made['code']}/view", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).json()
        mover = tokens[first["view"]["to_move"]]
        with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            ws.send_json({"type": "hello", "token": mover})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            assert state["type"] == "state" and state["view"]["legal_actions"], state
            version = state["version"]
            action = state["view"]["legal_actions"][0]
            ws.send_json({"type": "action", "action": action, "id": 1})
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["code"] == "unavailable"
            assert refused["id"] == 1
            view = client.get(
                f"/api/tables/{made['code']}/view",
                headers={"Authorization": f"Bearer {mover}"},
            ).json()
            assert view["version"] == version
            ws.send_json({"type": "action", "action": action, "id": 2})
            ack = ws.receive_json()
            while ack["type"] != "ack":
                assert ack["type"] != "error", ack
                ack = ws.receive_json()
            assert ack["id"] == 2 and ack["version"] == version + 1
        events, _ = store.events_since(app.state.manager.tables[made["code"]].record.id, 0)
        assert len(events) == version + 1
