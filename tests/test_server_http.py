"""HTTP API of the web server (issue 6): lobby, tables, seats, tokens, play, durability.

The server is authoritative: every refused request changes nothing (the table's version
stays), and a restarted server (also after SIGKILL) continues each table exactly where
its committed event log left it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

import httpx
from fastapi.testclient import TestClient

from rami.server import ServerConfig, create_app

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "rami" / "server" / "static"
TUNISIAN_1V1 = {
    "game": "tunisian",
    "preset": "1v1",
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "name": "Ann",
}


def make_client(db: str) -> TestClient:
    return TestClient(create_app(ServerConfig(db_url=db, bot_delay=0)))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL (the ``db_url`` fixture of conftest.py)."""
    with make_client(db_url) as c:
        yield c


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def two_humans(client: TestClient, **extra: Any) -> tuple[str, list[str]]:
    """A Tunisian 1v1 table with two human seats; its code and both tokens."""
    made = client.post("/api/tables", json={**TUNISIAN_1V1, **extra})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    assert made.json()["table"]["status"] == "waiting"
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    return code, [made.json()["token"], joined.json()["token"]]


def view_of(client: TestClient, code: str, token: str | None) -> dict[str, Any]:
    response = client.get(f"/api/tables/{code}/view", headers=auth(token))
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def error_code(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


# ---------------------------------------------------------------------- lobby


def test_games_and_rules_pages_data(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"marriage", "tunisian"}
    assert [p["name"] for p in games["marriage"]["presets"]] == ["nepali", "indian"]
    assert games["tunisian"]["preset_label"] == "mode"
    assert "medium" in games["marriage"]["bot_levels"]
    rules = client.get("/api/rules/marriage/nepali").json()
    names = {o["name"]: o for o in rules["options"]}
    assert names["seen_fee"]["value"] == 3 and "M-13" in names["seen_fee"]["help"]
    assert names["direction"]["choices"] == ["clockwise", "counterclockwise"]
    bad = client.get("/api/rules/marriage/martian")
    assert bad.status_code == 400 and "martian" in error_code(bad) + bad.text


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({**TUNISIAN_1V1, "game": "chess"}, "unknown game"),
        ({**TUNISIAN_1V1, "preset": "3v3"}, "preset"),
        ({**TUNISIAN_1V1, "options": {"nonsense": 1}}, "nonsense"),
        ({**TUNISIAN_1V1, "options": {"opening_threshold": "high"}}, "opening_threshold"),
        ({**TUNISIAN_1V1, "seats": [{"kind": "human"}]}, "players"),
        ({**TUNISIAN_1V1, "seats": [{"kind": "bot"}, {"kind": "bot"}]}, "human"),
        ({**TUNISIAN_1V1, "seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]}, "god"),
        ({**TUNISIAN_1V1, "seat": 5}, "seat"),
    ],
)
def test_create_refuses_bad_tables_with_a_reason(
    client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert error_code(response) == "bad_request"
    assert fragment in response.json()["error"]["message"]


def test_malformed_http_bodies_are_refused(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400 and error_code(response) == "bad_json"
    response = client.post("/api/tables", json={"game": "tunisian", "seats": "two", "x": 1})
    assert response.status_code == 422


def test_unknown_table(client: TestClient) -> None:
    response = client.get("/api/tables/NOPE42")
    assert response.status_code == 404 and error_code(response) == "no_table"


def test_create_join_and_my_tables(client: TestClient) -> None:
    code, _tokens = two_humans(client)
    summary = client.get(f"/api/tables/{code}").json()
    assert summary["status"] == "playing"  # the last free seat was taken: play starts
    assert [s["name"] for s in summary["seats"]] == ["Ann", "Bo"]
    assert all(s["claimed"] for s in summary["seats"])
    assert "token" not in json.dumps(summary)
    full = client.post(f"/api/tables/{code}/join", json={})
    assert full.status_code == 409 and error_code(full) == "no_free_seat"
    listed = client.get(f"/api/tables?codes={code},ZZZZZZ").json()
    assert [t["code"] for t in listed] == [code]


def test_waiting_table_starts_with_bots_in_free_seats(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "marriage", "preset": "nepali", "seats": [{"kind": "human"}] * 3},
    ).json()
    code, token = made["code"], made["token"]
    refused = client.post(
        f"/api/tables/{code}/actions", json={"action": "pass"}, headers=auth(token)
    )
    assert refused.status_code == 409 and error_code(refused) == "not_started"
    taken = client.post(f"/api/tables/{code}/join", json={"seat": 0})
    assert taken.status_code == 409 and error_code(taken) == "seat_taken"
    assert client.post(f"/api/tables/{code}/start").status_code == 403  # spectators cannot
    started = client.post(f"/api/tables/{code}/start", headers=auth(token)).json()
    assert started["status"] == "playing"
    assert [s["kind"] for s in started["seats"]] == ["human", "bot", "bot"]


# ---------------------------------------------------------------------- play


def test_views_are_per_seat_and_spectators_see_no_hand(client: TestClient) -> None:
    code, tokens = two_humans(client)
    views = [view_of(client, code, tok) for tok in tokens]
    public = view_of(client, code, None)
    assert [v["seat"] for v in views] == [0, 1]
    assert public["seat"] is None and public["view"]["hand"] is None
    assert public["view"]["legal_actions"] == []
    for v in views:
        seat = v["seat"]
        assert len(v["view"]["hand"]) == v["view"]["seats"][seat]["hand_size"]
        mover = v["view"]["to_move"] == seat
        assert bool(v["view"]["legal_actions"]) == mover
    wrong = client.get(f"/api/tables/{code}/view", headers=auth("not-a-token"))
    assert wrong.status_code == 403 and error_code(wrong) == "bad_token"


def test_refused_actions_change_nothing(client: TestClient) -> None:
    code, tokens = two_humans(client)
    state = view_of(client, code, tokens[0])
    mover = state["view"]["to_move"]
    other = 1 - mover
    before = view_of(client, code, tokens[mover])
    legal = before["view"]["legal_actions"][0]
    cases = [
        (tokens[other], legal, 409, "not_your_turn"),
        (tokens[mover], "fly away", 409, "illegal"),
        (tokens[mover], "discard 11♣", 409, "illegal"),
        (tokens[mover], "draw", 409, "illegal"),  # the dealer's first turn is a discard
        (None, legal, 403, "spectator"),
        ("stolen", legal, 403, "bad_token"),
    ]
    for token, action, status, code_ in cases:
        response = client.post(
            f"/api/tables/{code}/actions", json={"action": action}, headers=auth(token)
        )
        assert response.status_code == status, (action, response.text)
        assert error_code(response) == code_
        assert response.json()["error"]["message"]
    assert view_of(client, code, tokens[mover]) == before
    played = client.post(
        f"/api/tables/{code}/actions", json={"action": legal}, headers=auth(tokens[mover])
    )
    assert played.status_code == 200
    assert played.json()["version"] == before["version"] + 1
    assert played.json()["view"]["to_move"] == other


def play_first_legal_until_over(client: TestClient, code: str, tokens: list[str]) -> int:
    moves = 0
    while True:
        state = view_of(client, code, tokens[0])
        if state["view"]["result"] is not None:
            return moves
        mover = state["view"]["to_move"]
        legal = view_of(client, code, tokens[mover])["view"]["legal_actions"]
        discards = [a for a in legal if a.startswith("discard")]
        action = "draw" if "draw" in legal else (discards or legal)[0]
        response = client.post(
            f"/api/tables/{code}/actions", json={"action": action}, headers=auth(tokens[mover])
        )
        assert response.status_code == 200, response.text
        moves += 1
        assert moves < 400


def test_whole_deal_then_next_deal(client: TestClient) -> None:
    code, tokens = two_humans(client, options={"max_turns": 12})
    early = client.post(f"/api/tables/{code}/next-deal", headers=auth(tokens[0]))
    assert early.status_code == 409 and error_code(early) == "deal_not_over"
    play_first_legal_until_over(client, code, tokens)
    over = view_of(client, code, tokens[1])["view"]
    assert len(over["result"]["scores"]) == 2
    assert over["match"]["deals"][0]["points"] == over["result"]["scores"]
    after = client.post(f"/api/tables/{code}/next-deal", headers=auth(tokens[1]))
    assert after.status_code == 200, after.text
    fresh = after.json()["view"]
    assert fresh["result"] is None and fresh["match"]["deal_number"] == 1


def test_bots_play_their_turns(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={
            "game": "tunisian",
            "preset": "1v1",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        },
    ).json()
    code, token = made["code"], made["token"]
    for _ in range(6):  # the human's turns; the bot answers each one by itself
        deadline = time.time() + 10
        while True:
            view = view_of(client, code, token)["view"]
            if view["to_move"] == 0 or view["result"] is not None:
                break
            assert time.time() < deadline, "the bot did not move"
            time.sleep(0.02)
        if view["result"] is not None:
            break
        legal = view["legal_actions"]
        action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard"))
        response = client.post(
            f"/api/tables/{code}/actions", json={"action": action}, headers=auth(token)
        )
        assert response.status_code == 200, response.text
    history = view_of(client, code, token)["view"]["history"]
    assert any(e.get("seat") == 1 and "move" in e for e in history)


def test_hint_uses_the_seat_view(client: TestClient) -> None:
    code, tokens = two_humans(client)
    state = view_of(client, code, tokens[0])
    mover = state["view"]["to_move"]
    hint = client.get(f"/api/tables/{code}/hint", headers=auth(tokens[mover])).json()
    assert hint["suggestion"] in view_of(client, code, tokens[mover])["view"]["legal_actions"]
    assert all("key" in note for note in hint["notes"])
    assert client.get(f"/api/tables/{code}/hint").status_code == 403


def test_marriage_table_hides_the_tiplu_from_spectators(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={
            "game": "marriage",
            "preset": "nepali",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}] * 2,
        },
    ).json()
    public = view_of(client, made["code"], None)["view"]
    assert public["game"] == "marriage" and "tiplu" not in public
    assert "hand" not in public or public["hand"] is None
    mine = view_of(client, made["code"], made["token"])["view"]
    assert len(mine["hand"]) == 21


# ---------------------------------------------------------------------- durability


def test_restart_continues_every_table(db_url: str) -> None:
    db = db_url
    with make_client(db) as client:
        code, tokens = two_humans(client)
        for _ in range(5):
            state = view_of(client, code, tokens[0])
            mover = state["view"]["to_move"]
            legal = view_of(client, code, tokens[mover])["view"]["legal_actions"]
            action = "draw" if "draw" in legal else legal[-1]
            client.post(
                f"/api/tables/{code}/actions", json={"action": action}, headers=auth(tokens[mover])
            )
        before = [view_of(client, code, t) for t in tokens]
    with make_client(db) as client:
        after = [view_of(client, code, t) for t in tokens]
        assert after == before
        assert after[0]["version"] == 5
        mover = after[0]["view"]["to_move"]
        legal = after[mover]["view"]["legal_actions"][0]
        response = client.post(
            f"/api/tables/{code}/actions", json={"action": legal}, headers=auth(tokens[mover])
        )
        assert response.status_code == 200 and response.json()["version"] == 6


def wait_for_turn(client: TestClient, code: str, token: str) -> dict[str, Any]:
    """The seat's state once it is to move (the bots play in the background)."""
    deadline = time.time() + 20
    while True:
        state = view_of(client, code, token)
        if state["view"]["legal_actions"] or state["view"].get("result") is not None:
            return state
        assert time.time() < deadline, "the bots did not hand the turn back"
        time.sleep(0.02)


def test_restart_continues_a_marriage_table_with_bots(db_url: str) -> None:
    db = db_url
    seats = [{"kind": "human"}, *[{"kind": "bot", "level": "random"}] * 3]
    with make_client(db) as client:
        made = client.post(
            "/api/tables", json={"game": "marriage", "preset": "nepali", "seats": seats}
        ).json()
        code, token = made["code"], made["token"]
        for _ in range(4):
            state = wait_for_turn(client, code, token)
            legal = state["view"]["legal_actions"]
            simple = [a for a in legal if " " not in a]
            action = (simple or [a for a in legal if a.startswith("discard")] or legal)[0]
            response = client.post(
                f"/api/tables/{code}/actions", json={"action": action}, headers=auth(token)
            )
            assert response.status_code == 200, response.text
        before = wait_for_turn(client, code, token)
        public = view_of(client, code, None)
        hint = client.get(f"/api/tables/{code}/hint", headers=auth(token)).json()
        assert hint["suggestion"] in before["view"]["legal_actions"]
        assert all(note["key"].startswith("hint_") for note in hint["notes"])
    with make_client(db) as client:
        assert view_of(client, code, token) == before
        assert view_of(client, code, None) == public
        assert "tiplu" not in public["view"] or public["view"].get("result") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start_server(db: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from rami.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-delay",
            "0",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start: " + proc.stdout.read().decode())  # type: ignore[union-attr]


def test_killed_server_loses_no_acknowledged_move(db_url: str) -> None:
    db = db_url
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start_server(db, port)
    try:
        made = httpx.post(f"{base}/api/tables", json=TUNISIAN_1V1).json()
        code = made["code"]
        joined = httpx.post(
            f"{base}/api/tables/{code}/join", json={"invite": made["invite"]}
        ).json()
        tokens = [made["token"], joined["token"]]
        acked = None
        for _ in range(3):
            state = httpx.get(f"{base}/api/tables/{code}/view", headers=auth(tokens[0])).json()
            mover = state["view"]["to_move"]
            legal = httpx.get(f"{base}/api/tables/{code}/view", headers=auth(tokens[mover])).json()[
                "view"
            ]["legal_actions"]
            acked = httpx.post(
                f"{base}/api/tables/{code}/actions",
                json={"action": "draw" if "draw" in legal else legal[0]},
                headers=auth(tokens[mover]),
            ).json()
        assert acked is not None
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    proc = _start_server(db, port)
    try:
        mover = acked["seat"]
        again = httpx.get(f"{base}/api/tables/{code}/view", headers=auth(tokens[mover])).json()
        assert again == acked
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ---------------------------------------------------------------------- pages, schema, strings


def test_pages_and_static_files(client: TestClient) -> None:
    for path in ("/", "/t/ABCDEF", "/rules/marriage/nepali", "/rules/tunisian/2v2"):
        response = client.get(path)
        assert response.status_code == 200 and "<!doctype html>" in response.text
    script = client.get("/static/js/table.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/rules/tunisian", follow_redirects=False).status_code == 307


def test_committed_openapi_schema_is_current() -> None:
    from rami.server.openapi import schema

    committed = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))
    live = schema()
    assert sorted(committed["paths"]) == sorted(live["paths"]), (
        "docs/openapi.json is stale: run python -m rami.server.openapi docs/openapi.json"
    )
    for path, methods in live["paths"].items():
        assert sorted(committed["paths"][path]) == sorted(methods), path
    assert sorted(committed["components"]["schemas"]) == sorted(live["components"]["schemas"])


LANGUAGES = ("en", "fr", "ar", "ru", "zh", "ne")
GAME_TERMS = ("tiplu", "maal", "tunnela", "dublee", "man3a", "farcha")


def test_every_language_has_every_string_and_keeps_the_game_terms() -> None:
    tables = {
        lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for lang in LANGUAGES
    }
    english = tables["en"]
    used: set[str] = set()
    for path in [*STATIC.glob("*.html"), *(STATIC / "js").glob("*.js")]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z_0-9]+)\"", text))
        used |= set(re.findall(r"data-i18n(?:-label|-placeholder|-title)?=\"([a-z_0-9]+)\"", text))
    hints = (ROOT / "src" / "rami" / "server" / "hints.py").read_text(encoding="utf-8")
    used |= set(re.findall(r"\"key\": \"([a-z_]+)\"", hints))
    assert any(key.startswith("hint_") for key in used)
    assert used <= set(english), sorted(used - set(english))
    plural = re.compile(r"(.+)_(zero|one|two|few|many)$")  # Intl.PluralRules forms (i18n.js)
    for lang, table in tables.items():
        forms = {k for k in table if (m := plural.match(k)) and m[1] in english}
        assert set(table) - forms == {k for k in english if not plural.match(k)}, lang
        # a game term is the Latin word or its form in the language's script (docs/terms.md)
        native = dict(pair.split("=") for pair in table["glossary"].split("|") if pair)
        for key, text in english.items():
            if key not in table or plural.match(key):
                continue  # a plural form: "ورقتان" (two cards) needs no {n}
            assert set(re.findall(r"\{\w+\}", table[key])) == set(re.findall(r"\{\w+\}", text)), (
                lang,
                key,
            )
            for term in GAME_TERMS:
                if term in text and key != "glossary":
                    assert term in table[key] or native.get(term, term) in table[key], (
                        lang,
                        key,
                        term,
                    )
