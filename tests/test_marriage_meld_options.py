"""The fast legal-action generation (issue 12) lists exactly what the plain one lists.

``MarriageState.legal_actions`` builds its show and meld steps in
``rami.marriage.meld_options`` (remembered table-meld facts, shared actions) and skips
finish searches whose answer is known (``game.py``). The straightforward generation is
kept here as the reference, written the way the engine first listed the steps (M-6,
M-10, M-8): every candidate meld checked on its own, every finish searched. Both must
give the same actions in the same order on thousands of random positions.
"""

from __future__ import annotations

import random
from itertools import compress

import pytest

from rami.cards import CARDS, Card
from rami.engine import Action
from rami.marriage import actions as act
from rami.marriage.game import DUBLEES_PATH, MELDS_PATH, MarriageState, new_deal
from rami.marriage.meld_options import pure_melds
from rami.marriage.melds import is_meld, is_pure_meld
from rami.marriage.phases import Phase
from rami.marriage.rules import rules_from
from rami.marriage.solver import dublee_count, finish_discards, show_meld_options

SHOW_MELDS = 3


def _packs(rest: list[int], melds: list[tuple[Card, ...]], k: int, start: int) -> bool:
    if k == 0:
        return True
    for i in range(start, len(melds)):
        meld = melds[i]
        ok = True
        for c in meld:
            rest[c] -= 1
            if rest[c] < 0:
                ok = False
        found = ok and _packs(rest, melds, k - 1, i)
        for c in meld:
            rest[c] += 1
        if found:
            return True
    return False


def _spare(state: MarriageState, s: int, rest: list[int], removed: int) -> int:
    n = state.sizes[s] - removed
    if state.taken is not None:
        n -= rest[state.taken]
    return n


def _show_options(state: MarriageState, s: int) -> list[Action]:
    rules = state.rules
    hand = state.hands[s]
    out: list[Action] = []
    if state.tiplu is None and not state.stock:
        return out
    path = state.path[s]
    if path != DUBLEES_PATH:
        need = SHOW_MELDS - len(state.melds[s]) - len(state.exposed[s])
        if need <= 0:
            if path is None:
                out.append(act.SEE)
        else:  # no show_ub shortcut: always searched
            options = show_meld_options(hand, rules)
            threes = [m for m in options if len(m) == 3]
            if _packs(hand[:], threes, need, 0):
                left = need - 1
                for meld in options:
                    rest = hand[:]
                    for c in meld:
                        rest[c] -= 1
                    if _spare(state, s, rest, len(meld)) < 3 * left + 1:
                        continue
                    if left and not _packs(rest, threes, left, 0):
                        continue
                    out.append(Action(act.SHOW, tuple(sorted(meld))))
    if path != MELDS_PATH and not state.exposed[s] and rules.dublees_allowed(state.num_players):
        need = state.show_dublees - len(state.dublees[s])
        if dublee_count(hand) >= need:
            left = need - 1
            for k in range(52):
                if hand[k] < 2:
                    continue
                rest = hand[:]
                rest[k] -= 2
                if _spare(state, s, rest, 2) < 2 * left + 1:
                    continue
                if dublee_count(rest) >= left:
                    out.append(Action(act.DUBLEE, (CARDS[k], CARDS[k])))
    return out


def _meld_options(state: MarriageState, s: int) -> list[Action]:
    rules = state.rules
    hand = state.hands[s]
    wilds = state.wilds
    out: list[Action] = []
    seen_melds: set[tuple[Card, ...]] = set()
    candidates: list[tuple[Card, ...]] = list(show_meld_options(hand, rules))
    wild_in_hand = [c for c in range(52) if hand[c] and c in wilds]
    if wild_in_hand:
        w = CARDS[wild_in_hand[0]]
        naturals = [c for c in range(52) if hand[c] and c not in wilds]
        for i, a in enumerate(naturals):
            for b in naturals[i + 1 :]:
                if a // 13 == b // 13:
                    near = b - a <= 2 or (a % 13 == 0 and b % 13 >= 11)
                else:
                    near = a % 13 == b % 13
                if near:
                    candidates.append((CARDS[a], CARDS[b], w))
        if sum(hand[c] for c in wild_in_hand) >= 3:
            three: list[Card] = []
            for c in wild_in_hand:
                three.extend([CARDS[c]] * min(hand[c], 3 - len(three)))
            candidates.append(tuple(three))
    for meld in candidates:
        key = tuple(sorted(meld))
        if key in seen_melds:
            continue
        seen_melds.add(key)
        rest = hand[:]
        ok = True
        for c in meld:
            rest[c] -= 1
            if rest[c] < 0:
                ok = False
        if not ok or _spare(state, s, rest, len(meld)) < 1:
            continue
        if rules.melds_at_least3 or is_meld(meld, rules, wilds):
            out.append(act.normalise(Action(act.MELD, meld)))
    table = state.melds[s]
    pure = [is_pure_meld(m, rules) for m in table]
    pure_total = sum(pure)
    taken = state.taken
    held = [c for c in range(52) if hand[c]]
    held_wild = [c for c in held if c in wilds]
    for i, m in enumerate(table):
        naturals = [c for c in m if c not in wilds]
        if naturals and all(c % 13 == naturals[0] % 13 for c in naturals):
            rank = naturals[0] % 13
            fits = [c for c in held if c % 13 == rank and c not in wilds]
            if all(c // 13 == naturals[0] // 13 for c in naturals):
                fits = [c for c in held if c // 13 == naturals[0] // 13 or c % 13 == rank]
        elif naturals and all(c // 13 == naturals[0] // 13 for c in naturals):
            fits = [c for c in held if c // 13 == naturals[0] // 13 and c not in wilds]
        else:
            fits = held
        extra = fits if fits is held else sorted({*fits, *held_wild})
        for k in extra:
            spare = state.sizes[s] - 1
            if taken is not None:
                spare -= hand[taken] - (k == taken)
            if spare < 1:
                continue
            new = tuple(sorted((*m, CARDS[k])))
            if not is_meld(new, rules, wilds):
                continue
            if pure[i] and pure_total - 1 < SHOW_MELDS and not is_pure_meld(new, rules):
                continue
            out.append(Action(act.ADD, (CARDS[k],), i))
    return out


def _finish_discards(state: MarriageState, s: int) -> list[Card]:
    path = state.path[s] or MELDS_PATH
    if state.rules.table_melding:
        # from the turn's start: the cards laid this turn may be taken back (M-10)
        hand = state.hands[s][:]
        for c in state.laid:
            hand[c] += 1
        table = state.melds[s] if state.base is None else state.base
        return finish_discards(hand, state.rules, state.wilds, len(table), path, table)
    return finish_discards(state.hands[s], state.rules, state.wilds, state.shown_count(s), path)


def plain_legal(state: MarriageState) -> list[Action]:
    """The legal actions of the play phase, generated the straightforward way."""
    assert state.phase == Phase.PLAY
    s = state.current
    hand = state.hands[s]
    taken = state.taken
    if state.must_finish:
        return [act.finish_action(c) for c in _finish_discards(state, s) if c != taken]
    out: list[Action] = []
    if not state.seen[s]:
        out.extend(_show_options(state, s))
        if state.showing(s):
            return out
    else:
        out.extend(act.finish_action(c) for c in _finish_discards(state, s) if c != taken)
        if state.rules.table_melding:
            out.extend(_meld_options(state, s))
            if state.laid:
                out.append(act.TAKEBACK)  # M-10: this turn's cards may be picked up
    out += [act.discard_action(c) for c in compress(range(52), hand)]
    if taken is not None and hand[taken]:
        out.remove(act.discard_action(taken))
    return out


def _positions(preset: str, deals: int, seed: int) -> int:
    """Play ``deals`` random deals; compare every play-phase position; return the count."""
    rng = random.Random(seed)
    compared = 0
    for d in range(deals):
        state = new_deal({"preset": preset, "max_turns": 300}, 4, seed * 1000 + d, d % 4)
        while not state.is_over:
            legal = state.legal_actions()
            if state.phase == Phase.PLAY:
                assert legal == plain_legal(state), (state.to_json(), legal)
                compared += 1
            state.apply(rng.choice(legal))
    return compared


@pytest.mark.parametrize("seed", [1, 2])
def test_M6_M8_M10_indian_steps_are_the_plain_ones(seed: int) -> None:
    """M-6, M-8, M-10: thousands of random indian positions, the same list in order."""
    assert _positions("indian", 25, seed) >= 2000


def test_M6_M8_nepali_steps_are_the_plain_ones() -> None:
    """M-6, M-8 (nepali show steps and finishes): the same lists."""
    assert _positions("nepali", 10, 3) >= 1000


def test_pure_melds_are_the_solvers_show_melds() -> None:
    """``pure_melds`` builds the indian show melds itself: the solver's list, in order."""
    rng = random.Random(7)
    for preset in ("indian", "nepali"):
        rules = rules_from(preset)
        for _ in range(3000):
            hand = [0] * 53
            for _ in range(rng.randrange(3, 30)):
                hand[rng.randrange(52)] += 1
            want = [tuple(sorted(m)) for m in show_meld_options(hand, rules)]
            assert pure_melds(hand, rules) == want
