"""Issue 21, the server's side of the end of a deal and of refusals.

- The first turn has a clock: a human who moves first at a new table or after a rematch
  gets the turn timer (``turn_seconds``), so an absent first player does not stall it.
- A refusal carries the engine's rule id and reason name to the wire (M-5, T-3).
- A finished Marriage deal's explanation (``aids.deal_end``) gives ``rami score``'s
  figures, pairwise payments included (M-13, M-15).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient
from test_server_ws import hello, is_state, until

from rami.errors import IllegalAction
from rami.games import get_game
from rami.marriage.deal_end import deal_document, deal_end
from rami.marriage.game import new_deal as marriage_deal
from rami.marriage.rules import rules_from as marriage_rules
from rami.server import ServerConfig, create_app
from rami.tunisian.game import new_deal as tunisian_deal
from rami.tunisian.rules import rules_from as tunisian_rules


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0))
    with TestClient(app) as c:
        yield c


def _human_first_seed() -> int:
    """A seed whose 1 v 1 Tunisian match has seat 0 (the human) to move first."""
    spec = get_game("tunisian")
    rules = spec.rules_from("1v1")
    for seed in range(1, 200):
        if spec.new_match(rules, 2, seed).current.to_move == 0:
            return seed
    raise AssertionError("no seed with seat 0 first")


def _version(client: TestClient, code: str) -> int:
    return int(client.get(f"/api/tables/{code}").json()["version"])


def test_an_absent_first_player_does_not_stall_a_new_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new table whose first mover is a human who never connects: the clock runs out
    and a bot plays the seat (turn_seconds, issue 21)."""
    monkeypatch.setattr("rami.server.lifecycle.new_match_seed", _human_first_seed)
    body = {
        "game": "tunisian",
        "preset": "1v1",
        "seats": [{"kind": "human"}, {"kind": "bot"}],
        "turn_seconds": 5,
    }
    made = client.post("/api/tables", json=body).json()
    code = made["code"]
    live = client.app.state.manager.tables[code]  # type: ignore[attr-defined]
    assert live.human_to_move() == 0 and live.deadline is not None  # the clock runs
    started = time.monotonic()
    while _version(client, code) == 0 and time.monotonic() - started < 10:
        time.sleep(0.2)
    assert _version(client, code) > 0, "the table stalled on its absent first player"
    assert time.monotonic() - started >= 4


def test_a_rematch_whose_first_mover_is_human_has_a_clock(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = _human_first_seed()
    monkeypatch.setattr("rami.server.lifecycle.new_match_seed", lambda: seed)
    body = {
        "game": "tunisian",
        "preset": "1v1",
        "seats": [{"kind": "human"}, {"kind": "bot"}],
        "options": {"max_turns": 4, "elimination": 50},
        "turn_seconds": 600,
    }
    made = client.post("/api/tables", json=body).json()
    with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        state = hello(ws, made["token"])
        for _ in range(300):
            if state["view"].get("result") and state["view"]["match"]["game_over"]:
                break
            legal = state["view"].get("legal_actions") or []
            if state["view"].get("result"):
                ws.send_json({"type": "next_deal"})
            elif legal:
                ws.send_json({"type": "action", "action": legal[-1]})
            state = until(ws, is_state)
        assert state["view"]["match"]["game_over"]
        ws.send_json({"type": "rematch", "id": 1})
        new_code = until(ws, lambda m: m["type"] == "rematch")["code"]
    live = client.app.state.manager.tables[new_code]  # type: ignore[attr-defined]
    assert live.human_to_move() == 0
    assert live.deadline is not None and live.timer_task is not None


def test_refusals_carry_the_rule_id_and_reason_to_the_wire(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discarding in the draw phase: "draw first" (T-3), with its rule id and name."""
    seed = _human_first_seed()
    monkeypatch.setattr("rami.server.lifecycle.new_match_seed", lambda: seed)
    rules = tunisian_rules("1v1")
    state = tunisian_deal(rules, 2, seed)
    # the engine: a typed refusal
    first = state.legal_actions()[0]
    state.apply(first)
    while state.to_move is not None and str(state.legal_actions()[0]) not in ("draw", "take"):
        state.apply(state.legal_actions()[0])
    card = state.view(state.to_move)["hand"][0]
    with pytest.raises(IllegalAction) as refused:
        state.apply(f"discard {card}")
    assert refused.value.rule == "T-3" and refused.value.key == "draw_first"
    # the wire: a human who tries to discard before drawing
    made = client.post(
        "/api/tables",
        json={"game": "tunisian", "preset": "1v1", "seats": [{"kind": "human"}, {"kind": "bot"}]},
    ).json()
    with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        view = hello(ws, made["token"])["view"]
        for _ in range(20):  # the dealer's first turn is a discard (T-2): play it
            legal = view.get("legal_actions") or []
            if "draw" in legal:
                break
            if legal:
                ws.send_json({"type": "action", "action": legal[-1]})
            view = until(ws, is_state)["view"]
        assert "draw" in view["legal_actions"]
        ws.send_json({"type": "action", "id": 7, "action": f"discard {view['hand'][0]}"})
        error = until(ws, lambda m: m["type"] == "error")
    assert error["code"] == "illegal" and error["rule"] == "T-3"
    assert error["reason"] == "draw_first" and "(T-3)" in error["message"]


def test_marriage_taken_discard_refusal_names_M5() -> None:
    state = marriage_deal(marriage_rules("nepali"), 4, 3)
    while state.to_move is not None and "take" not in [str(a) for a in state.legal_actions()]:
        state.apply(state.legal_actions()[0])
    seat = state.to_move
    state.apply("take", seat)
    taken = state.view(seat)["taken"]
    with pytest.raises(IllegalAction) as refused:
        state.apply(f"discard {taken}", seat)
    assert refused.value.rule == "M-5" and refused.value.key == "taken_discard"
    assert state.check(f"discard {taken}", seat) is not None


def _finished(preset: str, seed: int, players: int = 4) -> Any:
    rules = marriage_rules(preset)
    state = marriage_deal(rules, players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        finish = [a for a in legal if str(a).startswith("finish")]
        state.apply(finish[0] if finish else rng.choice(legal))
    return rules, state.result


@pytest.mark.parametrize(("preset", "seed"), [("nepali", 3), ("nepali", 5), ("indian", 3)])
def test_deal_end_figures_equal_rami_score(preset: str, seed: int, tmp_path: Path) -> None:
    """M-13 / M-15: the table's nets and pairwise payments are `rami score`'s."""
    rules, result = _finished(preset, seed)
    end = deal_end(result.details, rules.to_json(), list(result.scores))
    assert end["agrees"] and [s["net"] for s in end["seats"]] == list(result.scores)
    doc = tmp_path / "deal.json"
    doc.write_text(json.dumps(deal_document(result.details, rules.to_json())))
    out = subprocess.run(
        [sys.executable, "-c", "from rami.cli import app; app()", "score", "marriage", str(doc)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(Path(__file__).parents[1] / "src"), "PATH": "/usr/bin:/bin"},
    ).stdout
    scored = json.loads(out)["players"]  # `rami score`: each player's maal and net
    assert [p["net"] for p in scored] == [s["net"] for s in end["seats"]]
    assert [p["maal"] for p in scored] == [s["maal"] for s in end["seats"]]
    # every payment adds up to each seat's net
    for s in end["seats"]:
        paid = sum(p["points"] for p in end["payments"] if p["payer"] == s["seat"])
        got = sum(p["points"] for p in end["payments"] if p["payee"] == s["seat"])
        assert got - paid == s["net"]
    if preset == "indian":  # M-15: net = value difference − card points paid (+ received)
        for s in end["seats"]:
            assert s["net"] == s["maal_part"] + s["card_part"]
            if s["seat"] != result.winner and result.winner is not None:
                assert s["card_part"] == -s["card_points"]
    else:  # M-13: net = fees + maal differences
        assert all(s["net"] == s["fees"] + s["maal_part"] for s in end["seats"])


def test_the_finishers_groups_hold_their_shown_melds_and_dublees() -> None:
    """M-8 / M-9: the finisher's groups are every card they scored with, once each."""
    for seed in range(30):
        rules, result = _finished("nepali", seed)
        details = result.details
        if details["finisher"] is None:
            continue
        end = deal_end(details, rules.to_json(), list(result.scores))
        me = end["seats"][details["finisher"]]
        laid = sorted(c for g in me["groups"] for c in g)
        player = details["players"][details["finisher"]]
        assert sorted(laid + me["left"]) == sorted(player["cards"])  # each card once
        if details["finish"]["kind"] == "dublees":
            assert end["finish_kind"] == "dublees"
            assert all(len(g) == 2 for g in me["groups"])


def test_tunisian_hint_counts_the_melds_already_staged() -> None:
    """T-6: while opening, the staged melds count towards the man3a the hint reports."""
    from rami.tunisian.web import notes

    view: Any = {
        "game": "tunisian",
        "seat": 0,
        "phase": "play",
        "threshold": 71,
        "hand": ["2♠", "7♦", "9♣", "K♦"],
        "seats": [{"opened": False}, {"opened": False}],
        "table": [
            {"index": 0, "cards": ["10♥", "J♥", "Q♥", "K♥"], "owner": 0, "value": 40},
            {"index": 1, "cards": ["K♠", "K♣", "K♥"], "owner": 0, "value": 30, "staged": True},
            {"index": 2, "cards": ["Q♠", "Q♣", "Q♦"], "owner": 0, "value": 30, "staged": True},
        ],
    }
    view["table"][0]["staged"] = True
    (note,) = notes(view)
    assert note["key"] == "hint_opening" and note["value"] == 100, note
    view["table"] = view["table"][1:]  # 60 staged, nothing more in hand: not yet
    (note,) = notes(view)
    assert note == {"key": "hint_no_opening", "value": 60, "threshold": 71}


def test_M1_indian_six_or_seven_players_are_dealt_from_four_decks() -> None:
    """M-1: three decks leave 8 cards in the stock at seven players; indian deals six and
    seven from four (``decks_6_players``); a rules document saved before keeps three."""
    rules = marriage_rules("indian")
    for players, decks in ((4, 3), (5, 3), (6, 4), (7, 4)):
        view = marriage_deal(rules, players, 1).view(0)
        assert view["rules"]["decks"] == decks
        assert view["stock_size"] == 52 * decks - players * 21 - 1
    spec = get_game("marriage")
    match = spec.new_match(rules, 7, 9)
    assert match.current.view(None)["stock_size"] == 60
    old = dict(rules.to_json())
    old.pop("decks_6_players")  # saved before the option existed
    assert marriage_deal(old, 7, 1).view(0)["stock_size"] == 8
    assert marriage_rules({"preset": "indian"}).decks_6_players == 4  # a lobby request
    nepali_maal = marriage_rules({"preset": "indian", "scoring": "nepali", "max_players": 7})
    assert nepali_maal.for_players(7).decks == 3  # nepali maal counts three decks (M-12)
