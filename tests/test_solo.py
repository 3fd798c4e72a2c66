"""The solo table (``rami.solo``, issue 26): the server's table played in-process.

The browser's solo mode runs this module in a Web Worker on Pyodide with the WebSocket's
messages, so these tests hold it to the server's behaviour: the same seeded deal gives
the same events as a server table (bots seeded as the server seeds them), refusals are
one ``error`` and change nothing, the person's view holds only what seat 0 may see (M-7),
and a saved table replays to the same position.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rami.errors import InputError
from rami.solo import SoloTable, warm_up

SEED = 424242


def play_solo(
    game: str, preset: str, seed: int = SEED, players: int | None = None, level: str = "random"
) -> SoloTable:
    """One deal: bots at ``level``, the person plays its first legal action each turn."""
    table = SoloTable.new(game, preset, level, seed, players)
    for _ in range(5000):
        if table.match.current.is_over:
            return table
        if table.bot_to_move() is not None:
            table.bot_step()
            continue
        legal = table.view()["legal_actions"]
        out = table.handle({"type": "action", "action": legal[0], "id": 1})
        assert out[0]["type"] == "ack", out
    raise AssertionError("the deal did not end")


def server_history(game: str, preset: str, seed: int, tmp: Path) -> list[Any]:
    """The same deal on a server table (WebSocket, bots at level random, no delay)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    import rami.server.lifecycle as tables
    from rami.server import ServerConfig, create_app
    from rami.server.ratelimit import RateLimits

    db = f"sqlite:///{tmp / 'solo.db'}"  # no rate limit: the person answers at once
    app = create_app(ServerConfig(db_url=db, bot_delay=0, rate_limits=RateLimits.off()))
    seats: list[dict[str, Any]] = [{"kind": "human"}]
    seats += [{"kind": "bot", "level": "random"}] * (SoloTable.new(game, preset).players - 1)
    original = tables.new_match_seed
    tables.new_match_seed = lambda: seed
    try:
        with TestClient(app) as client:
            body = {"game": game, "preset": preset, "seats": seats}
            made = client.post("/api/tables", json=body).json()
            with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
                ws.send_json({"type": "hello", "token": made["token"]})
                acted = -1
                for _ in range(20000):
                    message = ws.receive_json()
                    assert message["type"] != "error", message
                    if message["type"] != "state":
                        continue
                    view = message["view"]
                    if view.get("result") is not None:
                        history: list[Any] = view["history"]
                        return history
                    if view.get("legal_actions") and message["version"] > acted:
                        acted = message["version"]
                        ws.send_json(
                            {"type": "action", "action": view["legal_actions"][0], "id": 1}
                        )
    finally:
        tables.new_match_seed = original
    raise AssertionError("the server's deal did not end")


@pytest.mark.parametrize(("game", "preset"), [("marriage", "nepali"), ("tunisian", "1v1")])
def test_a_seeded_deal_gives_the_same_events_as_on_the_server(
    game: str, preset: str, tmp_path: Path
) -> None:
    solo = play_solo(game, preset)
    assert solo.view()["history"] == server_history(game, preset, SEED, tmp_path)
    assert solo.view().get("result") is not None


def test_warm_up_leaves_no_trace_in_the_tables_played_after_it() -> None:
    """``warm_up`` runs before the worker's memory snapshot (docs/solo.md): every later
    visit's tables are played after it, so they must play as they would have (M-7's
    views, the bots' seeded moves: the same events)."""
    games = (("marriage", "nepali"), ("tunisian", "1v1"))
    before = [play_solo(g, p, level="medium").view()["history"] for g, p in games]
    warm_up()
    after = [play_solo(g, p, level="medium").view()["history"] for g, p in games]
    assert after == before


def test_refusals_are_one_error_and_change_nothing() -> None:
    table = SoloTable.new("tunisian", "1v1", "random", SEED)
    while table.bot_to_move() is not None:
        table.bot_step()
    before = (table.version, table.save_text())
    cases = [
        ("not json", "bad_json"),
        ("[1]", "bad_json"),
        ({"type": "fly"}, "unknown_type"),
        ({"type": "action", "action": ""}, "bad_message"),
        ({"type": "action", "action": "discard ZZ", "id": 3}, "illegal"),
        ({"type": "next_deal"}, "deal_not_over"),
        ({"type": "react", "key": "<b>"}, "bad_message"),
        ({"type": "auto", "seat": 1}, "bad_request"),
        ({"type": "rematch"}, "bad_request"),
    ]
    for raw, code in cases:
        out = table.handle(raw if isinstance(raw, str) else json.dumps(raw))
        assert len(out) == 1 and out[0]["type"] == "error" and out[0]["code"] == code, (raw, out)
        assert "Traceback" not in str(out[0]["message"])
    assert (table.version, table.save_text()) == before


def test_the_person_sees_seat_zero_only_and_bots_play_from_their_views() -> None:
    table = SoloTable.new("marriage", "nepali", "random", SEED)
    welcome, state = table.handle({"type": "hello", "token": None})
    assert welcome == {"type": "welcome", "code": table.code, "seat": 0}
    assert state["view"] == table.match.view(0)  # the engine's own seat view (M-7)
    others = [table.match.view(s)["hand"] for s in range(1, table.players)]
    text = json.dumps(state)
    for hand in others:
        assert sorted(hand) != sorted(state["view"]["hand"])  # type: ignore[index]
    seats = state["table"]["seats"]  # type: ignore[index]
    assert [s["kind"] for s in seats] == ["human"] + ["bot"] * (table.players - 1)
    assert "seed" not in text.lower().replace("seeds", "")


def test_a_saved_table_replays_to_the_same_position_and_bad_saves_are_one_line() -> None:
    table = play_solo("tunisian", "1v1")
    out = table.handle({"type": "next_deal", "id": 5})
    assert [m["type"] for m in out] == ["ack", "state"]
    for _ in range(6):
        if table.bot_to_move() is not None:
            table.bot_step()
    again = SoloTable.from_text(table.save_text())
    assert again.view() == table.view() and again.version == table.version
    assert again.deal_number == 2
    for bad in (
        "{",
        "[]",
        json.dumps({"game": "tunisian"}),
        table.save_text().replace('"discard', '"fly'),
    ):
        with pytest.raises(InputError) as caught:
            SoloTable.from_text(bad)
        assert "\n" not in str(caught.value)


def test_options_from_the_page_are_checked() -> None:
    with pytest.raises(InputError, match="level"):
        SoloTable.from_options(json.dumps({"game": "tunisian", "preset": "1v1", "level": "expert"}))
    with pytest.raises(InputError, match="preset"):
        SoloTable.from_options(json.dumps({"game": "tunisian", "preset": "9v9", "level": "easy"}))
    with pytest.raises(InputError):
        SoloTable.from_options(json.dumps({"game": "nosuchgame", "level": "easy"}))
    table = SoloTable.from_options(
        json.dumps({"game": "tunisian", "preset": "1v1", "level": "easy", "seed": 7})
    )
    assert table.seed == 7 and table.players == 2


def test_hint_and_arrange_answer_from_the_persons_view() -> None:
    table = SoloTable.new("marriage", "nepali", "easy", SEED)
    while table.bot_to_move() is not None:
        table.bot_step()
    (hint,) = table.handle({"type": "hint", "id": 9})
    assert (
        hint["type"] == "hint"
        and hint["id"] == 9
        and hint["suggestion"] in table.view()["legal_actions"]
    )
    (arranged,) = table.handle({"type": "arrange", "id": 10})
    groups = arranged["groups"]
    assert isinstance(groups, list)
    assert sorted(c for g in groups for c in g) == sorted(table.view()["hand"])


@pytest.fixture
def no_fastapi(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Imports of FastAPI, pydantic, SQLAlchemy fail, as on Pyodide."""
    import builtins
    import sys

    real = builtins.__import__
    blocked = ("fastapi", "pydantic", "sqlalchemy", "starlette", "uvicorn")

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in blocked:
            raise ImportError(f"no {name} here")
        return real(name, *args, **kwargs)

    fresh = ("rami.solo", "rami.server", "rami.marriage.web", "rami.tunisian.web")
    for mod in [m for m in sys.modules if m.startswith(fresh)]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setattr(builtins, "__import__", fake)
    yield


def test_the_solo_table_imports_without_the_web_extra(no_fastapi: None) -> None:
    import importlib

    solo = importlib.import_module("rami.solo")
    table = solo.SoloTable.new("marriage", "nepali", "easy", SEED)
    assert [m["type"] for m in table.handle({"type": "hello"})] == ["welcome", "state"]


def test_rami_serve_offers_solo_play_at_slash_solo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from rami.server import ServerConfig, create_app

    dist = tmp_path / "dist"
    (dist / "solo-assets").mkdir(parents=True)
    (dist / "solo-assets" / "rami.whl").write_bytes(b"PK")
    (dist / "solo-sw.js").write_text("// built\n")
    monkeypatch.setenv("RAMI_SOLO_DIST", str(dist))
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    with TestClient(create_app(ServerConfig(db_url=db))) as client:
        lobby = client.get("/solo")
        assert lobby.status_code == 200 and 'data-solo-lobby data-scope="/solo"' in lobby.text
        # Pyodide compiles WebAssembly in the worker: the CSP allows it there, not elsewhere
        worker = client.get("/static/js/solo-worker.js")
        for answer in (lobby, worker):
            assert "'wasm-unsafe-eval'" in answer.headers["content-security-policy"]
        assert "wasm" not in client.get("/").headers["content-security-policy"]
        table = client.get("/solo.html?game=tunisian&preset=1v1&level=easy")
        assert 'data-solo data-scope="/solo"' in table.text and 'id="hand"' in table.text
        manifest = client.get("/solo.webmanifest").json()
        assert manifest["start_url"] == "/solo" and {i["sizes"] for i in manifest["icons"]} == {
            "192x192",
            "512x512",
        }
        assert client.get("/solo-sw.js").text == "// built\n"
        assert client.get("/solo-assets/rami.whl").content == b"PK"
    monkeypatch.setenv("RAMI_SOLO_DIST", str(tmp_path / "not-built"))
    with TestClient(create_app(ServerConfig(db_url=db))) as client:
        assert client.get("/solo").status_code == 200  # the lobby opens; the table says why not
        missing = client.get("/solo-assets/rami.whl")
        assert missing.status_code == 404 and "make static" in missing.json()["error"]["message"]
        assert client.get("/solo-sw.js").status_code == 404
