"""Tunisian scoring (T-10, T-11, T-13) and the N-2 / N-3 contracts."""

from __future__ import annotations

import copy
import doctest
import json
from typing import Any

import pytest

import rami.tunisian.calculator as calculator_module
import rami.tunisian.settle as scoring_module
from rami.cards import CardError, parse_cards
from rami.errors import InputError
from rami.tunisian.calculator import analyze, format_analysis, score
from rami.tunisian.rules import rules_from
from rami.tunisian.settle import apply_totals, deal_points, hand_points

ONE = rules_from("1v1")
FFA = rules_from("ffa")
TEAMS = rules_from("2v2")


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def test_doctests() -> None:
    assert doctest.testmod(calculator_module).failed == 0
    assert doctest.testmod(scoring_module).failed == 0


# --- T-10 -------------------------------------------------------------------------------


def test_T10_card_values_in_hand() -> None:
    assert hand_points(cards("JK"), ONE) == 50
    assert hand_points(cards("A♠"), ONE) == 10
    assert hand_points(cards("2♠ 9♦ 10♣ J♥ Q♠ K♦"), ONE) == 2 + 9 + 10 + 30
    assert hand_points([], ONE) == 0
    assert hand_points(cards("A♠ JK"), rules_from({"preset": "1v1", "ace_in_hand": 1})) == 51


def test_T10_winner_zero_opened_hand_unopened_penalty() -> None:
    hands = [[], cards("JK K♠ A♦"), cards("2♣ 3♣"), cards("7♥")]
    points = deal_points(hands, [True, True, False, True], 0, FFA)
    assert points == [0, 70, 100, 7]


def test_T11_no_winner_scores_everyone_and_nobody_zero() -> None:
    hands = [cards("5♣"), cards("JK"), cards("2♣ 3♣")]
    assert deal_points(hands, [True, True, False], None, FFA) == [5, 50, 100]


# --- T-13 -------------------------------------------------------------------------------


def test_T13_701_eliminates_and_700_does_not() -> None:
    totals, out, over, winners = apply_totals([600, 0, 0, 0], [101, 0, 0, 0], [False] * 4, FFA)
    assert totals[0] == 701 and out == [True, False, False, False]
    assert not over and winners is None
    _, out, _, _ = apply_totals([600, 0, 0, 0], [100, 0, 0, 0], [False] * 4, FFA)
    assert out[0] is False


def test_T13_the_last_player_left_wins() -> None:
    totals, out, over, winners = apply_totals(
        [800, 650, 100, 750], [0, 60, 5, 0], [True, False, False, True], FFA
    )
    assert totals == [800, 710, 105, 750]  # the eliminated score nothing more
    assert out == [True, True, False, True]
    assert over and winners == [2]


def test_T13_players_out_in_the_same_deal_lowest_total_wins() -> None:
    totals, out, over, winners = apply_totals([690, 600], [20, 150], [False, False], ONE)
    assert out == [True, True] and over and winners == [0]
    assert totals == [710, 750]
    _, _, over, winners = apply_totals([690, 600], [20, 110], [False, False], ONE)
    assert over and winners == [0, 1]  # equal totals share the win


def test_T13_2v2_eliminates_by_team_total() -> None:
    totals, out, over, winners = apply_totals(
        [500, 100, 400, 100], [0, 50, 1, 50], [False] * 4, TEAMS
    )
    assert totals == [500, 150, 401, 150]
    assert out == [False] * 4 and not over  # 901 is under 1001
    totals, out, over, winners = apply_totals(
        [500, 100, 400, 100], [0, 50, 101, 50], [False] * 4, TEAMS
    )
    assert out == [True, False, True, False] and over and winners == [1, 3]
    _, _, over, winners = apply_totals([600, 600, 400, 300], [0, 100, 1, 100], [False] * 4, TEAMS)
    assert over and winners == [0, 2]  # both out: 1001 against 1100, the lower wins


def test_T13_rule_options_change_the_limits() -> None:
    rules = rules_from({"preset": "1v1", "elimination": 301})
    _, out, over, winners = apply_totals([250, 0], [60, 0], [False, False], rules)
    assert out == [True, False] and over and winners == [1]


# --- N-2 --------------------------------------------------------------------------------


def example() -> dict[str, Any]:
    return {
        "mode": "ffa",
        "players": [
            {"name": "A", "hand": [], "opened": True},
            {"name": "B", "hand": ["JK", "K♠", "A♦"], "opened": True},
            {"name": "C", "hand": ["2♣", "3♣"], "opened": False},
            {"name": "D", "hand": ["7♥"], "opened": True},
        ],
        "winner": "A",
        "totals_before": {"A": 120, "B": 640, "C": 300, "D": 0},
    }


def test_N2_the_notation_example() -> None:
    result = score(example())
    assert result == {
        "players": [
            {"name": "A", "points": 0, "total": 120, "eliminated": False},
            {"name": "B", "points": 70, "total": 710, "eliminated": True},
            {"name": "C", "points": 100, "total": 400, "eliminated": False},
            {"name": "D", "points": 7, "total": 7, "eliminated": False},
        ],
        "teams": None,
        "game_over": False,
        "game_winner": None,
    }
    json.dumps(result)


def test_N2_2v2_teams_and_game_winner() -> None:
    doc = example()
    doc["mode"] = "2v2"
    doc["totals_before"] = {"A": 400, "B": 500, "C": 300, "D": 400}
    result = score(doc)
    assert result["teams"] == [
        {"players": ["A", "C"], "total": 800, "eliminated": False},
        {"players": ["B", "D"], "total": 977, "eliminated": False},
    ]
    assert not result["game_over"] and result["game_winner"] is None
    doc["totals_before"] = {"A": 400, "B": 600, "C": 300, "D": 400}
    result = score(doc)
    assert result["teams"][1] == {"players": ["B", "D"], "total": 1077, "eliminated": True}
    assert [p["eliminated"] for p in result["players"]] == [False, True, False, True]
    assert result["game_over"] and result["game_winner"] == "A+C"


def test_N2_1v1_no_winner_and_game_over() -> None:
    doc = {
        "mode": "1v1",
        "players": [
            {"name": "Ali", "hand": "JK 5♣", "opened": True},
            {"name": "Sami", "hand": ["2♥"], "opened": True},
        ],
        "winner": None,
        "totals_before": {"Ali": 690},
    }
    result = score(doc)
    assert [p["points"] for p in result["players"]] == [55, 2]
    assert result["game_over"] and result["game_winner"] == "Sami"


def test_N2_already_eliminated_players_score_nothing() -> None:
    doc = example()
    doc["totals_before"] = {"A": 120, "B": 720, "C": 300, "D": 0}
    result = score(doc)
    assert result["players"][1] == {"name": "B", "points": 0, "total": 720, "eliminated": True}


def test_N2_mode_object_overrides_rule_options() -> None:
    doc = example()
    doc["mode"] = {"preset": "ffa", "joker_in_hand": 25}
    assert score(doc)["players"][1]["points"] == 45


def test_N2_input_is_not_changed() -> None:
    doc = example()
    before = copy.deepcopy(doc)
    score(doc)
    assert doc == before


def _broken(change: Any) -> dict[str, Any]:
    doc = example()
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (lambda d: d.update(extra=1), InputError, "unknown key 'extra'"),
        (lambda d: d.pop("winner"), InputError, "missing required key 'winner'"),
        (lambda d: d.pop("mode"), InputError, "missing required key 'mode'"),
        (lambda d: d.update(mode="3v3"), InputError, "unknown mode"),
        (lambda d: d["players"].pop(), InputError, "has 4 players"),
        (lambda d: d["players"][1].update(score=3), InputError, "unknown key 'score'"),
        (lambda d: d["players"][1].pop("opened"), InputError, "missing required key 'opened'"),
        (lambda d: d["players"][1].update(opened="yes"), InputError, "true or false"),
        (lambda d: d["players"][1].update(hand=["11♣"]), CardError, "bad card '11♣'"),
        (lambda d: d["players"][1].update(hand=7), InputError, "list of cards"),
        (lambda d: d["players"][1].update(name="A"), InputError, "two players are named 'A'"),
        (lambda d: d["players"][1].update(name=""), InputError, "non-empty"),
        (lambda d: d.update(winner="Z"), InputError, "unknown winner 'Z'"),
        (lambda d: d["players"][0].update(hand=["2♣"]), InputError, "winner A must have no cards"),
        (lambda d: d["players"][0].update(opened=False), InputError, "must have opened"),
        (lambda d: d["players"][3].update(hand=[]), InputError, "did not win"),
        (
            lambda d: d["players"][2].update(hand=["JK"] * 4),
            CardError,
            "too many JK",
        ),
        (
            lambda d: d["players"][3].update(hand=["K♠", "K♠"]),
            CardError,
            "too many K♠",
        ),
        (lambda d: d["players"][3].update(hand=["2♣"] * 2 + ["3♣"] * 14), InputError, "at most 15"),
        (lambda d: d.update(totals_before={"Z": 3}), InputError, "'Z', who is not a player"),
        (lambda d: d.update(totals_before={"A": -3}), InputError, "must not be negative"),
        (lambda d: d.update(totals_before={"A": "3"}), InputError, "whole number"),
        (lambda d: d.update(totals_before=[1, 2]), InputError, "object mapping"),
        (
            lambda d: d.update(totals_before={"A": 800, "B": 800, "C": 800}),
            InputError,
            "game was over before this deal",
        ),
        (lambda d: d.update(totals_before={"A": 800}), InputError, "already eliminated"),
        (lambda d: d.update(players="A B"), InputError, "list of objects"),
    ],
)
def test_N2_bad_input_gives_one_clear_line(
    change: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as info:
        score(_broken(change))
    assert "\n" not in str(info.value)


def test_N2_not_an_object() -> None:
    with pytest.raises(InputError, match="JSON object"):
        score([1, 2])


# --- N-3 --------------------------------------------------------------------------------


def test_N3_analysis_output() -> None:
    result = analyze("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ JK 3♣ 9♦ 2♠")
    assert result == {
        "threshold": 71,
        "opening": {"value": 71, "melds": [["10♥", "J♥", "Q♥", "K♥", "JK"], ["7♠", "7♥", "7♦"]]},
    }
    json.dumps(result)
    assert analyze("10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ JK 3♣ 9♦ 2♠", threshold=72)["opening"] is None
    assert analyze("2♣ 9♦", threshold=0) == {"threshold": 0, "opening": None}


def test_N3_text_output() -> None:
    result = analyze("10h jh qh kh 7s 7h 7d jk 3c 9d 2s")
    text = format_analysis(result)
    assert text.splitlines()[0] == "Best opening: 71 (threshold 71)"
    assert "10♥ J♥ Q♥ K♥ JK  (50)" in text
    assert "10H JH QH KH JK  (50)" in format_analysis(result, ascii=True)
    assert format_analysis(analyze("2♣ 9♦")) == "No opening reaches 71."


@pytest.mark.parametrize(
    ("hand", "threshold", "error", "message"),
    [
        ("5♥ 6♥ 1♥", 71, CardError, "bad card '1♥' \\(token 3\\)"),
        ("", 71, InputError, "1 to 20 cards, not 0"),
        (
            " ".join(["2♣", "3♣", "4♦", "5♠", "6♥"] * 6),
            71,
            InputError,
            "not 30",
        ),
        ("5♥ 5♥ 5♥", 71, CardError, "too many 5♥"),
        ("JK JK JK JK JK", 71, CardError, "too many JK"),
        ("5♥", -1, InputError, "must not be negative"),
        ("5♥", True, InputError, "whole number"),
    ],
)
def test_N3_bad_input(hand: str, threshold: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        analyze(hand, threshold)
