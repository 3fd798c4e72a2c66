"""The engine's legal-action fast paths against the plain listing (T-3 … T-9).

``TunisianState.legal_actions`` answers the opening questions from packed hands, facts
carried from the seat's last turn, memo tables and shortcuts on the staged melds
(rami.tunisian.game). ``tunisian_legal_reference.reference_legal`` lists the same steps
from the rules with the plain solver calls only. On thousands of positions of random
deals (every mode, rule options that change what is legal, moves biased towards melds
so that openings, staged melds and lay-offs come often) both give the same actions in
the same order, and ``apply`` is handed the same melds.
"""

from __future__ import annotations

import random

import pytest
from tunisian_legal_reference import reference_legal

from rami.engine import Action
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.rules import rules_from

VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("1v1", {}),
    ("ffa", {}),
    ("2v2", {}),
    ("1v1", {"taken_card_in_opening": True}),
    ("1v1", {"rediscard_taken": True, "opening_threshold": 51}),
    ("ffa", {"taken_card_in_opening": True, "opening_threshold": 40, "opening_step": 5}),
    # low thresholds: openings, staged melds and lay-offs on most turns
    ("1v1", {"opening_threshold": 25, "opening_step": 10}),
    ("2v2", {"opening_threshold": 30, "taken_card_in_opening": True}),
]


def pick(rng: random.Random, legal: list[Action]) -> Action:
    """A random legal step, a meld, add or swap half the time when there is one."""
    laying = [a for a in legal if a.kind in ("meld", "add", "swap", "take")]
    if laying and rng.random() < 0.5:
        return rng.choice(laying)
    return rng.choice(legal)


def compare(state: TunisianState) -> None:
    state.check_invariants()  # the packed hands and the carried facts in step
    listed = state.legal_actions()
    payloads = state.legal_details()
    expected = reference_legal(state)
    assert [str(a) for a in listed] == [str(a) for a, _ in expected], state.snapshot()
    assert listed == [a for a, _ in expected]
    assert [payloads[a] for a in listed] == [v for _, v in expected]


@pytest.mark.parametrize(("variant", "mode", "options"), [(i, *v) for i, v in enumerate(VARIANTS)])
def test_T3_T9_fast_legal_lists_are_the_plain_ones(
    variant: int, mode: str, options: dict[str, object]
) -> None:
    rng = random.Random(variant)
    rules = rules_from({"preset": mode, "max_turns": 160, **options})
    positions = 0
    deal = 0
    while positions < 1500:
        state = new_deal(rules, rules.players, 1000 * variant + deal, deal % rules.players)
        deal += 1
        while not state.is_over:
            compare(state)
            positions += 1
            state.apply(pick(rng, state.legal_actions()))
    assert positions >= 1500


def test_T6_clones_and_replays_list_the_same_steps() -> None:
    """The carried facts travel with clones and are rebuilt by replay: same lists."""
    rng = random.Random(5)
    rules = rules_from({"preset": "1v1", "max_turns": 120})
    for seed in range(6):
        state = new_deal(rules, 2, 50 + seed)
        while not state.is_over:
            twin = state.clone()
            again = TunisianState.from_json(state.to_json())
            assert twin.legal_actions() == state.legal_actions() == again.legal_actions()
            compare(twin)
            state.apply(pick(rng, state.legal_actions()))


def explore(state: TunisianState, depth: int) -> int:
    """Compare here and after every meld, add and swap listed, ``depth`` steps deep."""
    compare(state)
    count = 1
    if depth == 0:
        return count
    for action in state.legal_actions():
        if action.kind in ("meld", "add", "swap"):
            child = state.clone()
            child.apply(action)
            count += explore(child, depth - 1)
    return count


@pytest.mark.parametrize(("mode", "options"), [VARIANTS[0], VARIANTS[3], VARIANTS[6]])
def test_T6_T8_every_staged_meld_lists_the_plain_steps(
    mode: str, options: dict[str, object]
) -> None:
    """Openings laid meld by meld (T-6), with the taken card due (T-8), then lay-offs (T-7)."""
    rng = random.Random(len(options))
    rules = rules_from({"preset": mode, "max_turns": 160, **options})
    explored = 0
    deal = 0
    while explored < 1500 and deal < 60:
        state = new_deal(rules, rules.players, 500 + deal, 0)
        deal += 1
        while not state.is_over:
            seat = state.to_move
            legal = state.legal_actions()
            if any(a.kind == "meld" for a in legal) and not state.opened[seat]:
                explored += explore(state, 3)
            state.apply(rng.choice(legal))
    assert explored >= 1500


def test_packed_hands_hold_exactly_the_cards_they_count() -> None:
    """``_holds`` on packed hands is the count-by-count comparison (jokers included)."""
    from rami.tunisian.opening_search import holds as _holds
    from rami.tunisian.opening_search import packed as _delta
    from rami.tunisian.opening_search import packed_size as _size

    rng = random.Random(3)
    for _ in range(20000):
        hand = [rng.choice((0, 0, 0, 1, 2, 3)) for _ in range(52)] + [rng.randint(0, 7)]
        cards = [min(n, rng.choice((0, 0, 1, 2, 3))) for n in hand]
        if rng.random() < 0.5:
            k = rng.randrange(53)
            cards[k] = hand[k] + 1 if hand[k] < (7 if k == 52 else 3) else hand[k]
        key = _delta([k for k in range(53) for _ in range(hand[k])])
        packed = _delta([k for k in range(53) for _ in range(cards[k])])
        assert _size(key) == sum(hand)
        assert _holds(key, packed) == all(c <= h for c, h in zip(cards, hand, strict=True))


def test_T6_an_opening_through_the_new_card_is_the_plain_answer() -> None:
    """A 15-card hand with no opening of ``need`` (a card kept), less a discard, plus a
    new card: ``_reaches_through`` (melds holding the new card only) answers as the plain
    solver does, for thresholds from the first opening's up."""
    from rami.cards import JOKER, counts, shoe
    from rami.tunisian.opening_search import packed as _delta
    from rami.tunisian.opening_search import reaches_through as _reaches_through
    from rami.tunisian.solver import opening_reaches

    rng = random.Random(17)
    deck = shoe(2, 4)
    narrow = [c for c in deck if c == JOKER or c % 13 < 6 or c % 13 > 9]
    checked = reached = 0
    while checked < 3000:
        pool = narrow if checked % 2 else deck
        cards = rng.sample(pool, 16)
        last_turn, new = cards[:15], cards[15]
        need = rng.choice((31, 51, 71, 71, 81))
        if opening_reaches(counts(last_turn), need):
            continue
        hand = last_turn[:]
        hand.remove(rng.choice(hand))  # the discard
        hand.append(new)
        key = _delta(hand)
        plain = opening_reaches(counts(hand), need)
        assert _reaches_through(key, len(hand), new, need) == plain, (hand, new, need)
        checked += 1
        reached += plain
    assert reached > 100  # the new card does open some of them


def _plain_in_no_meld(hand: list[int], c: int) -> bool:
    """The engine's former count-vector test, as it was written (the masks' oracle)."""
    from rami.runs import ACE_HIGH, ACE_LOW, RUN_KINDS, positions

    if c == 52:
        return False
    joker = hand[52] > 0
    suit, r = divmod(c, 13)
    others = sum(1 for s in range(4) if s != suit and hand[s * 13 + r])
    if others >= 2 or (others and joker):
        return False
    kinds = RUN_KINDS[suit]

    def held(p: int) -> bool:
        return ACE_LOW <= p <= ACE_HIGH and hand[kinds[p]] > 0

    for p in positions(r):
        a, b, d, e = held(p - 2), held(p - 1), held(p + 1), held(p + 2)
        if (a and b) or (b and d) or (d and e) or (joker and (a or b or d or e)):
            return False
    return True


def test_T4_card_fits_no_meld_masks_are_the_plain_test() -> None:
    from rami.cards import counts, shoe
    from rami.tunisian.opening_search import fits_no_meld as _fits_no_meld
    from rami.tunisian.opening_search import packed as _delta

    rng = random.Random(9)
    deck = shoe(2, 4)
    for _ in range(4000):
        cards = rng.sample(deck, rng.randrange(3, 18))
        hand = counts(cards)
        key = _delta(cards)
        for c in set(cards):
            assert _fits_no_meld(key, c) == _plain_in_no_meld(hand, c), (cards, c)
