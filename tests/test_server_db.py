"""Schema migrations (Alembic) and seat invitations (issue 14), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("alembic")

from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from rami.server import ServerConfig, create_app
from rami.server.db import alembic_config
from rami.server.storage import Store

TUNISIAN_1V1 = {"game": "tunisian", "preset": "1v1", "seats": [{}, {}]}


@pytest.mark.parametrize("made_before_migrations", [False, True])
def test_old_databases_are_upgraded_and_keep_their_tables(
    db_url: str, made_before_migrations: bool
) -> None:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        command.upgrade(alembic_config(conn), "0001")  # the schema of issue 6
        conn.execute(
            text(
                "INSERT INTO rami_tables (code, game, rules, players, seed, status, created_at) "
                "VALUES ('OLD123', 'tunisian', '{\"preset\": \"1v1\"}', 2, 7, 'waiting', 0)"
            )
        )
        if made_before_migrations:  # create_all() made it: no alembic_version at all
            conn.execute(text("DROP TABLE alembic_version"))
        conn.commit()
    engine.dispose()
    store = Store(db_url)
    try:
        columns = {c["name"] for c in inspect(store.engine).get_columns("rami_tables")}
        assert "invite" in columns
        record = store.load("OLD123")
        assert record is not None and record.invite is None
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0003"
        assert "rami_replay_links" in inspect(store.engine).get_table_names()  # replay links
    finally:
        store.close()
    Store(db_url).close()  # a second start is a no-op


@pytest.fixture
def invite_only(db_url: str) -> Iterator[TestClient]:
    cfg = ServerConfig(db_url=db_url, bot_delay=0, require_invite=True)
    with TestClient(create_app(cfg)) as client:
        yield client


def test_the_public_code_does_not_give_a_seat(invite_only: TestClient) -> None:
    made = invite_only.post("/api/tables", json=TUNISIAN_1V1).json()
    code, invite = made["code"], made["invite"]
    assert made["invite_url"].endswith(f"/t/{code}#invite={invite}") and len(invite) >= 16
    for body in ({}, {"invite": "guess"}, {"invite": invite[:-1]}):
        refused = invite_only.post(f"/api/tables/{code}/join", json=body)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "bad_invite"
    assert invite_only.get(f"/api/tables/{code}").json()["seats"][1]["claimed"] is False
    shared = invite_only.get(
        f"/api/tables/{code}/invite", headers={"Authorization": f"Bearer {made['token']}"}
    ).json()
    assert shared["invite"] == invite
    assert invite_only.get(f"/api/tables/{code}/invite").status_code == 403  # spectators
    joined = invite_only.post(f"/api/tables/{code}/join", json={"invite": invite})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
