"""Tunisian rami deal engine: one or more tests per rule T-1 … T-11 (T-12, T-13: match).

Positions are built with ``TunisianState.from_position``: chosen hands, the next stock
cards, the discard pile and table melds; the rest of the 108 cards fill the stock.
"""

from __future__ import annotations

import pytest
from tunisian_game_support import position, texts

from rami.cards import parse_cards, shoe
from rami.engine import Action
from rami.errors import IllegalAction
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.rules import MODES, rules_from

OPENING_73 = "10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ 3♣ 4♣ 5♣ 2♠ 9♦"  # 40 + 21 + 12


def drawn(state: TunisianState) -> TunisianState:
    state.apply("draw")
    return state


def raises(state: TunisianState, action: str, match: str, seat: int | None = None) -> None:
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=match):
        state.apply(action, seat=seat)
    assert state.snapshot() == before


# --------------------------------------------------------------------- T-1


@pytest.mark.parametrize("mode", MODES)
def test_T1_modes_players_and_108_cards(mode: str) -> None:
    state = new_deal(mode, rules_from(mode).players, seed=5)
    assert state.num_players == (2 if mode == "1v1" else 4)
    assert sum(state.hand_sizes) + state.stock_size + len(state.discard_pile) == 108
    assert len(shoe(2, 4)) == 108
    state.check_invariants()


def test_T1_2v2_partners_sit_opposite() -> None:
    state = new_deal("2v2", 4, seed=1)
    assert [state.team(s) for s in range(4)] == [0, 1, 0, 1]
    view = state.view(2)
    assert view["team"] == 0 and view["teams"] == [[0, 2], [1, 3]]
    assert new_deal("ffa", 4, seed=1).view(0)["team"] is None


# --------------------------------------------------------------------- T-2


def test_T2_deal_dealer_fifteen_others_fourteen_discard_empty() -> None:
    state = new_deal("ffa", 4, seed=3, dealer=2)
    assert state.hand_sizes == (14, 14, 15, 14)
    assert state.discard_pile == ()
    assert state.stock_size == 108 - 15 - 3 * 14
    assert state.to_move == 2 and state.phase == "first_discard"


def test_T2_dealer_first_turn_is_discard_only() -> None:
    state = new_deal("1v1", 2, seed=4, dealer=1)
    assert {a.kind for a in state.legal_actions()} == {"discard"}
    raises(state, "draw", "discard only")
    raises(state, "take", "discard only")
    card = state.hand(1)[0]
    state.apply(f"discard {card}")
    assert state.to_move == 0 and state.phase == "draw"
    assert state.discard_pile == (card,)


def test_T2_play_moves_counter_clockwise_skipping_players_out() -> None:
    state = new_deal("ffa", 4, seed=8, dealer=1)
    order = [state.to_move]
    for _ in range(5):
        seat = state.to_move
        assert seat is not None
        if state.phase == "draw":
            state.apply("draw")
        state.apply(f"discard {state.hand(seat)[0]}")
        order.append(state.to_move)
    assert order == [1, 0, 3, 2, 1, 0]
    out = new_deal("ffa", 4, seed=8, dealer=3, active=[True, False, True, True])
    assert out.hand_sizes[1] == 0
    assert [out.next_seat(3), out.next_seat(2), out.next_seat(0)] == [2, 0, 3]


# --------------------------------------------------------------------- T-3


def test_T3_a_turn_is_draw_lay_discard() -> None:
    state = position("1v1", [OPENING_73, "2♥ 3♥"], stock_top="5♠")
    assert texts(state.legal_actions()) == {"draw"}  # no take: empty discard pile
    raises(state, "discard 2♠", "draw first")
    raises(state, "meld 10♥ J♥ Q♥ K♥", "draw first")
    state.apply("draw")
    raises(state, "draw", "already drawn")
    assert "meld 10♥ J♥ Q♥ K♥" in texts(state.legal_actions())
    state.apply("discard 5♠")
    assert state.to_move == 1 and state.phase == "draw"


def test_T3_nobody_opens_during_the_first_round() -> None:
    state = position("1v1", [OPENING_73, "2♥ 3♥"], stock_top="5♠", turn=1, discard="K♣")
    assert state.first_round
    assert "take" not in texts(state.legal_actions())
    raises(state, "take", "first round")
    state.apply("draw")
    assert {a.kind for a in state.legal_actions()} == {"discard"}
    raises(state, "meld 10♥ J♥ Q♥ K♥", "first round")
    state.apply("discard 5♠")
    assert not state.first_round


def test_T3_taken_card_may_not_be_discarded_again_the_same_turn() -> None:
    # Default rediscard_taken false: neither the taken K♥ nor its identical copy.
    state = position("1v1", ["2♠ K♥ 9♦", "2♥"], discard="K♥", opened=[True, False])
    state.apply("take")
    legal = texts(state.legal_actions())
    assert "discard K♥" not in legal and {"discard 2♠", "discard 9♦"} <= legal
    raises(state, "discard K♥", "took K♥ from the discard pile this turn")
    assert state.check("discard K♥") is not None
    state.apply("discard 2♠")
    # The next turn it may go: the ban is for the turn of the take only.
    state.apply("draw")
    state.apply(f"discard {state.hand(1)[0]}")
    state.apply("draw")
    assert "discard K♥" in texts(state.legal_actions())


def test_T3_option_rediscard_taken_allows_it() -> None:
    loose = {"preset": "1v1", "rediscard_taken": True}
    state = position(loose, ["2♠ 9♦", "2♥"], discard="K♥", opened=[True, False])
    state.apply("take")
    assert "discard K♥" in texts(state.legal_actions())
    state.apply("discard K♥")


def test_T3_take_refused_when_only_the_taken_card_could_be_discarded() -> None:
    state = position("1v1", ["K♥", "2♥"], discard="K♥", opened=[True, False])
    assert texts(state.legal_actions()) == {"draw"}
    raises(state, "take", "nothing else to discard")


def test_T3_lay_off_must_keep_a_card_other_than_the_taken_one() -> None:
    table = [("5♥ 6♥ 7♥", 0)]
    state = position("1v1", ["8♥ K♥", "2♥"], discard="K♥", opened=[True, False], table=table)
    state.apply("take")
    assert "add 8♥ @0" not in texts(state.legal_actions())
    raises(state, "add 8♥ @0", "other than K♥")
    assert texts(state.legal_actions()) == {"discard 8♥"}


# --------------------------------------------------------------------- T-4


def test_T4_melds_runs_sets_and_what_is_refused() -> None:
    hand = "K♠ A♠ 2♠ 7♠ 7♠ 7♥ 5♥ JK JK 8♦ 8♣ 8♥ 8♠ 9♦ 10♦ J♦ 3♣"
    state = drawn(position("ffa", [hand, "", "", ""], opened=[True, False, False, False]))
    raises(state, "meld K♠ A♠ 2♠", "K-A-2")
    raises(state, "meld 7♠ 7♠ 7♥", "twice")
    raises(state, "meld 5♥ JK JK", "one joker")
    legal = texts(state.legal_actions())
    assert "meld 8♠ 8♥ 8♦ 8♣" in legal  # carré
    assert "meld 7♠ 7♥ JK" in legal  # brelan with a joker
    assert "meld 8♦ 9♦ 10♦ J♦" in legal  # sequence
    state.apply("meld 7♠ 7♥ JK")
    meld = state.table[0][0]
    assert meld.kind == "set" and meld.has_joker


# --------------------------------------------------------------------- T-5


def test_T5_ace_low_counts_one_so_the_opening_is_short() -> None:
    hand = "10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ A♣ 2♣ 3♣ 2♠ 9♦"  # 40 + 21 + 6 = 67
    state = drawn(position("1v1", [hand, "2♥"], stock_top="5♠"))
    assert not any(a.kind == "meld" for a in state.legal_actions())
    raises(state, "meld A♣ 2♣ 3♣", "at most 67; it needs 71")


def test_T5_ace_high_counts_ten_and_joker_counts_as_its_card() -> None:
    hand = "10♥ J♥ Q♥ K♥ 7♠ 7♥ JK Q♣ K♣ A♣ 2♠ 9♦"  # 40 + 21 + 30 = 91
    state = drawn(position("1v1", [hand, "2♥"], stock_top="5♠"))
    for meld in ("Q♣ K♣ A♣", "10♥ J♥ Q♥ K♥", "7♠ 7♥ JK"):
        state.apply(f"meld {meld}")
    assert [m.value for m, _ in state.table] == [30, 40, 21]
    state.apply("discard 5♠")
    assert state.opening_values[0] == 91


# --------------------------------------------------------------------- T-6


def test_T6_first_opening_needs_71_and_is_laid_whole() -> None:
    state = drawn(position("1v1", [OPENING_73, "2♥"], stock_top="5♠"))
    assert state.threshold == 71
    state.apply("meld 10♥ J♥ Q♥ K♥")
    assert state.staged_value == 40 and not state.opened[0]
    raises(state, "discard 5♠", "this opening is worth 40; it needs 71")
    assert not any(a.kind == "discard" for a in state.legal_actions())
    state.apply("meld 7♠ 7♥ 7♦")
    state.apply("meld 3♣ 4♣ 5♣")
    state.apply("discard 5♠")
    assert state.opened[0] and state.opening_values[0] == 73
    assert state.threshold == 74
    opens = [e for e in state.events if e.get("news") == "open"]
    assert opens == [
        {
            "seat": 0,
            "action": None,
            "news": "open",
            "text": "seat 0 opens with 73 (needed 71)",
            "data": {"value": 73, "threshold": 71, "melds": [0, 1, 2]},
        }
    ]


def test_T6_later_openings_need_one_more_than_the_previous() -> None:
    hand = "10♥ J♥ Q♥ K♥ Q♣ K♣ A♣ 4♠ 4♥ 4♦ 2♠ 9♦"  # 40 + 30 + 12 = 82
    blocked = drawn(position("1v1", [hand, "2♥"], stock_top="5♠", last_opening=82))
    assert blocked.threshold == 83
    assert not any(a.kind == "meld" for a in blocked.legal_actions())
    raises(blocked, "meld Q♣ K♣ A♣", "at most 82; it needs 83")
    ok = drawn(position("1v1", [hand, "2♥"], stock_top="5♠", last_opening=81))
    assert "meld Q♣ K♣ A♣" in texts(ok.legal_actions())
    step = drawn(
        position(
            {"preset": "1v1", "opening_step": 5}, [hand, "2♥"], stock_top="5♠", last_opening=76
        )
    )
    assert step.threshold == 81 and "meld Q♣ K♣ A♣" in texts(step.legal_actions())


def test_T6_no_lay_off_or_swap_before_opening() -> None:
    state = drawn(
        position(
            "1v1",
            [OPENING_73 + " 8♦ 6♥", "2♥"],
            stock_top="5♠",
            table=[("5♥ JK 7♥", 1)],
            opened=[False, True],
            last_opening=80,
        )
    )
    raises(state, "add 8♥ @0", "you do not hold")
    raises(state, "swap 6♥ @0", "you have not opened: you may not swap jokers")
    raises(state, "add 8♦ @0", "you have not opened: you may not add to melds on the table")
    assert not any(a.kind in ("add", "swap") for a in state.legal_actions())


def test_T6_staged_opening_commits_on_lay_off_and_counts_only_its_melds() -> None:
    state = drawn(
        position("1v1", [OPENING_73 + " 8♥", "2♥"], stock_top="5♠", table=[("5♥ 6♥ 7♥", 1)])
    )
    state.apply("meld 10♥ J♥ Q♥ K♥")
    raises(state, "add 8♥ @0", "you have not opened")
    state.apply("meld 7♠ 7♥ 7♦")
    state.apply("meld 3♣ 4♣ 5♣")
    assert "add 8♥ @0" in texts(state.legal_actions())
    state.apply("add 8♥ @0")
    assert state.opened[0] and state.opening_values[0] == 73
    state.apply("discard 5♠")
    assert state.opening_values[0] == 73


# --------------------------------------------------------------------- T-7


def test_T7_lay_off_on_anyones_meld_and_swap_a_joker() -> None:
    state = drawn(
        position(
            "ffa",
            ["6♥ 4♥ 8♣ 2♠", "", "", ""],
            stock_top="9♣",
            table=[("5♥ JK 7♥", 1), ("8♠ 8♥ 8♦", 2)],
            opened=[True, True, True, False],
        )
    )
    legal = texts(state.legal_actions())
    assert {"add 4♥ @0", "swap 6♥ @0", "add 8♣ @1"} <= legal
    state.apply("add 4♥ @0")
    state.apply("swap 6♥ @0")
    assert state.table[0][0].cards == tuple(parse_cards("4♥ 5♥ 6♥ 7♥"))
    assert state.table[0][1] == 1  # the meld keeps its owner
    assert "JK" in [str(c) for c in state.hand(0)]
    state.apply("add 8♣ @1")
    assert len(state.table[1][0].cards) == 4
    state.apply("add JK @0")
    assert state.table[0][0].has_joker
    state.check_invariants()


def test_T7_a_meld_never_takes_a_second_joker() -> None:
    state = drawn(
        position(
            "1v1",
            ["JK 2♠ 3♦", "4♣"],
            stock_top="9♣",
            table=[("5♥ JK 7♥", 1), ("8♠ 8♥ JK", 1)],
            opened=[True, True],
        )
    )
    raises(state, "add JK @0", "that meld already holds a joker")
    raises(state, "add JK @1", "that meld already holds a joker")
    raises(state, "swap 9♣ @0", "cannot replace the joker")
    assert not any(a.kind in ("add", "swap") for a in state.legal_actions())


def test_T7_brelan_joker_stands_for_either_missing_suit() -> None:
    state = drawn(
        position(
            "1v1",
            ["8♦ 8♣ 2♠", "4♣"],
            stock_top="9♣",
            table=[("8♠ 8♥ JK", 1)],
            opened=[True, True],
        )
    )
    legal = texts(state.legal_actions())
    assert {"swap 8♦ @0", "swap 8♣ @0", "add 8♦ @0", "add 8♣ @0"} <= legal
    state.apply("swap 8♣ @0")
    assert not state.table[0][0].has_joker


# --------------------------------------------------------------------- T-8


def test_T8_take_before_opening_only_to_open() -> None:
    hand = "10♥ J♥ Q♥ 7♠ 7♥ 7♦ 3♣ 4♣ 5♣ 2♠ 9♦"  # 30 + 21 + 12 = 63 without K♥
    useful = position("1v1", [hand, "2♥"], discard="K♥")
    assert "take" in texts(useful.legal_actions())
    useless = position("1v1", [hand, "2♥"], discard="2♦")
    assert texts(useless.legal_actions()) == {"draw"}
    raises(useless, "take", "only to open")
    useful.apply("take")
    assert useful.must_open
    raises(useful, "discard 2♠", "you took K♥ before opening, so you must open")
    useful.apply("meld 10♥ J♥ Q♥ K♥")
    useful.apply("meld 7♠ 7♥ 7♦")
    raises(useful, "discard 2♠", "this opening is worth 61; it needs 71")
    useful.apply("meld 3♣ 4♣ 5♣")
    useful.apply("discard 2♠")
    assert useful.opened[0] and useful.opening_values[0] == 73


def test_T8_opened_player_takes_freely() -> None:
    state = position("1v1", ["2♠ 9♦", "2♥"], discard="K♥", opened=[True, False])
    assert texts(state.legal_actions()) == {"draw", "take"}
    state.apply("take")
    assert not state.must_open
    state.apply("discard 9♦")  # not K♥: the taken card stays this turn (T-3)


def test_T8_option_taken_card_in_opening() -> None:
    strict = {"preset": "1v1", "taken_card_in_opening": True}
    hand = "10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ 3♣ 4♣ 5♣ 9♦"  # opens with 73 without the top card
    assert "take" in texts(position("1v1", [hand, "2♥"], discard="2♠").legal_actions())
    refused = position(strict, [hand, "2♥"], discard="2♠")
    raises(refused, "take", "only to open with it")
    # The taken card must end up in the opening.
    hand = "10♥ J♥ Q♥ 7♠ 7♥ 7♦ 3♣ 4♣ 5♣ 6♣ 9♦"
    state = position(strict, [hand, "2♥"], discard="K♥")
    state.apply("take")
    state.apply("meld 7♠ 7♥ 7♦")
    state.apply("meld 3♣ 4♣ 5♣ 6♣")  # 21 + 18: K♥ is still needed
    raises(state, "meld 10♥ J♥ Q♥", "K♥")
    state.apply("meld 10♥ J♥ Q♥ K♥")
    state.apply("discard 9♦")
    assert state.opening_values[0] == 79


# --------------------------------------------------------------------- T-9


def test_T9_going_out_is_discarding_the_last_card() -> None:
    state = drawn(
        position(
            "1v1",
            ["8♥ 3♣", "2♥ K♠"],
            stock_top="9♥",
            table=[("5♥ 6♥ 7♥", 1)],
            opened=[True, True],
        )
    )
    state.apply("add 8♥ @0")
    state.apply("add 9♥ @0")
    raises(state, "add 3♣ @0", "keep a card")
    state.apply("discard 3♣")
    assert state.is_over and state.to_move is None
    assert state.result is not None and state.result.winner == 0
    assert state.result.scores == (0, 12)
    assert state.legal_actions() == []
    raises(state, "draw", "over")


def test_T9_a_card_must_be_kept_to_discard() -> None:
    state = drawn(position("1v1", ["5♣ 6♣ 7♣", "2♥"], stock_top="8♣", opened=[True, False]))
    raises(state, "meld 5♣ 6♣ 7♣ 8♣", "keep a card")
    assert "meld 5♣ 6♣ 7♣ 8♣" not in texts(state.legal_actions())
    state.apply("meld 5♣ 6♣ 7♣")
    raises(state, "add 8♣ @0", "keep a card")
    assert texts(state.legal_actions()) == {"discard 8♣"}
    state.apply("discard 8♣")
    assert state.result is not None and state.result.winner == 0


def test_T9_open_and_go_out_in_one_turn() -> None:
    state = drawn(position("1v1", ["10♥ J♥ Q♥ K♥ 7♠ 7♥ 7♦ 3♣ 4♣ 5♣", "2♥"], stock_top="9♦"))
    for meld in ("10♥ J♥ Q♥ K♥", "7♠ 7♥ 7♦", "3♣ 4♣ 5♣"):
        state.apply(f"meld {meld}")
    state.apply("discard 9♦")
    assert state.result is not None and state.result.winner == 0
    assert state.opening_values[0] == 73
    assert state.result.scores == (0, 100)


# --------------------------------------------------------------------- T-10


def test_T10_winner_zero_opened_hand_value_unopened_hundred() -> None:
    state = drawn(
        position(
            "ffa",
            ["3♣", "JK A♠ K♦ 7♥", "2♥ 3♥", "2♣"],
            stock_top="8♥",
            opened=[True, True, False, True],
            table=[("5♥ 6♥ 7♥", 1)],
        )
    )
    state.apply("add 8♥ @0")
    state.apply("discard 3♣")
    result = state.result
    assert result is not None and result.winner == 0
    assert result.scores == (0, 77, 100, 2)  # JK 50 + A 10 + K 10 + 7; unopened 100
    assert result.details["hands"][1] == ["A♠", "7♥", "K♦", "JK"]
    assert result.details["reason"] == "out"
    view = state.view(None)["result"]
    assert view["scores"] == [0, 77, 100, 2] and view["winner"] == 0


# --------------------------------------------------------------------- T-11


def test_T11_empty_stock_is_remade_from_the_discard_pile() -> None:
    pile = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠"
    state = position("1v1", ["9♦ K♣", "2♥"], stock=[], discard=pile, phase="play")
    before = len(state.discard_pile)
    state.apply("discard K♣")
    assert state.to_move == 1 and state.phase == "draw"
    assert state.discard_pile == tuple(parse_cards("K♣"))
    assert state.stock_size == before  # everything but the top
    assert state.events[-1].get("news") == "restock"
    state.apply("draw")
    state.check_invariants()


def test_T11_no_card_to_shuffle_ends_the_deal_without_winner() -> None:
    cards = [str(c) for c in shoe(2, 4)]
    hands = [" ".join(cards[:54]), " ".join(cards[54:])]
    state = position("1v1", hands, stock=[], phase="play", opened=[False, True])
    state.apply(f"discard {cards[0]}")
    assert state.is_over and state.end_reason == "stock"
    result = state.result
    assert result is not None and result.winner is None
    assert result.scores[0] == 100 and result.scores[1] > 0  # nobody scores 0


def test_T11_option_max_turns_caps_the_deal() -> None:
    state = new_deal({"preset": "1v1", "max_turns": 2}, 2, seed=9)
    state.apply(Action("discard", (state.hand(0)[0],)))
    state.apply("draw")
    state.apply(Action("discard", (state.hand(1)[0],)))
    assert state.is_over and state.end_reason == "max_turns"
    assert state.result is not None and state.result.winner is None
    assert state.result.scores == (100, 100)


def test_T11_default_cap_is_400_turns_and_0_means_none() -> None:

    assert rules_from("ffa").max_turns == 400
    assert rules_from({"preset": "2v2", "max_turns": 0}).max_turns == 0
    state = new_deal({"preset": "1v1", "max_turns": 0}, 2, seed=9)
    for _ in range(3):
        state.apply(Action("discard", (state.hand(state.to_move or 0)[0],)))
        state.apply("draw")
    assert not state.is_over  # 0: no cap
    capped = new_deal("1v1", 2, seed=9)
    capped._turn = 399
    capped.apply(Action("discard", (capped.hand(0)[0],)))
    assert capped.is_over and capped.end_reason == "max_turns"


# ------------------------------------------------------------ protocol details


def test_out_of_turn_and_bad_text_change_nothing() -> None:
    state = new_deal("ffa", 4, seed=2, dealer=0)
    raises(state, "discard 7♣", "it is seat 0's turn", seat=1)
    raises(state, "fly", "unknown action")
    raises(state, "fly away", "bad card .away.")
    raises(state, "discard 11♣", "bad card")
    raises(state, "add 7♣", "discard only")
    missing = next(c for c in parse_cards("A♠ 2♠ 3♠ 4♠ 5♠ 6♠") if c not in state.hand(0))
    raises(state, f"discard {missing}", "you do not hold")


def test_actions_given_as_text_or_action_and_canonical_meld_order() -> None:
    state = drawn(position("1v1", ["7♥ 5♥ 6♥ 2♠", "2♥"], stock_top="9♦", opened=[True, False]))
    state.apply("meld 7h 5h 6h")
    assert state.actions[-1] == "meld 5♥ 6♥ 7♥"
    state.apply(Action("discard", tuple(parse_cards("2♠"))))
    again = TunisianState.from_json(state.to_json())
    assert again.snapshot() == state.snapshot()


def test_view_hides_other_hands_and_stock_draws() -> None:
    state = new_deal("1v1", 2, seed=11, dealer=0)
    state.apply(Action("discard", (state.hand(0)[0],)))
    state.apply("draw")
    drawn_card = state.events[-1]["card"]
    mine = state.view(1)
    theirs = state.view(0)
    spectator = state.view(None)
    assert mine["history"][-1]["move"] == f"draw {drawn_card}"
    assert theirs["history"][-1]["move"] == "draw"
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert theirs["legal_actions"] == [] and mine["legal_actions"]
    assert "seed" not in str(mine.keys())
    assert mine["hand"] == [str(c) for c in state.hand(1)]


def test_state_follows_the_engine_protocol() -> None:
    from rami.engine import GameState

    state = new_deal("2v2", 4, seed=1)
    assert isinstance(state, GameState)
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert state.turn == 0 and twin.turn == 1


def test_position_resumes_a_staged_opening_after_a_take() -> None:
    strict = {"preset": "1v1", "taken_card_in_opening": True}
    hand = "10♥ J♥ Q♥ K♥ 3♣ 4♣ 5♣ 6♣ 9♦"
    state = position(
        strict, [hand, "2♥"], table=[("7♠ 7♥ 7♦", 0)], phase="play", staged=[0], took="K♥"
    )
    assert state.staged_value == 21 and state.must_open
    raises(state, "meld 10♥ J♥ Q♥", "K♥")
    state.apply("meld 10♥ J♥ Q♥ K♥")
    state.apply("meld 3♣ 4♣ 5♣ 6♣")
    state.apply("discard 9♦")
    assert state.opening_values[0] == 79
    again = TunisianState.from_json(state.to_json())
    assert again.snapshot() == state.snapshot()
