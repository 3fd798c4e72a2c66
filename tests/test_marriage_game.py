"""Marriage game engine: one or more tests per rule M-1 … M-15 at the game level.

Situations are built with ``MarriageState.from_setup`` (through ``marriage_support.table``)
so that each test holds exactly the cards its rule needs.
"""

from __future__ import annotations

import json

import pytest
from marriage_support import signature, table, texts

from rami.cards import CARDS, parse_cards
from rami.engine import GameState
from rami.errors import IllegalAction, InputError
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.maal import maal
from rami.marriage.rules import rules_from
from rami.marriage.settle import card_points, settle_indian, settle_nepali

NEPALI = "nepali"
INDIAN = "indian"

# Seat hands used in several tests. Tiplu J♣: wild J♠ J♥ J♦ J♣ 10♣ Q♣.
SHOWS = "3♠ 4♠ 5♠ 6♥ 6♥ 6♥ 8♦ 9♦ 10♦"
FINISHER = SHOWS + " 7♣ 8♣ 9♣ K♠ K♥ K♦ 2♣ 3♣ J♠ 10♣ J♣ Q♣"


def show_all(state: MarriageState, melds: str = SHOWS) -> None:
    cards = melds.split()
    for i in range(0, len(cards), 3):
        state.apply("show " + " ".join(cards[i : i + 3]))


def must_fail(state: MarriageState, action: str, words: str, seat: int | None = None) -> None:
    """``action`` raises IllegalAction mentioning ``words`` and changes nothing."""
    before = signature(state)
    doc = json.dumps(state.to_json())
    with pytest.raises(IllegalAction, match=words or None):
        state.apply(action, seat=seat)
    assert signature(state) == before
    assert json.dumps(state.to_json()) == doc


# ---------------------------------------------------------------- M-1


def test_M1_players_and_cards() -> None:
    for players in range(2, 6):
        state = new_deal(NEPALI, players, seed=players)
        state.check_invariants()
        assert isinstance(state, GameState)
    for players in range(2, 8):
        new_deal(INDIAN, players, seed=players).check_invariants()
    for rules, bad in ((NEPALI, 1), (NEPALI, 6), (INDIAN, 8)):
        with pytest.raises(InputError, match="players"):
            new_deal(rules, bad, seed=1)
    state = new_deal(NEPALI, 4, seed=3)
    everything = [c for s in range(4) for c in state.final_cards(s)] + state.stock + state.pile
    assert len(everything) == 156
    assert all(everything.count(c) == 3 for c in range(52))


@pytest.mark.parametrize("decks", [1, 2, 4, 5])
def test_M1_nepali_plays_exactly_three_decks(decks: int) -> None:
    with pytest.raises(InputError, match="nepali plays with exactly 3 decks"):
        rules_from({"preset": "nepali", "decks": decks})
    with pytest.raises(InputError, match="nepali plays with exactly 3 decks"):
        rules_from({"preset": "indian", "scoring": "nepali", "decks": decks})
    assert rules_from({"preset": "nepali", "decks": 3}).decks == 3


def test_M1_indian_more_decks() -> None:
    state = new_deal({"preset": INDIAN, "decks": 4}, 7, seed=2)
    state.check_invariants()
    assert len(state.stock) == 208 - 7 * 21 - 1


# ---------------------------------------------------------------- M-2


def test_M2_deal_sizes() -> None:
    state = new_deal(NEPALI, 4, seed=11)
    assert state.sizes == [21, 21, 21, 21]
    assert len(state.pile) == 1
    assert len(state.stock) == 71


@pytest.mark.parametrize(
    ("rules", "dealer", "first", "second"), [(NEPALI, 1, 2, 3), (INDIAN, 1, 0, 3)]
)
def test_M2_direction_and_first_player(rules: str, dealer: int, first: int, second: int) -> None:
    state = new_deal(rules, 4, seed=5, dealer=dealer)
    while state.phase == "expose":
        state.apply("pass")
    assert state.to_move == first
    state.apply("draw")
    state.apply(texts(state)[-1])  # a discard
    assert state.to_move == second


def test_M2_first_player_may_take_the_upcard() -> None:
    state = table(NEPALI, {0: ""}, discard="7♥")
    assert "take" in texts(state)
    state.apply("take")
    assert state.hands[0][parse_cards("7♥")[0]] >= 1
    assert state.pile == []


# ---------------------------------------------------------------- M-3


def test_M3_expose_tunnela_at_deal() -> None:
    state = table(NEPALI, {1: "6♥ 6♥ 6♥"}, first=1, pass_expose=False)
    assert state.phase == "expose" and state.to_move == 1
    assert "expose 6♥" in texts(state) and "pass" in texts(state)
    state.apply("expose 6♥")
    assert state.exposed[1] == [parse_cards("6♥")[0]]
    assert state.view(0)["seats"][1]["exposed_tunnelas"] == ["6♥"]
    must_fail(state, "expose 6♥", "three 6♥")
    state.apply("pass")
    for _ in range(2):
        state.apply("pass")
    assert state.phase == "draw" and state.to_move == 1
    state.apply("draw")
    must_fail(state, "discard 6♥", "do not hold 6♥")  # an exposed tunnela stays together
    must_fail(state, "expose 6♥", "only right after the deal")


def test_M3_no_expose_round_in_indian() -> None:
    state = table(INDIAN, {0: "6♥ 6♥ 6♥"}, pass_expose=False)
    assert state.phase == "draw"
    must_fail(state, "expose 6♥", "right after the deal")


def test_M3_three_exposed_tunnelas_see_on_first_turn() -> None:
    state = table(NEPALI, {0: "6♥ 6♥ 6♥ 9♠ 9♠ 9♠ 2♦ 2♦ 2♦"}, pass_expose=False, tiplu="J♣")
    for c in ("6♥", "9♠", "2♦"):
        state.apply(f"expose {c}")
    for _ in range(3):
        state.apply("pass")
    state.apply("draw")
    assert "see" in texts(state)
    assert not any(t.startswith("show") for t in texts(state))
    state.apply("see")
    assert state.seen[0] and state.path[0] == "melds"
    assert state.view(0)["tiplu"] == "J♣"


# ---------------------------------------------------------------- M-4


def test_M4_melds_exactly_three_in_nepali() -> None:
    state = table(NEPALI, {0: "3♠ 4♠ 5♠ 6♠ 8♥ 8♥ 8♥ 8♦ 9♦ 10♦"})
    state.apply("draw")
    must_fail(state, "show 3♠ 4♠ 5♠ 6♠", "exactly three")
    must_fail(state, "show K♠ A♠ 2♠", "")  # not held, and K-A-2 is no sequence anyway


def test_M4_no_wrap_around_sequence() -> None:
    state = table(NEPALI, {0: "K♠ A♠ 2♠ 8♥ 8♥ 8♥ 8♦ 9♦ 10♦ 4♣ 5♣ 6♣"})
    state.apply("draw")
    assert "show A♠ 2♠ K♠" not in texts(state)
    must_fail(state, "show K♠ A♠ 2♠", "not a pure sequence")


def test_M4_indian_melds_of_three_or_more() -> None:
    state = table(INDIAN, {0: "3♠ 4♠ 5♠ 6♠ 8♥ 8♦ 8♣ 9♦ 10♦ J♦"})
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠ 6♠")
    assert state.melds[0] == [tuple(parse_cards("3♠ 4♠ 5♠ 6♠"))]


# ---------------------------------------------------------------- M-5


def test_M5_must_draw_first() -> None:
    state = table(NEPALI, {0: ""})
    must_fail(state, "discard A♠", "must draw first")
    state.apply("draw")
    must_fail(state, "draw", "already drawn")


def test_M5_out_of_turn() -> None:
    state = table(NEPALI, {0: ""})
    must_fail(state, "draw", "seat 0's turn", seat=1)


def test_M5_taken_discard_cannot_be_discarded() -> None:
    state = table(NEPALI, {0: "7♣"}, discard="7♣")
    state.apply("take")
    assert state.hands[0][parse_cards("7♣")[0]] == 2
    assert "discard 7♣" not in texts(state)  # nor the identical copy already held
    must_fail(state, "discard 7♣", "took 7♣ from the discard pile")


def test_M5_only_latest_discard() -> None:
    state = table(NEPALI, {0: "", 1: "9♥ Q♠"}, players=2, stock="A♣ 2♣")
    state.apply("draw")
    state.apply("discard A♣")
    state.apply("take")  # seat 1 takes A♣, the latest
    assert state.pile == [] or state.pile[-1] != parse_cards("A♣")[0]
    assert state.hands[1][parse_cards("A♣")[0]] == 1
    state.apply("discard 9♥")
    view = state.view(0)
    assert view["discard_pile"][-1] == "9♥"  # earlier discards stay visible, in order


def test_M5_seen_player_cannot_take_wild() -> None:
    hands = {0: SHOWS, 1: "J♦ J♦"}
    state = table(NEPALI, hands, players=2, tiplu="J♣", stock="A♥ 2♥ 3♥")
    state.apply("draw")
    show_all(state)
    state.apply("discard A♥")
    state.apply("draw")
    state.apply("discard J♦")
    assert "take" not in texts(state)
    must_fail(state, "take", "seen players may not take a wild card")
    # an unseen player may (and with the option, a seen one too)
    state2 = table(
        {"preset": NEPALI, "seen_may_take_wild_discard": True},
        hands,
        players=2,
        tiplu="J♣",
        stock="A♥ 2♥",
    )
    state2.apply("draw")
    show_all(state2)
    state2.apply("discard A♥")
    state2.apply("draw")
    state2.apply("discard J♦")
    assert "take" in texts(state2)


def test_M5_unseen_player_may_take_wild() -> None:
    state = table(NEPALI, {0: SHOWS + " J♥"}, players=2, tiplu="J♣", stock="A♥")
    state.apply("draw")
    show_all(state)
    state.apply("discard J♥")
    assert "take" in texts(state)  # seat 1 has not seen: no wild cards for it
    state.apply("take")
    assert state.taken == parse_cards("J♥")[0]


DUBLEES7 = "2♠ 2♠ 3♥ 3♥ 4♦ 4♦ 5♣ 5♣ 6♠ 6♠ 7♥ 7♥ 8♦ 8♦"


def test_M5_seen_dublee_player_takes_only_for_eighth_dublee() -> None:
    hands = {0: DUBLEES7 + " 9♣", 1: "9♣ 10♥"}
    state = table(NEPALI, hands, players=2, tiplu="K♥", stock="J♠ Q♠ Q♠")
    state.apply("draw")
    for c in ("2♠", "3♥", "4♦", "5♣", "6♠", "7♥", "8♦"):
        state.apply(f"dublee {c} {c}")
    assert state.seen[0] and state.path[0] == "dublees"
    state.apply("discard J♠")
    state.apply("draw")
    state.apply("discard 10♥")
    must_fail(state, "take", "eighth dublee")
    state.apply("draw")
    state.apply("discard Q♠")
    state.apply("draw")
    state.apply("discard 9♣")
    assert "take" in texts(state)
    state.apply("take")
    assert all(t.startswith("finish") for t in texts(state)) and texts(state)
    assert "finish 9♣" not in texts(state)
    must_fail(state, "discard A♠", "must finish this turn")
    state.apply(texts(state)[0])
    assert state.is_over and state.result is not None
    assert state.result.details["finish"]["kind"] == "dublees"


# ---------------------------------------------------------------- M-6


def test_M6_show_three_pure_melds_to_see() -> None:
    state = table(NEPALI, {0: SHOWS}, tiplu="J♣", stock="2♥")
    state.apply("draw")
    assert "show 3♠ 4♠ 5♠" in texts(state)
    state.apply("show 3♠ 4♠ 5♠")
    assert not state.seen[0] and state.path[0] == "melds"
    state.apply("show 6♥ 6♥ 6♥")
    state.apply("show 8♦ 9♦ 10♦")
    assert state.seen[0]
    assert state.view(0)["seats"][0]["melds"] == [
        ["3♠", "4♠", "5♠"],
        ["6♥", "6♥", "6♥"],
        ["8♦", "9♦", "10♦"],
    ]
    assert state.sizes[0] == 13


def test_M6_show_must_stay_completable() -> None:
    state = table(NEPALI, {0: "3♠ 4♠ 5♠ 6♥ 6♥ 6♥ 8♦ 9♦"}, stock="2♥")
    state.apply("draw")
    assert not any(t.startswith("show") for t in texts(state))
    must_fail(state, "show 3♠ 4♠ 5♠", "cannot complete the show")


def test_M6_started_show_blocks_discard_and_finish() -> None:
    state = table(NEPALI, {0: SHOWS}, stock="2♥")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    assert all(t.startswith("show") for t in texts(state))
    must_fail(state, "discard 2♥", "complete your show first")
    must_fail(state, "finish 2♥", "complete your show first")


def test_M6_trial_is_not_a_nepali_show_meld() -> None:
    state = table(NEPALI, {0: "5♠ 5♥ 5♦ " + SHOWS})
    state.apply("draw")
    must_fail(state, "show 5♠ 5♥ 5♦", "not a pure sequence or tunnela")


def test_M6_indian_shows_trials_not_tunnelas() -> None:
    state = table(INDIAN, {0: "5♠ 5♥ 5♦ 9♣ 9♣ 9♣ 3♠ 4♠ 5♠ 8♦ 9♦ 10♦"})
    state.apply("draw")
    must_fail(state, "show 9♣ 9♣ 9♣", "not a pure sequence or trial")
    state.apply("show 5♠ 5♥ 5♦")
    assert state.melds[0]


def test_M6_paths_are_exclusive() -> None:
    hand = "3♠ 4♠ 5♠ 3♠ 4♠ 5♠ 3♠ 4♠ 5♠ 8♥ 8♥ 9♦ 9♦ 10♣ 10♣ J♠ J♠"
    state = table(NEPALI, {0: hand}, stock="2♥")
    state.apply("draw")
    assert "dublee 8♥ 8♥" in texts(state) and "show 3♠ 4♠ 5♠" in texts(state)
    state.apply("show 3♠ 4♠ 5♠")
    assert not any(t.startswith("dublee") for t in texts(state))
    must_fail(state, "dublee 8♥ 8♥", "exclude each other")
    state = table(NEPALI, {0: hand}, stock="2♥")
    state.apply("draw")
    state.apply("dublee 8♥ 8♥")
    must_fail(state, "show 3♠ 4♠ 5♠", "exclude each other")


def test_M6_indian_keeps_three_pure_melds() -> None:
    hand = "3♠ 4♠ 5♠ 6♥ 7♥ 8♥ 9♦ 9♣ 9♠ 10♥ J♥ Q♥ 2♦"
    state = table(INDIAN, {0: hand}, tiplu="2♣", stock="6♣")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 6♥ 7♥ 8♥")
    state.apply("show 9♠ 9♦ 9♣")
    assert state.seen[0]
    # 2♦ is wild (tiplu rank): adding it to a pure meld would leave two pure melds
    assert "add 2♦ @0" not in texts(state)
    must_fail(state, "add 2♦ @0", "three pure melds")
    state.apply("meld 10♥ J♥ Q♥")  # a fourth pure meld
    assert "add 2♦ @0" in texts(state)
    state.apply("add 2♦ @0")
    assert len(state.melds[0][0]) == 4


# ---------------------------------------------------------------- M-7


def test_M7_tiplu_picked_at_first_show_from_stock() -> None:
    state = table(NEPALI, {0: SHOWS, 1: "7♠ 8♠ 9♠ 10♥ J♥ Q♥ 2♦ 3♦ 4♦"}, players=2, seed=4)
    assert state.tiplu is None and not state.tiplu_picked
    state.apply("draw")
    size = len(state.stock)
    show_all(state)
    tiplu = state.tiplu
    assert tiplu is not None and state.tiplu_picked
    assert len(state.stock) == size - 1
    assert "tiplu" in state.view(0) and "tiplu" not in state.view(1)
    assert "tiplu" not in state.view(None)
    state.apply(texts(state)[-1])
    state.apply("draw")
    show_all(state, "7♠ 8♠ 9♠ 10♥ J♥ Q♥ 2♦ 3♦ 4♦")
    assert state.tiplu == tiplu and state.view(1)["tiplu"] == str(tiplu)
    state.check_invariants()


def test_M7_tiplu_after_deal_option() -> None:
    state = new_deal({"preset": INDIAN, "tiplu_chosen": "after_deal"}, 4, seed=9)
    assert state.tiplu is not None and len(state.stock) == 70
    for seat in range(4):
        assert "tiplu" not in state.view(seat)
    state.check_invariants()


def test_M7_unseen_view_never_names_the_tiplu() -> None:
    state = table(NEPALI, {0: SHOWS}, players=2, tiplu="J♣")
    state.apply("draw")
    show_all(state)
    view = state.view(1)
    assert "tiplu" not in view and "wild_cards" not in view
    # the same position with another tiplu looks identical to the unseen seat
    other = state.clone()
    other._tiplu = CARDS[parse_cards("4♥")[0]]
    assert json.dumps(other.view(1)) == json.dumps(view)


def test_M7_first_show_needs_a_stock_card() -> None:
    state = table(NEPALI, {0: SHOWS}, players=2)
    state.apply("draw")
    state._pile = state.stock + state.pile  # decision test: empty the stock by hand
    state._stock = []
    state._legal = None
    assert not any(t.startswith("show") for t in texts(state))
    must_fail(state, "show 3♠ 4♠ 5♠", "stock is empty")


def test_M7_stock_draw_hidden_from_others() -> None:
    state = table(NEPALI, {0: ""}, stock="9♣")
    state.apply("draw")
    assert state.view(0)["history"][-1] == {"seat": 0, "move": "draw 9♣"}
    assert state.view(1)["history"][-1] == {"seat": 0, "move": "draw"}
    assert state.view(None)["history"][-1] == {"seat": 0, "move": "draw"}


# ---------------------------------------------------------------- M-8


def test_M8_show_see_and_finish_in_one_turn() -> None:
    state = table(NEPALI, {0: FINISHER}, tiplu="J♣", stock="2♦")
    state.apply("draw")
    show_all(state)
    assert "finish 2♦" in texts(state)
    state.apply("finish 2♦")
    assert state.is_over and state.result is not None
    assert state.result.winner == 0
    fin = state.result.details["finish"]
    assert fin["kind"] == "melds" and fin["discard"] == "2♦" and len(fin["groups"]) == 4
    assert state.sizes[0] == 12 and state.pile[-1] == parse_cards("2♦")[0]
    state.check_invariants()


def test_M8_unseen_cannot_finish_and_bad_finish_rejected() -> None:
    state = table(NEPALI, {0: FINISHER}, tiplu="J♣", stock="2♦")
    state.apply("draw")
    must_fail(state, "finish 2♦", "show and see")
    state = table(NEPALI, {0: SHOWS}, tiplu="J♣", stock="2♦")
    state.apply("draw")
    show_all(state)
    assert not any(t.startswith("finish") for t in texts(state))
    must_fail(state, "finish 2♦", "cannot finish by discarding 2♦")


def test_M8_exposed_tunnelas_count_among_seven_melds() -> None:
    hand = "6♥ 6♥ 6♥ 9♠ 9♠ 9♠ 2♦ 2♦ 2♦ 5♦ 5♦ 5♦ 7♣ 8♣ 9♣ K♠ K♥ K♦ 10♣ J♣ Q♣"
    state = table(NEPALI, {0: hand}, pass_expose=False, tiplu="J♣", stock="4♥")
    for c in ("6♥", "9♠", "2♦", "5♦"):
        state.apply(f"expose {c}")
    for _ in range(3):
        state.apply("pass")
    state.apply("draw")
    state.apply("see")
    assert state.shown_count(0) == 4
    state.apply("finish 4♥")
    assert state.result is not None and len(state.result.details["finish"]["groups"]) == 3


INDIAN_FINISHER = "3♠ 4♠ 5♠ 6♥ 7♥ 8♥ 9♦ 9♣ 9♠ 2♣ 3♣ 4♣ 5♣ Q♥ K♥ A♥ J♠ J♥ J♦ J♣ 3♦"


def test_M8_indian_finish_melds_every_card() -> None:
    state = table(INDIAN, {0: INDIAN_FINISHER}, tiplu="2♦", stock="K♣")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 6♥ 7♥ 8♥")
    state.apply("show 9♠ 9♦ 9♣")
    assert "finish K♣" in texts(state)
    state.apply("finish K♣")
    assert state.is_over and state.result is not None and state.result.winner == 0
    state.check_invariants()


def test_M8_indian_discard_emptying_hand_finishes() -> None:
    state = table(INDIAN, {0: INDIAN_FINISHER}, tiplu="2♦", stock="K♣")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 6♥ 7♥ 8♥")
    state.apply("show 9♠ 9♦ 9♣")
    state.apply("meld 2♣ 3♣ 4♣ 5♣")
    state.apply("meld Q♥ K♥ A♥")
    state.apply("meld J♠ J♥ J♦ J♣")
    state.apply("add 3♦ @3")
    assert state.sizes[0] == 1
    state.apply("discard K♣")
    assert state.is_over and state.result is not None and state.result.winner == 0
    state.check_invariants()


# ---------------------------------------------------------------- M-9


EIGHT_DUBLEES = DUBLEES7 + " 9♣ 9♣"


def test_M9_show_seven_finish_eight_same_turn() -> None:
    state = table(NEPALI, {0: EIGHT_DUBLEES}, players=4, tiplu="K♥", stock="J♠")
    state.apply("draw")
    for c in ("2♠", "3♥", "4♦", "5♣", "6♠", "7♥", "8♦"):
        state.apply(f"dublee {c} {c}")
    assert "finish J♠" in texts(state)
    state.apply("finish J♠")
    result = state.result
    assert result is not None and result.details["finish"]["kind"] == "dublees"
    maal_points = [p["maal"] for p in result.details["players"]]
    seen = [p["seen"] for p in result.details["players"]]
    assert list(result.scores) == settle_nepali(maal_points, seen, 0, True, state.rules)
    no_bonus = settle_nepali(maal_points, seen, 0, False, state.rules)
    assert result.scores[0] == no_bonus[0] + 5 * 3  # M-9: 5 more from each opponent


def test_M9_dublees_min_players() -> None:
    rules = {"preset": NEPALI, "dublees_min_players": 4}
    state = table(rules, {0: EIGHT_DUBLEES}, players=3, stock="J♠")
    state.apply("draw")
    assert not any(t.startswith("dublee") for t in texts(state))
    must_fail(state, "dublee 2♠ 2♠", "at least 4 players")
    state = table(INDIAN, {0: EIGHT_DUBLEES}, players=3, stock="J♠")
    state.apply("draw")
    must_fail(state, "dublee 2♠ 2♠", "no dublee path")


# ---------------------------------------------------------------- M-10


def test_M10_indian_meld_and_add_after_seeing() -> None:
    hand = "3♠ 4♠ 5♠ 6♥ 7♥ 8♥ 9♦ 9♣ 9♠ 6♣ 7♣ 3♦ 10♠ 5♥ 8♣"
    state = table(INDIAN, {0: hand}, tiplu="2♦", stock="K♣")
    state.apply("draw")
    must_fail(state, "meld 6♣ 7♣ 3♦", "see the tiplu")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 6♥ 7♥ 8♥")
    state.apply("show 9♠ 9♦ 9♣")
    must_fail(state, "meld 6♣ 7♣ K♣", "not a valid meld")
    assert "meld 3♦ 6♣ 7♣" in texts(state)  # a natural pair and a wild card
    state.apply("meld 6♣ 7♣ 3♦")
    must_fail(state, "add 10♠ @9", "no table meld @9")
    must_fail(state, "add 10♠ @1", "does not fit")
    assert "add 5♥ @1" in texts(state)
    state.apply("add 5♥ @1")
    state.apply("add 8♣ @3")
    assert [str(c) for c in state.melds[0][1]] == ["5♥", "6♥", "7♥", "8♥"]
    assert state.view(1)["seats"][0]["melds"][3] == ["3♦", "6♣", "7♣", "8♣"]
    state.check_invariants()


def test_M10_nepali_has_no_table_melding() -> None:
    state = table(NEPALI, {0: SHOWS}, tiplu="J♣")
    state.apply("draw")
    show_all(state)
    must_fail(state, "meld 7♣ 8♣ 9♣", "Indian Marriage rule")


# ---------------------------------------------------------------- M-11


def _drain_stock(state: MarriageState, keep: int) -> None:
    """Move all but ``keep`` stock cards under the discard pile (keeps every card)."""
    moved = state.stock[: len(state.stock) - keep]
    state._stock = state.stock[len(state.stock) - keep :]
    state._pile = moved + state.pile
    state._legal = None


def test_M11_nepali_reshuffles_discards() -> None:
    state = table(NEPALI, {0: ""}, stock="9♣")
    _drain_stock(state, 1)
    old = len(state.pile)
    state.apply("draw")
    state.apply("discard 9♣")
    assert state.recycles == 1
    assert [CARDS[c] for c in state.pile] == parse_cards("9♣")
    assert len(state.stock) == old
    state.check_invariants()


def test_M11_nothing_to_recycle_ends_deal() -> None:
    # One stock card and one discard: seat 0 takes the discard and shows, so the last
    # stock card becomes the tiplu; after the discard there is nothing to recycle.
    state = table(NEPALI, {0: SHOWS}, discard="Q♦")
    extra = state.stock[:-1]  # park the rest of the stock with seat 1 (test set-up only)
    state._stock = state.stock[-1:]
    for c in extra:
        state.hands[1][c] += 1
    state.sizes[1] += len(extra)
    state._legal = None
    state.apply("take")
    show_all(state)
    assert not state.stock and state.tiplu is not None
    state.apply(texts(state)[-1])
    assert state.is_over and state.result is not None
    assert state.result.winner is None and state.result.details["reason"] == "stock"


def test_M11_indian_turns_over_once() -> None:
    state = table(INDIAN, {0: ""}, stock="9♣")
    _drain_stock(state, 1)
    pile = state.pile[:]
    state.apply("draw")
    state.apply("discard 9♣")
    assert state.recycles == 1
    assert state.stock == pile[::-1]  # not shuffled: the oldest discard is drawn first
    # empty the stock again: the second time the deal ends
    _drain_stock(state, 1)
    state.apply("draw")
    state.apply(texts(state)[-1])
    assert state.is_over and state.result is not None
    assert state.result.details["reason"] == "stock"


def test_M11_max_turns() -> None:
    state = new_deal({"preset": NEPALI, "max_turns": 3}, 3, seed=1)
    while state.phase == "expose":
        state.apply("pass")
    for _ in range(3):
        state.apply("draw")
        state.apply(texts(state)[-1])
    assert state.is_over and state.result is not None
    assert state.result.winner is None and state.result.details["reason"] == "max_turns"
    assert sum(state.result.scores) == 0


# ---------------------------------------------------------------- M-12


def test_M12_maal_counts_final_cards() -> None:
    state = table(NEPALI, {0: FINISHER, 1: "10♣ Q♣ J♦"}, tiplu="J♣", stock="2♦")
    state.apply("draw")
    show_all(state)
    state.apply("finish 2♦")
    assert state.result is not None
    players = state.result.details["players"]
    tiplu = parse_cards("J♣")[0]
    for seat in range(3):
        cards = [c for c in state.final_cards(seat)]
        pts, items = maal(cards, tiplu, state.rules)
        assert players[seat]["maal"] == pts and players[seat]["maal_items"] == items
    assert players[0]["maal"] == 10  # marriage 10♣ J♣ Q♣ (M-13 worked example §08)


def test_M12_tunnela_bonus_needs_exposure_and_natural_show() -> None:
    hand = "5♦ 5♦ 5♦ 3♠ 4♠ 5♠ 8♦ 9♦ 10♦"
    rules = {"preset": NEPALI, "max_turns": 2}
    state = table(rules, {0: hand, 1: "5♥ 5♥ 5♥"}, players=2, pass_expose=False, tiplu="J♣")
    state.apply("expose 5♦")
    state.apply("pass")
    state.apply("expose 5♥")
    state.apply("pass")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 8♦ 9♦ 10♦")
    assert state.seen[0]
    state.apply(texts(state)[-1])
    state.apply("draw")
    state.apply(texts(state)[-1])
    assert state.result is not None
    players = state.result.details["players"]
    tiplu = parse_cards("J♣")[0]
    with_bonus = maal(state.final_cards(0), tiplu, state.rules, state.exposed[0], True)[0]
    assert players[0]["maal"] == with_bonus
    assert players[0]["maal"] >= 5
    # seat 1 exposed a tunnela but never saw: no bonus
    assert players[1]["maal"] == maal(state.final_cards(1), tiplu, state.rules, state.exposed[1])[0]


def test_M12_nobody_showed_nobody_has_maal() -> None:
    state = new_deal({"preset": NEPALI, "max_turns": 2}, 2, seed=3)
    while not state.is_over:
        acts = [t for t in texts(state) if not t.startswith(("show", "dublee", "see", "expose"))]
        state.apply(acts[-1])
    assert state.result is not None
    assert all(p["maal"] == 0 for p in state.result.details["players"])
    assert state.result.details["tiplu"] is None and state.result.scores == (0, 0)


def test_M12_unseen_maal_option() -> None:
    rules = {"preset": NEPALI, "unseen_maal_counts": False}
    state = table(rules, {0: FINISHER, 1: "10♣ Q♣ J♦"}, tiplu="J♣", stock="2♦")
    state.apply("draw")
    show_all(state)
    state.apply("finish 2♦")
    assert state.result is not None
    assert state.result.details["players"][1]["maal"] == 0


# ---------------------------------------------------------------- M-13


def test_M13_worked_example_seed_000() -> None:
    # B (seat 0) sees holding one poplu; A (seat 1) finishes with a marriage; C unseen.
    b_hand = "A♥ 2♥ 3♥ 4♦ 5♦ 6♦ 9♠ 9♠ 9♠ Q♣"
    state = table(NEPALI, {0: b_hand, 1: FINISHER, 2: ""}, tiplu="J♣", stock="K♣ 2♦")
    state.apply("draw")
    show_all(state, "A♥ 2♥ 3♥ 4♦ 5♦ 6♦ 9♠ 9♠ 9♠")
    state.apply("discard K♣")
    state.apply("draw")
    show_all(state)
    state.apply("finish 2♦")
    assert state.result is not None
    assert [p["maal"] for p in state.result.details["players"]] == [2, 10, 0]
    assert state.result.scores == (-9, 31, -22)


def test_M13_settlement_formula() -> None:
    state = table(NEPALI, {0: FINISHER, 1: "Q♣ Q♣ 10♣"}, players=4, tiplu="J♣", stock="2♦")
    state.apply("draw")
    show_all(state)
    state.apply("finish 2♦")
    assert state.result is not None
    s = [p["maal"] for p in state.result.details["players"]]
    t, n = sum(s), 4
    expected = [0] * n
    for seat in range(1, n):
        pay = t + 10 - n * s[seat]  # everyone else is unseen
        expected[seat] = -pay
        expected[0] += pay
    assert list(state.result.scores) == expected and sum(expected) == 0


# ---------------------------------------------------------------- M-14


def test_M14_no_finisher_settles_maal_only() -> None:
    rules = {"preset": NEPALI, "max_turns": 1}
    state = table(rules, {0: SHOWS + " 10♣ J♣ Q♣"}, tiplu="J♣", stock="2♦")
    state.apply("draw")
    show_all(state)
    state.apply("discard 2♦")
    assert state.result is not None and state.result.winner is None
    s = [p["maal"] for p in state.result.details["players"]]
    assert s[0] == 10
    assert list(state.result.scores) == [3 * x - sum(s) for x in s]


# ---------------------------------------------------------------- M-15


def test_M15_indian_scoring() -> None:
    state = table(INDIAN, {0: INDIAN_FINISHER, 1: "3♦ 2♦ 2♦"}, tiplu="2♦", stock="K♣")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 6♥ 7♥ 8♥")
    state.apply("show 9♠ 9♦ 9♣")
    state.apply("finish K♣")
    result = state.result
    assert result is not None
    players = result.details["players"]
    tiplu = parse_cards("2♦")[0]
    values = [maal(state.final_cards(s), tiplu, state.rules)[0] for s in range(3)]
    assert [p["maal"] for p in players] == values
    hand_points = [0] + [card_points(parse_cards(players[s]["hand"])) for s in (1, 2)]
    seen = [True, False, False]
    assert list(result.scores) == settle_indian(values, seen, hand_points, 0, state.rules)
    assert players[1]["card_points"] == hand_points[1] > 0
    assert sum(result.scores) == 0


# ---------------------------------------------------------------- protocol


def test_protocol_replay_and_clone() -> None:
    state = table(NEPALI, {0: FINISHER}, tiplu="J♣", stock="2♦")
    copy = state.clone()
    state.apply("draw")
    assert copy.phase == "draw" and copy.sizes[0] == 21
    show_all(state)
    doc = json.loads(json.dumps(state.to_json()))
    again = MarriageState.from_json(doc)
    assert signature(again) == signature(state)
    state.apply("finish 2♦")
    again = MarriageState.from_json(json.loads(json.dumps(state.to_json())))
    assert signature(again) == signature(state)


def test_protocol_bad_input() -> None:
    state = new_deal(NEPALI, 3, seed=1)
    for text in ("", "fly", "discard", "discard 11♣", "draw 7♣", "add 7♣", "show 3♠", "42"):
        must_fail(state, text, "")
    with pytest.raises(InputError):
        MarriageState.from_json({"players": 3, "seed": 1, "actions": ["fly"]})
    with pytest.raises(InputError):
        MarriageState.from_json({"players": 3, "seed": 1, "actions": [], "extra": 1})
    with pytest.raises(InputError):
        state.view(7)


def test_M5_take_needs_another_card_to_discard() -> None:
    # Indian hands shrink as they meld: with only one 3♦ left, taking the discarded
    # 3♦ would leave nothing that may be discarded this turn.
    state = table(INDIAN, {0: INDIAN_FINISHER, 1: "3♦"}, players=2, tiplu="2♦", stock="K♣ 9♥")
    state.apply("draw")
    state.apply("show 3♠ 4♠ 5♠")
    state.apply("show 6♥ 7♥ 8♥")
    state.apply("show 9♠ 9♦ 9♣")
    state.apply("meld 2♣ 3♣ 4♣ 5♣")
    state.apply("meld Q♥ K♥ A♥")
    state.apply("meld J♠ J♥ J♦ J♣")
    state.apply("discard K♣")
    assert state.sizes[0] == 1
    state.apply("draw")
    state.apply("discard 3♦")
    assert "take" not in texts(state)
    must_fail(state, "take", "nothing but 3♦")


def test_apply_returns_the_canonical_action_the_log_keeps() -> None:
    """One text per move: ``apply`` normalises once and returns what the log stores."""
    state = table(NEPALI, {0: FINISHER}, tiplu="J♣", stock="2♦")
    assert str(state.apply("DRAW", seat=0)) == "draw"
    applied = state.apply("show 5s 3♠ 4♠", seat=0)
    assert str(applied) == "show 3♠ 4♠ 5♠" == state.actions[-1]
    dublees = table(NEPALI, {0: "7♣ 7♣ 2♦ 2♦ 3♥ 3♥ 4♠ 4♠ 5♦ 5♦ 6♣ 6♣ 8♥ 8♥ K♠ K♠ A♦ 9♣ 9♥ 10♦ J♠"})
    dublees.apply("draw")
    applied = dublees.apply("dublee 7♣")
    assert str(applied) == "dublee 7♣ 7♣" == dublees.actions[-1]
    assert dublees.events[-1]["action"] == "dublee 7♣ 7♣"
