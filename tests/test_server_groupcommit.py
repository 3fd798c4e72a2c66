"""Group commit (rami.server.groupcommit): many tables' moves in one transaction, and
still no acknowledgement before the commit (docs/protocol.md: an acknowledged move is
stored), on SQLite and on PostgreSQL (``db_url``): a failed batch loses and duplicates
nothing, and a server killed while batches are committed loses no acknowledged move."""

from __future__ import annotations

import concurrent.futures
import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from rami.games import get_game
from rami.server.groupcommit import GroupCommitter
from rami.server.storage import Conflict, EventRecord, SeatRecord, Store, TableRecord


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()


@contextlib.contextmanager
def held(group: GroupCommitter) -> Iterator[None]:
    """The committer busy (as during a commit) until the block ends: what is submitted
    meanwhile queues, and is committed in one batch once it is released."""
    release, running = threading.Event(), threading.Event()

    def busy() -> tuple[int, EventRecord]:
        running.set()
        release.wait(10)
        raise LookupError("nothing to store")  # refused: the blocker stores nothing

    blocker = group.submit(busy, lambda e, err: None)
    assert running.wait(10)
    try:
        yield
    finally:
        release.set()
        with pytest.raises(LookupError):
            blocker.result(timeout=10)


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
        with held(group):  # a commit in progress: the moves queue behind it
            futures = [
                write(group, t, EventRecord.read(1, "action", 0, "draw"), log) for t in tables
            ]
            done, _ = concurrent.futures.wait(futures, timeout=0.2)
            assert not done and not log  # nothing settled nor acknowledged before its commit
        for future in futures:
            future.result(timeout=10)
        assert group.events == 12 and len(log) == 12
        assert group.batches == 1  # all twelve in one transaction
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
        with held(group):  # both queue behind a commit in progress
            gone = write(group, first, EventRecord.read(1, "action", 0, "draw"), log)
            assert gone.cancel()
        write(group, second, EventRecord.read(1, "action", 0, "draw"), log).result(timeout=10)
        assert group._thread.is_alive()
        later = write(group, first, EventRecord.read(2, "action", 0, "discard 7♣"), log)
        later.result(timeout=10)
        assert [e.data for e in store.events_since(first.id, 0)[0]] == ["draw", "discard 7♣"]
    finally:
        group.close()


def test_a_taken_sequence_number_fails_alone(store: Store, db_url: str) -> None:
    """Another process (a second store on the same database) stored table b's move first:
    b's move is refused as a ``Conflict``, the batch's other moves are stored once."""
    a, b, c = make_tables(store, 3)
    other = Store(db_url)
    other.append_event(b.id, EventRecord.read(1, "action", 0, "draw"))
    other.close()
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    try:
        with held(group):
            good1 = write(group, a, EventRecord.read(1, "action", 0, "draw"), log)
            bad = write(group, b, EventRecord.read(1, "action", 0, "take"), log)
            good2 = write(group, c, EventRecord.read(1, "action", 0, "draw"), log)
        good1.result(timeout=10)
        good2.result(timeout=10)
        with pytest.raises(Conflict):
            bad.result(timeout=10)
        assert [e.data for e in store.events_since(b.id, 0)[0]] == ["draw"]
        assert len(store.events_since(a.id, 0)[0]) == 1
        assert len(store.events_since(c.id, 0)[0]) == 1
        assert len(log) == 2
    finally:
        group.close()


def test_a_batch_that_fails_after_its_insert_is_stored_once_each(store: Store) -> None:
    """The database fails inside the batch's transaction, after the rows were inserted:
    the transaction is rolled back, each move is then stored on its own, exactly once,
    and each waiter is answered only after its own commit."""
    tables = make_tables(store, 5)
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    failed = {"n": 0}

    def fail_once(conn: Any, cursor: Any, statement: str, *args: object) -> None:
        if "INSERT INTO rami_events" in statement and failed["n"] == 0:
            failed["n"] += 1
            raise OperationalError(statement, {}, Exception("server closed the connection"))

    event.listen(store.engine, "after_cursor_execute", fail_once)
    try:
        with held(group):
            futures = [
                write(group, t, EventRecord.read(1, "action", 0, "draw"), log) for t in tables
            ]
        for future in futures:
            future.result(timeout=10)
        assert failed["n"] == 1 and len(log) == 5
        assert group.batches == 5  # the failed batch stored nothing; then one by one
        for t in tables:
            assert [(e.seq, e.data) for e in store.events_since(t.id, 0)[0]] == [(1, "draw")]
    finally:
        event.remove(store.engine, "after_cursor_execute", fail_once)
        group.close()


def test_close_stores_what_is_queued_then_refuses(store: Store) -> None:
    (t,) = make_tables(store, 1)
    group = GroupCommitter(store)
    log: list[EventRecord] = []
    future = write(group, t, EventRecord.read(1, "action", 0, "draw"), log)
    group.close()
    future.result(timeout=1)
    with pytest.raises(RuntimeError):
        write(group, t, EventRecord.read(2, "action", 1, "draw"), log).result(timeout=1)


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


def test_a_move_whose_group_commit_fails_is_refused_and_changes_nothing(db_url: str) -> None:
    """A storage fault: the move is answered ``unavailable`` (no ack), the match stays as
    logged, and the same move is accepted once the database answers again."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from sqlalchemy.exc import OperationalError

    from rami.server import ServerConfig, create_app

    app = create_app(ServerConfig(db_url=db_url, bot_delay=0))
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


def test_a_server_killed_while_committing_batches_loses_no_acknowledged_move(
    db_url: str,
) -> None:
    """kill -9 while moves of several tables are being committed together: after a
    restart every acknowledged move is there, each table's log is whole (1, 2, 3, …:
    no move lost nor stored twice) and play goes on (docs/protocol.md)."""
    httpx = pytest.importorskip("httpx")
    from server_process import free_port, start_server, stop

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(db_url, port, "--no-limits")
    body = {"game": "tunisian", "preset": "1v1", "seats": [{"kind": "human"}] * 2}
    tables: dict[str, list[str]] = {}
    acked: dict[str, int] = {}
    stop_playing = threading.Event()

    def play(code: str, tokens: list[str]) -> None:
        """Move as fast as acknowledged; remember the last acknowledged version."""
        with httpx.Client(base_url=base, timeout=10) as client:
            while not stop_playing.is_set():
                view = client.get(f"/api/tables/{code}/view", headers=bearer(tokens[0])).json()
                if view["view"]["result"] is not None:
                    done = client.post(f"/api/tables/{code}/next-deal", headers=bearer(tokens[0]))
                else:
                    mover = tokens[view["view"]["to_move"]]
                    legal = client.get(f"/api/tables/{code}/view", headers=bearer(mover)).json()
                    action = choose(legal["view"]["legal_actions"])
                    done = client.post(
                        f"/api/tables/{code}/actions",
                        json={"action": action},
                        headers=bearer(mover),
                    )
                if done.status_code == 200:
                    acked[code] = max(acked.get(code, 0), done.json()["version"])

    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            for _ in range(4):
                made = client.post("/api/tables", json=body).json()
                joined = client.post(
                    f"/api/tables/{made['code']}/join", json={"invite": made["invite"]}
                ).json()
                tables[made["code"]] = [made["token"], joined["token"]]
        players = [
            threading.Thread(target=guarded, args=(play, code, tokens))
            for code, tokens in tables.items()
        ]
        for player in players:
            player.start()
        deadline = time.time() + 20
        while sum(acked.values()) < 30 and time.time() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)  # moves of several tables in flight
        proc.wait(timeout=10)
    finally:
        stop_playing.set()
        stop(proc)
    for player in players:
        player.join(timeout=20)
    assert sum(acked.values()) >= 30, acked
    proc = start_server(db_url, port, "--no-limits")
    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            for code, tokens in tables.items():
                view = client.get(f"/api/tables/{code}/view", headers=bearer(tokens[0])).json()
                # the acknowledged moves, plus at most the one in flight when killed
                assert acked.get(code, 0) <= view["version"] <= acked.get(code, 0) + 1, code
        store = Store(db_url)
        try:
            for code in tables:
                record = store.load(code)
                assert record is not None
                assert [e.seq for e in record.events] == list(range(1, len(record.events) + 1))
        finally:
            store.close()
        code, tokens = next(iter(tables.items()))
        with httpx.Client(base_url=base, timeout=10) as client:
            view = client.get(f"/api/tables/{code}/view", headers=bearer(tokens[0])).json()
            if view["view"]["result"] is None:  # play goes on from the stored log
                mover = tokens[view["view"]["to_move"]]
                legal = client.get(f"/api/tables/{code}/view", headers=bearer(mover)).json()
                done = client.post(
                    f"/api/tables/{code}/actions",
                    json={"action": choose(legal["view"]["legal_actions"])},
                    headers=bearer(mover),
                )
                assert done.status_code == 200 and done.json()["version"] == view["version"] + 1
    finally:
        stop(proc)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def choose(legal: list[str]) -> str:
    discards = [a for a in legal if a.startswith("discard")]
    return "draw" if "draw" in legal else (discards or legal)[0]


def guarded(play: Any, *args: object) -> None:
    """A player thread ends quietly when the server is killed under it."""
    with contextlib.suppress(Exception):
        play(*args)
