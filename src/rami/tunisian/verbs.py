"""The verbs of a Tunisian rami turn, each one rule object (``rami.kernel.Verb``).

``draw`` or ``take`` (T-2, T-3, T-8); any number of ``meld`` (T-4, T-6, T-8, T-9), ``add``
and ``swap`` (T-6, T-7, T-9); ``discard`` ends the turn and commits a staged opening (T-2,
T-3, T-6, T-8, T-9). Each verb lists what it allows now (``options``, fed by the opening
search of ``rami.tunisian.opening_search`` where speed matters), judges a move it did not
list (``judge``: the reason a person reads, with its rule id and key) and plays a legal
one (``play``). The conditions several verbs share (may the discard be taken, which card
may not be discarded, may the turn end, can the opening still be completed) are stated
once below and read by both the listing and the judgement.

The verbs change the deal's table state (``rami.tunisian.game.TunisianState``'s fields):
they are the game's rules, part of its engine, as the deal's own methods were.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING, cast

from rami.cards import CARDS, JOKER, Card, counts
from rami.engine import Action
from rami.errors import IllegalAction, Reason
from rami.kernel import Ruling, Verb
from rami.memo import GenerationMemo
from rami.tunisian.melds import Meld, add_to_meld, make_meld, position_card, swap_joker
from rami.tunisian.opening_search import (
    UNIT,
    completable,
    fits_no_meld,
    hand_melds,
    holds,
    keeps_other,
    opening_through,
    packed,
    packed_size,
    reach_value,
    reaches,
    reaches_through,
)
from rami.tunisian.phases import Phase
from rami.tunisian.solver import may_hold_meld, opening_at_least_packed

if TYPE_CHECKING:
    from rami.tunisian.game import TunisianState

__all__ = ["BY_KIND", "VERBS", "banned_discard", "take_block"]

FIRST_DISCARD = Phase.FIRST_DISCARD
DRAW = Phase.DRAW
PLAY = Phase.PLAY

_JOKER_INDEX = int(JOKER)
_TEXT = tuple(str(c) for c in CARDS)  # card index -> its text
_CACHE_LIMIT = 20_000
DRAW_ACTION = Action("draw")
TAKE_ACTION = Action("take")
_DISCARDS = tuple(Action("discard", (c,)) for c in CARDS)
# {action: None} made once: ``dict.update`` from these reuses the stored hash, so listing
# them (on every step) does not hash the action again
_DRAW_ENTRY: dict[Action, object] = {DRAW_ACTION: None}
_TAKE_ENTRY: dict[Action, object] = {TAKE_ACTION: None}
# The log's texts of the actions that need no look-up (``str(action)`` builds a list and
# joins it on every step otherwise).
_DRAW_TEXT = str(DRAW_ACTION)
_TAKE_TEXT = str(TAKE_ACTION)
_DISCARD_TEXTS = tuple(str(a) for a in _DISCARDS)
# why the discard may not be taken (``take_block``; ``_take_problem`` words them)
PILE_EMPTY, NO_OTHER_DISCARD, FIRST_ROUND, NO_OPENING = range(4)

# Actions the legal lists build over and over, made once (a frozen dataclass's
# ``__init__`` costs more than a dictionary look-up): a meld's by its cards, an add's and
# a swap's by table index then card kind (rows grown as tables grow).
_meld_actions: dict[tuple[Card, ...], Action] = {}
_add_actions: list[tuple[Action, ...]] = []
_swap_actions: list[tuple[Action, ...]] = []
_action_texts: dict[Action, str] = {}

# What each table meld can take (T-7), by the meld: (card kind, the meld with it laid
# off) for every card that extends it, and (card kind, the meld with it in place of the
# joker) for every card that may replace its joker, in candidate order. Melds are frozen
# values and a table holds the same melds for many turns.
_lay_off_cache: dict[Meld, tuple[tuple[tuple[int, Meld], ...], tuple[tuple[int, Meld], ...]]] = {}

# Each is bounded through the solvers' memory budget (rami.memo: ``RAMI_MEMO_MB``).
_LAY_OFFS = GenerationMemo.over(
    _lay_off_cache, _CACHE_LIMIT, name="tunisian.game.lay_offs", shared=True
)
_MELD_ACTIONS = GenerationMemo.over(
    _meld_actions, _CACHE_LIMIT, name="tunisian.game.meld_actions", shared=True
)
_ACTION_TEXTS = GenerationMemo.over(
    _action_texts, _CACHE_LIMIT, name="tunisian.game.action_texts", shared=True
)

Offs = tuple[tuple[tuple[int, dict[Action, Meld]], ...], tuple[tuple[int, dict[Action, Meld]], ...]]
"""A table meld's adds and swaps as one-entry ``{action: meld after it}`` dicts by card."""


# ---------------------------------------------------------------- action tables


def _lay_off_candidates(meld: Meld) -> list[int]:
    """Card kinds that might extend ``meld`` (a superset; ``add_to_meld`` decides)."""
    found = [] if meld.has_joker else [_JOKER_INDEX]
    if meld.kind == "set":
        rank = meld.rank
        found.extend(suit * 13 + rank - 1 for suit in range(4))
        return found
    low, high = meld.span
    suit = meld.suit
    found.extend(int(position_card(p, suit)) for p in (low - 1, high + 1) if 1 <= p <= 14)
    return found


def _swap_candidates(meld: Meld) -> list[int]:
    """Card kinds that might replace the joker of ``meld`` (``swap_joker`` decides)."""
    if meld.kind == "set":
        rank = meld.rank
        return [suit * 13 + rank - 1 for suit in range(4)]
    return [] if meld.joker_as is None else [int(meld.joker_as)]


def lay_offs(
    meld: Meld,
) -> tuple[tuple[tuple[int, Meld], ...], tuple[tuple[int, Meld], ...]]:
    """``(adds, swaps)`` of ``meld`` (see ``_lay_off_cache``), memoised."""
    found = _lay_off_cache.get(meld)
    if found is None:
        adds = []
        for c in _lay_off_candidates(meld):
            new = add_to_meld(meld, CARDS[c])
            if new is not None:
                adds.append((c, new))
        swaps = []
        if meld.has_joker:
            for c in _swap_candidates(meld):
                new = swap_joker(meld, CARDS[c])
                if new is not None:
                    swaps.append((c, new))
        found = (tuple(adds), tuple(swaps))
        _LAY_OFFS.remember(meld, found)
    return found


def meld_action(cards: tuple[Card, ...]) -> Action:
    """``Action("meld", cards)``, made once per meld."""
    act = _meld_actions.get(cards)
    if act is None:
        act = _MELD_ACTIONS.remember(cards, Action("meld", cards))
    return act


def _index_actions(rows: list[tuple[Action, ...]], verb: str, index: int) -> tuple[Action, ...]:
    """``Action(verb, (card,), index)`` for every card kind, rows made as needed."""
    while len(rows) <= index:
        i = len(rows)
        rows.append(tuple(Action(verb, (c,), i) for c in CARDS))
    return rows[index]


def _text_of(act: Action) -> str:
    """``str(act)``, remembered per action."""
    text = _action_texts.get(act)
    if text is None:
        text = _ACTION_TEXTS.remember(act, str(act))
    return text


def _times(n: int) -> str:
    return f"{n}× " if n > 1 else ""


# ---------------------------------------------------------------- shared conditions


def banned_discard(deal: TunisianState, strict: bool = False) -> int | None:
    """The card kind the seat to move may not discard now, or None (T-3).

    Option ``rediscard_taken`` off: the card taken from the discard pile this turn,
    nor an identical copy, may not be discarded again. When the hand holds nothing
    else (only an unopened seat's opening can leave it so) it may, or the turn
    could not end; ``strict`` ignores that exception (to filter melds and adds).
    """
    taken = deal._taken
    if taken is None or deal.rules.rediscard_taken:
        return None
    seat = deal._to_move
    if not strict and deal._hands[seat][taken] >= deal._sizes[seat]:
        return None
    return int(taken)


def take_block(deal: TunisianState) -> int | None:
    """Why the seat to move may not take the discard, as a code (``_take_problem``
    words it), or None: the legal list asks on every draw step and needs no message."""
    if not deal._discard:
        return PILE_EMPTY
    seat = deal._to_move
    top = deal._discard[-1]
    if not deal.rules.rediscard_taken and deal._hands[seat][top] >= deal._sizes[seat]:
        return NO_OTHER_DISCARD
    if deal._opened[seat]:
        return None
    if deal.first_round:
        return FIRST_ROUND
    key = deal._keys[seat] + UNIT[top]
    threshold = deal.threshold
    need = top if deal.rules.taken_card_in_opening else None
    # A top card that fits no meld adds nothing to an opening: with the option it
    # cannot be in one, and otherwise the hand was already known to hold none.
    size = deal._sizes[seat] + 1
    if need is None and deal._below[seat] is not None:
        # the hand held no melds worth the threshold: an opening now holds the top card
        if fits_no_meld(key, top) or not reaches_through(key, size, top, threshold):
            return NO_OPENING
        return None
    dead = fits_no_meld(key, top) and need is not None
    if dead or not completable(key, size, 0, need, threshold):
        return NO_OPENING
    return None


def _take_problem(deal: TunisianState) -> str | None:
    """Why the seat to move may not take the discard now, or None (T-3, T-8)."""
    why = take_block(deal)
    if why is None:
        return None
    top = deal._discard[-1] if deal._discard else None
    if why == PILE_EMPTY:
        return Reason("the discard pile is empty", key="pile_empty")
    if why == NO_OTHER_DISCARD:
        return Reason(
            f"you may not take {top}: it may not be discarded again this turn and "
            "your hand holds nothing else to discard (T-3)",
            key="take_leaves_nothing",
        )
    if why == FIRST_ROUND:
        return Reason(
            "nobody may open during the first round, so you may not take "
            f"{top} before opening (T-3, T-8)",
            key="first_round_no_take",
        )
    with_it = " with it" if deal.rules.taken_card_in_opening else ""
    return Reason(
        f"you have not opened: you may take {top} only to open{with_it} this turn, "
        f"and your hand holds no opening of {deal.threshold} (T-8)",
        key="take_to_open",
    )


def _discard_problem(deal: TunisianState) -> str | None:
    """Why the seat to move may not end the turn now, or None (T-6, T-8)."""
    seat = deal._to_move
    if deal._opened[seat] or (deal._staged == 0 and deal._took is None):
        return None
    return _commit_problem(deal)


def _commit_problem(deal: TunisianState) -> str | None:
    """Why the staged opening may not be committed now, or None (T-6, T-8)."""
    threshold = deal.threshold
    if deal._staged < threshold:
        if deal._staged == 0:
            return Reason(
                f"you took {deal._took} before opening, so you must open this turn "
                f"with {threshold} or more (T-8)",
                key="must_open",
            )
        return Reason(
            f"this opening is worth {deal._staged}; it needs {threshold}: "
            "lay more melds first (T-6)",
            key="opening_short",
        )
    if deal._need is not None:
        return Reason(
            f"your opening must include the card you took ({deal._need}) (T-8)",
            key="opening_needs_taken",
        )
    return None


def _staging_ok(
    deal: TunisianState,
    rest: int,
    size: int,
    meld: Meld,
    staged: int,
    need: Card | None,
    threshold: int,
) -> bool:
    """Can an opening still be completed after staging ``meld``? (T-6, T-8).

    ``rest``: the packed hand without the meld's cards, ``size`` cards.
    """
    if need is not None and need in meld.cards:
        need = None
    through = deal._through
    if through is not None and through in meld.cards:
        through = None
    return completable(rest, size, staged + meld.value, need, threshold, through)


def _may_lay_off(deal: TunisianState) -> bool:
    """Opened, or an opening staged this turn that may be committed (T-6, T-7)."""
    if deal._opened[deal._to_move]:
        return True
    return deal._staged >= deal.threshold and deal._need is None


def _in_play(deal: TunisianState) -> None:
    """Raise unless the seat to move has drawn (T-3) and may do more than discard (T-2)."""
    if deal._phase == DRAW:
        raise IllegalAction(
            "draw first: 'draw' from the stock or 'take' the discard (T-3)", "T-3", "draw_first"
        )
    if deal._phase == FIRST_DISCARD:
        raise IllegalAction(
            "the dealer's first turn is a discard only (T-2)", key="dealer_discards"
        )


def _keep_a_card(deal: TunisianState, cards: Sequence[int], banned: int | None) -> None:
    """T-3, T-9: laying ``cards`` must leave a card to discard other than the taken one."""
    seat = deal._to_move
    if not keeps_other(deal._hands[seat], deal._sizes[seat], cards, banned):
        raise IllegalAction(
            f"you must keep a card to discard other than {CARDS[banned or 0]}, "
            "the card you took this turn (T-3, T-9)",
            key="keep_a_card",
        )


# ---------------------------------------------------------------- the verbs


class _Draw(Verb["TunisianState"]):
    """``draw``: the top card of the stock starts the turn (T-2, T-3)."""

    __slots__ = ()
    name = "draw"
    help = "draw the top card of the stock"
    shorthand = "d"
    rules: tuple[str, ...] = ("T-2", "T-3")

    def options(self, deal: TunisianState, legal: dict[Action, object]) -> None:
        legal.update(_DRAW_ENTRY)

    def judge(self, deal: TunisianState, action: Action) -> Ruling:
        kind = action.kind
        if action.cards or action.target is not None:
            raise IllegalAction(f"'{kind}' takes no cards and no meld: write just '{kind}'")
        if deal._phase == FIRST_DISCARD:
            raise IllegalAction(
                "the dealer's first turn is a discard only, no draw (T-2)", key="dealer_discards"
            )
        if deal._phase == PLAY:
            raise IllegalAction("you have already drawn this turn", key="drawn_already")
        return action, None

    def play(self, deal: TunisianState, action: Action, detail: object) -> None:
        seat = deal._to_move
        c = deal._stock.pop()
        deal._hands[seat][c] += 1
        deal._keys[seat] += UNIT[c]
        deal._sizes[seat] += 1
        deal._phase = PLAY
        deal._drawn = c
        deal._through = c if deal._below[seat] is not None else None
        deal._taken = None
        deal._fact = None
        deal._log(_DRAW_TEXT, _TEXT[c])


class _Take(_Draw):
    """``take``: the top of the discard pile, if it may be taken (T-3, T-8)."""

    __slots__ = ()
    name = "take"
    help = "take the top card of the discard pile (before opening: only to open, T-8)"
    shorthand = "t"
    rules = ("T-3", "T-8")

    def options(self, deal: TunisianState, legal: dict[Action, object]) -> None:
        if take_block(deal) is None:
            legal.update(_TAKE_ENTRY)

    def judge(self, deal: TunisianState, action: Action) -> Ruling:
        super().judge(deal, action)
        problem = _take_problem(deal)
        if problem is not None:
            raise IllegalAction(problem)
        return action, None

    def play(self, deal: TunisianState, action: Action, detail: object) -> None:
        seat = deal._to_move
        c = deal._discard.pop()
        deal._hands[seat][c] += 1
        deal._keys[seat] += UNIT[c]
        deal._sizes[seat] += 1
        deal._phase = PLAY
        deal._drawn = None
        deal._through = c if deal._below[seat] is not None else None
        deal._taken = c
        deal._fact = None
        if not deal._opened[seat]:
            deal._took = c
            if deal.rules.taken_card_in_opening:
                deal._need = c
        deal._log(_TAKE_TEXT, _TEXT[c])


class _Meld(Verb["TunisianState"]):
    """``meld``: a new meld from the hand; before opening, one the opening can use
    (T-3, T-4, T-6, T-8, T-9)."""

    __slots__ = ()
    name = "meld"
    aliases = ("lay",)
    help = "lay one meld from your hand, e.g. 'meld 5♥ 6♥ 7♥'"
    shorthand = "lay"
    rules = ("T-3", "T-4", "T-6", "T-8", "T-9")

    def options(self, deal: TunisianState, legal: dict[Action, object]) -> None:
        if deal._turn >= deal._round:  # not in the first round (T-3)
            for meld in self.candidates(deal, deal._keys[deal._to_move]):
                legal.setdefault(meld_action(meld.cards), meld)

    def candidates(self, deal: TunisianState, key: int) -> list[Meld]:
        """The melds the seat to move may lay now (T-4, T-6, T-8, T-9), ``key`` its
        packed hand, in ``meld_options`` order."""
        seat = deal._to_move
        size = deal._sizes[seat]
        if size < 4:
            return []
        hand = deal._hands[seat]
        if deal._opened[seat]:
            if not may_hold_meld(key):
                return []
            banned = banned_discard(deal, strict=True)
            return [
                m
                for m, _, _ in hand_melds(key)
                if len(m.cards) < size and keeps_other(hand, size, m.cards, banned)
            ]
        threshold = deal.threshold
        staged = deal._staged
        need = deal._need
        fresh = staged == 0 and deal._took is None
        if fresh:
            deal._fact = None
        # Any completed opening is an opening of this hand: reject without listing melds.
        # Last turn this hand, less its discard, held no opening below ``_below``
        # (thresholds only rise), so one now holds the card drawn or taken (``_through``).
        through = deal._through
        found: tuple[Meld, ...] | None = None  # an opening found on the way (or None)
        if staged < threshold:
            short = threshold - staged
            if through is None:
                refused = not reaches(key, short)
            elif fits_no_meld(key, through):
                refused = True
            elif need is None:  # the listing below needs an opening: keep the one found
                found = opening_through(key, size, through, short)
                refused = found is None
            else:
                refused = not reaches_through(key, size, through, short)
            if refused:
                if fresh:
                    deal._fact = threshold
                return []
        options = [e for e in hand_melds(key) if len(e[0].cards) < size]
        if not options or (staged >= threshold and need is None):
            return [m for m, _, _ in options]
        if need is not None:
            return [
                m
                for m, d, _ in options
                if _staging_ok(deal, key - d, size - len(m.cards), m, staged, need, threshold)
            ]
        # A meld of an opening that completes it, or one beside it with a card to spare.
        if found is None:
            best = opening_at_least_packed(key, threshold - staged)
            assert best is not None
            found = best.melds
        # the solver and ``meld_options`` build melds with the same remembered
        # constructors, so a meld of ``found`` is the option itself (else: searched)
        in_best = {id(m) for m in found}
        left = key - packed([c for m in found for c in m.cards])  # beside ``found``
        spare = packed_size(left)
        out = []
        for m, d, _ in options:
            beside = id(m) in in_best or (len(m.cards) < spare and holds(left, d))
            if beside or _staging_ok(
                deal, key - d, size - len(m.cards), m, staged, need, threshold
            ):
                out.append(m)
        return out

    def judge(self, deal: TunisianState, action: Action) -> Ruling:
        _in_play(deal)
        seat = deal._to_move
        hand = deal._hands[seat]
        if action.target is not None:
            raise IllegalAction("a new meld takes no '@N': write e.g. 'meld 5♥ 6♥ 7♥'")
        if len(action.cards) < 3:
            raise IllegalAction("a meld needs at least three cards (T-4)", key="meld_min_three")
        wanted = counts(action.cards)
        for c in set(action.cards):
            if wanted[c] > hand[c]:
                raise IllegalAction(f"you do not hold {_times(wanted[c])}{c}", key="not_held")
        if deal.first_round:
            raise IllegalAction(
                "nobody may open or lay melds during the first round (T-3)",
                key="first_round_no_melds",
            )
        meld = make_meld(action.cards)
        if len(action.cards) >= deal._sizes[seat]:
            raise IllegalAction("you must keep a card to discard (T-9)", key="keep_a_card")
        if deal._opened[seat]:
            _keep_a_card(deal, action.cards, banned_discard(deal, strict=True))
        else:
            rest = deal._keys[seat] - packed(meld.cards)
            size = deal._sizes[seat] - len(meld.cards)
            threshold = deal.threshold
            if not _staging_ok(deal, rest, size, meld, deal._staged, deal._need, threshold):
                need = None if deal._need in meld.cards else deal._need
                reach = reach_value(rest, size, deal._staged + meld.value, need)
                if deal._need is not None:
                    raise IllegalAction(
                        f"no opening of {threshold} with {deal._need} (the card you "
                        f"took) is left if you lay {meld.text()} (T-6, T-8)",
                        key="opening_short",
                    )
                raise IllegalAction(
                    f"with {meld.text()} your opening can reach at most {reach}; "
                    f"it needs {threshold} (T-6)",
                    key="opening_short",
                )
        return Action("meld", meld.cards), meld

    def play(self, deal: TunisianState, action: Action, detail: object) -> None:
        meld = cast(Meld, detail)
        seat = deal._to_move
        hand = deal._hands[seat]
        for c in meld.cards:
            hand[c] -= 1
        deal._keys[seat] -= packed(meld.cards)
        deal._sizes[seat] -= len(meld.cards)
        index = len(deal._table)
        deal._table.append((meld, seat))
        deal._offs.append(None)
        deal._all_offs = None
        staged = not deal._opened[seat]
        if deal._through is not None and deal._through in meld.cards:
            deal._through = None
        if staged:
            deal._staged += meld.value
            deal._staged_melds.append(index)
            if deal._need is not None and deal._need in meld.cards:
                deal._need = None
        deal._log(_text_of(action), data={"meld": index, "value": meld.value, "staged": staged})


def _table_offs(deal: TunisianState) -> Offs:
    """Every table meld's adds, then every one's swaps, in listing order; worked out
    once per meld and index (the table changes less often than it is listed)."""
    every = deal._all_offs
    if every is None:
        offs = []
        for index, entry in enumerate(deal._offs):
            if entry is None:
                adds, swaps = lay_offs(deal._table[index][0])
                add_actions = _index_actions(_add_actions, "add", index)
                swap_actions = _index_actions(_swap_actions, "swap", index)
                # one-entry dicts: ``dict.update`` reuses their hashes on every listing
                entry = deal._offs[index] = (
                    tuple((c, {add_actions[c]: new}) for c, new in adds),
                    tuple((c, {swap_actions[c]: new}) for c, new in swaps),
                )
            offs.append(entry)
        every = deal._all_offs = (
            tuple(e for add_entries, _ in offs for e in add_entries),
            tuple(e for _, swap_entries in offs for e in swap_entries),
        )
    return every


def _lays_off(deal: TunisianState, seat: int) -> bool:
    """May the seat to move list lay-offs now (a table meld to lay off on given): past the
    first round (T-3), a card to keep (T-9), opened or its opening complete (T-6, T-7)?"""
    return (
        deal._turn >= deal._round
        and deal._sizes[seat] >= 2
        # nothing staged: not opened this turn (a staged opening is worth something)
        and (deal._opened[seat] or (deal._staged > 0 and _may_lay_off(deal)))
    )


class _Add(Verb["TunisianState"]):
    """``add``: a card laid off on a table meld, once opened (T-6, T-7, T-9)."""

    __slots__ = ()
    name = "add"
    aliases: tuple[str, ...] = ("lay",)
    help = "add a card to a table meld, e.g. 'add 8♥ @2'"
    shorthand = "lay"
    rules: tuple[str, ...] = ("T-6", "T-7", "T-9")

    def options(self, deal: TunisianState, legal: dict[Action, object]) -> None:
        if not deal._table:
            return
        known = deal._all_offs
        if known is not None and not known[0]:
            return  # no table meld takes a card
        seat = deal._to_move
        if not _lays_off(deal, seat):
            return
        hand = deal._hands[seat]
        banned = banned_discard(deal, strict=True)
        add_entries = _table_offs(deal)[0]
        if banned is None:
            for c, e in add_entries:
                if hand[c]:
                    legal.update(e)
        else:
            size = deal._sizes[seat]
            for c, e in add_entries:
                if hand[c] and keeps_other(hand, size, (c,), banned):
                    legal.update(e)

    def _target(self, deal: TunisianState, action: Action) -> tuple[int, int, Meld]:
        """The card, the index and the meld an ``add`` or ``swap`` names, once it may lay
        off (T-6, T-7)."""
        _in_play(deal)
        kind = action.kind
        if len(action.cards) != 1 or action.target is None:
            raise IllegalAction(f"{kind} names one card and a table meld, e.g. '{kind} 8♥ @2'")
        c = action.cards[0]
        index = action.target
        if not 0 <= index < len(deal._table):
            raise IllegalAction(f"there is no meld @{index} on the table", key="no_such_meld")
        if not deal._hands[deal._to_move][c]:
            raise IllegalAction(f"you do not hold {c}", key="not_held")
        verb = "add to melds on the table" if kind == "add" else "swap jokers"
        if not _may_lay_off(deal):
            problem = _commit_problem(deal) if deal._staged else None
            tail = f" ({problem})" if problem else ""
            raise IllegalAction(
                f"you have not opened: you may not {verb}{tail} (T-6)", key="not_opened"
            )
        return c, index, deal._table[index][0]

    def judge(self, deal: TunisianState, action: Action) -> Ruling:
        c, index, meld = self._target(deal, action)
        if deal._sizes[deal._to_move] < 2:
            raise IllegalAction("you must keep a card to discard (T-9)", key="keep_a_card")
        _keep_a_card(deal, (c,), banned_discard(deal, strict=True))
        if c == _JOKER_INDEX and meld.has_joker:
            raise IllegalAction("that meld already holds a joker (T-4, T-7)", key="meld_has_joker")
        new = add_to_meld(meld, c)
        if new is None:
            raise IllegalAction(
                f"{c} does not fit meld @{index} ({meld.text()}) (T-7)", key="does_not_fit"
            )
        return action, new

    def play(self, deal: TunisianState, action: Action, detail: object) -> None:
        deal._commit_opening()
        seat = deal._to_move
        c = action.cards[0]
        deal._hands[seat][c] -= 1
        deal._sizes[seat] -= 1
        deal._keys[seat] -= UNIT[c]
        self._replace(deal, action, cast(Meld, detail))

    @staticmethod
    def _replace(deal: TunisianState, action: Action, new: Meld) -> None:
        index = action.target
        assert index is not None
        owner = deal._table[index][1]
        deal._table[index] = (new, owner)
        deal._offs[index] = None
        deal._all_offs = None
        deal._log(_text_of(action), data={"meld": index})


class _Swap(_Add):
    """``swap``: a held card takes a table joker's place, the joker to the hand (T-7)."""

    __slots__ = ()
    name = "swap"
    aliases = ()
    help = "take a table meld's joker, putting the card it stands for in its place"
    shorthand = "swap"
    rules = ("T-6", "T-7")

    def options(self, deal: TunisianState, legal: dict[Action, object]) -> None:
        if not deal._table:
            return
        known = deal._all_offs
        if known is not None and not known[1]:
            return  # no table joker to take
        seat = deal._to_move
        if not _lays_off(deal, seat):
            return
        hand = deal._hands[seat]
        for c, e in _table_offs(deal)[1]:
            if hand[c]:
                legal.update(e)

    def judge(self, deal: TunisianState, action: Action) -> Ruling:
        c, index, meld = self._target(deal, action)
        if c == _JOKER_INDEX:
            raise IllegalAction(
                "swap names the real card that replaces the joker (T-7)", key="swap_real_card"
            )
        if not meld.has_joker:
            raise IllegalAction(f"meld @{index} ({meld.text()}) holds no joker", key="no_joker")
        new = swap_joker(meld, c)
        if new is None:
            stands = f" (the joker stands for {meld.joker_as})" if meld.joker_as else ""
            raise IllegalAction(
                f"{c} cannot replace the joker of meld @{index}{stands} (T-7)", key="swap_mismatch"
            )
        return action, new

    def play(self, deal: TunisianState, action: Action, detail: object) -> None:
        deal._commit_opening()
        seat = deal._to_move
        c = action.cards[0]
        hand = deal._hands[seat]
        hand[c] -= 1
        hand[_JOKER_INDEX] += 1
        deal._keys[seat] += UNIT[_JOKER_INDEX] - UNIT[c]
        self._replace(deal, action, cast(Meld, detail))


class _Discard(Verb["TunisianState"]):
    """``discard``: ends the turn and commits a staged opening; the last card goes out
    (T-2, T-3, T-6, T-8, T-9)."""

    __slots__ = ()
    name = "discard"
    help = "discard a card, ending your turn; discarding your last card goes out"
    shorthand = "x"
    rules = ("T-2", "T-3", "T-6", "T-8", "T-9")

    def options(self, deal: TunisianState, legal: dict[Action, object]) -> None:
        moves: list[Action] = []
        self.extend(deal, moves)
        legal.update(dict.fromkeys(moves))

    def extend(self, deal: TunisianState, moves: list[Action]) -> None:
        """``options`` as a plain list (the last verb of each phase's listing:
        ``rami.kernel.Deal._list_legal``)."""
        # the held kinds in kind order, picked in C (``compress``) rather than by a
        # Python test of each of the 53 counts
        hand = deal._hands[deal._to_move]
        if deal._phase == FIRST_DISCARD:
            moves += compress(_DISCARDS, hand)
        elif _discard_problem(deal) is None:
            banned = banned_discard(deal)
            if banned is not None and hand[banned]:
                hand = hand[:]  # the banned kind out
                hand[banned] = 0
            moves += compress(_DISCARDS, hand)

    def judge(self, deal: TunisianState, action: Action) -> Ruling:
        if deal._phase == DRAW:
            _in_play(deal)
        if len(action.cards) != 1 or action.target is not None:
            raise IllegalAction("discard names one card, e.g. 'discard 7♣'")
        c = action.cards[0]
        if not deal._hands[deal._to_move][c]:
            raise IllegalAction(f"you do not hold {c}", key="not_held")
        if deal._phase == PLAY:
            problem = _discard_problem(deal)
            if problem is not None:
                raise IllegalAction(problem)
            if c == banned_discard(deal):
                raise IllegalAction(
                    f"you took {c} from the discard pile this turn: you may not "
                    "discard it (nor an identical card) again this turn (T-3)",
                    "T-3",
                    "taken_discard",
                )
        return action, None

    def play(self, deal: TunisianState, action: Action, detail: object) -> None:
        seat = deal._to_move
        if deal._staged_melds:  # only an unopened seat stages (``_commit_opening``)
            deal._commit_opening()
        c = action.cards[0]
        deal._hands[seat][c] -= 1
        deal._keys[seat] -= UNIT[c]
        deal._sizes[seat] -= 1
        deal._discard.append(c)
        # What the hand is known not to hold carries to the next turn (a speed-up).
        deal._below[seat] = None if deal._opened[seat] else deal._fact
        deal._fact = None
        deal._drawn = None
        deal._through = None
        deal._log(_DISCARD_TEXTS[c])
        deal._turn += 1
        deal._staged = 0
        deal._staged_melds = []
        deal._took = None
        deal._taken = None
        deal._need = None
        if deal._sizes[seat] == 0:  # T-9: the farcha, thrown face down (see the view)
            thrown = deal._events[-1]
            thrown["news"] = "farcha"
            thrown["text"] = f"seat {seat} throws the farcha face down"
            deal._finish(seat, "out")
            return
        cap = deal.rules.max_turns
        if cap and deal._turn >= cap:
            deal._finish(None, "max_turns")  # T-11
            return
        deal._to_move = deal._after[seat]
        deal._phase = DRAW
        if not deal._stock:
            deal._begin_draw()


DRAW_VERB = _Draw()
TAKE_VERB = _Take()
MELD_VERB = _Meld()
ADD_VERB = _Add()
SWAP_VERB = _Swap()
DISCARD_VERB = _Discard()

#: every verb, in the order the legal list gives their moves
VERBS: tuple[Verb[TunisianState], ...] = (
    DRAW_VERB,
    TAKE_VERB,
    MELD_VERB,
    ADD_VERB,
    SWAP_VERB,
    DISCARD_VERB,
)
BY_KIND: dict[str, Verb[TunisianState]] = {v.name: v for v in VERBS}
#: the verbs that may list moves in each phase (``Deal._verbs_now``)
BY_PHASE: dict[str, tuple[Verb[TunisianState], ...]] = {
    FIRST_DISCARD: (DISCARD_VERB,),
    DRAW: (DRAW_VERB, TAKE_VERB),
    PLAY: (MELD_VERB, ADD_VERB, SWAP_VERB, DISCARD_VERB),
    Phase.OVER: (),
}
