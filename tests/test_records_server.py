"""The server's open records and verifiable shuffles (issue 24, parts 1 and 3).

Before a deal the table's summary publishes ``sha256(seed || salt)``; once the deal is over
it reveals seed and salt. ``GET /api/tables/{code}/record`` holds finished deals in full
and the deal in play only as public moves: no hand, no stock draw, no seed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from test_server_ws import hello, is_state, new_table, until

from rami.records import commits, read, verify
from rami.server import ServerConfig, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0))
    with TestClient(app) as c:
        yield c


def test_record_hides_the_deal_in_play_and_reveals_a_finished_deal(client: TestClient) -> None:
    made = new_table(
        client, [{"kind": "human", "name": "Ana"}, {"kind": "bot"}], options={"max_turns": 6}
    )
    code, token = made["code"], made["token"]
    shuffle = made["table"]["shuffle"]
    assert shuffle["deal"] == 1 and len(shuffle["commitment"]) == 64
    assert shuffle["seed"] is None and shuffle["salt"] is None  # not before the deal's end
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        state = hello(ws, token)
        for _ in range(3):  # a few moves, the deal still in play
            legal = state["view"].get("legal_actions") or []
            if legal:
                ws.send_json({"type": "action", "action": legal[0]})
            state = until(ws, is_state)
        response = client.get(f"/api/tables/{code}/record")
        assert response.status_code == 200
        assert "attachment" in response.headers["content-disposition"]
        text = response.text
        assert not state["view"].get("result")
        for hidden in ("Seed:", "Salt:", "Hand ", "Chance ", "draw ["):
            assert hidden not in text  # nothing of the deal in play beyond its public moves
        assert f"Commitment: {shuffle['commitment']}" in text
        assert '"Ana" human' in text
        record = read(text)
        assert not record.deals[0].revealed
        assert verify(text).ok is False  # nothing is over: nothing to verify yet
        for _ in range(300):
            if state["view"].get("result"):
                break
            legal = state["view"].get("legal_actions") or []
            if legal:
                ws.send_json({"type": "action", "action": legal[-1]})
            state = until(ws, is_state)
        assert state["view"]["result"]
        revealed = state["table"]["shuffle"]
        assert revealed["seed"] is not None
        assert commits(shuffle["commitment"], revealed["seed"], revealed["salt"])
    text = client.get(f"/api/tables/{code}/record").text
    verdict = verify(text)
    assert verdict.ok, verdict.message
    deal = read(text).deals[0]
    assert deal.seed == revealed["seed"] and deal.commitment == shuffle["commitment"]
    final = deal.final_state()
    assert final.is_over and final.result is not None
    ascii = client.get(f"/api/tables/{code}/record?ascii=true").text
    assert ascii.isascii() and verify(ascii).ok
    assert client.get("/api/tables/NOPE42/record").status_code == 404


def test_table_seeds_are_drawn_with_secrets_and_wide() -> None:
    """Seeds of 63 bits (secrets): the salts derive from them, so they must not be guessed."""
    from rami.server.records import SEED_BITS, new_match_seed

    seeds = {new_match_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(0 <= s < 1 << SEED_BITS for s in seeds)
    assert max(seeds) >= 1 << 48  # wider than the old 48-bit seeds


def test_a_new_deal_gets_a_new_commitment_and_the_past_deal_verifies(client: TestClient) -> None:
    """Two humans over HTTP: deal 1 ends (its seed revealed), deal 2 is dealt with its own
    commitment; the record then verifies deal 1 and keeps deal 2 hidden."""
    made = new_table(client, [{"kind": "human"}, {"kind": "human"}], options={"max_turns": 4})
    code = made["code"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()
    auth = [{"Authorization": f"Bearer {t}"} for t in (made["token"], joined["token"])]
    first = made["table"]["shuffle"]["commitment"]

    def play_deal() -> dict[str, object]:
        for _ in range(200):
            state = client.get(f"/api/tables/{code}/view", headers=auth[0]).json()
            view = state["view"]
            if view.get("result"):
                return state  # type: ignore[no-any-return]
            seat = view["to_move"]
            mine = client.get(f"/api/tables/{code}/view", headers=auth[seat]).json()["view"]
            action = mine["legal_actions"][-1]
            response = client.post(
                f"/api/tables/{code}/actions", json={"action": action}, headers=auth[seat]
            )
            assert response.status_code == 200, response.text
        raise AssertionError("the deal did not end")

    over = play_deal()
    assert over["table"]["shuffle"]["seed"] is not None  # revealed at the deal's end
    assert client.post(f"/api/tables/{code}/next-deal", headers=auth[0]).status_code == 200
    table = client.get(f"/api/tables/{code}").json()
    second = table["shuffle"]
    assert second["deal"] == 2 and second["commitment"] not in (None, first)
    assert second["seed"] is None and second["salt"] is None
    text = client.get(f"/api/tables/{code}/record").text
    record = read(text)
    assert [d.revealed for d in record.deals] == [True, False]
    assert [d.commitment for d in record.deals] == [first, second["commitment"]]
    verdict = verify(text)
    assert verdict.ok and "deal 2 still in play" in verdict.message
    deal2 = text.split("\nDeal 2\n", 1)[1]
    assert "Seed:" not in deal2 and "Hand " not in deal2 and "draw [" not in deal2
