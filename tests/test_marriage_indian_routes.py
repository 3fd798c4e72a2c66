"""Indian finishing through the engine (issue 28): a one-step ``finish`` is legal exactly
when a route of this turn's steps reaches it (M-8, M-10), and ``takeback`` picks up the
cards laid this turn (M-10, seed 003).

The positions of issue 28, each played through ``MarriageState``; then the finish check
held equal to an exhaustive search over step routes (tests/indian_route_reference.py) on
random positions, with and without melds on the table.
"""

from __future__ import annotations

import random

import pytest
from indian_route_reference import route_finishes
from marriage_support import table
from test_marriage_solver import indian_holding, random_pure

from rami.cards import CARDS, Card, counts, parse_cards
from rami.errors import IllegalAction
from rami.marriage.game import MarriageState
from rami.marriage.melds import wild_kinds
from rami.marriage.rules import INDIAN, NEPALI
from rami.marriage.solver_indian import finishing_discards, indian_discards_plain


def texts(state: MarriageState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def seen_after(tiplu: str, shows: list[str], hand: str, drawn: str) -> MarriageState:
    """Seat 0 (Indian) draws ``drawn`` and shows ``shows``: seen, the rest in hand."""
    cards = " ".join([*shows, hand])
    state = table(INDIAN, {0: cards}, tiplu=tiplu, stock=drawn)
    state.apply("draw")
    for m in shows:
        state.apply(f"show {m}")
    assert state.seen[0]
    return state


def finishes(state: MarriageState) -> list[str]:
    """The legal finishing discards, checked against every route from the turn's start
    (the cards laid this turn may be taken back: M-10)."""
    got = sorted(t.split(" ", 1)[1] for t in texts(state) if t.startswith("finish "))
    hand = [c for c in range(52) for _ in range(state.hands[0][c])] + list(state.laid)
    start = state.melds[0] if state.base is None else state.base
    want = route_finishes(hand, [list(m) for m in start], state.wilds)
    assert got == sorted(str(CARDS[c]) for c in want)
    return got


def test_M8_M10_a_wild_card_in_the_middle_of_a_run_finishes() -> None:
    """Tiplu 7♣: J♠ 7♦ K♠ is a meld (7♦ as Q♠), so ``finish Q♠`` is legal (issue 28)."""
    state = seen_after(
        "7♣",
        ["3♠ 4♠ 5♠", "9♥ 10♥ J♥", "2♦ 3♦ 4♦"],
        "5♥ 6♥ 7♥ 8♥ 9♦ 10♦ J♦ Q♦ K♦ J♠ Q♠ K♠",
        "7♦",
    )
    state.apply("meld 5♥ 6♥ 7♥ 8♥")
    state.apply("meld 9♦ 10♦ J♦ Q♦ K♦")
    assert {"7♦", "J♠", "K♠", "Q♠"} <= set(finishes(state))
    route = state.clone()
    route.apply("meld J♠ 7♦ K♠")
    route.apply("discard Q♠")
    assert route.is_over and route.finisher == 0
    state.apply("finish Q♠")
    assert state.is_over and state.finisher == 0
    state.check_invariants()


def test_M4_M10_a_finish_grows_a_pure_trial_of_wild_cards_into_a_run() -> None:
    """Tiplu 2♣: the shown trial 2♦ 2♥ 2♠ takes 7♠ 8♠ Q♠ (a run, its 2s as 9 10 J) while
    three pure melds remain, so ``finish K♦`` is legal (issue 28)."""
    state = seen_after(
        "2♣",
        ["3♠ 4♠ 5♠", "9♥ 10♥ J♥", "2♦ 2♥ 2♠"],
        "6♦ 7♦ 8♦ 9♦ 10♦ J♦ 9♣ 9♠ 9♥ 7♠ 8♠ Q♠",
        "K♦",
    )
    state.apply("meld 6♦ 7♦ 8♦ 9♦ 10♦ J♦")
    assert "K♦" in finishes(state)
    route = state.clone()
    for step in ("meld 9♣ 9♠ 9♥", "add 7♠ @2", "add 8♠ @2", "add Q♠ @2", "discard K♦"):
        route.apply(step)
    assert route.is_over and route.finisher == 0
    state.apply("finish K♦")
    assert state.is_over and state.finisher == 0
    state.check_invariants()


def test_M10_a_shown_pure_run_may_grow_impure_while_three_pure_melds_remain() -> None:
    """Tiplu 5♦: 9♥ … Q♥ takes 8♥, 5♠ (as K♥) and A♥; A♦ A♠ A♥ A♣, 7♦ 7♣ 7♠ and the new
    3♦ 3♣ 3♥ stay pure, so ``finish K♣`` is legal (issue 28)."""
    state = seen_after(
        "5♦",
        ["A♦ A♠ A♥ A♣", "7♦ 7♣ 7♠", "9♥ 10♥ J♥ Q♥"],
        "3♦ 3♣ 3♥ 8♥ A♥ 5♠ 10♠ J♠ Q♠ K♠",
        "K♣",
    )
    state.apply("meld 10♠ J♠ Q♠ K♠")
    assert "K♣" in finishes(state)
    route = state.clone()
    for step in ("meld 3♦ 3♣ 3♥", "add 8♥ @2", "add 5♠ @2", "add A♥ @2", "discard K♣"):
        route.apply(step)
    assert route.is_over and route.finisher == 0
    state.apply("finish K♣")
    assert state.is_over and state.finisher == 0
    state.check_invariants()


TAKEBACK_SHOWS = ["3♠ 4♠ 5♠ 6♠", "9♥ 10♥ J♥", "Q♦ Q♠ Q♣ Q♥"]
TAKEBACK_HAND = "8♦ 9♦ 10♦ 4♥ 5♥ 6♥ 7♥ 8♥ 7♦ 7♠"


def takeback_deal() -> MarriageState:
    """Tiplu 2♣; seat 0 draws K♣. The finish by K♣ needs 7♥ in 7♦ 7♥ 7♠, not in
    4♥ 5♥ 6♥ 7♥."""
    return table(INDIAN, {0: " ".join([*TAKEBACK_SHOWS, TAKEBACK_HAND])}, tiplu="2♣", stock="K♣")


def takeback_position() -> MarriageState:
    """``takeback_deal`` after the draw and the show."""
    return seen_after("2♣", TAKEBACK_SHOWS, TAKEBACK_HAND, "K♣")


def test_M10_takeback_picks_up_this_turns_cards_and_another_way_finishes() -> None:
    state = takeback_position()
    assert "takeback" not in texts(state)  # nothing laid yet (the show stays: M-6)
    with pytest.raises(IllegalAction, match="laid no cards"):
        state.apply("takeback")
    assert finishes(state) == ["K♣"]
    state.apply("meld 8♦ 9♦ 10♦")
    state.apply("meld 4♥ 5♥ 6♥ 7♥")
    state.apply("add 8♥ @4")
    # no step but the take-back leads to a finish now: 7♦ 7♠ lack their third card
    assert "takeback" in texts(state)
    assert finishes(state) == ["K♣"]  # a route through the take-back reaches it
    before = [list(m) for m in state.melds[0]]
    assert len(before) == 5
    state.apply("takeback")
    assert state.actions[-1] == "takeback"
    assert [list(m) for m in state.melds[0]] == before[:3]  # the shown melds stay
    assert state.sizes[0] == 11 and "takeback" not in texts(state)
    state.check_invariants()
    for step in ("meld 7♦ 7♥ 7♠", "meld 4♥ 5♥ 6♥", "add 8♥ @1", "meld 8♦ 9♦ 10♦"):
        state.apply(step)
    state.apply("discard K♣")
    assert state.is_over and state.finisher == 0
    state.check_invariants()


def test_M10_a_finish_after_a_wrong_meld_lays_the_turns_cards_its_own_way() -> None:
    state = takeback_position()
    state.apply("meld 4♥ 5♥ 6♥ 7♥")
    state.apply("finish K♣")
    assert state.is_over and state.finisher == 0
    result = state.result
    assert result is not None and result.details["finish"] is not None
    groups = [" ".join(g) for g in result.details["finish"]["groups"]]
    assert any(g.count("7") == 3 for g in groups)  # 7♦ 7♥ 7♠: the meld was picked up
    state.check_invariants()


def test_M10_takeback_is_replayed_and_refused_with_a_reason() -> None:
    state = takeback_position()
    state.apply("meld 4♥ 5♥ 6♥ 7♥")
    state.apply("takeback")
    again = MarriageState.from_json(state.to_json())
    assert again.melds == state.melds and again.hands == state.hands
    with pytest.raises(IllegalAction, match="takes no cards"):
        state.apply("takeback 7♥")
    reason = state.check("takeback")
    assert reason is not None and getattr(reason, "key", None) == "nothing_laid"
    state.apply("meld 4♥ 5♥ 6♥ 7♥")
    state.apply("discard K♣")  # the turn ends: its cards are laid for good
    assert state.base is None and not state.laid


def test_M10_takeback_is_indian_only() -> None:
    """Nepali melds stay in the hand until the finish and shows cannot be undone (M-6)."""
    state = table(NEPALI, {0: "3♠ 4♠ 5♠ 6♥ 7♥ 8♥ 9♦ 10♦ J♦"}, tiplu="K♣", stock="2♥")
    state.apply("draw")
    reason = state.check("takeback")
    assert reason is not None and "Indian" in reason


# ------------------------------------------------------------ the exhaustive reference


def shown_nothing(rng: random.Random) -> tuple[Card, list[int], list[list[int]]]:
    """A holding of 10–13 cards with nothing on the table, near a finish: three pure
    melds, a wild card and a card near one of them, one more card, a card or two changed
    at random (so that about half finish)."""
    while True:
        tiplu = CARDS[rng.randrange(52)]
        wl = sorted(wild_kinds(tiplu))
        cards = [c for _ in range(3) for c in random_pure(rng)][: rng.choice([9, 10, 11])]
        c = rng.choice(cards)
        cards += [rng.choice(wl), c // 13 * 13 + (c % 13 + rng.choice([-2, 1, 2])) % 13]
        cards.append(rng.randrange(52))
        for _ in range(rng.choice([0, 0, 1, 2])):
            cards[rng.randrange(len(cards))] = rng.randrange(52)
        v = counts(cards)
        if max(v) <= 3 and v[tiplu] <= 2:
            return tiplu, cards, []


def _check(seed: int, positions: int, size: int, with_table: bool) -> int:
    rng = random.Random(seed)
    found = 0
    for _ in range(positions):
        if with_table:
            tiplu, cards, melds = indian_holding(rng, size)
        else:
            tiplu, cards, melds = shown_nothing(rng)
        wilds = wild_kinds(tiplu)
        want = route_finishes(cards, melds, wilds)
        got = set(finishing_discards(counts(cards), INDIAN, wilds, melds))
        assert got == want, (str(tiplu), [str(CARDS[c]) for c in cards], melds)
        if with_table and size <= 6:
            plain = {int(c) for c in indian_discards_plain(counts(cards), INDIAN, wilds, melds)}
            assert plain == want
        found += bool(want)
    return found


@pytest.mark.parametrize(("size", "positions"), [(4, 600), (5, 600), (6, 600), (7, 400)])
def test_M8_M10_finish_check_equals_every_route_of_steps(size: int, positions: int) -> None:
    """With melds on the table (the seen player's shown and laid melds)."""
    found = _check(2800 + size, positions, size, True)
    assert found > positions // 6  # enough positions that do finish


def test_M8_M10_finish_check_equals_every_route_with_nothing_shown() -> None:
    """Nothing on the table: the routes show three pure melds first (M-6)."""
    found = _check(2899, 600, 0, False)
    assert found > 120


def test_the_issue_positions_by_the_reference() -> None:
    """The reference itself answers the issue's positions as the rules say."""
    for tiplu, melds, hand, want in (
        ("7♣", ["3♠ 4♠ 5♠", "9♥ 10♥ J♥", "2♦ 3♦ 4♦", "5♥ 6♥ 7♥ 8♥"], "J♠ Q♠ K♠ 7♦", "J♠ Q♠ K♠ 7♦"),
        ("2♣", ["3♠ 4♠ 5♠", "9♥ 10♥ J♥", "2♦ 2♥ 2♠"], "9♣ 9♠ 9♥ 7♠ 8♠ Q♠ K♦", "K♦"),
        ("5♦", ["A♦ A♠ A♥ A♣", "7♦ 7♣ 7♠", "9♥ 10♥ J♥ Q♥"], "3♦ 3♣ 3♥ 8♥ A♥ 5♠ K♣", "K♣"),
    ):
        got = route_finishes(
            [int(c) for c in parse_cards(hand)],
            [[int(c) for c in parse_cards(m)] for m in melds],
            wild_kinds(parse_cards(tiplu)[0]),
        )
        assert got == {int(c) for c in parse_cards(want)}


def test_M10_takeback_in_the_terminal_through_the_generic_verb_path() -> None:
    """``rami play``: the engine's own verb is typed as written and offered in the prompt."""
    from rami.play.commands import parse_command
    from rami.play.render import Frame, _verbs

    state = takeback_position()
    state.apply("meld 4♥ 5♥ 6♥ 7♥")
    view = state.view(0)
    command = parse_command("takeback", view)
    assert [str(a) for a in command.actions] == ["takeback"]
    frame = Frame(names=["You", "Bot 1", "Bot 2"], human=0, title=" test ")
    assert "takeback" in _verbs(view, frame).plain
    from rami.marriage.terminal import help_lines

    assert any(line.startswith("takeback") for line in help_lines(view))
    nepali = {**view, "rules": {**view["rules"], "table_melding": False}}
    assert not any(line.startswith("takeback") for line in help_lines(nepali))
