"""The show and table-meld steps that ``MarriageState.legal_actions`` lists (M-6, M-10).

This is the hot part of legal-action generation (issue 12: Indian self-play spent a
quarter of its time here), kept apart from ``game.py`` so that the optional mypyc build
compiles it. The lists are exactly the ones the engine always listed, in the same order
(tests/test_marriage_meld_options.py compares them with the plain generation kept in
the test). What makes it cheap:

- the pure melds of a hand are generated once per call from per-suit bit masks;
- ``Action`` objects are immutable, so each one is built once and shared;
- what a table meld accepts (which added card keeps it a meld, and keeps it pure) is
  remembered per meld and wild-card set in a dictionary the state keeps for its deal.
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
import itertools
from collections.abc import Sequence

from rami.cards import CARDS, Card
from rami.engine import Action
from rami.marriage.melds import (
    MAX_SEQUENCE,
    MAX_TRIAL,
    _pair_compatible,
    _trial_ok,
    is_meld,
    is_pure_meld,
    seq_span,
)
from rami.marriage.rules import MarriageRules
from rami.marriage.solver import show_meld_options
from rami.memo import GenerationMemo
from rami.runs import RUN_KINDS

__all__ = ["AddFacts", "listed", "meld_steps", "packs", "pure_melds", "show_steps"]

SHOW = "show"
MELD = "meld"
ADD = "add"
SHOW_MELDS = 3  # M-6: pure melds shown to see, and kept on the table (indian)

#: Per table meld (cards, wild kinds): [whether it is pure, per kind k: -1 not asked yet,
#: 0 k may not be added, 1 m + k is a meld, 2 m + k is a pure meld]. One dictionary per
#: deal (``MarriageState``): table melds live for the whole deal.
AddFacts = dict[tuple[tuple[Card, ...], frozenset[int]], tuple[bool, list[int]]]

_FACTS_BOUND = 4096
#: The shared ``Action`` of each show or meld step, by (verb, sorted kinds).
_ACTIONS: GenerationMemo[tuple[str, tuple[int, ...]], Action] = GenerationMemo(
    20_000, name="marriage.meld_actions"
)
_ADDS: list[list[Action]] = []


def _action(kind: str, cards: tuple[int, ...]) -> Action:
    """The shared ``Action(kind, cards)`` (``cards`` sorted: the canonical form)."""
    key = (kind, cards)
    got = _ACTIONS.table.get(key)
    if got is None:
        got = _ACTIONS.remember(key, Action(kind, tuple([CARDS[c] for c in cards])))
    return got


def _add_action(k: int, i: int) -> Action:
    while len(_ADDS) <= i:
        j = len(_ADDS)
        _ADDS.append([Action(ADD, (CARDS[c],), j) for c in range(52)])
    return _ADDS[i][k]


def listed(action: object, actions: list[Action]) -> bool:
    """Whether ``action`` is one of ``actions`` itself (identity, not equality): a move
    picked from the legal list is applied without checking it again."""
    return any(a is action for a in actions)


def pure_melds(hand: Sequence[int], rules: MarriageRules) -> list[tuple[int, ...]]:
    """``solver.show_meld_options`` as sorted kind tuples, in the same order.

    With melds of three or more and pure trials (the ``indian`` kinds) they are built
    here directly: every run of held positions (ace at both ends, 13 cards at most), then
    every three or four suits of a held rank; other rules ask the solver.
    """
    if not (rules.melds_at_least3 and rules.show_kinds == "sequence+trial"):
        return [tuple(sorted(m)) for m in show_meld_options(hand, rules)]
    h: list[int] = hand if isinstance(hand, list) else list(hand)  # fast indexing compiled
    out: list[tuple[int, ...]] = []
    for s in range(4):
        kinds = RUN_KINDS[s]
        base = s * 13
        for start in range(1, 13):
            if not h[kinds[start]]:
                continue
            end = start  # last held position of the run from ``start``
            while end < 14 and end - start < 12 and h[kinds[end + 1]]:
                end += 1
            if end - start < 2:
                continue
            for last in range(start + 2, end + 1):
                if last == 14:  # the ace high: it sorts first
                    out.append((base, *range(base + start - 1, base + 13)))
                else:
                    out.append(tuple(range(base + start - 1, base + last)))
    for r in range(13):
        if (h[r] > 0) + (h[13 + r] > 0) + (h[26 + r] > 0) + (h[39 + r] > 0) < 3:
            continue
        suits = [s for s in range(4) if h[s * 13 + r]]
        if len(suits) < 3:
            continue
        for size in (3, 4):
            for combo in itertools.combinations(suits, size):
                out.append(tuple([s * 13 + r for s in combo]))
    return out


def packs(rest: list[int], melds: list[tuple[int, ...]], k: int, start: int) -> bool:
    """Whether ``k`` disjoint melds of ``melds`` (from index ``start``) fit in ``rest``.

    Used on the show-meld list to keep a show completable (M-6); three-card melds
    suffice, since any longer pure meld holds a three-card one. ``rest`` is restored
    before returning.
    """
    if k == 0:
        return True
    for i in range(start, len(melds)):
        meld = melds[i]
        ok = True
        for c in meld:
            rest[c] -= 1
            if rest[c] < 0:
                ok = False
        found = ok and packs(rest, melds, k - 1, i)
        for c in meld:
            rest[c] += 1
        if found:
            return True
    return False


def show_steps(
    hand: Sequence[int], rules: MarriageRules, need: int, size: int, taken: int | None
) -> list[Action] | None:
    """The show steps (M-6) that keep a show of ``need`` more melds completable and
    leave a card to discard; ``None`` when the hand holds fewer than ``need`` disjoint
    show melds (the caller lowers its bound, ``MarriageState.show_ub``)."""
    options = pure_melds(hand, rules)
    threes: list[tuple[int, ...]] = [m for m in options if len(m) == 3]
    rest = list(hand)
    if not packs(rest, threes, need, 0):
        return None
    out: list[Action] = []
    left = need - 1
    spare_need = 3 * left + 1
    for meld in options:
        for c in meld:
            rest[c] -= 1
        spare = size - len(meld)
        if taken is not None:
            spare -= rest[taken]
        if spare >= spare_need and (not left or packs(rest, threes, left, 0)):
            out.append(_action(SHOW, meld))
        for c in meld:
            rest[c] += 1
    return out


def _near(a: int, b: int) -> bool:
    """Two natural cards (a < b) that one wild card makes a meld: same suit within two
    ranks or the ace with Q/K (ace high), or the same rank (a trial)."""
    if a // 13 == b // 13:
        return b - a <= 2 or (a % 13 == 0 and b % 13 >= 11)
    return a % 13 == b % 13


def meld_steps(
    hand: Sequence[int],
    rules: MarriageRules,
    wilds: frozenset[int],
    size: int,
    taken: int | None,
    table: Sequence[tuple[Card, ...]],
    facts: AddFacts,
) -> list[Action]:
    """Indian table melding (M-10): a short canonical list of melds and additions.

    ``apply`` accepts any valid meld; this list offers every pure meld the hand holds,
    each pair of natural cards completed by one wild card (the lowest held), three wild
    cards, and every single card that extends one of the seat's own table melds
    (``table``), keeping three pure melds on the table (M-6). Each step leaves a card
    other than the ``taken`` one to discard; ``size`` is the hand's card count.
    """
    out: list[Action] = []
    h: list[int] = hand if isinstance(hand, list) else list(hand)  # fast indexing compiled
    held = [c for c in range(52) if h[c]]
    wild_in_hand = [c for c in held if c in wilds]
    candidates = pure_melds(h, rules)
    if wild_in_hand:
        w = wild_in_hand[0]
        naturals = [c for c in held if c not in wilds]
        for i, a in enumerate(naturals):
            for j in range(i + 1, len(naturals)):
                b = naturals[j]
                if _near(a, b):
                    candidates.append((a, b, w) if w > b else (a, w, b) if w > a else (w, a, b))
        wild_total = 0
        for c in wild_in_hand:
            wild_total += h[c]
        if wild_total >= 3:
            three: list[int] = []
            for c in wild_in_hand:
                three.extend([c] * min(h[c], 3 - len(three)))
            candidates.append(tuple(three))
    at_least3 = rules.melds_at_least3
    in_hand_taken = h[taken] if taken is not None else 0
    seen: set[tuple[int, ...]] = set()
    for meld in candidates:
        if meld in seen:
            continue
        seen.add(meld)
        spare = size - len(meld)
        if taken is not None:
            spare -= in_hand_taken - meld.count(taken)
        if spare < 1:
            continue
        # with melds of three or more every candidate is a meld: pure melds, two
        # neighbours or a trial pair with a wild card, three wild cards
        if at_least3 or is_meld([CARDS[c] for c in meld], rules, wilds):
            out.append(_action(MELD, meld))
    if not table:
        return out
    entries: list[tuple[bool, list[int]]] = []
    pure_total = 0
    for m in table:
        key = (m, wilds)
        entry = facts.get(key)
        if entry is None:
            if len(facts) >= _FACTS_BOUND:
                facts.clear()  # clones share it: a long search must not grow it for ever
            entry = (is_pure_meld(m, rules), [-1] * 52)
            facts[key] = entry
        entries.append(entry)
        if entry[0]:
            pure_total += 1
    keep_pure = pure_total - 1 < SHOW_MELDS
    for i in range(len(table)):
        m = table[i]
        pure, status = entries[i]
        need_pure = pure and keep_pure
        for k in held:
            spare = size - 1
            if taken is not None:
                spare -= in_hand_taken - (1 if k == taken else 0)
            if spare < 1:
                continue
            st = status[k]
            if st < 0:
                st = _add_status(m, k, rules, wilds)
                status[k] = st
            if st == 0 or (need_pure and st == 1):
                continue
            out.append(_add_action(k, i))
    return out


def _add_status(m: tuple[Card, ...], k: int, rules: MarriageRules, wilds: frozenset[int]) -> int:
    """0: ``k`` is not offered for table meld ``m`` or does not fit it; 1: ``m + k`` is a
    meld; 2: a pure meld. A card is offered to a trial if of its rank, to a sequence if
    of its suit (wild cards always), to a meld of wild cards only whatever it is.

    ``is_meld`` and ``is_pure_meld`` of ``m + k``, worked out once: the pure test is
    the first step of ``is_meld``, and neither depends on the order of the cards."""
    naturals = [c for c in m if c not in wilds]
    k_wild = k in wilds
    if naturals and not k_wild:
        rank = naturals[0] % 13
        suit = naturals[0] // 13
        same_rank = all(c % 13 == rank for c in naturals)
        same_suit = all(c // 13 == suit for c in naturals)
        if same_rank:  # a trial (or one natural card: its suit or its rank)
            offered = k % 13 == rank or (same_suit and k // 13 == suit)
        elif same_suit:
            offered = k // 13 == suit
        else:
            offered = True
        if not offered:
            return 0
    size = len(m) + 1
    if not (size >= 3 if rules.melds_at_least3 else size == 3):
        return 0
    cards = [int(c) for c in m]
    cards.append(k)
    if is_pure_meld(cards, rules):
        return 2
    if not k_wild:
        naturals.append(CARDS[k])
    wild_count = size - len(naturals)
    if wild_count == 0:
        return 0
    if not rules.melds_at_least3:
        return 1 if wild_count >= 2 or _pair_compatible(naturals[0], naturals[1]) else 0
    if size <= MAX_TRIAL and _trial_ok(naturals):
        return 1
    span = seq_span(naturals)
    return 1 if span is not None and span <= size <= MAX_SEQUENCE else 0
