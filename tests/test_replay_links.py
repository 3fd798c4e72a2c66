"""Replay links, record checks, shuffle verification and background reviews over HTTP
(issue 24, parts 2 to 4: ``rami.server.replays``).

A table's link ``/r/{id}`` is a 128-bit secret, not derived from its code; it shows only
deals that are over (a deal in play has no revealed seed, so its hands are never served);
unknown ids count as misses like table codes; the creator can make replays private.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from test_server_ws import hello, is_state, new_table, until

from rami.server import ServerConfig, create_app
from rami.server.replays import ReviewJobs, real_reviewer

Message = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0))
    with TestClient(app) as c:
        yield c


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def play(ws: Any, state: Message, moves: int | None = None) -> Message:
    """Play the human seat's moves (the last legal one: finishes soon) until the deal is over
    or ``moves`` moves have been made."""
    made = 0
    for _ in range(400):
        if state["view"].get("result") or (moves is not None and made >= moves):
            return state
        legal = state["view"].get("legal_actions") or []
        if legal:
            ws.send_json({"type": "action", "action": legal[-1]})
            made += 1
        state = until(ws, is_state)
    raise AssertionError("the deal did not end")


def finished_table(client: TestClient) -> tuple[str, str, Message]:
    """A Tunisian 1v1 table against an easy bot with its first deal over (T-13 max turns)."""
    made = new_table(
        client,
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
        options={"max_turns": 6, "elimination": 50},
    )
    code, token = made["code"], made["token"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        state = play(ws, hello(ws, token))
    assert state["view"]["result"]
    return code, token, made


def link_of(client: TestClient, code: str, token: str | None = None) -> Message:
    response = client.get(f"/api/tables/{code}/replay-link", headers=bearer(token))
    assert response.status_code == 200, response.text
    found: Message = response.json()
    return found


def test_a_finished_deal_replays_move_by_move_from_an_unguessable_link(
    client: TestClient,
) -> None:
    code, token, _made = finished_table(client)
    link = link_of(client, code, token)
    assert link["creator"] is True and link["private"] is False
    assert link["url"].endswith(f"/r/{link['link']}")
    assert len(link["link"]) >= 22 and code not in link["link"]  # 128 bits, not the code
    assert link_of(client, code) == {**link, "creator": False}  # the same link for everyone
    page = client.get(f"/r/{link['link']}")
    assert page.status_code == 200 and "replay-view.js" in page.text
    replay = client.get(f"/api/replays/{link['link']}").json()
    assert replay["seats"][0]["name"] == "Ana"
    (deal,) = replay["deals"]
    frames = deal["frames"]
    assert frames[0]["move"] is None and all(f["move"] for f in frames[1:])
    assert sorted(map(len, frames[0]["hands"])) == [14, 15]  # every hand: the first player 15
    assert deal["result"] is not None and deal["settlement"][0].startswith("Result:")
    assert deal["seed"] is not None and len(deal["commitment"]) == 64
    record = client.get(f"/api/replays/{link['link']}/record")
    assert record.status_code == 200 and "Commitment:" in record.text
    assert code not in record.text and code not in str(replay)  # the link hides the code
    verdict = client.get(f"/api/replays/{link['link']}/verify").json()
    assert verdict["ok"] is True and verdict["message"].startswith("verified 1 deal")
    # every link is new: two tables never share one, and ids are random
    other = new_table(client, [{"kind": "human"}, {"kind": "bot"}])
    assert link_of(client, other["code"])["link"] != link["link"]


def test_hands_of_a_deal_in_play_are_never_served(client: TestClient) -> None:
    made = new_table(
        client,
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
        options={"max_turns": 6, "elimination": 50},
    )
    code, token = made["code"], made["token"]
    link = link_of(client, code, token)["link"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        state = play(ws, hello(ws, token), moves=2)
        assert not state["view"].get("result")
        hand = state["view"]["hand"]
        for who in (None, token):  # not to a spectator, not even to the seat itself
            replay = client.get(f"/api/replays/{link}", headers=bearer(who)).json()
            assert replay["deals"] == [] and replay["in_play"] == 1
            text = client.get(f"/api/replays/{link}/record", headers=bearer(who)).text
            assert "Seed:" not in text and "Hand " not in text
            assert " ".join(hand) not in text
        verdict = client.get(f"/api/replays/{link}/verify").json()
        assert verdict["ok"] is False and "nothing to verify" in verdict["message"]
        review = client.post(f"/api/replays/{link}/review", json={"deal": 1}, headers=bearer(token))
        assert review.status_code == 409 and review.json()["error"]["code"] == "deal_not_over"
        state = play(ws, state)
    replay = client.get(f"/api/replays/{link}").json()
    assert len(replay["deals"]) == 1  # once over, the deal shows
    assert replay["deals"][0]["frames"][0]["hands"][0]  # with every hand


def test_the_creator_makes_replays_private_and_only_the_tables_seats_open_them(
    client: TestClient,
) -> None:
    made = new_table(client, [{"kind": "human", "name": "Ana"}, {"kind": "human"}])
    code, token = made["code"], made["token"]
    joined = client.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()
    link = link_of(client, code)["link"]
    assert client.get(f"/api/replays/{link}").status_code == 200
    for who in (None, joined["token"]):  # a spectator, a seat that did not create it
        refused = client.put(
            f"/api/tables/{code}/replay-privacy", json={"private": True}, headers=bearer(who)
        )
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_creator"
    assert client.get(f"/api/replays/{link}").status_code == 200  # nothing changed
    done = client.put(
        f"/api/tables/{code}/replay-privacy", json={"private": True}, headers=bearer(token)
    )
    assert done.status_code == 200 and done.json()["private"] is True
    refused = client.get(f"/api/replays/{link}")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "private"
    assert client.get(f"/api/replays/{link}/record").status_code == 403
    assert client.get(f"/api/replays/{link}/verify").status_code == 403
    assert client.get(f"/api/replays/{link}", headers=bearer(joined["token"])).status_code == 200
    # The table's code alone no longer gives the finished deals either (record and replay).
    for path in (f"/api/tables/{code}/record", f"/api/tables/{code}/replay"):
        closed = client.get(path)
        assert closed.status_code == 403 and closed.json()["error"]["code"] == "private"
    seat_record = client.get(f"/api/tables/{code}/record", headers=bearer(joined["token"]))
    assert seat_record.status_code == 200
    assert link_of(client, code)["private"] is True  # stored
    bad = client.put(
        f"/api/tables/{code}/replay-privacy", json={"private": "x"}, headers=bearer(token)
    )
    assert bad.status_code in (400, 422)
    client.put(f"/api/tables/{code}/replay-privacy", json={"private": False}, headers=bearer(token))
    assert client.get(f"/api/replays/{link}").status_code == 200
    assert client.get(f"/api/tables/{code}/record").status_code == 200


def test_the_link_and_its_privacy_survive_a_restart(db_url: str) -> None:
    """Stored (migration 0003), on SQLite and PostgreSQL."""
    config = ServerConfig(db_url=db_url, bot_delay=0)
    with TestClient(create_app(config)) as c:
        made = new_table(c, [{"kind": "human"}, {"kind": "bot"}])
        link = link_of(c, made["code"])["link"]
        c.put(
            f"/api/tables/{made['code']}/replay-privacy",
            json={"private": True},
            headers=bearer(made["token"]),
        )
    with TestClient(create_app(config)) as c:
        assert c.get(f"/api/replays/{link}").json()["error"]["code"] == "private"
        assert link_of(c, made["code"], made["token"]) == {
            "link": link,
            "url": f"http://testserver/r/{link}",
            "private": True,
            "creator": True,
        }


def test_unknown_links_count_as_misses_like_table_codes(client: TestClient) -> None:
    made = new_table(client, [{"kind": "human"}, {"kind": "bot"}])
    code = made["code"]
    link = link_of(client, code)["link"]
    statuses = [client.get(f"/api/replays/{'x' * 21}{i}").status_code for i in range(40)]
    assert statuses[:20] == [404] * 20 and set(statuses[20:]) == {429}
    refused = client.get(f"/api/replays/{link}")  # even the real link, while out of misses
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert client.get(f"/api/tables/{code}").status_code == 429  # the same budget as codes
    # a seat's own token still opens its table's replay (a prober may share its address)
    assert client.get(f"/api/replays/{link}", headers=bearer(made["token"])).status_code == 200
    guess = client.get(f"/api/replays/{'y' * 22}", headers=bearer(made["token"]))
    assert guess.status_code == 429  # but not another guess


def test_a_posted_record_replays_and_a_bad_one_gets_one_error_naming_the_line(
    client: TestClient,
) -> None:
    code, _token, _made = finished_table(client)
    text = client.get(f"/api/tables/{code}/record").text
    checked = client.post("/api/records/check", json={"text": text})
    assert checked.status_code == 200
    link = link_of(client, code)["link"]
    assert checked.json()["deals"] == client.get(f"/api/replays/{link}").json()["deals"]
    assert client.post("/api/records/verify", json={"text": text}).json()["ok"] is True
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Hand "))
    changed = list(lines)
    card = changed[at].split()[-1]
    changed[at] = changed[at][: -len(card)] + ("2♣" if card != "2♣" else "3♣")
    for bad, words in (
        ("\n".join(changed) + "\n", [f"line {at + 1}"]),
        ("hello\n", ["line 1"]),
        ("", ["line"]),
    ):
        answer = client.post("/api/records/check", json={"text": bad})
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["code"] == "bad_record" and "\n" not in error["message"]
        assert all(w in error["message"] for w in words), error["message"]
        verdict = client.post("/api/records/verify", json={"text": bad}).json()
        assert verdict["ok"] is False and verdict["message"]
    wrong_seed = text.replace("Seed: ", "Seed: 1", 1)
    verdict = client.post("/api/records/verify", json={"text": wrong_seed}).json()
    assert verdict["ok"] is False
    too_long = client.post("/api/records/check", json={"text": "x" * 70_000})
    assert too_long.status_code in (400, 413, 422)


def fake_reviewer(gate: threading.Event) -> Callable[..., Mapping[str, Any]]:
    def run(doc: Mapping[str, Any], seat: int, progress: Callable[[int, int], None]) -> Message:
        progress(0, 2)
        gate.wait(5)
        progress(1, 2)
        progress(2, 2)
        move = doc["actions"][0]
        return {
            "seat": seat,
            "decisions": [
                {
                    "index": 0,
                    "move": move,
                    "best": move,
                    "loss": 0.0,
                    "stderr": 0.0,
                    "label": "good",
                    "why": None,
                }
            ],
            "points_lost": 0.0,
            "accuracy": 100.0,
        }

    return run


def test_a_review_runs_in_the_background_for_the_seats_own_decisions(client: TestClient) -> None:
    gate = threading.Event()
    client.app.state.review_jobs = ReviewJobs(fake_reviewer(gate))  # type: ignore[attr-defined]
    code, token, _made = finished_table(client)
    link = link_of(client, code)["link"]
    path = f"/api/replays/{link}/review"
    refused = client.post(path, json={"deal": 1})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "spectator"
    started = client.post(path, json={"deal": 1}, headers=bearer(token))
    assert started.status_code == 200, started.text
    job = started.json()
    assert job["seat"] == 0 and job["status"] in ("queued", "running")
    # the table answers while the review waits (it runs in a worker thread)
    assert client.get(f"/api/tables/{code}").status_code == 200
    again = client.post(path, json={"deal": 1}, headers=bearer(token)).json()
    assert again["job"] == job["job"]  # one job per deal and seat: a reload finds it
    gate.set()
    deadline = time.monotonic() + 5
    while True:
        polled = client.get(f"{path}/{job['job']}", headers=bearer(token)).json()
        if polled["status"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert polled["status"] == "done" and polled["done"] == polled["total"] == 2
    assert polled["review"]["decisions"][0]["label"] == "good"
    assert client.get(f"{path}/{job['job']}").status_code == 404  # not the spectators'
    assert client.get(f"{path}/nosuchjob", headers=bearer(token)).status_code == 404
    assert client.post(path, json={"deal": 2}, headers=bearer(token)).status_code == 409
    assert client.post(path, json={"deal": 0}, headers=bearer(token)).status_code in (400, 422)


def test_a_finished_deal_shows_while_the_next_one_stays_hidden(client: TestClient) -> None:
    made = new_table(
        client,
        [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
        options={"max_turns": 6},  # T-13: the match goes on after deal 1
    )
    code, token = made["code"], made["token"]
    link = link_of(client, code)["link"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        play(ws, hello(ws, token))
        dealt = client.post(f"/api/tables/{code}/next-deal", headers=bearer(token))
        assert dealt.status_code == 200, dealt.text
        state = until(ws, lambda m: is_state(m) and m["table"]["shuffle"]["deal"] == 2)
        state = play(ws, state, moves=2)
        assert not state["view"].get("result")
        replay = client.get(f"/api/replays/{link}").json()
        assert [d["number"] for d in replay["deals"]] == [1] and replay["in_play"] == 1
        commitment = state["table"]["shuffle"]["commitment"]
        assert commitment not in str(replay)  # nothing of deal 2, not even its commitment
        review = client.post(f"/api/replays/{link}/review", json={"deal": 2}, headers=bearer(token))
        assert review.status_code == 409
        asked = client.get(f"/api/replays/{link}?deal=2")  # not even when asked for
        assert asked.status_code == 400 and commitment not in asked.text
        state = play(ws, state)
    replay = client.get(f"/api/replays/{link}").json()  # deal 2 is over: it shows, last
    assert [d["frames"] is not None for d in replay["deals"]] == [False, True]
    first = client.get(f"/api/replays/{link}?deal=1").json()["deals"]
    assert first[0]["frames"] and first[1]["frames"] is None
    text = client.get(f"/api/tables/{code}/record").text
    checked = client.post("/api/records/check", json={"text": text, "deal": 1}).json()
    assert checked["deals"][0]["frames"] == first[0]["frames"]


def test_the_real_review_runs_in_a_child_process_with_progress(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rami.review`` (from the seat's view only) in a spawned process: the server's
    interpreter never runs it; progress and the JSON of ``rami review --json`` come back."""
    monkeypatch.setenv("RAMI_CACHE_DIR", str(tmp_path / "reviews"))  # not the user's cache
    client.app.state.review_jobs = ReviewJobs(real_reviewer(samples=4))  # type: ignore[attr-defined]
    code, token, _made = finished_table(client)
    link = link_of(client, code)["link"]
    path = f"/api/replays/{link}/review"
    job = client.post(path, json={"deal": 1}, headers=bearer(token)).json()
    deadline = time.monotonic() + 60
    seen: set[str] = set()
    while True:
        polled = client.get(f"{path}/{job['job']}", headers=bearer(token)).json()
        seen.add(polled["status"])
        if polled["status"] in ("done", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert polled["status"] == "done", polled["error"]
    review = polled["review"]
    assert review["seat"] == 0 and polled["done"] == polled["total"] == len(review["decisions"])
    assert set(review) >= {"seat", "decisions", "points_lost", "accuracy"}
    for decision in review["decisions"]:
        assert set(decision) >= {"index", "move", "best", "loss", "stderr", "label", "why"}
        assert decision["label"] in ("good", "inaccuracy", "mistake", "blunder")
