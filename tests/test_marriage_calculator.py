"""The Marriage scoring calculator (N-2) and hand analysis (N-3)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rami.cards import CardError, parse_card, parse_cards
from rami.errors import InputError
from rami.marriage.calculator import analyze, format_analysis, score

# --- N-2 ----------------------------------------------------------------------------------


def worked_example() -> dict[str, Any]:
    """M-13, seed 000: A finishes with melds, maal A 10, B 2, C 0; B seen, C unseen."""
    return {
        "rules": "nepali",
        "tiplu": "J♣",
        "players": [
            {
                "name": "A",
                "cards": ["10♣", "J♣", "Q♣", "3♠", "4♠", "5♠"],
                "seen": True,
                "qualified": "melds",
            },
            {"name": "B", "cards": ["Q♣", "7♦"], "seen": True, "qualified": "dublees"},
            {"name": "C", "cards": ["2♥"], "seen": False},
        ],
        "finisher": "A",
        "finish": "melds",
    }


def test_N2_M13_worked_example() -> None:
    out = score(worked_example())
    assert out == {
        "players": [
            {"name": "A", "maal": 10, "maal_items": ["marriage 10♣ J♣ Q♣: 10"], "net": 31},
            {"name": "B", "maal": 2, "maal_items": ["poplu Q♣: 2"], "net": -9},
            {"name": "C", "maal": 0, "maal_items": [], "net": -22},
        ],
        "total_maal": 12,
    }
    json.dumps(out)  # plain JSON


def test_N2_finish_defaults_to_the_finishers_path_and_dublee_bonus() -> None:
    doc = worked_example()
    doc["finisher"] = "B"
    del doc["finish"]
    out = score(doc)
    # B finished with dublees: each opponent pays T + w − n·S, w = fee + 5
    a_pays = 12 + 3 + 5 - 3 * 10  # negative: B pays A
    c_pays = 12 + 10 + 5 - 3 * 0
    assert [p["net"] for p in out["players"]] == [-a_pays, a_pays + c_pays, -c_pays]


def test_N2_no_finisher_settles_maal_only_M14() -> None:
    doc = worked_example()
    doc["finisher"] = None
    assert [p["net"] for p in score(doc)["players"]] == [18, -6, -12]


def test_N2_exposed_tunnela_bonus() -> None:
    doc = worked_example()
    doc["players"][0]["cards"] += ["6♥", "6♥", "6♥"]
    doc["players"][0]["exposed_tunnelas"] = ["6♥"]
    out = score(doc)
    assert out["players"][0]["maal"] == 15
    assert "tunnela 6♥ 6♥ 6♥: 5" in out["players"][0]["maal_items"]
    # B saw with dublees: an exposed tunnela earns nothing there
    doc["players"][1]["cards"] += ["8♠", "8♠", "8♠"]
    doc["players"][1]["exposed_tunnelas"] = ["8♠"]
    assert score(doc)["players"][1]["maal"] == 2


def test_N2_rules_object_and_unseen_maal_option() -> None:
    doc = worked_example()
    doc["players"][2]["cards"] = ["10♣", "10♣"]
    doc["rules"] = {"preset": "nepali", "unseen_maal_counts": False}
    out = score(doc)
    assert out["players"][2]["maal"] == 0
    assert out["players"][2]["maal_items"] == ["unseen: maal does not count"]
    assert [p["net"] for p in out["players"]] == [31, -9, -22]
    doc["rules"] = "nepali"
    assert score(doc)["players"][2]["maal"] == 5


def test_N2_nobody_saw_no_tiplu() -> None:
    doc = {
        "tiplu": None,
        "players": [{"name": "A", "cards": ["10♣"]}, {"name": "B", "cards": []}],
        "finisher": None,
    }
    assert [p["net"] for p in score(doc)["players"]] == [0, 0]
    doc["tiplu"] = "J♣"  # picked at a show that never completed: still nobody saw
    assert [p["maal"] for p in score(doc)["players"]] == [0, 0]


def test_N2_indian_value_points_and_hand_points_M15() -> None:
    doc = {
        "rules": "indian",
        "tiplu": "J♣",
        "players": [
            {"name": "A", "cards": ["10♣", "J♣", "Q♣"], "seen": True, "qualified": "melds"},
            {
                "name": "B",
                "cards": ["J♣", "K♠", "9♦"],
                "seen": True,
                "qualified": "melds",
                "in_hand": ["K♠", "9♦"],
            },
            {
                "name": "C",
                "cards": ["10♣", "10♣", "Q♣", "Q♣", "5♥"],
                "seen": False,
                "in_hand": ["5♥"],
            },
        ],
        "finisher": "A",
    }
    out = score(doc)
    # values A 14, B 4, C 4 · 2 = 8; hand points B 19, C 5
    assert [p["maal"] for p in out["players"]] == [14, 4, 8]
    values = [14, 4, 8]
    nets = [3 * v - sum(values) for v in values]
    nets[0] += 19 + 5
    nets[1] -= 19
    nets[2] -= 5
    assert [p["net"] for p in out["players"]] == nets
    # an unseen player's value points are capped at 14
    doc["players"][2]["cards"] += ["J♣"]
    doc["players"][1]["cards"] = ["K♠", "9♦"]
    out = score(doc)
    assert out["players"][2]["maal"] == 14
    assert out["players"][2]["maal_items"][-1] == "unseen: capped at 14"


BAD_DOCS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "JSON object"),
    ("unknown key", {"typo": 1}, "unknown key 'typo'"),
    ("missing key", {"raw": {"tiplu": "J♣", "finisher": None}}, "missing required key 'players'"),
    ("player key", {"players.0.seenn": True}, "unknown key 'seenn' in player 1"),
    ("player missing", {"players.1.name": None}, "missing required key 'name'"),
    ("bad card", {"players.0.cards": ["10♣", "11♣"]}, "player 'A' cards: bad card '11♣'"),
    ("bad tiplu", {"tiplu": "J♣♣"}, "tiplu"),
    ("copies", {"players.2.cards": ["Q♣", "Q♣"]}, "too many Q♣: 4 given"),
    ("tiplu copies", {"players.2.cards": ["J♣", "J♣"]}, "the tiplu J♣ is out of play"),
    ("seen no qualified", {"players.2.seen": True}, "'qualified' does not say how"),
    ("qualified unseen", {"players.2.qualified": "melds"}, "'seen' is false"),
    ("unknown finisher", {"finisher": "Z"}, "finisher 'Z' is not one of the players"),
    ("unseen finisher", {"finisher": "C"}, "must have seen"),
    ("finish path", {"finish": "dublees"}, "must finish with melds"),
    ("duplicate", {"players.1.name": "A"}, "two players are named 'A'"),
    ("exposed", {"players.0.exposed_tunnelas": ["6♥"]}, "exposed tunnela 6♥ 6♥ 6♥ must be"),
    ("in_hand nepali", {"players.1.in_hand": []}, "indian rules only"),
    ("rules", {"rules": "dutch"}, "unknown rules preset"),
    ("option", {"rules": {"preset": "nepali", "seen_fe": 2}}, "unknown rule option"),
    ("players", {"players": []}, "non-empty list"),
    ("seen type", {"players.0.seen": "yes"}, "true or false"),
]


def _patched(changes: Any) -> Any:
    if not isinstance(changes, dict):
        return changes
    doc = worked_example()
    if "typo" in changes:
        doc["typo"] = 1
        return doc
    if "raw" in changes:
        return changes["raw"]
    for key, value in changes.items():
        if key.startswith("players."):
            _, i, field = key.split(".")
            if value is None:
                del doc["players"][int(i)][field]
            else:
                doc["players"][int(i)][field] = value
        else:
            doc[key] = value
    return doc


@pytest.mark.parametrize(("label", "changes", "message"), BAD_DOCS)
def test_N2_bad_documents_give_one_clear_line(label: str, changes: Any, message: str) -> None:
    doc = _patched(changes)
    before = copy.deepcopy(doc)
    with pytest.raises((InputError, CardError)) as err:
        score(doc)
    assert message in str(err.value), label
    assert "\n" not in str(err.value)
    assert doc == before


def test_N2_indian_in_hand_must_be_part_of_the_cards() -> None:
    doc = {
        "rules": "indian",
        "tiplu": "J♣",
        "players": [
            {"name": "A", "cards": ["10♣"], "seen": True, "qualified": "melds"},
            {"name": "B", "cards": ["K♠"], "in_hand": ["Q♠"]},
        ],
        "finisher": "A",
    }
    with pytest.raises(InputError, match="in_hand card Q♠ is not among"):
        score(doc)
    doc["players"][1]["in_hand"] = ["K♠"]
    # values A 2, B 0: B pays 2 and the 10 card points of K♠
    assert [p["net"] for p in score(doc)["players"]] == [12, -12]
    del doc["players"][1]["in_hand"]
    with pytest.raises(InputError, match="missing required key 'in_hand' in player 'B'"):
        score(doc)


def test_N2_matches_the_engine_on_played_deals() -> None:
    """Deals played by the greedy bot, then typed into the calculator: same nets."""
    game = pytest.importorskip("rami.marriage.game")
    bot = pytest.importorskip("rami.marriage.greedy_bot")
    checked = 0
    for preset in ("nepali", "indian"):
        for seed in range(6):
            state = game.new_deal({"preset": preset, "max_turns": 400}, 3, seed)
            for _ in range(3000):
                if state.is_over:
                    break
                seat = state.to_move
                state.apply(bot.decide(bot.observe_state(state, seat)))
            if not state.is_over:
                continue
            doc = _document(state, preset)
            out = score(doc)
            assert [p["net"] for p in out["players"]] == list(state.result.scores), (preset, seed)
            checked += 1
    assert checked >= 6


def _document(state: Any, preset: str) -> dict[str, Any]:
    players = []
    for s in range(len(state.seen)):
        p: dict[str, Any] = {
            "name": f"P{s}",
            "cards": [str(parse_card_of(c)) for c in state.final_cards(s)],
            "seen": state.seen[s],
            "qualified": state.path[s] if state.seen[s] else None,
        }
        if state.exposed[s]:
            p["exposed_tunnelas"] = [str(parse_card_of(c)) for c in state.exposed[s]]
        if preset == "indian" and s != state.finisher:
            p["in_hand"] = [
                str(parse_card_of(c)) for c in range(52) for _ in range(state.hands[s][c])
            ]
        players.append(p)
    return {
        "rules": preset,
        "tiplu": str(parse_card_of(state.tiplu)) if state.tiplu is not None else None,
        "players": players,
        "finisher": None if state.finisher is None else f"P{state.finisher}",
        "finish": None if state.finish is None else state.finish.kind,
    }


def parse_card_of(c: int) -> Any:
    from rami.cards import CARDS

    return CARDS[c]


# --- N-3 ----------------------------------------------------------------------------------

SHOWN = "3♠ 4♠ 5♠ | 6♥ 6♥ 6♥ | 8♦ 9♦ 10♦"


def _valid_finish(out: dict[str, Any], tiplu: str, whole: str) -> None:
    from rami.marriage.melds import is_meld, wild_kinds
    from rami.marriage.rules import NEPALI

    finish = out["finish"]
    wilds = wild_kinds(parse_card(tiplu))
    melds = [parse_cards(m) for m in finish["melds"]]
    assert len(melds) == 7 and all(is_meld(m, NEPALI, wilds) for m in melds)
    used = sorted([*(c for m in melds for c in m), parse_card(finish["discard"])])
    assert used == sorted(parse_cards(whole))


def test_N3_can_finish_with_shown_melds_and_keeps_the_most_maal() -> None:
    # the M-13 §08 example: shown melds, tiplu J♣, a marriage 10♣ J♣ Q♣ in hand
    hand = "10♣ J♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ 2♣"
    out = analyze(hand, "J♣", SHOWN)
    assert out["can_finish"] is True and out["missing"] == 0
    assert out["maal"] == 10  # the discard is never one of the marriage's cards
    assert out["finish"]["kind"] == "melds"
    assert ["3♠", "4♠", "5♠"] in out["finish"]["melds"]
    _valid_finish(out, "J♣", hand + " " + SHOWN.replace("|", ""))
    json.dumps(out)
    # with a forced discard: only the jhiplu can go, and the maal left is 8
    forced = "10♣ J♣ Q♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠"
    out = analyze(forced, "J♣", SHOWN)
    assert out["can_finish"] and out["maal"] == 10 + 2


def test_N3_cannot_finish_reports_missing_and_all_maal() -> None:
    hand = "10♣ 5♣ Q♣ 2♥ 3♥ 9♥ 7♠ 7♥ 2♦ K♠ K♠ A♠ 4♣"
    out = analyze(hand, "J♣", SHOWN)
    assert out["can_finish"] is False and out["finish"] is None
    assert out["missing"] >= 1
    assert out["maal"] == 4  # jhiplu 10♣ and poplu Q♣, all given cards counted


def test_N3_dublees() -> None:
    shown = "2♠ 2♠ 3♠ 3♠ 4♥ 4♥ 5♥ 5♥ 6♦ 6♦ 7♦ 7♦ 8♣ 8♣"
    out = analyze("9♣ 9♣ K♠ Q♥ J♦ A♣ 2♣ 3♣", "J♣", shown)
    assert out["can_finish"] and out["finish"]["kind"] == "dublees"
    assert len(out["finish"]["dublees"]) == 8
    out = analyze("9♣ 10♥ K♠ Q♥ J♦ A♣ 2♣ 3♣", "J♣", shown)
    assert not out["can_finish"] and out["missing"] == 1


def test_N3_show_and_finish_in_the_same_turn() -> None:
    hand = "3♠ 4♠ 5♠ 6♥ 6♥ 6♥ 8♦ 9♦ 10♦ 10♣ J♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ 2♣"
    out = analyze(hand, "J♣")
    assert out["can_finish"] and out["missing"] == 0 and out["maal"] == 10
    _valid_finish(out, "J♣", hand)
    # tiplu 5♦: 5♠ is wild; with 8♣ for 8♦ seven melds cannot be made
    assert analyze(hand, "5♦")["can_finish"]
    out = analyze(hand.replace("8♦", "8♣"), "5♦")
    assert not out["can_finish"] and out["missing"] == 1 and out["maal"] == 0


def test_N3_indian_rules() -> None:
    hand = "3♠ 4♠ 5♠ 6♠ 6♥ 7♥ 8♥ 8♦ 8♣ 8♠ J♥ 2♣ 2♦ 2♥ K♠ Q♠ A♠ 9♦ 10♦ J♦ Q♦ 5♣"
    out = analyze(hand, "J♣", rules="indian")
    assert out["can_finish"] and out["finish"]["discard"] == "5♣"
    assert out["maal"] == 0


BAD_ANALYSIS = [
    ({"hand": "3♠ 4♠"}, "a holding after the draw has 22 cards: --hand has 2"),
    ({"tiplu": "X♣"}, "--tiplu: bad card"),
    ({"hand": "10♣ J♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ 1♣"}, "--hand: bad card '1♣' (token 13)"),
    ({"hand": "10♣ J♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ K♠"}, "too many K♠: 4 given"),
    ({"hand": "10♣ J♣ J♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ J♣"}, "the tiplu J♣ is out of play"),
    ({"shown": "3♠ 4♠ 6♠ | 6♥ 6♥ 6♥ | 8♦ 9♦ 10♦"}, "--shown 3♠ 4♠ 6♠ is not a natural"),
    ({"shown": "3♠ 4♠ 6♠ 6♥ 6♥ 6♥ 8♦ 9♦ 10♦"}, "--shown must be three or more natural melds"),
    ({"shown": "3♠ 4♠ 5♠ | 6♥ 6♥ 6♥"}, "a holding after the draw has 22 cards"),
    ({"rules": "dutch"}, "unknown rules preset"),
]


@pytest.mark.parametrize(("change", "message"), BAD_ANALYSIS)
def test_N3_bad_input_gives_one_clear_line(change: dict[str, str], message: str) -> None:
    args = {
        "hand": "10♣ J♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ 2♣",
        "tiplu": "J♣",
        "shown": SHOWN,
        "rules": "nepali",
    } | change
    with pytest.raises((InputError, CardError)) as err:
        analyze(args["hand"], args["tiplu"], args["shown"], args["rules"])
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_N3_text_form() -> None:
    out = analyze("10♣ J♣ Q♣ 2♥ 3♥ 4♥ 7♠ 7♥ 7♦ K♠ K♠ K♠ 2♣", "J♣", SHOWN)
    text = format_analysis(out)
    d = out["finish"]["discard"]
    assert text.startswith(f"Can finish now with melds, discarding {d}:")
    assert "3♠ 4♠ 5♠" in text and text.endswith("Maal: 10")
    ascii_text = format_analysis(out, ascii=True)
    assert f"discarding {parse_card(d).ascii}" in ascii_text and "3S 4S 5S" in ascii_text
    assert all(ord(ch) < 128 for ch in ascii_text)
    stuck = analyze("10♣ 5♣ Q♣ 2♥ 3♥ 9♥ 7♠ 7♥ 2♦ K♠ K♠ A♠ 4♣", "J♣", SHOWN)
    assert format_analysis(stuck).startswith(f"Cannot finish yet: {stuck['missing']} card")


def test_cards_parse_helper_used_here() -> None:
    assert [str(c) for c in parse_cards("10♣ jc")] == ["10♣", "J♣"]
    assert str(parse_card("qh")) == "Q♥"
