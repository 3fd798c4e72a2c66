"""Observation tensors built from ``state.view(seat)`` only: the same encoder for every
wrapper (PettingZoo, Gymnasium, OpenSpiel, the learned bot).

An observation is a flat ``float32`` vector in [0, 1]: card *planes* (one row per fact,
one column per card kind: 52 for Marriage, 53 with the joker last for Tunisian rami),
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
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from rami.cards import CARDS
from rami.marriage.view import marriage_view
from rami.tunisian.view import tunisian_view
from rami.views import GameView, HistoryEntry, RulesJson, own_seat

__all__ = ["Encoder", "MarriageEncoder", "Obs", "TunisianEncoder", "encoder_for"]

Obs = npt.NDArray[np.float32]

_INDEX: dict[str, int] = {str(c): int(c) for c in CARDS}
_TURN_SCALE = 200.0


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
        self.first: HistoryEntry | None = None
        self.last: HistoryEntry | None = None
        self.counts = np.zeros(plane_size, dtype=np.float32)  # small whole numbers: exact


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
    count_rows: frozenset[int] = frozenset()

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
        self.players = players
        self.rows = rows
        self.scalars = scalars
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

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def reset(self) -> None:
        """Forget the history read so far (call at the start of a deal)."""
        self._hist = {}

    def encode(self, view: GameView) -> Obs:  # pragma: no cover - abstract
        raise NotImplementedError

    def _finish(self, flat: list[int], h: _History, scalars: list[float]) -> Obs:
        """The vector from plane positions (one per copy), the history's counts and the
        scalars; the unseen-cards row is the shoe minus the cards the seen rows hold.
        (Counts are small whole numbers, exact in ``float32``, so the order of these
        vectorised steps does not change a bit of the result.)"""
        size = self.plane_size
        out = np.empty(self.size, dtype=np.float32)
        planes = out[:size]
        planes[:] = np.bincount(np.fromiter(flat, dtype=np.intp, count=len(flat)), minlength=size)
        np.add(planes, h.counts, out=planes)
        grid = planes.reshape(-1, self.kinds)
        unseen = grid[self._unseen_row]
        np.subtract(self._copies, np.dot(self._seen, grid), out=unseen)
        np.maximum(unseen, self._zeros, out=unseen)
        np.multiply(planes, self._scale, out=planes)
        np.minimum(planes, self._ones, out=planes)  # e.g. a card discarded again (recycle)
        out[size:] = scalars
        return out

    def _history(self, view: GameView, me: int) -> _History:
        """Discards per relative seat and the cards each is known to hold.

        Known cards are the discards it took and has not laid down or thrown since (as
        the determinizers read the history); the observer's own row stays empty.
        """
        history = view["history"]
        h = self._hist.get(me)
        if (
            h is None
            or len(history) < h.length
            or (h.length and (history[0] != h.first or history[h.length - 1] != h.last))
        ):
            h = self._hist[me] = _History(self.plane_size, me)
        if h.length == len(history):
            return h
        n = self.players
        index = _INDEX
        out_verbs = self._out
        counts = h.counts
        known = self._known
        discarded = self._discarded
        joker = self.kinds - 1
        for entry in history[h.length :]:
            move = entry.get("move")
            seat = entry["seat"]
            if move is None or seat is None:
                continue
            verb, _, rest = move.partition(" ")
            if not rest:
                continue
            rel = (seat - me) % n
            if verb == "discard" or verb == "finish":
                c = index[rest]
                counts[discarded[rel] + c] += 1
                if rel and counts[known[rel] + c]:
                    counts[known[rel] + c] -= 1
            elif verb == "take":
                if rel:
                    counts[known[rel] + index[rest]] += 1
            elif verb in out_verbs and rel:
                base = known[rel]
                if verb == "swap":
                    counts[base + joker] += 1  # the swapped joker (T-7) goes to that hand
                for w in rest.split():
                    if w[0] != "@" and counts[base + index[w]]:
                        counts[base + index[w]] -= 1
        h.first = history[0]
        h.last = history[-1]
        h.length = len(history)
        return h


class MarriageEncoder(Encoder):
    """Marriage (52 kinds; counts over ``decks`` copies)."""

    game = "marriage"
    kinds = 52
    _common = (
        "own hand",
        "discard pile (all)",
        "discard pile top",
        "discard pile 2nd",
        "discard pile 3rd",
        "tiplu (if seen)",
        "wild cards (if seen)",
        "card taken this turn",
        "unseen cards",
    )
    _per_seat = ("shown melds", "exposed tunnelas", "dublees", "known in hand", "discarded")
    _phases = ("expose", "draw", "play", "over")

    def __init__(self, players: int, decks: int = 3, hand_size: int = 21) -> None:
        rows = self._common + tuple(
            f"seat +{r}: {name}" for r in range(players) for name in self._per_seat
        )
        scalars = (
            *(f"phase {p}" for p in self._phases),
            "stock size",
            "turn",
            "tiplu picked",
            *(
                f"seat +{r}: {name}"
                for r in range(players)
                for name in ("hand size", "seen", "melds path", "dublees path", "to move")
            ),
        )
        common = len(self._common)
        counted = {0, 1, 8} | {common + r * 5 + j for r in range(players) for j in range(5)}
        super().__init__(
            players,
            rows,
            scalars,
            [float(decks)] * 52,
            frozenset(counted),
            frozenset(("show", "dublee", "expose", "meld", "add")),
            known_rows=[common + r * 5 + 3 for r in range(players)],
            discard_rows=[common + r * 5 + 4 for r in range(players)],
            seen_rows=[0, 1, 5] + [common + r * 5 + j for r in range(players) for j in range(3)],
            unseen_row=8,
        )
        self.decks = decks
        self.hand_size = hand_size
        self.shoe = 52 * decks
        maps = self._rows
        self._seat_maps = [  # per relative seat: shown melds, exposed tunnelas, dublees
            tuple(maps[common + rel * 5 + j].__getitem__ for j in range(3))
            for rel in range(players)
        ]

    def encode(self, view: GameView) -> Obs:
        view = marriage_view(view)
        me = own_seat(view)
        n = self.players
        rows = self._rows
        flat: list[int] = []
        hand = view.get("hand")
        if hand:
            flat += map(rows[0].__getitem__, hand)
        pile = view["discard_pile"]
        if pile:
            flat += map(rows[1].__getitem__, pile)
            for depth in range(min(3, len(pile))):
                flat.append(rows[2 + depth][pile[-1 - depth]])
        tiplu = view.get("tiplu")
        if tiplu:
            flat.append(rows[5][tiplu])
            flat += map(rows[6].__getitem__, view.get("wild_cards") or ())
        taken = view.get("taken")
        if taken:
            flat.append(rows[7][taken])
        h = self._history(view, me)
        to_move = view.get("to_move")
        phase = view["phase"]
        scalars = [1.0 if phase == p else 0.0 for p in self._phases]
        scalars += [
            view["stock_size"] / self.shoe,
            min(1.0, view["turn"] / _TURN_SCALE),
            1.0 if view.get("tiplu_picked") else 0.0,
        ]
        seat_scalars = [0.0] * (5 * n)
        size_scale = self.hand_size + 1
        seat_maps = self._seat_maps
        for s, entry in enumerate(view["seats"]):
            rel = (s - me) % n
            shown, exposing, dubleeing = seat_maps[rel]
            for meld in entry["melds"]:
                flat += map(shown, meld)
            exposed = entry["exposed_tunnelas"]
            if exposed:
                flat += list(map(exposing, exposed)) * 3
            dublees = entry["dublees"]
            if dublees:
                flat += list(map(dubleeing, dublees)) * 2
            path = entry["path"]
            seat_scalars[rel * 5 : rel * 5 + 5] = (
                entry["hand_size"] / size_scale,
                1.0 if entry["seen"] else 0.0,
                1.0 if path == "melds" else 0.0,
                1.0 if path == "dublees" else 0.0,
                1.0 if to_move == s else 0.0,
            )
        return self._finish(flat, h, scalars + seat_scalars)


class TunisianEncoder(Encoder):
    """Tunisian rami (53 kinds, the joker last; counts over the shoe's copies)."""

    game = "tunisian"
    kinds = 53
    _common = (
        "own hand",
        "discard pile (all)",
        "discard pile top",
        "discard pile 2nd",
        "discard pile 3rd",
        "unseen cards",
        "cards the table's jokers stand for",
    )
    _per_seat = ("known in hand", "discarded", "laid on the table")
    _phases = ("first_discard", "draw", "play", "over")

    def __init__(self, players: int, decks: int = 2, jokers: int = 4, table_cap: int = 36) -> None:
        self.table_cap = table_cap
        common = len(self._common)
        rows = (
            self._common
            + tuple(f"seat +{r}: {name}" for r in range(players) for name in self._per_seat)
            + tuple(f"table meld @{i}" for i in range(table_cap))
        )
        scalars = (
            *(f"phase {p}" for p in self._phases),
            "first round",
            "stock size",
            "turn",
            "opening threshold",
            "staged value",
            "must open",
            *(
                f"seat +{r}: {name}"
                for r in range(players)
                for name in ("hand size", "active", "opened", "opening value", "partner", "to move")
            ),
        )
        counted = {0, 1, 5} | set(range(common, len(rows)))
        super().__init__(
            players,
            rows,
            scalars,
            [float(decks)] * 52 + [float(jokers)],
            frozenset(counted),
            frozenset(("meld", "add", "swap")),
            known_rows=[common + r * 3 for r in range(players)],
            discard_rows=[common + r * 3 + 1 for r in range(players)],
            seen_rows=[0, 1] + [common + r * 3 + 2 for r in range(players)],
            unseen_row=5,
        )
        self.decks = decks
        self.jokers = jokers
        self.shoe = 52 * decks + jokers
        maps = self._rows
        self._laid = [maps[common + rel * 3 + 2].__getitem__ for rel in range(players)]
        self._table_maps = [m.__getitem__ for m in maps[common + players * 3 :]]

    def encode(self, view: GameView) -> Obs:
        view = tunisian_view(view)
        me = own_seat(view)
        n = self.players
        rows = self._rows
        flat: list[int] = []
        hand = view.get("hand")
        if hand:
            flat += map(rows[0].__getitem__, hand)
        pile = view["discard_pile"]
        if pile:
            flat += map(rows[1].__getitem__, pile)
            for depth in range(min(3, len(pile))):
                flat.append(rows[2 + depth][pile[-1 - depth]])
        h = self._history(view, me)
        laid = self._laid
        table_maps = self._table_maps
        cap = self.table_cap
        jokers_as = rows[6]
        for i, meld in enumerate(view["table"]):
            cards = meld["cards"]
            flat += map(laid[(meld["owner"] - me) % n], cards)
            if i < cap:
                flat += map(table_maps[i], cards)
            if meld["joker_as"]:
                flat.append(jokers_as[meld["joker_as"]])
        phase = view["phase"]
        threshold = max(1, view["threshold"])
        scalars = [1.0 if phase == p else 0.0 for p in self._phases]
        scalars += [
            1.0 if view["first_round"] else 0.0,
            view["stock_size"] / self.shoe,
            min(1.0, view["turn"] / _TURN_SCALE),
            min(1.0, threshold / 200.0),
            min(1.0, view["staged_value"] / threshold),
            1.0 if view["must_open"] else 0.0,
        ]
        seat_scalars = [0.0] * (6 * n)
        my_team = view.get("team")
        to_move = view.get("to_move")
        for s, entry in enumerate(view["seats"]):
            rel = (s - me) % n
            value = entry["opening_value"]
            team = entry["team"]
            seat_scalars[rel * 6 : rel * 6 + 6] = (
                min(1.0, entry["hand_size"] / 16.0),
                1.0 if entry["active"] else 0.0,
                1.0 if entry["opened"] else 0.0,
                0.0 if value is None else min(1.0, value / threshold),
                1.0 if team is not None and team == my_team and s != me else 0.0,
                1.0 if to_move == s else 0.0,
            )
        return self._finish(flat, h, scalars + seat_scalars)


def encoder_for(view: GameView) -> Encoder:
    """The encoder for the game, rules and table size that ``view`` shows."""
    factory = _ENCODERS.get(view["game"])
    if factory is None:
        raise ValueError(f"no observation encoder for game {view['game']!r}")
    return factory(view["players"], view["rules"])


def _marriage(players: int, doc: RulesJson) -> Encoder:
    from rami.marriage.rules import rules_from

    rules = rules_from(doc)
    return MarriageEncoder(players, rules.decks, rules.hand_size)


def _tunisian(players: int, doc: RulesJson) -> Encoder:
    from rami.tunisian.rules import rules_from

    rules = rules_from(doc)
    decks = rules.decks
    jokers = rules.jokers
    return TunisianEncoder(players, decks, jokers, (52 * decks + jokers) // 3)


_ENCODERS = {"marriage": _marriage, "tunisian": _tunisian}
