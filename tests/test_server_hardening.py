"""Security and faults found by a probe (issue 23): each fault's reproduction, refused.

A non-ASCII bearer token is a clean 403, not a 500; seat codes cannot be computed from
the database; every table look-up counts against the probing budget; sockets per
address and per table are capped; ``rate_limited`` errors carry the ids and a burst
does not get its sender dropped; security headers; links ignore a foreign ``Host``;
names without control, direction or invisible tricks, and no "Bot 2" on a human seat;
players out of misses still reach their own tables; limits can be scaled; body sizes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx
from browser_support import free_port, served
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rami.server import ServerConfig, create_app
from rami.server.guards import clean_name, link_host_allowed
from rami.server.protocol import TableError
from rami.server.ratelimit import Bucket, RateLimits
from rami.server.secret import load_secret, secret_path

TUNISIAN_1V1 = {"game": "tunisian", "preset": "1v1", "seats": [{"kind": "human"}] * 2}
ONE_HUMAN = {
    "game": "tunisian",
    "preset": "1v1",
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
}
NON_ASCII = {"Authorization": "Bearer ÄBCDEFGH".encode()}  # sent as UTF-8 bytes
HEADERS = ("x-frame-options", "x-content-type-options", "referrer-policy")


def make_client(tmp_path: Path, limits: RateLimits | None = None, **extra: Any) -> TestClient:
    cfg = ServerConfig(
        db_url=f"sqlite:///{tmp_path / 'rami.db'}",
        bot_delay=0,
        rate_limits=limits if limits is not None else RateLimits(),
        **extra,
    )
    return TestClient(create_app(cfg), raise_server_exceptions=False)


@pytest.fixture(autouse=True)
def _key_beside_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAMI_SECRET_FILE", raising=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def two_humans(client: TestClient) -> tuple[str, list[str]]:
    made = client.post("/api/tables", json=TUNISIAN_1V1).json()
    joined = client.post(f"/api/tables/{made['code']}/join", json={}).json()
    return made["code"], [made["token"], joined["token"]]


def hello(client: TestClient, code: str, token: str | None) -> dict[str, Any]:
    """The seat's first state message (with its ``seat_code``)."""
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        state: dict[str, Any] = ws.receive_json()
        return state


# ---------------------------------------------------------------------------- tokens


def test_a_non_ascii_bearer_token_is_a_clean_refusal_over_http_and_websocket(
    client: TestClient,
) -> None:
    code, _tokens = two_humans(client)
    requests = [
        ("GET", "view"),
        ("POST", "actions"),
        ("GET", "hint"),
        ("GET", "invite"),
        ("POST", "start"),
        ("POST", "next-deal"),
    ]
    for method, path in requests:
        body = {"action": "draw"} if path == "actions" else None
        response = client.request(
            method, f"/api/tables/{code}/{path}", json=body, headers=NON_ASCII
        )
        assert response.status_code in (401, 403), (path, response.status_code, response.text)
        assert response.json()["error"]["code"] == "bad_token", response.text
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "token": "ÄBCDEFGH", "id": 3})
        error = ws.receive_json()
        assert error["code"] == "bad_token" and error["id"] == 3
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


# ---------------------------------------------------------------------------- seat codes


def test_the_seat_code_cannot_be_computed_from_the_database(tmp_path: Path) -> None:
    """storage.py's promise: a leaked database lets nobody act for a seat."""
    db = tmp_path / "rami.db"
    with make_client(tmp_path) as client:
        made = client.post("/api/tables", json=ONE_HUMAN).json()
        code = made["code"]
        real = hello(client, code, made["token"])["seat_code"]
    rows = sqlite3.connect(db).execute("SELECT token_hash FROM rami_seats").fetchall()
    hashes = [h for (h,) in rows if h]
    # the derivation before issue 23: the stored hash alone gave the code
    old = [
        base64.b32encode(hashlib.sha256(f"rami-seat-code:{h}".encode()).digest())
        .decode()
        .rstrip("=")[:8]
        for h in hashes
    ]
    assert real not in old
    key_file = Path(f"{db}.secret")
    assert key_file.stat().st_mode & 0o077 == 0  # the key's file is the owner's only
    key_hex = key_file.read_text().strip()
    assert key_hex.encode() not in db.read_bytes() and bytes.fromhex(key_hex) not in db.read_bytes()
    with make_client(tmp_path) as client:  # a restart reads the same key: same code
        assert hello(client, code, made["token"])["seat_code"] == real
        for guess in old:
            refused = client.get(f"/api/tables/{code}/view", headers=auth(guess))
            assert refused.status_code == 403
        assert client.get(f"/api/tables/{code}/view", headers=auth(real)).json()["seat"] == 0
    with make_client(tmp_path, seat_secret=b"another key of 32 bytes........") as client:
        assert client.get(f"/api/tables/{code}/view", headers=auth(real)).status_code == 403
        mine = client.get(f"/api/tables/{code}/view", headers=auth(made["token"]))
        assert mine.status_code == 200


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_secret_file_is_made_once_and_bad_ones_are_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "keys" / "server.secret"
    key = load_secret(path)
    assert len(key) == 32 and load_secret(path) == key
    assert secret_path(f"sqlite:///{tmp_path}/x.db") == Path(f"{tmp_path}/x.db.secret")
    assert secret_path("sqlite://") is None and secret_path("sqlite://", "k") == Path("k")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert secret_path("postgresql://u@h/db") == tmp_path / "data" / "rami" / "server.secret"
    monkeypatch.setenv("RAMI_SECRET_FILE", str(path))
    assert secret_path("postgresql://u@h/db") == secret_path("sqlite:///x.db") == path
    path.write_text("not a key\n")

    with pytest.raises(ValueError, match="does not hold a key"):
        load_secret(path)


# ---------------------------------------------------------------------------- probing


def _spend_misses(client: TestClient, path: str, code: str) -> None:
    """Twenty look-ups of missing tables by ``path`` (the whole miss budget)."""
    if path == "codes":
        missing = ",".join(f"ZZ{i:04d}" for i in range(20))
        assert client.get(f"/api/tables?codes={missing}").json() == []
        return
    for i in range(20):
        missing = f"ZZ{i:04d}"
        if path == "ws":
            with client.websocket_connect(f"/ws/tables/{missing}") as ws:
                ws.send_json({"type": "hello", "token": None})
                assert ws.receive_json()["code"] == "no_table"
            continue
        method, tail = path.split(" ")
        body = {"action": "draw"} if tail == "/actions" else ({} if tail == "/join" else None)
        response = client.request(method, f"/api/tables/{missing}{tail}", json=body)
        assert response.status_code == 404, (path, response.text)


@pytest.mark.parametrize(
    "path",
    [
        "GET ",
        "GET /view",
        "GET /hint",
        "GET /invite",
        "GET /replay",
        "POST /join",
        "POST /start",
        "POST /actions",
        "POST /next-deal",
        "codes",
        "ws",
    ],
)
def test_every_look_up_path_counts_misses(client: TestClient, path: str) -> None:
    code, _tokens = two_humans(client)
    _spend_misses(client, path, code)
    refused = client.get(f"/api/tables/{code}")  # out of misses: even a real code
    assert refused.status_code == 429, (path, refused.text)
    assert client.get(f"/api/tables/{code}/replay").status_code == 429


def test_listing_codes_counts_each_code_tested(tmp_path: Path) -> None:
    """``?codes=`` tested 30 codes per allowed look-up; now each code is one, and the
    codes past the budget are not tested (a real one among them is not answered)."""
    with make_client(tmp_path) as client:
        code, _tokens = two_humans(client)
        thirty = [f"ZZ{i:04d}" for i in range(29)] + [code]
        assert client.get(f"/api/tables?codes={','.join(thirty)}").json() == []
        refused = client.get(f"/api/tables?codes={code}")  # the 20 misses are spent
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    few = RateLimits(lookups=Bucket(burst=10, per_second=0.001), misses=None)
    with make_client(tmp_path, few) as client:
        code, _tokens = two_humans(client)
        first = client.get(f"/api/tables?codes={code},ZZ0001,ZZ0002")
        assert [t["code"] for t in first.json()] == [code]
        eight = ",".join([f"ZZ{i:04d}" for i in range(7)] + [code, code])
        assert client.get(f"/api/tables?codes={eight}").json() == []  # spent before the real code
        assert client.get(f"/api/tables?codes={code}").status_code == 429


def test_players_out_of_misses_still_reach_their_own_tables(client: TestClient) -> None:
    """A prober behind the same address (a club's NAT) locks out nobody's own seat, nor
    a friend with the table's invite."""
    code, tokens = two_humans(client)
    seat_code = hello(client, code, tokens[0])["seat_code"]
    _spend_misses(client, "GET ", code)
    assert client.get(f"/api/tables/{code}/view").status_code == 429  # no token: refused
    assert client.get(f"/api/tables/{code}/view", headers=auth("x" * 32)).status_code == 429
    assert client.get("/api/tables/ZZZZZZ/view", headers=auth(tokens[0])).status_code == 429
    for token, seat in ((tokens[0], 0), (tokens[1], 1), (seat_code, 0)):
        view = client.get(f"/api/tables/{code}/view", headers=auth(token))
        assert view.status_code == 200 and view.json()["seat"] == seat
    assert hello(client, code, tokens[1])["seat"] == 1
    other = client.post("/api/tables", json=TUNISIAN_1V1)  # creating names no code: allowed
    invited = other.json()
    path = f"/api/tables/{invited['code']}/join"
    assert client.post(path, json={"invite": "not-the-invite"}).status_code == 429
    assert client.post(path, json={"invite": invited["invite"]}).status_code == 200  # a friend
    with client.websocket_connect(f"/ws/tables/{code}") as ws:  # a spectator: refused
        ws.send_json({"type": "hello", "token": None, "id": "h"})
        refused = ws.receive_json()
        assert refused["code"] == "rate_limited" and refused["id"] == "h"


# ---------------------------------------------------------------------------- sockets


def test_sockets_per_address_and_per_table_are_capped(tmp_path: Path) -> None:
    caps = RateLimits(sockets_per_address=3, sockets_per_table=2)
    with make_client(tmp_path, caps) as client:
        first, _ = two_humans(client)
        second, _ = two_humans(client)

        def refused(code: str) -> str:
            with client.websocket_connect(f"/ws/tables/{code}") as ws:
                error = ws.receive_json()
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 4429
                assert error["code"] == "too_many_sockets"
                return str(error["message"])

        with client.websocket_connect(f"/ws/tables/{first}"):
            with client.websocket_connect(f"/ws/tables/{first}") as watching:
                watching.send_json({"type": "hello"})
                assert watching.receive_json()["type"] == "welcome"
                assert "this table" in refused(first)
                with client.websocket_connect(f"/ws/tables/{second}"):
                    assert "your address" in refused(second)
            with client.websocket_connect(f"/ws/tables/{second}") as again:  # room again
                again.send_json({"type": "hello"})
                assert again.receive_json()["type"] == "welcome"


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from rami.cli import main; main()", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_limits_scale_and_the_cli_options(tmp_path: Path) -> None:
    scaled = RateLimits().scaled(10)
    assert scaled.messages == Bucket(600, 200) and scaled.misses is not None
    assert scaled.misses.burst == 200 and scaled.misses.per_second == pytest.approx(10 / 6)
    assert scaled.sockets_per_address == 640 and scaled.sockets_per_table == 640
    assert RateLimits.off().sockets_per_address is None
    with pytest.raises(ValueError):
        RateLimits().scaled(0)
    done = serve("--limits-scale", "0")
    assert done.returncode == 2 and done.stderr.startswith("error: --limits-scale"), done.stderr
    bad = tmp_path / "key"
    bad.write_text("oops")
    db = ["--db", str(tmp_path / "x.db"), "--port", str(free_port())]
    done = serve(*db, "--secret-file", str(bad))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "does not hold a key" in lines[0], lines


# ---------------------------------------------------------------------------- bursts


def test_rate_limited_errors_carry_ids_and_a_reading_burst_is_not_dropped(
    tmp_path: Path,
) -> None:
    """A real server (buffered frames are read without a pause for the writer): 600 pings
    at once used to queue 540 refusals and drop the client as too slow (close 1008)."""
    sync_client = pytest.importorskip("websockets.sync.client")
    slow = RateLimits(messages=Bucket(burst=5, per_second=0.01))
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0, rate_limits=slow)
    with served(config) as base:
        made = httpx.post(f"{base}/api/tables", json=ONE_HUMAN, timeout=10).json()
        url = base.replace("http", "ws") + f"/ws/tables/{made['code']}"
        with sync_client.connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            burst = 600
            for i in range(burst):
                ws.send(json.dumps({"type": "ping", "id": i}))
            answered: set[object] = set()
            errors = 0
            while len(answered) < burst:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] == "pong":
                    answered.add(message["id"])
                elif message["type"] == "error":
                    assert message["code"] == "rate_limited", message
                    assert message["id"] == message["ids"][0] and message["id"] is not None
                    answered.update(message["ids"])
                    errors += 1
            assert answered == set(range(burst))
            ws.send(json.dumps({"type": "ping", "id": "last"}))  # still connected, answered
            while (last := json.loads(ws.recv(timeout=10)))["type"] != "error":
                pass
            assert last["id"] == "last" and last["ids"] == ["last"]
        assert errors < burst


# ---------------------------------------------------------------------------- headers, Host


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    code, _tokens = two_humans(client)
    answers = [
        client.get("/"),
        client.get(f"/t/{code}"),
        client.get("/score"),
        client.get("/api/games"),
        client.get("/static/js/table.js"),
        client.get("/api/tables/NOSUCH"),
        client.post("/api/tables", content=b"[" + b"1," * 40_000 + b"1]"),  # 413
        client.get("/docs"),
    ]
    for answer in answers:
        csp = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp, answer.url
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
    assert answers[-2].status_code == 413
    assert "'unsafe-inline'" not in answers[1].headers["content-security-policy"]


def test_links_never_follow_a_foreign_host_header(tmp_path: Path) -> None:
    with make_client(tmp_path, allowed_hosts=("rami.club",)) as client:
        made = client.post("/api/tables", json=TUNISIAN_1V1, headers={"Host": "evil.example"})
        body = made.json()
        assert "evil" not in made.text and body["url"] == f"/t/{body['code']}"
        assert body["invite_url"].startswith(f"/t/{body['code']}#invite=")
        invite = client.get(
            f"/api/tables/{body['code']}/invite",
            headers={"Host": "evil.example:8000", **auth(body["token"])},
        )
        assert "evil" not in invite.text
        for host, base in (
            ("localhost:8000", "http://localhost:8000"),
            ("127.0.0.1:9", "http://127.0.0.1:9"),
            ("rami.club", "http://rami.club"),
        ):
            made = client.post("/api/tables", json=TUNISIAN_1V1, headers={"Host": host})
            assert made.json()["url"] == f"{base}/t/{made.json()['code']}"
    assert link_host_allowed("[::1]", ()) and not link_host_allowed("localhost.evil", ())


# ---------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("\u200b\u200b\u2060", "visible"),
        ("Ann\x00", "control"),
        ("\x1b[31mAnn", "control"),
        ("\u202eAnn", "direction"),
        ("Ann\u2066x\u2069", "direction"),
        ("Bot 2", "bot"),
        ("bot", "bot"),
        ("ＢＯＴ ３", "bot"),
    ],
)
def test_bad_names_are_refused_and_change_nothing(
    client: TestClient, name: str, fragment: str
) -> None:
    refused = client.post("/api/tables", json={**TUNISIAN_1V1, "name": name})
    assert refused.status_code == 400 and fragment in refused.json()["error"]["message"]
    made = client.post("/api/tables", json=TUNISIAN_1V1).json()
    join = client.post(f"/api/tables/{made['code']}/join", json={"name": name})
    assert join.status_code == 400 and fragment in join.json()["error"]["message"]
    seats = client.get(f"/api/tables/{made['code']}").json()["seats"]
    assert not seats[1]["claimed"]  # the seat is still free


def test_good_names_pass_and_bots_may_be_called_bots() -> None:
    assert clean_name("  Ann \t Lee ", "x") == "Ann Lee"
    assert clean_name("Botond", "x") == "Botond"  # a name, not a bot
    assert clean_name("राम\u200dश्याम", "x") == "राम\u200dश्याम"  # joiners stay
    assert clean_name("\u200bAnn\ufeff", "x") == "Ann"  # invisible ones go
    assert clean_name("عائشة", "x") == "عائشة"
    assert clean_name(None, "Player 1") == "Player 1" and clean_name("  ", "P") == "P"
    assert clean_name("Bot 2", "x", human=False) == "Bot 2"
    with pytest.raises(TableError):
        clean_name("\x00", "x", human=False)


# ---------------------------------------------------------------------------- bodies


def test_body_limits_agree_with_the_docs(client: TestClient) -> None:
    """docs/score.md: scorekeeper documents up to 512 KB; the table API: 64 KB."""
    big = b'{"rules": "nepali", "players": ["A", "B"], "deals": [], "pad": "' + b"x" * 200_000
    big += b'"}'
    answer = client.post(
        "/api/score/marriage/ledger", content=big, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code != 413, answer.text
    huge = b'{"pad": "' + b"x" * (520 * 1024) + b'"}'
    assert client.post("/api/score/marriage/ledger", content=huge).status_code == 413
    refused = client.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
    assert refused.status_code == 413 and "64 KB" in refused.json()["error"]["message"]


# ---------------------------------------------------------------------------- in Chromium

CSP_WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def test_the_pages_work_under_their_csp_in_chromium_and_cannot_be_framed(
    tmp_path: Path,
) -> None:
    """Lobby, table (its WebSocket too), rules and scorekeeper: no CSP violation, no
    console error; a page that frames the table gets nothing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from browser_support import CHROMIUM, CHROMIUM_ARGS, SHOTS

    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed")
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0)
    with served(config) as base, sync_api.sync_playwright() as p:
        made = httpx.post(f"{base}/api/tables", json=ONE_HUMAN, timeout=10).json()
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=False)
            context.add_init_script(CSP_WATCH)
            page = context.new_page()
            problems: list[str] = []
            page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
            page.on(  # the CSP's refusals (a vibration before a tap is no fault here)
                "console",
                lambda m: problems.append(m.text) if "Content Security" in m.text else None,
            )
            pages = [
                ("/", "body[data-ready='1']"),
                (f"/t/{made['code']}#token={made['token']}", "body[data-version]"),
                ("/rules/tunisian/1v1", "body[data-ready='1']"),
                ("/score", "body[data-ready='1']"),
            ]
            for path, ready in pages:
                answer = page.goto(base + path)
                assert (
                    answer is not None
                    and "frame-ancestors" in answer.headers["content-security-policy"]
                )
                page.wait_for_selector(ready, state="attached", timeout=15_000)
                page.wait_for_timeout(300)
                violations = page.evaluate("window.__violations")
                assert violations == [], (path, violations)
                if path.startswith("/t/"):
                    assert page.locator("#hand .card").count() > 0  # dealt over the socket
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / "hardening-table-under-csp.png"))
            assert problems == [], problems
            framing = context.new_page()
            framing.set_content(f'<iframe id="f" src="{base}/t/{made["code"]}"></iframe>')
            framing.wait_for_timeout(1000)
            inner = [f for f in framing.frames if f != framing.main_frame]
            assert inner and not inner[0].url.startswith(base)  # refused: an error page
        finally:
            browser.close()
