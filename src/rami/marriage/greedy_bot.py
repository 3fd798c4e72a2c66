"""A fast Marriage player built on the exact solvers (M-3 … M-15), both presets.

Its measure of a hand is the *deficiency*: how many cards it still lacks.

- After seeing the tiplu: the cheapest cover of the natural cards by pure melds (free),
  near-melds (one card missing) and single cards (two missing), less the wild cards held
  (each fills one gap): the solver's own finishing test, so zero means "can finish".
- Before seeing: the cards missing for three pure melds to show (M-6), plus half of
  what the whole hand lacks (about two wild cards are expected once seen). With the
  dublee path open (``nepali``, M-9) a hand rich in identical pairs is measured as
  ``8 - pairs`` when that is shorter.

Moves: expose every tunnela at the deal (M-3); take the discard only when it lowers
the deficiency; show as soon as the engine offers it, choosing the show melds that
leave the best rest; see; finish whenever possible, keeping the most maal; discard the
card whose loss hurts least, never a wild card it knows (M-7), preferring cards already
dead on the pile. ``indian``: lays pure melds and extensions once seen (M-10), sheds
high cards first (M-15).

The policy reads an ``Observation`` built from a view (``observe``) or, inside the
search bot's simulations, from a sampled state (``observe_state``): the same facts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rami.bots.greedy import GreedyBot, discard_candidates, noisy_choice, pick_discard
from rami.bots.opponent_model import OpponentModel
from rami.cards import CARDS, Card
from rami.engine import Action
from rami.marriage.maal import maal
from rami.marriage.melds import is_pure_meld, wild_kinds
from rami.marriage.rules import MarriageRules
from rami.marriage.settle import card_points, settle_indian, settle_nepali
from rami.marriage.view import marriage_typed
from rami.memo import GenerationMemo
from rami.runs import ACE_HIGH_THREE, NEAR_ABOVE
from rami.views import GameView, TypedView, own_seat

if TYPE_CHECKING:
    from rami.marriage.game import MarriageState

__all__ = [
    "MarriageGreedy",
    "Observation",
    "candidates",
    "decide",
    "deficiency",
    "helps",
    "leaf_value",
    "observe",
    "observe_state",
    "outs",
    "own_decide",
    "own_discard_scores",
    "own_policy",
    "own_take",
    "policy",
    "tree_leaf_value",
    "tree_moves",
    "turns_ahead",
    "wilds_of_view",
]

_NO_WILDS: frozenset[int] = frozenset()
_DRAW = Action("draw")
_TAKE = Action("take")
_PASS = Action("pass")
_SEE = Action("see")
_PURE: GenerationMemo[tuple[tuple[int, ...], bool], int] = GenerationMemo(
    200_000, name="marriage_greedy.pure", shared=True
)
_COVER: GenerationMemo[tuple[tuple[int, ...], bool], int] = GenerationMemo(
    200_000, name="marriage_greedy.cover", shared=True
)
_PURE_MEMO = _PURE.table  # read directly: every discard score looks suits up
_COVER_MEMO = _COVER.table


@dataclass
class Observation:
    """What one seat knows that the policy uses."""

    rules: MarriageRules
    seat: int
    players: int
    phase: str
    hand: list[int]
    seen: bool
    path: str | None
    wilds: frozenset[int]
    tiplu: Card | None
    taken: int | None
    shown: int  # shown melds plus exposed tunnelas (meld path)
    dublees: int  # dublees shown
    pile: list[int]
    legal: list[Action]
    seen_by: list[bool]
    stock_size: int

    @property
    def next_seat(self) -> int:
        step = 1 if self.rules.clockwise else -1
        return (self.seat + step) % self.players


def observe(view: TypedView | GameView) -> Observation:
    """The observation of a Marriage view (the only input a bot gets): its typed values
    as they are, cards as ``Card`` and legal moves as ``Action``."""
    view = marriage_typed(view)
    seat = own_seat(view)
    seats = view.seats
    mine = seats[seat]
    tiplu = view.tiplu
    seen = bool(view.seen)
    hand = [0] * len(CARDS)
    for c in view.hand or ():
        hand[c] += 1
    return Observation(
        rules=view.rules,
        seat=seat,
        players=len(seats),
        phase=view.phase,
        hand=hand,
        seen=seen,
        path=mine.path,
        wilds=wild_kinds(tiplu) if seen and tiplu is not None else _NO_WILDS,
        tiplu=tiplu if seen else None,
        taken=None if view.taken is None else int(view.taken),
        shown=len(mine.melds) + len(mine.exposed_tunnelas),
        dublees=len(mine.dublees),
        pile=[int(c) for c in view.discard_pile],
        legal=list(view.legal),
        seen_by=[s.seen for s in seats],
        stock_size=view.stock_size,
    )


def observe_state(state: MarriageState, seat: int) -> Observation:
    """The same observation read straight from a state (simulations on sampled deals).

    Reads only what the view of ``seat`` shows: its own cards and public facts.
    """
    seen = state.seen[seat]
    return Observation(
        rules=state.rules,
        seat=seat,
        players=state.num_players,
        phase=state.phase,
        hand=state.hands[seat][:],
        seen=seen,
        path=state.path[seat],
        wilds=state.wilds if seen else _NO_WILDS,
        tiplu=state.tiplu if seen and state.tiplu_picked else None,
        taken=None if state.taken is None else int(state.taken),
        shown=len(state.melds[seat]) + len(state.exposed[seat]),
        dublees=len(state.dublees[seat]),
        pile=[int(c) for c in state.pile],
        legal=state.legal_actions() if state.to_move == seat else [],
        seen_by=state.seen[:],
        stock_size=len(state.stock),
    )


# --------------------------------------------------------------------------- evaluation


def pure_score(suit: tuple[int, ...], tun: bool) -> int:
    """10 per pure meld plus 1 per pure near-meld, the best split of one suit's counts."""
    key = (suit, tun)
    got = _PURE_MEMO.get(key)
    if got is not None:
        return got
    low = next((r for r, n in enumerate(suit) if n), -1)
    if low < 0:
        return 0
    rest = list(suit)

    def without(*ranks: int) -> int:
        for r in ranks:
            rest[r] -= 1
        ok = min(rest[r] for r in ranks) >= 0
        value = pure_score(tuple(rest), tun) if ok else -1
        for r in ranks:
            rest[r] += 1
        return value

    best = without(low)
    n = suit[low]
    if tun and n >= 3:
        best = max(best, 10 + without(low, low, low))
    if tun and n >= 2:
        best = max(best, 1 + without(low, low))
    if low <= 10 and suit[low + 1] and suit[low + 2]:
        best = max(best, 10 + without(low, low + 1, low + 2))
    if low == 0 and all(suit[p] for p in ACE_HIGH_THREE):
        best = max(best, 10 + without(*ACE_HIGH_THREE))
    for p in NEAR_ABOVE[low]:
        if suit[p]:
            best = max(best, 1 + without(low, p))
    return _PURE.remember(key, best)


def _suit_cover(suit: tuple[int, ...], tun: bool) -> int:
    """Cheapest cover of one suit's natural cards (M-4): a pure sequence or tunnela costs
    nothing, two cards a sequence could join cost one wild card, a lone card two."""
    key = (suit, tun)
    got = _COVER_MEMO.get(key)
    if got is not None:
        return got
    low = next((r for r, n in enumerate(suit) if n), -1)
    if low < 0:
        return 0
    rest = list(suit)

    def without(*ranks: int) -> int:
        for r in ranks:
            rest[r] -= 1
        ok = min(rest[r] for r in ranks) >= 0
        value = _suit_cover(tuple(rest), tun) if ok else 1 << 20
        for r in ranks:
            rest[r] += 1
        return value

    best = 2 + without(low)
    if tun and suit[low] >= 3:
        best = min(best, without(low, low, low))
    if low <= 10 and suit[low + 1] and suit[low + 2]:
        best = min(best, without(low, low + 1, low + 2))
    if low == 0 and all(suit[p] for p in ACE_HIGH_THREE):
        best = min(best, without(*ACE_HIGH_THREE))
    for p in NEAR_ABOVE[low]:
        if suit[p] and best > 1:
            best = min(best, 1 + without(low, p))
    return _COVER.remember(key, best)


Suits = list[tuple[int, ...]]


def split_suits(hand: Sequence[int], wilds: frozenset[int]) -> tuple[Suits, int]:
    """The natural cards by suit (13 counts each) and the number of wild cards."""
    suits = [list(hand[s * 13 : s * 13 + 13]) for s in range(4)]
    wild = 0
    for k in wilds:
        n = hand[k]
        if n:
            wild += n
            suits[k // 13][k % 13] -= n
    return [tuple(v) for v in suits], wild


def _change(suits: Suits, c: int, delta: int) -> Suits:
    """``suits`` with one card ``c`` more (``delta`` 1) or fewer (-1)."""
    s, r = divmod(c, 13)
    t = suits[s]
    out = list(suits)
    out[s] = (*t[:r], t[r] + delta, *t[r + 1 :])
    return out


def _cover(suits: Suits, tun: bool, trials: bool) -> int:
    """Wild cards needed to meld the natural cards: suits costed exactly
    (``_suit_cover``), then trials across suits (M-4) taken greedily, rank by rank,
    whenever one lowers the total (``trials``)."""
    costs = [_suit_cover(t, tun) for t in suits]
    total = sum(costs)
    if not trials:
        return total
    work = [list(t) for t in suits]
    for r in range(13):
        held = [s for s in range(4) if work[s][r]]
        if len(held) < 2:
            continue
        best_gain = 0
        best_take: tuple[int, ...] = ()
        options = [tuple(held[:3])] if len(held) >= 3 else []
        options += [(a, b) for i, a in enumerate(held) for b in held[i + 1 :]]
        for take in options:
            piece = 0 if len(take) == 3 else 1
            new = 0
            for s in take:
                work[s][r] -= 1
                new += _suit_cover(tuple(work[s]), tun) - costs[s]
                work[s][r] += 1
            gain = -(new + piece)
            if gain > best_gain:
                best_gain, best_take = gain, take
        if best_take:
            for s in best_take:
                work[s][r] -= 1
                costs[s] = _suit_cover(tuple(work[s]), tun)
            total -= best_gain
    return total


def cover_cost(hand: Sequence[int], wilds: frozenset[int], tun: bool) -> tuple[int, int]:
    """(wild cards needed to meld the natural cards, wild cards held): a fast estimate
    of the solver's finishing test (zero shortfall means the cards can finish)."""
    suits, wild = split_suits(hand, wilds)
    return _cover(suits, tun, True), wild


def _show_missing(suits: Suits, need: int, tun: bool) -> int:
    if need <= 0:
        return 0
    full = part = 0
    for t in suits:
        score = pure_score(t, tun)
        full += score // 10
        part += score % 10
    missing = 0
    for i in range(need):
        missing += 0 if i < full else 1 if i < full + part else 2
    return missing


def show_deficiency(hand: Sequence[int], need: int, tun: bool) -> int:
    """Cards missing for ``need`` pure melds (M-6), from the best split by suit."""
    return _show_missing(split_suits(hand, _NO_WILDS)[0], need, tun)


def _pairs(hand: Sequence[int]) -> int:
    return sum(n // 2 for n in hand[:52])


def _deficiency(obs: Observation, suits: Suits, wild: int, pairs: int) -> float:
    rules = obs.rules
    if obs.path == "dublees":
        return float(max(0, 8 - obs.dublees - pairs))
    tun = rules.tunnela_melds
    if obs.seen:
        return float(max(0, _cover(suits, tun, True) - wild))
    cost = _cover(suits, tun, False)
    d = _show_missing(suits, 3 - obs.shown, tun) + 0.5 * max(0, cost - 2)
    if obs.path is None and rules.dublees_allowed(obs.players):
        d = min(d, max(0, 8 - pairs) + 1.5)
    return d


def deficiency(obs: Observation, hand: Sequence[int]) -> float:
    """Cards ``hand`` still lacks to finish (see the module docstring)."""
    suits, wild = split_suits(hand, obs.wilds)
    return _deficiency(obs, suits, wild, _pairs(hand))


def _minus(obs: Observation, suits: Suits, wild: int, pairs: int, count: int, c: int) -> float:
    """The deficiency after giving up one ``c`` (held ``count`` times)."""
    if c in obs.wilds:
        return _deficiency(obs, suits, wild - 1, pairs - (count % 2 == 0))
    return _deficiency(obs, _change(suits, c, -1), wild, pairs - (count % 2 == 0))


def _dead(obs: Observation, c: int) -> float:
    """How little ``c`` is worth to others: copies already on the pile."""
    return 0.3 * obs.pile.count(c)


_REMOVAL: GenerationMemo[tuple[object, ...], dict[int, float]] = GenerationMemo(
    4096, name="marriage_greedy.removal"
)
_REMOVAL_MEMO = _REMOVAL.table


def _deficiency_key(obs: Observation) -> tuple[object, ...]:
    """What a hand's deficiency depends on: the memo key of ``removal_costs`` and
    ``helps``."""
    rules = obs.rules
    return (
        bytes(obs.hand),
        obs.wilds,
        obs.seen,
        obs.path,
        obs.shown,
        obs.dublees,
        rules.tunnela_melds,
        rules.dublees_allowed(obs.players),
    )


def removal_costs(obs: Observation) -> dict[int, float]:
    """The deficiency after giving up one card, for each card held (read-only: memoised).

    The search bots' paired rollouts and repeated root positions ask for the same hands
    again and again, so the answers are kept for everything they depend on.
    """
    key = _deficiency_key(obs)
    got = _REMOVAL_MEMO.get(key)
    if got is not None:
        return got
    return _REMOVAL.remember(key, _removal_costs_of(obs))


def _removal_costs_of(obs: Observation) -> dict[int, float]:
    """``removal_costs`` computed: only the suit of the card given up changes, so the
    other suits' figures are computed once (seen players, whose trials cross suits, are
    costed in full)."""
    hand = obs.hand
    suits, wild = split_suits(hand, obs.wilds)
    pairs = _pairs(hand)
    out: dict[int, float] = {}
    if obs.seen or obs.path == "dublees":
        for c in range(52):
            if hand[c]:
                out[c] = _minus(obs, suits, wild, pairs, hand[c], c)
        return out
    rules = obs.rules
    tun = rules.tunnela_melds
    need = 3 - obs.shown
    dublees = obs.path is None and rules.dublees_allowed(obs.players)
    covers = [_suit_cover(t, tun) for t in suits]
    pures = [pure_score(t, tun) for t in suits]
    cover_all = sum(covers)
    full_all = sum(p // 10 for p in pures)
    part_all = sum(p % 10 for p in pures)
    for c in range(52):
        if not hand[c]:
            continue
        s, r = divmod(c, 13)
        t = suits[s]
        t = (*t[:r], t[r] - 1, *t[r + 1 :])
        cover = cover_all - covers[s] + _suit_cover(t, tun)
        p = pure_score(t, tun)
        full = full_all - pures[s] // 10 + p // 10
        part = part_all - pures[s] % 10 + p % 10
        missing = 0
        for i in range(need):
            missing += 0 if i < full else 1 if i < full + part else 2
        d = missing + 0.5 * max(0, cover - 2)
        if dublees:
            d = min(d, max(0, 8 - pairs + (hand[c] % 2 == 0)) + 1.5)
        out[c] = d
    return out


def discard_scores(obs: Observation) -> dict[int, float]:
    """A cost per card that may be discarded: lower is a better discard."""
    indian = obs.rules.scoring == "indian"
    after = removal_costs(obs)
    out: dict[int, float] = {}
    for a in obs.legal:
        if a.kind != "discard":
            continue
        c = int(a.cards[0])
        cost = 10.0 * after[c]
        if c in obs.wilds:
            cost += 100.0  # a wild card it knows: maal and a joker (M-7, M-12)
        cost -= _dead(obs, c)
        if indian:
            cost -= 0.15 * card_points([c])
        out[c] = cost
    return out


def _same(c: int) -> int:
    return c


def _choose_discard(obs: Observation, rng: random.Random | None, noise: float) -> Action:
    return pick_discard(discard_scores(obs), rng, noise, _same)


def _draw_or_take(obs: Observation) -> Action:
    legal = obs.legal
    if _TAKE not in legal or not obs.pile:
        return _DRAW if _DRAW in legal else legal[0]
    if _DRAW not in legal:
        return _TAKE
    if obs.seen and obs.path == "dublees":
        return _TAKE  # offered only when it completes the eighth dublee (M-5)
    hand = obs.hand
    top = obs.pile[-1]
    # Take the card only if keeping it (and giving up the worst other card) is better
    # than the hand now; otherwise a blind draw keeps every chance open.
    now = deficiency(obs, hand)
    hand[top] += 1
    try:
        after = removal_costs(obs)
    finally:
        hand[top] -= 1
    best = min((v for c, v in after.items() if c != top), default=math.inf)
    return _TAKE if best < now - 0.01 else _DRAW


def finish_choice(obs: Observation, finishes: list[Action]) -> Action:
    """Finish keeping the most maal (M-12) when the tiplu is known."""
    if obs.tiplu is None or len(finishes) == 1:
        return finishes[0]
    best = finishes[0]
    best_value = -1.0
    for a in finishes:
        c = int(a.cards[0])
        cards = [k for k in range(52) for _ in range(obs.hand[k] - (k == c))]
        value = maal(cards, obs.tiplu, obs.rules)[0] - 0.01 * c
        if value > best_value:
            best, best_value = a, value
    return best


def _show(obs: Observation, shows: list[Action]) -> Action:
    """The show meld that leaves the best rest of the hand (M-6)."""
    tun = obs.rules.tunnela_melds
    hand = obs.hand
    need = 3 - obs.shown - 1

    def rest_cost(a: Action) -> tuple[float, str]:
        for c in a.cards:
            hand[c] -= 1
        cost = cover_cost(hand, _NO_WILDS, tun)[0] + 2 * show_deficiency(hand, need, tun)
        for c in a.cards:
            hand[c] += 1
        return (cost, str(a))

    return min(shows, key=rest_cost)


def decide(obs: Observation, rng: random.Random | None = None, noise: float = 0.0) -> Action:
    """The greedy move for ``obs`` (``noise`` > 0 blurs its choices of discard and draw)."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    if obs.phase == "expose":
        exposes = [a for a in legal if a.kind == "expose"]
        return exposes[0] if exposes else _PASS
    if obs.phase == "draw":
        blurred = noisy_choice(legal, rng, noise, noise / 20)
        return blurred if blurred is not None else _draw_or_take(obs)
    finishes = [a for a in legal if a.kind == "finish"]
    if finishes:
        return finish_choice(obs, finishes)
    if _SEE in legal:
        return _SEE
    shows = [a for a in legal if a.kind == "show"]
    if shows:
        return _show(obs, shows)
    dublees = [a for a in legal if a.kind == "dublee"]
    if dublees and (obs.path == "dublees" or _meld_deficiency(obs) >= 2):
        return min(dublees, key=str)
    if obs.seen and obs.rules.table_melding:
        step = _table_step(obs)
        if step is not None:
            return step
    discards = [a for a in legal if a.kind == "discard"]
    if discards:
        return _choose_discard(obs, rng, noise)
    return legal[0]


def _meld_deficiency(obs: Observation) -> float:
    tun = obs.rules.tunnela_melds
    cost, _ = cover_cost(obs.hand, _NO_WILDS, tun)
    return show_deficiency(obs.hand, 3 - obs.shown, tun) + 0.5 * max(0, cost - 2)


def _table_step(obs: Observation) -> Action | None:
    """``indian``: lay pure melds and extend one's own melds (M-10), sparing wild cards."""
    for a in sorted(obs.legal, key=str):
        if a.kind == "meld" and is_pure_meld(a.cards, obs.rules):
            return a
    for a in sorted(obs.legal, key=str):
        if a.kind == "add" and int(a.cards[0]) not in obs.wilds:
            return a
    return None


class MarriageGreedy(GreedyBot[Observation]):
    """``greedy`` (``medium``); with ``noise`` > 0 it is ``easy``."""

    def observe(self, view: TypedView) -> Observation:
        return observe(view)

    def decide(self, obs: Observation, rng: random.Random | None, noise: float) -> Action:
        return decide(obs, rng, noise)


# --------------------------------------------------------------------------- search hooks


def candidates(obs: Observation, k: int) -> list[Action]:
    """The moves worth comparing by search, the greedy move first (at most ``k``).

    Which card to discard; the rest follows the rules, the solvers and greedy's rules.
    """
    legal = obs.legal
    if len(legal) <= 1:
        return list(legal)
    first = decide(obs)
    if first.kind != "discard":
        return [first]  # drawing follows greedy's rule: one round is too short to judge it
    scores = discard_scores(obs)
    return discard_candidates(first, scores, k, _same, lambda c: scores[c] < 100.0)


# ``hard``'s own play (``own_policy``): greedy, but among the discards within one card of
# deficiency (10 units) of the cheapest, each card's cost falls by ``OUTS_WEIGHT`` per
# *out* it leaves (``outs``). ``nepali``, greedy with it against greedy (issue 25; 200
# duplicate groups of 4 deals, deal seeds 70,000 …; ledger points a deal): weight 1
# +2.06 ± 1.25 (0.5: +2.00, 2: +2.04; only to break exact ties: +0.86 ± 1.18; window of
# two cards: +2.33 ± 1.29, 3 with it: +0.10 ± 1.45). ``indian``: see ``OWN_OUTS``.
OUTS_WEIGHT = 1.0
OUTS_WINDOW = 10.0
# (outs weight, window) per preset (``MarriageRules.scoring``); a preset not listed keeps
# greedy's move. ``indian`` (1,000 duplicate groups, deal seeds 100,000 …, own play
# against greedy): weight 1 +3.97 ± 3.85 (1,500 groups: 0.5 +3.57, paired -0.25 ± 1.27).
OWN_OUTS: dict[str, tuple[float, float]] = {
    "nepali": (OUTS_WEIGHT, OUTS_WINDOW),
    "indian": (1.0, OUTS_WINDOW),
}
# ``indian``'s own draw (``own_take``): take the discard when keeping it leaves the
# deficiency as it is and the hand more than ``1 + TAKE_MARGIN`` times the outs it has
# now (None: greedy's draw). ``indian``, on the same 1,000 groups: margin 0.6 with the
# outs +8.22 ± 3.89, paired +4.24 ± 1.46 over the outs alone.
TAKE_MARGIN_INDIAN: float | None = 0.6


_HELPS: GenerationMemo[tuple[object, ...], tuple[tuple[int, float], ...]] = GenerationMemo(
    8192, name="marriage_greedy.helps"
)
_HELPS_MEMO = _HELPS.table


def _near(hand: Sequence[int], k: int) -> bool:
    """Whether ``k`` could join a card held: one of its suit within two ranks (round the
    ace), one of its rank, or a copy (pairs, tunnelas, dublees). Others only add to the
    deficiency."""
    s, r = divmod(k, 13)
    if hand[k] or any(hand[t * 13 + r] for t in range(4)):
        return True
    base = s * 13
    return any(hand[base + (r + d) % 13] for d in (-2, -1, 1, 2))


def helps(obs: Observation) -> tuple[tuple[int, float], ...]:
    """The natural card kinds that would lower the deficiency of ``obs.hand`` if drawn,
    with how much (memoised on what the deficiency depends on). Known wild cards are
    left out: every hand wants them."""
    hand = obs.hand
    key = _deficiency_key(obs)
    got = _HELPS_MEMO.get(key)
    if got is not None:
        return got
    suits, wild = split_suits(hand, obs.wilds)
    pairs = _pairs(hand)
    base = _deficiency(obs, suits, wild, pairs)
    out: list[tuple[int, float]] = []
    if base > 0.0:
        unseen = not obs.seen and obs.path != "dublees"
        after = _unseen_more(obs, suits, pairs) if unseen else None
        for k in range(52):
            if k in obs.wilds or not _near(hand, k):
                continue
            if after is not None:
                more = after(k, hand[k] % 2 == 1)
            else:
                more = _deficiency(obs, _change(suits, k, 1), wild, pairs + (hand[k] % 2 == 1))
            if more < base - 0.01:
                out.append((k, base - more))
    return _HELPS.remember(key, tuple(out))


def _unseen_more(obs: Observation, suits: Suits, pairs: int) -> Callable[[int, bool], float]:
    """For an unseen hand not on the dublee path: the deficiency with one card ``k``
    more (``pair``: it makes a pair), costing only ``k``'s suit again (``_deficiency``
    before seeing, suit by suit: ``_removal_costs_of``'s decomposition)."""
    rules = obs.rules
    tun = rules.tunnela_melds
    need = 3 - obs.shown
    dublees = obs.path is None and rules.dublees_allowed(obs.players)
    covers = [_suit_cover(t, tun) for t in suits]
    pures = [pure_score(t, tun) for t in suits]
    cover_all = sum(covers)
    full_all = sum(p // 10 for p in pures)
    part_all = sum(p % 10 for p in pures)

    def more(k: int, pair: bool) -> float:
        s, r = divmod(k, 13)
        t = suits[s]
        t = (*t[:r], t[r] + 1, *t[r + 1 :])
        cover = cover_all - covers[s] + _suit_cover(t, tun)
        p = pure_score(t, tun)
        full = full_all - pures[s] // 10 + p // 10
        part = part_all - pures[s] % 10 + p % 10
        missing = 0
        for i in range(need):
            missing += 0 if i < full else 1 if i < full + part else 2
        d = missing + 0.5 * max(0, cover - 2)
        if dublees:
            d = min(d, max(0, 8 - pairs - pair) + 1.5)
        return d

    return more


def outs(obs: Observation, c: int) -> float:
    """The draws that would help the hand once ``c`` is given up: for each natural card
    kind that lowers its deficiency (``helps``), the copies the seat cannot see (three
    decks, M-1, less those in its hand and on the pile) times the deficiency taken off."""
    hand = obs.hand
    decks = obs.rules.decks
    hand[c] -= 1
    try:
        total = 0.0
        pile = obs.pile
        for k, drop in helps(obs):
            live = decks - hand[k] - pile.count(k)
            if live > 0:
                total += live * drop
        return total
    finally:
        hand[c] += 1


def own_discard_scores(obs: Observation) -> dict[int, float]:
    """``discard_scores`` less the preset's outs weight times ``outs`` for the discards
    within its window of the cheapest (``hard``'s own play, ``OWN_OUTS``)."""
    scores = discard_scores(obs)
    tuned = OWN_OUTS.get(obs.rules.scoring)
    if not scores or tuned is None:
        return scores
    weight, window = tuned
    low = min(scores.values())
    out = dict(scores)
    for c, v in scores.items():
        if v < low + window and v < 100.0:
            out[c] = v - weight * outs(obs, c)
    return out


def own_take(obs: Observation) -> bool:
    """Whether ``hard``'s own play takes the discard where greedy draws (``indian``):
    when the hand with it, less its cheapest other card, lacks no more than the hand now
    and keeps more than ``1 + TAKE_MARGIN_INDIAN`` times its outs (``outs``: the live
    copies of the natural cards that would lower the deficiency, times by how much).
    Never a wild card it knows (M-7), never when the hand can already finish."""
    margin = TAKE_MARGIN_INDIAN
    if margin is None or obs.rules.scoring != "indian" or _TAKE not in obs.legal:
        return False
    if not obs.pile:
        return False
    hand = obs.hand
    top = obs.pile[-1]
    if top in obs.wilds:
        return False
    now = deficiency(obs, hand)
    if now <= 0.0:
        return False
    decks = obs.rules.decks
    pile = obs.pile
    outs_now = 0.0
    for k, drop in helps(obs):
        live = decks - hand[k] - pile.count(k)
        if live > 0:
            outs_now += live * drop
    hand[top] += 1
    try:
        after = removal_costs(obs)
        best = min((v for c, v in after.items() if c != top), default=math.inf)
        if best > now + 0.01:
            return False
        kept = max(
            (
                outs(obs, c)
                for c, v in after.items()
                if c != top and v <= best + 0.01 and c not in obs.wilds
            ),
            default=0.0,
        )
    finally:
        hand[top] -= 1
    return kept > outs_now * (1.0 + margin)


def own_decide(obs: Observation) -> Action:
    """``hard``'s own move: greedy's, but a discard chosen by ``own_discard_scores`` and
    (``indian``) the discard taken where ``own_take`` says so."""
    first = decide(obs)
    if first.kind == "discard":
        if obs.rules.scoring not in OWN_OUTS:
            return first
        return pick_discard(own_discard_scores(obs), None, 0.0, _same)
    if first == _DRAW and obs.phase == "draw" and own_take(obs):
        return _TAKE
    return first


def own_policy(state: MarriageState) -> Action:
    """``hard``'s own move in its tree's default line and its rollouts (``own_decide``)."""
    seat = state.to_move
    assert seat is not None
    return own_decide(observe_state(state, seat))


DANGER = 4.0  # discard-score units (10 = one card of deficiency) per danger (IS-MCTS)


def tree_moves(obs: Observation, model: OpponentModel, width: int) -> list[Action]:
    """The bot's moves at one IS-MCTS node, the greedy order first (``rami.bots.ismcts``):
    draw or take, show or wait and which meld (M-6), then discards ranked by greedy's
    scores plus the danger of feeding the next player."""
    legal = obs.legal
    if len(legal) <= 1:
        return list(legal)
    first = own_decide(obs)
    if obs.phase == "expose" or first.kind in ("finish", "see"):
        return [first]
    if obs.phase == "draw":
        return [first] + [a for a in legal if a != first and a.kind in ("draw", "take")]
    out = [first]
    if first.kind == "show":
        shows = [a for a in legal if a.kind == "show" and a != first]
        if shows:
            out.append(_show(obs, shows))
    scores = own_discard_scores(obs)
    if scores:
        ranked = sorted(scores, key=lambda c: (scores[c] + DANGER * model.danger(c), c))
        discards = [Action("discard", (CARDS[c],)) for c in ranked if scores[c] < 100.0]
        if first.kind == "discard":
            out = discards[:1] or [first]
            if first not in out:
                out.append(first)
        for a in discards:
            if len(out) >= width:
                break
            if a not in out:
                out.append(a)
    else:
        for a in sorted(legal, key=str):
            if len(out) >= min(width, 3):
                break
            if a not in out and a.kind in ("dublee", "meld", "add"):
                out.append(a)
    return out


def wilds_of_view(view: TypedView) -> frozenset[int]:
    """The wild card kinds the seat of ``view`` knows (M-7: once it has seen the tiplu)."""
    view = marriage_typed(view)
    tiplu = view.tiplu
    if view.seen and tiplu is not None:
        return frozenset(int(k) for k in wild_kinds(tiplu))
    return frozenset()


def wild_knowers(view: TypedView) -> list[bool]:
    """Per seat, whether it knows the wild cards (M-7: it has seen the tiplu)."""
    return [s.seen for s in marriage_typed(view).seats]


def play_step(view: TypedView) -> int:
    """+1 if play goes clockwise (seat numbers up), -1 otherwise (M-2)."""
    return -1 if marriage_typed(view).rules.direction == "counterclockwise" else 1


def policy(state: MarriageState) -> Action:
    """The greedy move of the seat to move, from what that seat may know."""
    seat = state.to_move
    assert seat is not None
    return decide(observe_state(state, seat))


def turns_ahead(players: int) -> int:
    """How far a search simulation looks: one round of turns."""
    return players


def finish_distance(state: MarriageState, s: int) -> float:
    """A seat's deficiency read from the (sampled) state, as its own bot would see it."""
    seen = state.seen[s]
    obs = Observation(
        rules=state.rules,
        seat=s,
        players=state.num_players,
        phase=state.phase,
        hand=state.hands[s],
        seen=seen,
        path=state.path[s],
        wilds=state.wilds if seen else _NO_WILDS,
        tiplu=None,
        taken=None,
        shown=len(state.melds[s]) + len(state.exposed[s]),
        dublees=len(state.dublees[s]),
        pile=[],
        legal=[],
        seen_by=[],
        stock_size=0,
    )
    d = deficiency(obs, state.hands[s])
    return d + (0.0 if seen else 1.0)


def race_inputs(state: MarriageState, seat: int) -> tuple[list[int], list[float], list[float]]:
    """What a running deal's race is read from: each seat's maal points now (tiplu known
    in the sample, M-12), each seat's deficiency, and ``seat``'s net if each seat finished
    first (M-13 … M-15, with who has seen now). Shared by ``leaf_value`` and the learned
    value's features (``rami.marriage.value``)."""
    rules = state.rules
    n = state.num_players
    tiplu = state.tiplu if state.tiplu_picked else None
    points = [0] * n
    if tiplu is not None and any(state.seen):
        for s in range(n):
            if not state.seen[s] and not rules.unseen_maal_counts:
                continue
            bonus = state.seen[s] and state.path[s] == "melds" and bool(state.exposed[s])
            points[s] = maal(state.final_cards(s), tiplu, rules, tuple(state.exposed[s]), bonus)[0]
    dist = [finish_distance(state, s) for s in range(n)]
    seen = list(state.seen)
    nets: list[float] = []
    for f in range(n):
        if rules.scoring == "indian":
            in_hand = [
                0
                if s == f
                else card_points([c for c in range(52) for _ in range(state.hands[s][c])])
                for s in range(n)
            ]
            nets.append(settle_indian(points, seen, in_hand, f, rules)[seat])
        else:
            nets.append(settle_nepali(points, seen, f, state.path[f] == "dublees", rules)[seat])
    return points, dist, nets


def leaf_value(state: MarriageState, seat: int, scale: float = 1.0) -> float:
    """Expected ledger points of ``seat`` (M-12 … M-15) from a sampled position.

    Over: the exact nets. Otherwise each seat's chance to finish first falls with its
    deficiency, and the settlement for each possible finisher is computed with the
    maal the players hold now (tiplu known in the sample) and who has seen.
    """
    if state.result is not None:
        return float(state.result.scores[seat])
    _points, dist, nets = race_inputs(state, seat)
    low = min(dist)
    weights = [math.exp(-(d - low) / scale) for d in dist]
    total = sum(weights)
    value = 0.0
    for f, net in enumerate(nets):
        value += weights[f] / total * net
    return value


TREE_LEAF_SCALE = 3.0  # deficiency cards per e-fold of the chance to finish first (IS-MCTS)
TREE_LEAF_SCALE_INDIAN = 4.0  # the same, ``indian`` (longer deals)


def tree_leaf_value(state: MarriageState, seat: int) -> float:
    """``leaf_value`` with a flatter race for the IS-MCTS depth cut.

    Checked against outcomes: at positions of greedy self-play (nepali, 4 players, 150
    deals) the expected ledger with ``scale`` 3 predicts the deal's final nets with a
    mean squared error of 240 against 276 for ``scale`` 1 (correlation 0.67 against
    0.62); one card of deficiency is not an e-fold of the chance to finish first.
    ``indian`` (40 deals): 15,000 with ``scale`` 4 against 23,800 with 1.
    """
    indian = state.rules.scoring == "indian"
    return leaf_value(state, seat, TREE_LEAF_SCALE_INDIAN if indian else TREE_LEAF_SCALE)
