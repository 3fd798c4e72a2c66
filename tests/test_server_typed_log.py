"""The server's log holds typed actions (issue 22): a stored row is read once, when its
table loads, and rebuilding a match replays ``Action`` values, never text. Rows written
before (any text the engine accepted: ASCII suits, capitals) still load, on SQLite and
PostgreSQL; a row no engine can read refuses the table with one line, not a traceback."""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import text

from rami.engine import Action
from rami.games import get_game
from rami.server import ServerConfig
from rami.server.protocol import TableError
from rami.server.storage import ACTION, NEXT_DEAL, EventRecord, SeatRecord, Store, parse_payload
from rami.server.tables import TableManager

GAME, RULES, SEED = "tunisian", {"preset": "1v1"}, 7


def _moves(count: int) -> list[tuple[int, Action]]:
    """The first ``count`` moves of a seeded match (each the first legal one)."""
    match = get_game(GAME).new_match(RULES, 2, SEED)
    out = []
    for _ in range(count):
        seat = match.current.to_move
        assert seat is not None
        out.append((seat, match.apply(match.current.legal_actions()[0], seat)))
    return out


def _old_table(store: Store, texts: list[tuple[int, str]]) -> str:
    """A table whose rows were written as the given texts, straight into the database."""
    seats = [SeatRecord(0, "human", None, "a"), SeatRecord(1, "human", None, "b")]
    record = store.create_table(GAME, RULES, 2, SEED, "playing", seats)
    with store.writing() as conn:
        for seq, (seat, data) in enumerate(texts, 1):
            conn.execute(
                text(
                    "INSERT INTO rami_events (table_id, seq, kind, seat, data, created_at) "
                    "VALUES (:t, :s, 'action', :seat, :d, 0)"
                ),
                {"t": record.id, "s": seq, "seat": seat, "d": data},
            )
    return record.code


def test_old_rows_load_as_typed_actions_and_rebuild_without_text(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = _moves(12)
    old = [(seat, a.text(ascii=True).upper()) for seat, a in moves]  # e.g. "DISCARD 7C"
    store = Store(db_url)
    try:
        code = _old_table(store, old)
        live = TableManager(store, ServerConfig(db_url=db_url))._load(code)
        assert [e.action for e in live.log] == [a for _, a in moves]  # canonical, typed
        assert [e.data for e in live.log] == [str(a) for _, a in moves]
        assert live.version == len(moves)
        view = live.match.view(0)

        def no_text(*_: object) -> Action:
            raise AssertionError("the log was read as text again")

        monkeypatch.setattr(Action, "parse", no_text)
        live.rebuild()  # what a failed store or a conflict does: typed actions only
        assert live.match.view(0) == view
    finally:
        store.close()


def test_an_unreadable_row_refuses_the_table_in_one_line(db_url: str) -> None:
    store = Store(db_url)
    try:
        code = _old_table(store, [(0, "discard 7q")])
        with pytest.raises(TableError) as refused:
            TableManager(store, ServerConfig(db_url=db_url))._load(code)
        assert refused.value.code == "internal" and "cannot be restored" in str(refused.value)
    finally:
        store.close()


def test_events_read_once_from_rows_and_notifications() -> None:
    drawn = EventRecord.read(3, ACTION, 1, "DRAW")
    assert drawn.action == Action("draw") and drawn.data == "draw"
    assert EventRecord.read(4, NEXT_DEAL, 0, "").action is None
    with pytest.raises(ValueError, match="unknown event kind"):
        EventRecord.read(5, "undo", 0, "")
    # a notification whose action this process cannot read: it reads the table instead
    assert parse_payload("41 abc123 3 action 1 discard 7q") == (41, "abc123", None)
    assert parse_payload("41 abc123 3 action 1 draw") == (41, "abc123", drawn)


def test_a_move_is_logged_with_the_action_the_deal_applied(db_url: str) -> None:
    """A bot's ``Action`` goes to the deal as it is (a listed move: the deal's fast path
    keeps that very object) and a client's text is read by the deal: the log holds the
    applied action either way, and stores its canonical text."""
    store = Store(db_url)
    try:
        live = TableManager(store, ServerConfig(db_url=db_url))._load(_old_table(store, []))
        for _ in range(2):
            seat = live.match.current.to_move
            live.match.view(seat)  # what a bot reads first: the legal moves are listed
            move = live.match.current.legal_actions()[0]
            event = live.play(ACTION, seat, move)
            assert (event.seq, event.action, event.data) == (live.version + 1, move, str(move))
            live.log.append(event)
            seat = live.match.current.to_move
            text = live.match.current.legal_actions()[0].text(ascii=True).upper()
            event = live.play(ACTION, seat, text)
            assert event.action == Action.parse(text) and event.data == str(Action.parse(text))
            live.log.append(event)
        with pytest.raises(ValueError):
            EventRecord(9, ACTION, 0)  # an action event always names its action
    finally:
        store.close()
