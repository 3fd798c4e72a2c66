"""Table features of issue 9 over the WebSocket and HTTP: nobody stalls a table.

The turn timer hands a timed-out human seat to a bot (marked auto) until its player is
back; seated players can hand an absent seat to a bot; a short seat code opens the seat
like its token; rematch keeps the seats; finished deals replay from the event log; the
engine's grouping of a hand; preset reactions. Refusals are one-line errors that change
nothing (the house rule).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from test_server_ws import Message, hello, is_state, new_table, until

from rami.server import ServerConfig, create_app
from rami.server.seat_timer import check_turn_seconds, seat_code, seat_code_matches


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0))
    with TestClient(app) as c:
        yield c


def two_humans(client: TestClient, **extra: Any) -> tuple[str, list[str]]:
    made = new_table(client, [{"kind": "human"}, {"kind": "human"}], **extra)
    joined = client.post(f"/api/tables/{made['code']}/join", json={"name": "Bo"}).json()
    return made["code"], [made["token"], joined["token"]]


def test_seat_codes_are_short_stable_and_checked_in_constant_form() -> None:
    key = b"k" * 32
    code = seat_code("abc", key)
    assert len(code) == 8 and code.isalnum() and code == seat_code("abc", key)
    assert code != seat_code("abd", key) and code != seat_code("abc", b"j" * 32)
    assert seat_code_matches(code.lower(), "abc", key)
    assert seat_code_matches(f"{code[:4]}-{code[4:]}", "abc", key)
    assert not seat_code_matches(code, "abc", b"")  # no key: seat codes are off
    assert not seat_code_matches(code, None, key) and not seat_code_matches("short", "abc", key)


def test_turn_seconds_are_checked() -> None:
    assert check_turn_seconds(None) is None and check_turn_seconds(0) is None
    assert check_turn_seconds(30) == 30
    for bad in (True, "30", 2, 10**6, 1.5):
        with pytest.raises(Exception, match="turn_seconds"):
            check_turn_seconds(bad)


def test_default_timer_only_where_other_people_wait(client: TestClient) -> None:
    solo = new_table(client, [{"kind": "human"}, {"kind": "bot"}])
    assert solo["table"]["turn_seconds"] is None
    code, _ = two_humans(client)
    assert client.get(f"/api/tables/{code}").json()["turn_seconds"] == 60
    off = new_table(client, [{"kind": "human"}, {"kind": "human"}], turn_seconds=None)
    assert off["table"]["turn_seconds"] is None
    bad = client.post(
        "/api/tables",
        json={"game": "tunisian", "preset": "1v1", "seats": [{}, {}], "turn_seconds": 1},
    )
    assert bad.status_code == 400 and "turn_seconds" in bad.json()["error"]["message"]


def test_timed_out_seat_is_played_by_a_bot_until_its_player_returns(
    client: TestClient,
) -> None:
    code, tokens = two_humans(client, turn_seconds=5)
    path = f"/ws/tables/{code}"
    with client.websocket_connect(path) as a:
        state = hello(a, tokens[0])
        assert state["timer"] is not None and state["timer"]["seconds"] == 5
        mover = state["view"]["to_move"]
        start = time.monotonic()
        # nobody moves: after the time runs out a bot plays the mover's seat
        auto = until(a, lambda m: is_state(m) and m["table"]["seats"][mover]["auto"], limit=2000)
        assert time.monotonic() - start >= 4
        assert auto["version"] >= state["version"]
        moved = until(a, lambda m: is_state(m) and m["version"] > state["version"], limit=2000)
        assert moved["version"] > state["version"]
    # the timed-out player connects again (from anywhere): the seat is theirs again
    with client.websocket_connect(path) as again:
        back = hello(again, tokens[mover])
        assert not back["table"]["seats"][mover]["auto"]


def test_seat_code_opens_the_seat_and_a_bad_one_is_refused(client: TestClient) -> None:
    code, tokens = two_humans(client)
    path = f"/ws/tables/{code}"
    with client.websocket_connect(path) as a:
        state = hello(a, tokens[1])
        short = state["seat_code"]
        assert len(short) == 8 and short != tokens[1]
    with client.websocket_connect(path) as b:
        assert hello(b, short.lower())["seat"] == 1
    view = client.get(f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {short}"})
    assert view.json()["seat"] == 1 and "hand" in view.json()["view"]
    with client.websocket_connect(path) as c:
        c.send_json({"type": "hello", "token": "AAAAAAAA"})
        refused = c.receive_json()
        assert refused["type"] == "error" and refused["code"] == "bad_token"
    with client.websocket_connect(path) as spectator:
        assert "seat_code" not in hello(spectator, None)


def test_an_absent_seat_can_be_handed_to_a_bot_and_taken_back(client: TestClient) -> None:
    code, tokens = two_humans(client, turn_seconds=None)
    path = f"/ws/tables/{code}"
    with client.websocket_connect(path) as a:
        hello(a, tokens[0])
        a.send_json({"type": "auto", "seat": 0, "id": 1})
        own = until(a, lambda m: m["type"] in ("error", "ack"))
        assert own["type"] == "error" and own["code"] == "bad_request"
        for bad in ("1", True, 9):
            a.send_json({"type": "auto", "seat": bad})
            assert until(a, lambda m: m["type"] == "error")["code"] in (
                "bad_message",
                "bad_request",
            )
        a.send_json({"type": "auto", "seat": 1, "id": 2})
        # The new state (seat 1 marked auto) goes out before the ack: wait for both.
        seen: set[str] = set()

        def ack_and_auto(m: dict[str, Any]) -> bool:
            assert m["type"] != "error", m
            if m["type"] == "ack":
                seen.add("ack")
            if is_state(m) and m["table"]["seats"][1]["auto"]:
                seen.add("auto")
            return seen == {"ack", "auto"}

        until(a, ack_and_auto)
        with client.websocket_connect(path) as b:
            b.send_json({"type": "hello", "token": tokens[1]})
            until(b, lambda m: is_state(m) and not m["table"]["seats"][1]["auto"])
            b.send_json({"type": "react", "key": "hello"})
            got = until(a, lambda m: m["type"] == "reaction")
            assert got == {"type": "reaction", "seat": 1, "key": "hello"}
            b.send_json({"type": "react", "key": "<b>free text</b>"})
            assert until(b, lambda m: m["type"] == "error")["code"] == "bad_message"
            a.send_json({"type": "auto", "seat": 1})  # Bo is here: refused
            assert until(a, lambda m: m["type"] == "error")["code"] == "bad_request"


def test_arrangement_groups_every_card_of_the_hand(client: TestClient) -> None:
    for game, preset, players in (("marriage", "nepali", 4), ("tunisian", "1v1", 2)):
        made = new_table(
            client,
            [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1),
            game=game,
            preset=preset,
        )
        with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            state = hello(ws, made["token"])
            ws.send_json({"type": "arrange", "id": 7})
            got = until(ws, lambda m: m["type"] == "arrangement")
            cards = [c for g in got["groups"] for c in g]
            latest: Message = state
            assert sorted(cards) == sorted(latest["view"]["hand"]) or len(cards) == len(
                latest["view"]["hand"]
            )
            assert len(got["groups"]) >= 1


def test_rematch_keeps_the_seats_and_replay_shows_a_finished_deal(client: TestClient) -> None:
    made = new_table(
        client,
        [{"kind": "human"}, {"kind": "bot"}],
        options={"max_turns": 4, "elimination": 50},
    )
    code, token = made["code"], made["token"]
    auth = {"Authorization": f"Bearer {token}"}
    early = client.get(f"/api/tables/{code}/replay?deal=0")
    assert early.status_code == 400  # the deal is not over yet
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        state = hello(ws, token)
        ws.send_json({"type": "rematch", "id": 1})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "bad_request"
        for _ in range(200):
            if state["view"].get("result"):
                break
            legal = state["view"].get("legal_actions") or []
            if legal:
                ws.send_json({"type": "action", "action": legal[-1]})
            state = until(ws, is_state)
        assert state["view"]["result"] and state["view"]["match"]["game_over"]
        replay = client.get(f"/api/tables/{code}/replay?deal=0").json()
        frames = replay["frames"]
        assert frames[0]["move"] is None and all(len(f["hands"]) == 2 for f in frames)
        assert sorted(frames[-1]["hands"][0]) == sorted(state["view"]["hand"])
        assert client.get(f"/api/tables/{code}/replay?deal=3").status_code == 400
        ws.send_json({"type": "rematch", "id": 2})
        new_code = until(ws, lambda m: m["type"] == "rematch")["code"]
    assert new_code != code
    new = client.get(f"/api/tables/{new_code}", headers=auth).json()
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in made["table"]["seats"]]
    mine = client.get(f"/api/tables/{new_code}/view", headers=auth).json()
    assert mine["seat"] == 0  # the same token opens the same seat at the new table
    assert client.get(f"/api/tables/{code}").json()["rematch"] == new_code


def test_marriage_aids_name_the_wild_cards_and_count_maal_only_once_seen() -> None:
    """M-7: nothing before seeing; after, the tiplu's neighbours by name and the maal (M-12)."""
    import random

    from rami.games import get_game
    from rami.server.aids import table_aids

    spec = get_game("marriage")
    match = spec.new_match(spec.rules_from({"preset": "nepali"}), 4, 11)
    rng = random.Random(3)
    assert table_aids("marriage", match.view(0)) == {}
    for _ in range(3000):
        current = match.current
        if current.is_over:
            break
        seat = current.to_move
        view = match.view(seat)
        if view.get("seen"):
            aids = table_aids("marriage", view)
            names = {w["name"]: w["cards"] for w in aids["wild_names"]}
            assert names["tiplu"] == [view["tiplu"]]
            assert {"jhiplu", "poplu"} <= set(names)
            wilds = {c for cards in names.values() for c in cards}
            assert wilds == set(view["wild_cards"])
            assert isinstance(aids["maal"], int) and aids["maal"] >= 0
            for other in range(4):  # the others' views say nothing about the tiplu
                if not match.view(other).get("seen"):
                    assert table_aids("marriage", match.view(other)) == {}
            return
        legal = view["legal_actions"]
        shows = [a for a in legal if a.startswith("show ")]
        match.apply(shows[0] if shows else rng.choice(legal))
    pytest.skip("no seat saw the tiplu in this deal")


def test_marriage_settlement_splits_each_net_into_fees_and_maal_differences() -> None:
    """M-13: the fee part plus the pairwise maal part is each seat's net; the parts sum to 0."""
    import random

    from rami.games import get_game
    from rami.server.aids import table_aids

    spec = get_game("marriage")
    for seed in (5, 8):
        match = spec.new_match(spec.rules_from({"preset": "nepali", "max_turns": 40}), 4, seed)
        rng = random.Random(seed)
        while not match.current.is_over:
            view = match.view(match.current.to_move)
            legal = view["legal_actions"]
            best = [a for a in legal if a.startswith(("finish", "show"))]
            match.apply(best[0] if best else rng.choice(legal))
        view = match.view(0)
        rows = table_aids("marriage", view)["settlement"]
        nets = [p["net"] for p in view["result"]["details"]["players"]]
        assert [r["fees"] + r["maal_part"] for r in rows] == nets
        assert sum(r["maal_part"] for r in rows) == 0 and sum(r["fees"] for r in rows) == 0
