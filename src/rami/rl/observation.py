"""Observation tensors built from ``state.view(seat)`` only: the same encoder for every
wrapper (PettingZoo, Gymnasium, OpenSpiel, the learned bot).

An observation is a flat ``float32`` vector in [0, 1]: card *planes* (one row per fact,
one column per card kind of the game: 52, or 53 with the joker last),
row after row, followed by a few scalars. Seats are numbered relative to the observer
(block ``+0`` is the observer, ``+1`` the next seat in seat order, …), so one policy can
play every seat. Counts are divided by the copies the shoe holds. ``Encoder.rows`` and
``Encoder.scalars`` name the entries in order; ``docs/rl.md`` explains them.

The encoder reads only the view (never the state): a test re-deals the hidden cards and
checks that the tensor does not change. The public history is read incrementally: an
encoder remembers how far it has read one seat's history and reads only the new
entries (a view's history is append-only during a deal; ``reset()`` at a new deal, and
a history that is shorter, or differs where reading stopped, is read again from the
start).

The envs call ``Encoder.encode_state(state, seat)``: the same vector as
``encode(state.view(seat))`` (tests/test_rl_fast_observation.py), from the state's
fields and the seat's own hand, without building the view. It keeps each seat's
planes between calls (``Planes``): every part of the position (the hand, the pile,
each table meld or seat's melds …) is compared with what it was at the last call and
only a changed part's plane positions move; the history is read from the new
``state.events``. Another state or deal (a different or shorter events list) builds the
planes afresh, so a re-dealt copy of a position gets its own planes. A call hands out a
copy of the kept vector: an observation never changes after it is returned.

The new events also say which parts may have changed (``Planes.dirty``): the observer's
hand only through its own actions (and, for a verb that names its cards, only in those
kinds: ``NAMED``), the pile through takes and discards, the table through melds, and
anything through the table's news (an event with no action); each game names what its
verbs touch (``Encoder._touches``; a verb it does not name touches everything), and only
those parts are compared. A step touches one or two parts, so most comparisons are
skipped; the test above holds the result equal to the reference on every position.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from functools import cache
from itertools import compress
from operator import ne
from typing import TypeVar, cast

import numpy as np
import numpy.typing as npt

from rami.cards import CARDS
from rami.engine import Event, GameState, read_action
from rami.games import get_game
from rami.views import GameView, HistoryEntry, TypedView, typed_view

try:  # the accelerated build (rami.accel) compiles this module; a pure install has no mypyc
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - mypy_extensions ships with mypy (the dev extra)
    _C = TypeVar("_C")

    def mypyc_attr(*_flags: str, **_attrs: object) -> Callable[[_C], _C]:
        """No-op stand-in: only mypyc reads these class flags."""
        return lambda cls: cls


# rami: compiled with mypyc in the accelerated build

__all__ = [
    "ALL_PARTS",
    "HAND",
    "NAMED",
    "NEWS",
    "PILE",
    "TABLE",
    "TURN_SCALE",
    "Encoder",
    "Obs",
    "encoder_for",
]

Obs = npt.NDArray[np.float32]

# what an event's action does to the history's rows (``Encoder._parse``)
_SKIP, _TAKE, _DISCARD, _OUT, _SWAP = range(5)
_MANY = 32  # changes in one call from which numpy applies them faster (``_emit_many``)

# the parts of a position an event may have changed (``Planes.dirty``, ``Encoder._touches``):
# the observer's own hand (any action of its own), the discard pile, the table's melds (the
# seats' shown melds in Marriage), and what only the table's news changes (an opening, the
# tiplu, a seat seeing it, the end: a news event sets every bit); the other scalars are
# compared at every call
HAND, PILE, TABLE, NEWS = 1, 2, 4, 8
ALL_PARTS = HAND | PILE | TABLE | NEWS
# a verb whose action changes the actor's hand only in the kinds its text names and the
# card it draws or takes (``Encoder._touches``); as a dirty bit: the hand may have changed
# in the kinds listed in ``Planes.kinds`` only (``HAND`` itself: in any kind)
NAMED = 16

_INDEX: dict[str, int] = {str(c): int(c) for c in CARDS}
TURN_SCALE = 200.0  # turns are scaled by this in the scalars

# the read-ahead caches, which a copy of an encoder starts without (``Encoder.__reduce__``)
_CACHES = frozenset(("_hist", "_planes"))


@cache
def _row_maps(kinds: int, rows: int) -> tuple[dict[str, int], ...]:
    """Per row, each card text's position in the planes (shared, read-only: encoders are
    also built per call, e.g. by the OpenSpiel wrapper)."""
    cards = [(t, i) for t, i in _INDEX.items() if i < kinds]
    return tuple({t: r * kinds + i for t, i in cards} for r in range(rows))


class _History:
    """What the public history says per relative seat, as counts at their plane
    positions: each seat's discards and the cards it is known to hold."""

    __slots__ = ("counts", "first", "last", "length", "seat")

    def __init__(self, plane_size: int, seat: int) -> None:
        self.seat = seat
        self.length = 0
        # where reading stopped: the first and last entries read (the events list and its
        # last event when read from the state), compared to detect a rewritten history
        self.first: object = None
        self.last: object = None
        self.counts = np.zeros(plane_size, dtype=np.float32)  # small whole numbers: exact


class Planes:
    """One seat's observation kept between ``encode_state`` calls (the incremental path).

    ``counts`` are the raw counts at every plane position (the unseen-cards row apart: it
    is derived), ``out`` the vector they give; each part of the position (the hand, the
    pile, each table meld …) remembers what it was and which positions it filled, so a
    call only moves the positions of the parts that changed. The history part is read
    from ``state.events`` past ``length`` (append-only during a deal; a different or
    shorter list rebuilds the planes); a scalar is rewritten only when what it is
    computed from (``keys``) changed.
    """

    __slots__ = (
        "before",
        "changes",
        "counts",
        "cview",
        "delta",
        "dirty",
        "events",
        "hand",
        "hand_key",
        "hist",
        "keys",
        "kinds",
        "last",
        "length",
        "out",
        "parts",
        "pile",
        "returned",
        "seen_sum",
        "view",
    )

    def __init__(self, enc: Encoder, events: Sequence[Event]) -> None:
        self.counts = np.zeros(enc.plane_size, dtype=np.float32)  # whole numbers: exact
        self.cview = cast("MutableSequence[float]", memoryview(self.counts))  # type: ignore[arg-type]
        self.hist = [0] * enc.plane_size  # the history's own counts (``_read`` checks them)
        self.seen_sum = [0.0] * enc.kinds  # per kind, the copies the seen rows hold
        self.out = enc._blank.copy()
        # typeshed types a memoryview's items as int; a "f" view stores floats
        self.view = cast("MutableSequence[float]", memoryview(self.out))  # type: ignore[arg-type]
        self.events = events
        self.last: object = None
        self.length = 0
        self.hand: list[int] = [0] * enc.kinds
        self.kinds: list[int] = []  # the kinds own NAMED actions named since the last sync
        self.hand_key = 0  # the hand packed, for a game whose state keeps it so (empty: 0)
        self.pile: Sequence[int] = []
        self.parts: dict[object, tuple[object, list[int]]] = {}
        # what the game's scalars were last computed from (``encode_state``): a scalar is
        # written only when its inputs changed; None (the start) matches nothing
        self.keys: list[object] = [None] * 16
        self.delta: dict[int, int] = {}  # changes gathered during a call (``_emit``)
        # the parts the events read since the game's last sync may have changed (HAND,
        # PILE, TABLE bits): a fresh planes object has every part to build
        self.dirty = ALL_PARTS
        # with ``Encoder.track_changes``: the last two vectors handed out and the plane
        # positions in which the last differs from the one before (the scalars aside),
        # None when not known (``Encoder.changes``)
        self.returned: Obs | None = None
        self.before: Obs | None = None
        self.changes: list[int] | None = None


@mypyc_attr(allow_interpreted_subclasses=True)  # the games' encoders, a plug-in game's
class Encoder:
    """Turns one seat's view into a fixed-size vector (``shape``).

    Speed: a card's text maps straight to its position in the planes through one
    dictionary per row (``_rows``), so a whole list of cards is placed with one
    C-level ``map``; the planes are one ``bincount`` of those positions plus the
    history's counts, kept up to date entry by entry; the unseen-cards row is
    computed from the planes' rows rather than from another pass over the view.
    """

    game = ""
    kinds = 52

    def __init__(
        self,
        players: int,
        rows: tuple[str, ...],
        scalars: tuple[str, ...],
        copies: Sequence[float],
        count_rows: frozenset[int],
        out_verbs: frozenset[str],
        known_rows: Sequence[int],
        discard_rows: Sequence[int],
        seen_rows: Sequence[int],
        unseen_row: int,
    ) -> None:
        # what a copy calls the class with (``__reduce__``): a subclass with arguments of
        # its own sets its own
        self.init_args: tuple[object, ...] = (
            players,
            rows,
            scalars,
            copies,
            count_rows,
            out_verbs,
            known_rows,
            discard_rows,
            seen_rows,
            unseen_row,
        )
        self.players = players
        self.rows = rows
        self.scalars = scalars
        # whether ``encode_state`` notes the plane positions each call changes, for
        # ``changes`` (the OpenSpiel game's float lists patch only those)
        self.track_changes = False
        k = self.kinds
        self.plane_size = len(rows) * k
        self.size = self.plane_size + len(scalars)
        scale = np.ones((len(rows), k), dtype=np.float32)
        inv = np.asarray([1.0 / max(1.0, c) for c in copies], dtype=np.float32)
        for r in count_rows:
            scale[r] = inv
        self._scale = scale.ravel()
        self._out = out_verbs
        self._hist: dict[int, _History] = {}
        self._rows = _row_maps(k, len(rows))
        self._known = [r * k for r in known_rows]  # per relative seat
        self._discarded = [r * k for r in discard_rows]
        self._seen = np.zeros(len(rows), dtype=np.float32)  # 1 on the rows of seen cards
        self._seen[list(seen_rows)] = 1.0
        self._unseen_row = unseen_row
        self._copies = np.asarray(copies, dtype=np.float32)
        self._zeros = np.zeros(k, dtype=np.float32)
        self._ones = np.ones(self.plane_size, dtype=np.float32)
        # per row, card index -> its position in the planes (the integer twin of _rows)
        self._pos = tuple(tuple(range(r * k, r * k + k)) for r in range(len(rows)))
        # the incremental path (``Planes``): per position its scale as a Python float (a
        # small whole count times it is exact in float64, so storing the product in the
        # float32 vector rounds it as ``_finish``'s float32 product does), whether its row
        # is a seen row, and the vector of an empty position
        self._planes: dict[int, Planes] = {}
        # rows 2-4 (the pile's top three) are one-hot: ``_sync_pile`` writes them directly
        assert not {2, 3, 4} & (set(count_rows) | set(seen_rows))
        # action text -> ``_parse``, and the parts the action may change (``_touches``)
        self._parsed: dict[str, tuple[int, tuple[int, ...], int]] = {}
        self._scale_list = [float(x) for x in self._scale]
        self._kind_range = range(k)
        # per position, its kind if its row is a seen row (else -1)
        self._seen_kind = [p % k if self._seen[p // k] else -1 for p in range(self.plane_size)]
        self._copies_list = [float(x) for x in self._copies]
        self._unseen_base = unseen_row * k
        self._unseen_scale = self._scale_list[self._unseen_base : self._unseen_base + k]
        self._blank = self._finish([], _History(self.plane_size, 0), [0.0] * len(scalars))

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled and deep-copied as a call of its class with ``init_args`` (a compiled
        encoder has no ``__dict__`` and its ``__new__`` runs ``__init__``), plus an
        interpreted subclass's own ``__dict__``; the kept planes and history stay behind
        (they hold memoryviews, which do not pickle, and a copy's states have events
        lists of their own anyway: the next call builds them again). Envs are copied
        this way, e.g. by vector envs."""
        extra: dict[str, object] = getattr(self, "__dict__", None) or {}
        state = {k: v for k, v in extra.items() if k not in _CACHES}
        return (type(self), self.init_args, state)

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self.reset()

    def reset(self) -> None:
        """Forget the history read so far (call at the start of a deal)."""
        self._hist = {}
        self._planes = {}

    def encode(self, view: TypedView | GameView) -> Obs:  # pragma: no cover - abstract
        raise NotImplementedError

    def encode_state(self, state: GameState, seat: int) -> Obs:
        """``encode(state.view(seat))`` without building the view: the game's encoder reads
        the same seat-visible facts the view holds, as the engine's integers (a test checks
        equality with ``encode`` on thousands of positions and the hidden re-deal)."""
        return self.encode(state.view(seat))

    def _finish(
        self, flat: list[int], h: _History, scalars: list[float], hand: Obs | None = None
    ) -> Obs:
        """The vector from plane positions (one per copy), the history's counts and the
        scalars; the unseen-cards row is the shoe minus the cards the seen rows hold.
        (Counts are small whole numbers, exact in ``float32``, so the order of these
        vectorised steps does not change a bit of the result.)"""
        size = self.plane_size
        out = np.empty(self.size, dtype=np.float32)
        planes = out[:size]
        planes[:] = np.bincount(np.fromiter(flat, dtype=np.intp, count=len(flat)), minlength=size)
        np.add(planes, h.counts, out=planes)
        if hand is not None:  # the own hand as counts per kind (row 0)
            planes[: self.kinds] += hand
        grid = planes.reshape(-1, self.kinds)
        unseen = grid[self._unseen_row]
        np.subtract(self._copies, np.dot(self._seen, grid), out=unseen)
        np.maximum(unseen, self._zeros, out=unseen)
        np.multiply(planes, self._scale, out=planes)
        np.minimum(planes, self._ones, out=planes)  # e.g. a card discarded again (recycle)
        out[size:] = scalars
        return out

    def _history(self, view: TypedView | GameView, me: int) -> _History:
        """Discards per relative seat and the cards each is known to hold.

        Known cards are the discards it took and has not laid down or thrown since (as
        the determinizers read the history); the observer's own row stays empty. (A
        plug-in game's encoder may read its JSON views: their history is the same.)
        """
        return self._history_of(view["history"] if isinstance(view, dict) else view.history, me)

    def _history_of(self, history: Sequence[HistoryEntry], me: int) -> _History:
        """``_history`` from the view's history list itself."""
        h = self._hist.get(me)
        if (
            h is None
            or len(history) < h.length
            or (h.length and (history[0] != h.first or history[h.length - 1] != h.last))
        ):
            h = self._hist[me] = _History(self.plane_size, me)
        if h.length == len(history):
            return h
        self._read(h, history[h.length :], me)
        h.first = history[0]
        h.last = history[-1]
        h.length = len(history)
        return h

    def _read(self, h: _History, entries: Sequence[HistoryEntry], me: int) -> None:
        """Add what these history entries say to ``h``'s counts."""
        n = self.players
        out_verbs = self._out
        counts = h.counts
        known = self._known
        discarded = self._discarded
        joker = self.kinds - 1
        for entry in entries:
            move = entry.get("move")
            seat = entry["seat"]
            if move is None or seat is None:
                continue
            action = read_action(move)
            verb, cards = action.kind, action.cards
            if not cards and action.target is None:
                continue
            rel = (seat - me) % n
            if verb == "discard" or verb == "finish":
                c = int(cards[0])
                counts[discarded[rel] + c] += 1
                if rel and counts[known[rel] + c]:
                    counts[known[rel] + c] -= 1
            elif verb == "take":
                if rel:
                    counts[known[rel] + int(cards[0])] += 1
            elif verb in out_verbs and rel:
                base = known[rel]
                if verb == "swap":
                    counts[base + joker] += 1  # the swapped joker (T-7) goes to that hand
                for card in cards:
                    if counts[base + card]:
                        counts[base + card] -= 1

    # ---------------------------------------------------------------- incremental path
    # A call gathers the changes of every part as ``delta`` (plane position -> copies
    # added or removed), then ``_emit`` applies them to the kept counts and vector.

    def _planes_for(self, events: Sequence[Event], me: int) -> Planes:
        """``me``'s kept planes with the new events of ``events`` read (built afresh for
        another deal or state: a different, shorter or rewritten events list)."""
        p = self._planes.get(me)
        done = 0 if p is None else p.length
        if (
            p is None
            or p.events is not events
            or len(events) < done
            or (done and events[done - 1] is not p.last)
        ):
            p = self._planes[me] = Planes(self, events)
            done = 0
        if self.track_changes:  # a fresh planes object: every position is new
            p.changes = [] if done else None
        if done < len(events):
            self._read_events(p, events, done, me)
            p.last = events[-1]
            p.length = len(events)
        return p

    def changes(self, seat: int, vec: Obs, before: Obs) -> list[int] | None:
        """The plane positions in which ``vec`` may differ from ``before`` (the scalars,
        after the planes, aside: a caller compares or copies those itself), when
        ``vec`` is the last vector ``encode_state`` handed out for ``seat`` and
        ``before`` the one it handed out just before, with ``track_changes`` on; None
        otherwise (a position may repeat)."""
        p = self._planes.get(seat)
        if p is None or p.returned is not vec or p.before is not before:
            return None
        return p.changes

    def _touches(self, verb: str) -> int:
        """The parts of the position (``HAND``, ``PILE``, ``TABLE``, ``NEWS``) an action of ``verb``
        may change besides the actor's own hand: by default all of them; a game names the
        verbs it knows (an unnamed verb keeps every part compared)."""
        return ALL_PARTS

    def _parse(self, text: str) -> tuple[int, tuple[int, ...], int]:
        """What an event's action text means to the history: (``_SKIP``, ``_TAKE``,
        ``_DISCARD``, ``_OUT`` or ``_SWAP``; the cards it names), as ``_read`` reads it,
        and the parts it may change (``_touches``)."""
        action = read_action(text)
        verb = action.kind
        touch = self._touches(verb)
        if verb == "take":
            return _TAKE, (), touch
        if not action.cards and action.target is None:
            return _SKIP, (), touch
        if verb == "discard" or verb == "finish":
            return _DISCARD, (int(action.cards[0]),), touch
        if verb in self._out:
            cards = tuple(int(c) for c in action.cards)
            return (_SWAP if verb == "swap" else _OUT), cards, touch
        return _SKIP, (), touch

    def _read_events(self, p: Planes, events: Sequence[Event], start: int, me: int) -> None:
        """What ``_read`` reads from ``me``'s view of ``events[start:]``, into ``p``, from
        the events themselves: the view names a drawn card only to the drawer and a taken
        card to everyone, and the history's rows read no draw, so a draw is skipped and a
        take reads its ``card``; each action text is parsed once per encoder (``_parse``).
        The parts the events may have changed are added to ``p.dirty``: a news event
        (no action) may change any."""
        n = self.players
        dirty = p.dirty
        named = p.kinds
        hist = p.hist
        delta = p.delta
        get = delta.get
        known = self._known
        discarded = self._discarded
        joker = self.kinds - 1
        parsed = self._parsed
        for e in events[start:]:
            text = e["action"]
            seat = e["seat"]
            if text is None or seat is None or "news" in e:  # news: the view words it
                dirty = ALL_PARTS  # (an action that is news, T-9's farcha, reads as no move)
                continue
            found = parsed.get(text)
            if found is None:
                found = parsed[text] = self._parse(text)
            kind, cards, touch = found
            if seat == me:
                if touch & NAMED:
                    named += cards
                    card = e.get("card")
                    if card is not None:
                        named.append(_INDEX[card])
                else:
                    touch |= HAND
            dirty |= touch
            if kind == _SKIP:
                continue
            rel = (seat - me) % n
            if kind == _DISCARD:
                c = cards[0]
                x = discarded[rel] + c
                hist[x] += 1
                delta[x] = get(x, 0) + 1
                x = known[rel] + c
                if rel and hist[x]:
                    hist[x] -= 1
                    delta[x] = get(x, 0) - 1
            elif not rel:
                continue
            elif kind == _TAKE:
                card = e.get("card")
                if card is not None:
                    x = known[rel] + _INDEX[card]
                    hist[x] += 1
                    delta[x] = get(x, 0) + 1
            else:
                base = known[rel]
                if kind == _SWAP:  # the swapped joker (T-7) goes to that hand
                    hist[base + joker] += 1
                    delta[base + joker] = get(base + joker, 0) + 1
                for c in cards:
                    x = base + c
                    if hist[x]:
                        hist[x] -= 1
                        delta[x] = get(x, 0) - 1
        p.dirty = dirty

    @staticmethod
    def _diff(delta: dict[int, int], old: Sequence[int], new: Sequence[int]) -> None:
        """Record a part's move from positions ``old`` to ``new`` (multisets)."""
        get = delta.get
        for x in old:
            delta[x] = get(x, 0) - 1
        for x in new:
            delta[x] = get(x, 0) + 1

    def _sync_hand(self, p: Planes, hand: list[int]) -> None:
        """Row 0: the own hand as counts per kind (``hand`` is kept: a copy)."""
        p.kinds.clear()
        old = p.hand
        if hand == old:
            return
        delta = p.delta
        get = delta.get
        for k in compress(self._kind_range, map(ne, hand, old)):
            delta[k] = get(k, 0) + hand[k] - old[k]
        p.hand = hand

    @staticmethod
    def _sync_kinds(p: Planes, hand: Sequence[int]) -> None:
        """Row 0 where only the kinds in ``p.kinds`` may have changed (``NAMED``)."""
        old = p.hand
        delta = p.delta
        get = delta.get
        for k in p.kinds:
            d = hand[k] - old[k]
            if d:
                delta[k] = get(k, 0) + d
                old[k] = hand[k]
        p.kinds.clear()

    def _sync_pile(self, p: Planes, pile: Sequence[int]) -> None:
        """Row 1 (the whole pile, counts) and rows 2-4 (its top three, one-hot); ``pile``
        may be the state's own list (a copy is kept)."""
        old = p.pile
        lo, ln = len(old), len(pile)
        k = self.kinds
        delta = p.delta
        get = delta.get
        # the piles below ``m`` cards from the bottom are the same: only the cards above
        # move (a pile changes at its top: takes and discards, e.g. a take and a discard
        # since the last call; a recycled stock leaves no common bottom). The usual steps
        # (cards discarded on the old pile, or taken from it) are checked first, with one
        # comparison.
        if ln > lo and pile[:lo] == old:
            for c in pile[lo:]:
                delta[k + c] = get(k + c, 0) + 1
        elif ln < lo and old[:ln] == pile:
            for c in old[ln:]:
                delta[k + c] = get(k + c, 0) - 1
        else:
            if pile == old:
                return
            m = lo if lo < ln else ln
            while m and pile[m - 1] != old[m - 1]:
                m -= 1
            if m and pile[:m] != old[:m]:
                m = 0
            for c in old[m:]:
                delta[k + c] = get(k + c, 0) - 1
            for c in pile[m:]:
                delta[k + c] = get(k + c, 0) + 1
        # rows 2-4 hold only the pile's top three (one-hot, scale 1, not seen rows): their
        # entries are written straight into the vector
        out = p.view
        changes = p.changes
        row = 2 * k
        for depth in (1, 2, 3):
            was = old[-depth] if depth <= lo else -1
            now = pile[-depth] if depth <= ln else -1
            if was != now:
                if was >= 0:
                    out[row + was] = 0.0
                    if changes is not None:
                        changes.append(row + was)
                if now >= 0:
                    out[row + now] = 1.0
                    if changes is not None:
                        changes.append(row + now)
            row += k
        p.pile = pile if type(pile) is tuple else list(pile)  # a tuple is kept as it is

    def _emit(self, p: Planes) -> Obs:
        """Apply the gathered changes as ``_finish`` computes each entry and hand out a
        copy of the kept vector (the game's ``encode_state`` has written the scalars that
        changed, ``Planes.keys``)."""
        delta = p.delta
        if len(delta) > _MANY:
            self._emit_many(p)
        elif delta:
            # the vector through a memoryview: storing a Python float there rounds it to
            # float32 as numpy does, several times faster than numpy's item assignment
            out = p.view
            counts = p.cview
            scale = self._scale_list
            seen_kind = self._seen_kind
            seen_sum = p.seen_sum
            copies = self._copies_list
            unseen_scale = self._unseen_scale
            unseen_base = self._unseen_base
            for pos, d in delta.items():
                if not d:
                    continue
                c = counts[pos] + d
                counts[pos] = c
                v = c * scale[pos]
                out[pos] = v if v < 1.0 else 1.0
                k = seen_kind[pos]
                if k >= 0:  # a seen row: the unseen-cards entry of that kind moves too
                    seen = seen_sum[k] + d
                    seen_sum[k] = seen
                    u = copies[k] - seen
                    v = (u if u > 0.0 else 0.0) * unseen_scale[k]
                    out[unseen_base + k] = v if v < 1.0 else 1.0
            changes = p.changes
            if changes is not None:  # what moved, for ``changes`` (``track_changes``)
                changes += delta
                changes += [unseen_base + k for k in map(seen_kind.__getitem__, delta) if k >= 0]
            delta.clear()
        vec = p.out.copy()
        if self.track_changes:
            p.before = p.returned
            p.returned = vec
        return vec

    def _emit_many(self, p: Planes) -> None:
        """``_emit``'s changes applied with numpy (many of them: a first call, a seat
        observed after many events): the planes recomputed as ``_finish`` does."""
        delta = p.delta
        p.changes = None  # too many to list (``changes``)
        n = len(delta)
        idx = np.fromiter(delta.keys(), dtype=np.intp, count=n)
        counts = p.counts
        counts[idx] += np.fromiter(delta.values(), dtype=np.float32, count=n)  # keys unique
        delta.clear()
        k = self.kinds
        seen = np.dot(self._seen, counts.reshape(-1, k))
        p.seen_sum = seen.tolist()
        planes = p.out[: self.plane_size]
        top = planes[2 * k : 5 * k].copy()  # rows 2-4 are not counted (``_sync_pile``)
        np.multiply(counts, self._scale, out=planes)
        unseen = np.subtract(self._copies, seen)
        np.maximum(unseen, self._zeros, out=unseen)
        base = self._unseen_base
        np.multiply(unseen, self._scale[base : base + k], out=planes[base : base + k])
        np.minimum(planes, self._ones, out=planes)
        planes[2 * k : 5 * k] = top


def encoder_for(view: TypedView | GameView) -> Encoder:
    """The encoder for the game, rules and table size that ``view`` shows
    (the game's ``Game.observation`` hook)."""
    typed = typed_view(view)
    spec = get_game(typed.game)
    if spec.observation is None:
        raise ValueError(f"no observation encoder for game {typed.game!r}")
    return spec.observation(typed.players, typed.rules.to_json())
