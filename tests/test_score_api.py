"""The scorekeeper's HTTP API (issue 15) gives exactly the numbers of ``rami score``.

Worked examples (M-13 seeds 000 and 004, M-14, M-15, T-10, T-13) and random deals are
posted to ``/api/score/{game}/ledger`` and ``/api/score/{game}/deal`` and compared with
``rami score`` run as a command; the maal and points entered as numbers give the same
nets as the cards; the settlement per pair adds up to the nets; the ledger sums to
zero (M-13); the dealer passes in the direction of play (M-2, T-12); eliminations and
the winner follow T-13. Bad documents get a one-line 400, never a 500, and the
``rami.ledger`` functions raise ``InputError`` for them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from rami.cards import CARDS
from rami.cli import main as cli_main
from rami.errors import InputError
from rami.ledger import compute
from rami.marriage import calculator as marriage_calc
from rami.marriage.melds import jhiplu, poplu
from rami.marriage.rules import rules_from
from rami.server import ServerConfig, create_app
from rami.tunisian import calculator as tunisian_calc


@pytest.fixture(scope="module")
def client() -> Any:
    app = create_app(ServerConfig(db_url="sqlite://"))
    with TestClient(app) as c:
        yield c


def rami_score(game: str, doc: dict[str, Any], tmp_path: Path, capsys: Any) -> Any:
    """``rami score GAME file.json`` run as the command line runs it."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    cli_main(["score", game, str(path)])
    return json.loads(capsys.readouterr().out)


def post(client: Any, path: str, doc: Any) -> Any:
    response = client.post(path, json=doc)
    assert response.status_code == 200, response.text
    return response.json()


def error(client: Any, path: str, doc: Any) -> str:
    response = client.post(path, json=doc)
    assert response.status_code == 400, response.text
    message: str = response.json()["error"]["message"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


M13 = {
    "tiplu": "J♣",
    "players": [
        {"seen": True, "cards": ["10♣", "J♣", "Q♣"]},
        {"seen": True, "cards": ["10♣"]},
        {"seen": False},
    ],
    "finisher": "A",
}


def test_m13_worked_example_ledger_deal_and_rami_score_agree(
    client: Any, tmp_path: Path, capsys: Any
) -> None:
    """M-13 (seed 000): A +31, B −9, C −22; the same from the ledger, the deal API and
    ``rami score``; B pays A 11, C pays A 20 and C pays B 2 (pairs add up to the nets)."""
    ledger = post(
        client,
        "/api/score/marriage/ledger",
        {"game": "marriage", "players": list("ABC"), "deals": [M13]},
    )
    nets = [p["net"] for p in ledger["deals"][0]["result"]["players"]]
    assert nets == [31, -9, -22] and ledger["totals"] == nets and ledger["sum"] == 0
    n2 = {
        "rules": "nepali",
        "tiplu": "J♣",
        "players": [
            {"name": "A", "cards": ["10♣", "J♣", "Q♣"], "seen": True, "qualified": "melds"},
            {"name": "B", "cards": ["10♣"], "seen": True, "qualified": "melds"},
            {"name": "C", "cards": [], "seen": False},
        ],
        "finisher": "A",
    }
    cli = rami_score("marriage", n2, tmp_path, capsys)
    api = post(client, "/api/score/marriage/deal", n2)
    assert [p["net"] for p in cli["players"]] == nets
    assert {k: v for k, v in api.items() if k != "pairs"} == cli
    assert api["pairs"] == [
        {"from": "B", "to": "A", "points": 11},
        {"from": "C", "to": "A", "points": 20},
        {"from": "C", "to": "B", "points": 2},
    ]


def test_m13_maal_as_numbers_gives_the_same_nets(client: Any) -> None:
    deal = {
        "tiplu": "J♣",
        "players": [{"seen": True, "maal": 10}, {"seen": True, "maal": 2}, {"seen": False}],
        "finisher": "A",
    }
    ledger = post(
        client,
        "/api/score/marriage/ledger",
        {"game": "marriage", "players": list("ABC"), "deals": [deal]},
    )
    assert ledger["totals"] == [31, -9, -22]


def test_m13_seed_004_pairwise_and_routed_agree() -> None:
    """Seed 004: C finishes, A has seen: A pays (A+B+C+D) + 3 − 4·A to C; pairwise the
    same net (the pairs of the deal add up to every player's net)."""
    deal = {
        "tiplu": "5♥",
        "players": [
            {"seen": True, "maal": 2},
            {"seen": True, "maal": 7},
            {"seen": True, "maal": 10},
            {"seen": False, "maal": 5},
        ],
        "finisher": 2,
    }
    result = compute({"game": "marriage", "players": list("ABCD"), "deals": [deal]})["deals"][0][
        "result"
    ]
    total = 2 + 7 + 10 + 5
    assert result["players"][0]["net"] == -(total + 3 - 4 * 2)
    assert result["players"][3]["net"] == -(total + 10 - 4 * 5)
    check_pairs(result)


def check_pairs(result: dict[str, Any]) -> None:
    names = [p["name"] for p in result["players"]]
    nets = dict.fromkeys(names, 0)
    for pair in result["pairs"]:
        assert pair["points"] > 0
        nets[pair["from"]] -= pair["points"]
        nets[pair["to"]] += pair["points"]
    assert [nets[n] for n in names] == [p["net"] for p in result["players"]]


def test_m14_no_finisher_and_m2_dealer_rotation() -> None:
    """M-14: each gets n·S − T; M-2: nepali deals clockwise (seat order), indian the
    other way."""
    deal = {"tiplu": "K♦", "players": [{"seen": True, "maal": 5}, {"seen": False}, {"seen": False}]}
    led = compute(
        {"game": "marriage", "players": list("ABC"), "first_dealer": "B", "deals": [deal] * 4}
    )
    assert led["deals"][0]["result"]["players"][0]["net"] == 3 * 5 - 5
    assert [d["dealer"] for d in led["deals"]] == ["B", "C", "A", "B"]
    assert led["next_dealer"] == "C"
    indian = {
        "tiplu": "K♦",
        "players": [{"seen": True, "maal": 4}, {"seen": False, "hand_points": 20}, {"seen": False}],
    }
    led = compute(
        {
            "game": "marriage",
            "rules": "indian",
            "players": list("ABC"),
            "first_dealer": 1,
            "deals": [indian] * 3,
        }
    )
    assert [d["dealer"] for d in led["deals"]] == ["B", "A", "C"]
    assert led["sum"] == 0


def test_m9_dublee_finish_adds_the_bonus(client: Any) -> None:
    deal = {
        "tiplu": "2♠",
        "players": [{"seen": True}, {"seen": False}, {"seen": True, "qualified": "dublees"}],
        "finisher": "C",
    }
    led = post(
        client,
        "/api/score/marriage/ledger",
        {"game": "marriage", "players": list("ABC"), "deals": [deal]},
    )
    assert led["totals"] == [-8, -15, 23]


def test_m15_indian_hand_points_as_number_or_cards(tmp_path: Path, capsys: Any) -> None:
    """M-15: the value points settle pairwise, the others pay the finisher their card
    points; an unseen player's value points are capped at 14."""
    n2 = {
        "rules": "indian",
        "tiplu": "7♠",
        "players": [
            {"name": "A", "cards": ["6♠", "7♠", "8♠"], "seen": True, "qualified": "melds"},
            {
                "name": "B",
                "cards": ["K♥", "9♦", "6♠", "6♠", "7♠", "8♠", "8♠"],
                "seen": False,
                "in_hand": ["K♥", "9♦"],
            },
            {"name": "C", "cards": ["3♣"], "seen": True, "qualified": "melds", "in_hand": ["3♣"]},
        ],
        "finisher": "A",
    }
    cli = rami_score("marriage", n2, tmp_path, capsys)
    by_cards = {
        "tiplu": "7♠",
        "players": [
            {"seen": True, "cards": ["6♠", "7♠", "8♠"]},
            {
                "seen": False,
                "cards": ["K♥", "9♦", "6♠", "6♠", "7♠", "8♠", "8♠"],
                "in_hand": ["K♥", "9♦"],
            },
            {"seen": True, "cards": ["3♣"], "in_hand": ["3♣"]},
        ],
        "finisher": "A",
    }
    by_numbers = {
        "tiplu": "7♠",
        "players": [
            {"seen": True, "maal": 14},
            {"seen": False, "maal": 18, "hand_points": 19},
            {"seen": True, "hand_points": 3},
        ],
        "finisher": "A",
    }
    for deal in (by_cards, by_numbers):
        led = compute(
            {"game": "marriage", "rules": "indian", "players": list("ABC"), "deals": [deal]}
        )
        result = led["deals"][0]["result"]
        assert [p["net"] for p in result["players"]] == [p["net"] for p in cli["players"]]
        assert result["players"][1]["maal"] == 14  # capped
        check_pairs(result)


# ---------------------------------------------------------------------------- random


def random_marriage_deal(
    rng: random.Random, preset: Any, n: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A random finished deal of ``n`` players as an N-2 document and as a ledger entry."""
    rules = rules_from(preset)
    tiplu = CARDS[rng.randrange(52)]
    pool = {jhiplu(tiplu): 3, tiplu: 2, poplu(tiplu): 3}
    others = [c for c in CARDS[:52] if c not in pool]
    names = [f"P{i}" for i in range(n)]
    anyone = rng.random() < 0.9
    players = []
    for name in names:
        seen = anyone and rng.random() < 0.7
        q = None
        if seen:
            q = "dublees" if rules.dublees and rng.random() < 0.2 else "melds"
        cards: list[str] = []
        for card in list(pool):
            take = rng.randint(0, pool[card]) if rng.random() < 0.5 else 0
            pool[card] -= take
            cards += [str(card)] * take
        exposed: list[str] = []
        if rules.deal_tunnela_bonus and rng.random() < 0.3:
            t = rng.choice(others)
            others.remove(t)
            cards += [str(t)] * 3
            exposed.append(str(t))
        p: dict[str, Any] = {"name": name, "cards": cards, "seen": seen}
        if q:
            p["qualified"] = q
        if exposed:
            p["exposed_tunnelas"] = exposed
        if rules.scoring == "indian":
            held = [c for c in cards if rng.random() < 0.5]
            extra = rng.sample(others, 2)
            for c in extra:
                others.remove(c)
            p["cards"] = cards + [str(c) for c in extra]
            p["in_hand"] = held + [str(c) for c in extra]
        players.append(p)
    seen_ones = [p for p in players if p["seen"]]
    finisher = rng.choice(seen_ones) if seen_ones and rng.random() < 0.8 else None
    if finisher is not None and rules.scoring == "indian":
        finisher["in_hand"] = []
    doc = {
        "rules": preset,
        "tiplu": str(tiplu) if anyone else rng.choice([None, str(tiplu)]),
        "players": players,
        "finisher": finisher["name"] if finisher else None,
    }
    entry = {
        "tiplu": doc["tiplu"],
        "players": [{k: v for k, v in p.items() if k != "name"} for p in players],
        "finisher": doc["finisher"],
    }
    return doc, entry


SPECS: list[Any] = [
    "nepali",
    "indian",
    {"preset": "nepali", "unseen_maal_counts": False, "seen_fee": 2, "unseen_fee": 12},
    {"preset": "nepali", "dublee_bonus": 4, "deal_tunnela_bonus": False},
    {"preset": "indian", "unseen_value_cap": 10},
]


@pytest.mark.parametrize("preset", SPECS)
def test_random_marriage_deals_equal_rami_score(
    preset: Any, client: Any, tmp_path: Path, capsys: Any
) -> None:
    """Random deals under each preset and a few table options (M-12 … M-15)."""
    rng = random.Random(json.dumps(preset))
    for round_ in range(12):
        rules = rules_from(preset)
        n = rng.randint(rules.min_players, min(rules.max_players, 6))
        n2s, entries = [], []
        for _ in range(rng.randint(1, 4)):
            doc, entry = random_marriage_deal(rng, preset, n)
            n2s.append(doc)
            entries.append(entry)
        names = [p["name"] for p in n2s[0]["players"]]
        expected = [marriage_calc.score(d) for d in n2s]
        if round_ < 2:  # the command line itself, on a few of them
            assert rami_score("marriage", n2s[0], tmp_path, capsys) == expected[0]
        led = post(
            client,
            "/api/score/marriage/ledger",
            {"game": "marriage", "rules": preset, "players": names, "deals": entries},
        )
        balances = [0] * len(names)
        for deal, want in zip(led["deals"], expected, strict=True):
            got = deal["result"]
            assert [p["net"] for p in got["players"]] == [p["net"] for p in want["players"]]
            assert [p["maal"] for p in got["players"]] == [p["maal"] for p in want["players"]]
            check_pairs(got)
            balances = [b + p["net"] for b, p in zip(balances, want["players"], strict=True)]
        assert led["totals"] == balances and led["sum"] == 0
        # the same deals with every maal (and indian hand points) typed as a number
        numbered = []
        for entry, want, doc in zip(entries, expected, n2s, strict=True):
            rows = []
            for p, w in zip(doc["players"], want["players"], strict=True):
                row: dict[str, Any] = {"seen": p["seen"], "maal": w["maal"]}
                if p.get("qualified"):
                    row["qualified"] = p["qualified"]
                if rules.scoring == "indian" and p["name"] != doc["finisher"]:
                    from rami.cards import parse_cards
                    from rami.marriage.settle import card_points

                    row["hand_points"] = card_points(parse_cards(p["in_hand"]))
                rows.append(row)
            numbered.append(
                {"tiplu": entry["tiplu"], "players": rows, "finisher": entry["finisher"]}
            )
        again = compute({"game": "marriage", "rules": preset, "players": names, "deals": numbered})
        assert again["totals"] == balances


def random_tunisian_deal(rng: random.Random, names: list[str], out: list[bool]) -> dict[str, Any]:
    deck = [str(c) for c in CARDS[:52] for _ in range(2)] + ["JK"] * 4
    rng.shuffle(deck)
    alive = [i for i, o in enumerate(out) if not o]
    winner = rng.choice(alive) if rng.random() < 0.9 else None
    rows: list[Any] = []
    for i in range(len(names)):
        if out[i]:
            rows.append(None)
        elif i == winner:
            rows.append({"opened": True, "hand": []})
        elif rng.random() < 0.25:
            rows.append({"opened": False, "hand": [deck.pop() for _ in range(rng.randint(0, 14))]})
        else:
            rows.append({"opened": True, "hand": [deck.pop() for _ in range(rng.randint(1, 10))]})
    return {"winner": None if winner is None else names[winner], "players": rows}


@pytest.mark.parametrize("mode", ["1v1", "ffa", "2v2"])
def test_random_tunisian_games_equal_rami_score(
    mode: str, client: Any, tmp_path: Path, capsys: Any
) -> None:
    """Whole games until T-13 ends them: each deal as ``rami score tunisian`` with the
    totals before it; T-12: the next dealer still in the game, counter-clockwise."""
    rng = random.Random(mode)
    names = ["A", "B"] if mode == "1v1" else ["A", "B", "C", "D"]
    ended = 0
    for _ in range(3):
        totals = dict.fromkeys(names, 0)
        out = [False] * len(names)
        entries: list[dict[str, Any]] = []
        expected = []
        over = False
        while not over and len(entries) < 60:
            entry = random_tunisian_deal(rng, names, out)
            doc = {
                "mode": mode,
                "players": [
                    {"name": n, **(r or {"hand": [], "opened": False})}
                    for n, r in zip(names, entry["players"], strict=True)
                ],
                "winner": entry["winner"],
                "totals_before": dict(totals),
            }
            want = tunisian_calc.score(doc)
            if not entries:
                assert rami_score("tunisian", doc, tmp_path, capsys) == want
            entries.append(entry)
            expected.append(want)
            totals = {p["name"]: p["total"] for p in want["players"]}
            out = [p["eliminated"] for p in want["players"]]
            over = want["game_over"]
        led = post(
            client,
            "/api/score/tunisian/ledger",
            {"game": "tunisian", "mode": mode, "players": names, "deals": entries},
        )
        assert [d["result"] for d in led["deals"]] == expected
        assert led["game_over"] == over and led["game_winner"] == expected[-1]["game_winner"]
        # dealers: counter-clockwise, skipping the players who are out
        seat = 0
        for k, deal in enumerate(led["deals"]):
            assert deal["dealer"] == names[seat]
            gone = [p["eliminated"] for p in expected[k]["players"]]
            for _ in names:
                seat = (seat - 1) % len(names)
                if not gone[seat]:
                    break
        # numbers instead of cards: the same totals
        numbered = []
        for entry, want in zip(entries, expected, strict=True):
            rows: list[Any] = []
            for r, p in zip(entry["players"], want["players"], strict=True):
                if r is None or p["name"] == entry["winner"] or not r["opened"]:
                    rows.append(r)
                else:
                    rows.append({"opened": True, "points": p["points"]})
            numbered.append({"winner": entry["winner"], "players": rows})
        again = compute({"game": "tunisian", "mode": mode, "players": names, "deals": numbered})
        assert again["totals"] == led["totals"]
        ended += over
        if over:
            extra = {"winner": None, "players": [{"opened": False}] * len(names)}
            message = error(
                client,
                "/api/score/tunisian/ledger",
                {"game": "tunisian", "mode": mode, "players": names, "deals": [*entries, extra]},
            )
            assert "the game was over" in message
    assert ended  # at least one game played to its end (T-13)


def test_t13_elimination_and_winner() -> None:
    deals = [
        {"winner": "A", "players": [{}, {"opened": True, "points": 300}]},
        {"winner": "A", "players": [{}, {"opened": True, "points": 300}]},
        {"winner": "A", "players": [{}, {"opened": False}]},
    ]
    led = compute({"game": "tunisian", "mode": "1v1", "players": ["A", "B"], "deals": deals})
    assert led["totals"] == [0, 700]
    assert not led["game_over"]
    led = compute(
        {"game": "tunisian", "mode": "1v1", "players": ["A", "B"], "deals": [*deals, deals[2]]}
    )
    assert led["totals"] == [0, 800] and led["game_over"] and led["game_winner"] == "A"
    assert led["next_dealer"] is None


# ---------------------------------------------------------------------------- errors

BAD_MARRIAGE = [
    ({"players": [{"seen": True, "maal": 1}, {}, {}], "tiplu": "J♣"}, "no hand scores a maal of 1"),
    ({"players": [{"maal": 5}, {}, {}]}, "nobody saw the tiplu"),
    ({"players": [{"seen": True, "maal": -3}, {}, {}], "tiplu": "J♣"}, "must not be negative"),
    ({"players": [{}, {}, {}], "finisher": ["A", "B"]}, "is not one of the players"),
    ({"players": [{}, {}, {}], "finisher": "A"}, "must have seen"),
    ({"players": [{"seen": True}, {}, {}]}, "must name the tiplu"),
    (
        {"players": [{"seen": True, "cards": ["10♣"] * 4}, {}, {}], "tiplu": "J♣"},
        "too many 10♣",
    ),
    ({"players": [{"seen": True, "maal": 5, "cards": ["10♣"]}, {}, {}], "tiplu": "J♣"}, "not both"),
    ({"players": [{}, {}]}, "one entry per player"),
    ({"players": [{"colour": 1}, {}, {}]}, "unknown key 'colour'"),
    ({"players": [{}, {}, {}], "tiplu": "11♣"}, "bad card '11♣'"),
]


@pytest.mark.parametrize(("deal", "expected"), BAD_MARRIAGE)
def test_bad_marriage_entries_are_one_line_400s(
    client: Any, deal: dict[str, Any], expected: str
) -> None:
    good = {"tiplu": None, "players": [{}, {}, {}], "finisher": None}
    doc = {"game": "marriage", "players": list("ABC"), "deals": [good, deal]}
    message = error(client, "/api/score/marriage/ledger", doc)
    assert message.startswith("deal 2: ") and expected in message, message
    with pytest.raises(ValueError, match="deal 2"):
        compute(doc)


BAD_LEDGERS = [
    ("marriage", {"game": "marriage", "players": ["A"]}, "2–5 players"),
    ("marriage", {"game": "marriage", "players": ["A", "A"]}, "two players are named"),
    ("marriage", {"game": "marriage", "players": ["A", "B"], "deals": {}}, "must be a list"),
    ("marriage", {"game": "marriage", "players": ["A", "B"], "rules": "klondike"}, "klondike"),
    ("marriage", {"game": "tunisian", "players": ["A", "B"]}, "not marriage"),
    ("marriage", [1, 2], "must be a JSON object"),
    ("tunisian", {"game": "tunisian", "mode": "3v3", "players": ["A", "B"]}, "3v3"),
    ("tunisian", {"game": "tunisian", "players": ["A", "B", "C"]}, "2 players"),
    (
        "tunisian",
        {
            "game": "tunisian",
            "players": ["A", "B"],
            "deals": [{"winner": "A", "players": [{}, {"opened": True, "points": -4}]}],
        },
        "must not be negative",
    ),
    (
        "tunisian",
        {
            "game": "tunisian",
            "players": ["A", "B"],
            "deals": [{"winner": "B", "players": [{}, {"points": 12}]}],
        },
        "scores 0",
    ),
    (
        "tunisian",
        {
            "game": "tunisian",
            "players": ["A", "B"],
            "deals": [{"winner": "A", "players": [{}, {"opened": True, "points": 999}]}],
        },
        "worth 2 to",
    ),
    (
        "tunisian",
        {
            "game": "tunisian",
            "players": ["A", "B"],
            "deals": [{"winner": "A", "players": [{}, {"opened": True, "hand": ["JK"] * 5}]}],
        },
        "JK",
    ),
    ("poker", {"game": "poker", "players": []}, "unknown game"),
]


@pytest.mark.parametrize(("game", "doc", "expected"), BAD_LEDGERS)
def test_bad_ledgers_are_one_line_400s(client: Any, game: str, doc: Any, expected: str) -> None:
    assert expected in error(client, f"/api/score/{game}/ledger", doc)


def test_bad_bodies_are_400_or_413_never_500(client: Any) -> None:
    for body in (b"{", b"\xff\xfe", b"[]", b"null", b'"text"', b"1e999999"):
        response = client.post("/api/score/marriage/ledger", content=body)
        assert response.status_code == 400, (body, response.text)
    response = client.post("/api/score/marriage/ledger", content=b"[" * 100000 + b"]" * 100000)
    assert response.status_code in (400, 413)
    response = client.post("/api/score/tunisian/ledger", content=b" " * (600 * 1024))
    assert response.status_code == 413
    response = client.get("/api/score/marriage/maal-cards", params={"tiplu": "JK"})
    assert response.status_code == 400 and "no printed jokers" in response.text


def test_random_garbage_never_makes_a_500(client: Any) -> None:
    """Mutations of good documents (wrong types, missing keys) are all 200 or 400."""
    rng = random.Random(5)
    values: list[Any] = [None, True, -1, 0, 7, 1.5, "", "x", "J♣", [], {}, ["A"], {"a": 1}]
    base: dict[str, Any] = {"game": "marriage", "players": list("ABC"), "deals": [M13]}
    tbase: dict[str, Any] = {
        "game": "tunisian",
        "players": ["A", "B"],
        "deals": [{"winner": "A", "players": [{}, {"opened": True, "points": 12}]}],
    }
    for _ in range(150):
        game, doc = rng.choice([("marriage", base), ("tunisian", tbase)])
        doc = json.loads(json.dumps(doc))
        target = doc
        path = []
        while isinstance(target, dict | list) and target and rng.random() < 0.7:
            key = (
                rng.choice(list(target)) if isinstance(target, dict) else rng.randrange(len(target))
            )
            path.append(key)
            if not isinstance(target[key], dict | list):
                break
            target = target[key]
        if path:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = rng.choice(values)
        response = client.post(f"/api/score/{game}/ledger", json=doc)
        assert response.status_code in (200, 400), (doc, response.text)


def test_attainable_maal_values() -> None:
    """M-12: no hand scores 1 or 6; two marriages 30; 3 jhiplus + tiplu + 3 poplus 23;
    the tunnela bonuses only for a player who saw by showing melds."""
    from rami.marriage.ledger import attainable_maal

    nepali = rules_from("nepali")
    plain = attainable_maal(nepali, False)
    assert {0, 2, 3, 4, 5, 7, 10, 23, 30} <= plain and not {1, 6} & plain
    assert 40 in attainable_maal(nepali, True) and 40 not in plain  # two neighbour tunnelas
    indian = attainable_maal(rules_from("indian"), False)
    assert {0, 2, 4, 14, 28} <= indian and 1 not in indian


def test_maal_cards_for_the_tapping_pad(client: Any) -> None:
    info = client.get("/api/score/marriage/maal-cards", params={"tiplu": "A♣"}).json()
    assert [(m["kind"], m["card"], m["copies"]) for m in info["maal"]] == [
        ("jhiplu", "K♣", 3),
        ("tiplu", "A♣", 2),
        ("poplu", "2♣", 3),
    ]
    assert info["ordinary_jokers"] == ["A♠", "A♥", "A♦"]


def test_ledger_functions_raise_input_errors() -> None:
    with pytest.raises(InputError, match="missing required key 'game'"):
        compute({"players": ["A", "B"]})
    with pytest.raises(InputError, match="at most 40"):
        compute({"game": "marriage", "players": ["A" * 41, "B"]})
