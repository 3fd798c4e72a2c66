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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from rami.cards import CARDS

__all__ = ["Encoder", "MarriageEncoder", "Obs", "TunisianEncoder", "encoder_for"]

Obs = npt.NDArray[np.float32]

_INDEX: dict[str, int] = {str(c): int(c) for c in CARDS}
_TURN_SCALE = 200.0


class _History:
    """What the public history says per relative seat: discards and known cards."""

    __slots__ = ("discards", "first", "known", "last", "length", "seat")

    def __init__(self, players: int, kinds: int, seat: int) -> None:
        self.seat = seat
        self.length = 0
        self.first: Any = None
        self.last: Any = None
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.known = [[0] * kinds for _ in range(players)]


class Encoder:
    """Turns one seat's view into a fixed-size vector (``shape``)."""

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
    ) -> None:
        self.players = players
        self.rows = rows
        self.scalars = scalars
        self.plane_size = len(rows) * self.kinds
        self.size = self.plane_size + len(scalars)
        scale = np.ones((len(rows), self.kinds), dtype=np.float32)
        inv = np.asarray([1.0 / max(1.0, c) for c in copies], dtype=np.float32)
        for r in count_rows:
            scale[r] = inv
        self._scale = scale.ravel()
        self._out = out_verbs
        self._hist: dict[int, _History] = {}

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def reset(self) -> None:
        """Forget the history read so far (call at the start of a deal)."""
        self._hist = {}

    def encode(self, view: Mapping[str, Any]) -> Obs:  # pragma: no cover - abstract
        raise NotImplementedError

    def _finish(
        self,
        flat: list[int],
        scalars: list[float],
        dense: Sequence[tuple[int, Any]] = (),
    ) -> Obs:
        """The vector from card indices (``row * kinds + card``, one per copy), whole
        rows given as count vectors (``dense``), and the scalars."""
        index = np.fromiter(flat, dtype=np.intp, count=len(flat))  # faster than from a list
        planes = np.bincount(index, minlength=self.plane_size).astype(np.float32)
        k = self.kinds
        for row, counts in dense:
            planes[row * k : (row + 1) * k] += counts
        planes *= self._scale
        np.minimum(planes, 1.0, out=planes)  # e.g. a card discarded again after a recycle
        return np.concatenate((planes, np.asarray(scalars, dtype=np.float32)))

    def _history(self, view: Mapping[str, Any], me: int) -> _History:
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
            h = self._hist[me] = _History(self.players, self.kinds, me)
        n = self.players
        index = _INDEX
        out_verbs = self._out
        discards = h.discards
        known = h.known
        for entry in history[h.length :]:
            move = entry.get("move")
            if move is None:
                continue
            verb, _, rest = move.partition(" ")
            if not rest:
                continue
            rel = (entry["seat"] - me) % n
            if verb == "discard" or verb == "finish":
                c = index[rest]
                discards[rel].append(c)
                if known[rel][c]:
                    known[rel][c] -= 1
            elif verb == "take":
                if rel:
                    known[rel][index[rest]] += 1
            elif verb in out_verbs and rel:
                mine = known[rel]
                if verb == "swap":
                    mine[-1] += 1  # the swapped joker (T-7) goes to that hand
                for w in rest.split():
                    if w[0] != "@":
                        c = index[w]
                        if mine[c]:
                            mine[c] -= 1
        if history:
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
        counted = {0, 1, 8} | {
            len(self._common) + r * 5 + j for r in range(players) for j in range(5)
        }
        super().__init__(
            players,
            rows,
            scalars,
            [float(decks)] * 52,
            frozenset(counted),
            frozenset(("show", "dublee", "expose", "meld", "add")),
        )
        self.decks = decks
        self.hand_size = hand_size
        self.shoe = 52 * decks
        self._copies = np.full(52, decks, dtype=np.int64)

    def encode(self, view: Mapping[str, Any]) -> Obs:
        me = view["seat"]
        n = self.players
        k = 52
        index = _INDEX
        hand = [index[t] for t in view.get("hand") or ()]
        pile = [index[t] for t in view["discard_pile"]]
        flat = hand + [k + c for c in pile]
        for depth in range(min(3, len(pile))):
            flat.append((2 + depth) * k + pile[-1 - depth])
        seen_cards = hand + pile
        tiplu = view.get("tiplu")
        if tiplu:
            t = index[tiplu]
            flat.append(5 * k + t)
            seen_cards.append(t)
            flat += [6 * k + index[w] for w in view.get("wild_cards") or ()]
        taken = view.get("taken")
        if taken:
            flat.append(7 * k + index[taken])
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
        common = len(self._common)
        dense: list[tuple[int, Any]] = []
        for s, entry in enumerate(view["seats"]):
            rel = (s - me) % n
            base = (common + rel * 5) * k
            shown = [index[t] for m in entry["melds"] for t in m]
            exposed = [index[t] for t in entry["exposed_tunnelas"]] * 3
            dublees = [index[t] for t in entry["dublees"]] * 2
            flat += [base + c for c in shown]
            flat += [base + k + c for c in exposed]
            flat += [base + 2 * k + c for c in dublees]
            if rel:
                dense.append((common + rel * 5 + 3, h.known[rel]))
            flat += [base + 4 * k + c for c in h.discards[rel]]
            seen_cards += shown + exposed + dublees
            path = entry["path"]
            seat_scalars[rel * 5 : rel * 5 + 5] = (
                entry["hand_size"] / (self.hand_size + 1),
                1.0 if entry["seen"] else 0.0,
                1.0 if path == "melds" else 0.0,
                1.0 if path == "dublees" else 0.0,
                1.0 if to_move == s else 0.0,
            )
        unseen = self._copies - np.bincount(seen_cards, minlength=k)[:k]
        dense.append((8, np.maximum(unseen, 0)))
        return self._finish(flat, scalars + seat_scalars, dense)


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
        )
        self.decks = decks
        self.jokers = jokers
        self.shoe = 52 * decks + jokers
        self._copies = np.asarray([decks] * 52 + [jokers], dtype=np.int64)

    def encode(self, view: Mapping[str, Any]) -> Obs:
        me = view["seat"]
        n = self.players
        k = 53
        index = _INDEX
        hand = [index[t] for t in view.get("hand") or ()]
        pile = [index[t] for t in view["discard_pile"]]
        flat = hand + [k + c for c in pile]
        for depth in range(min(3, len(pile))):
            flat.append((2 + depth) * k + pile[-1 - depth])
        seen_cards = hand + pile
        h = self._history(view, me)
        common = len(self._common)
        table_row = common + n * 3
        cap = self.table_cap
        for i, meld in enumerate(view["table"]):
            cards = [index[t] for t in meld["cards"]]
            seen_cards += cards
            laid = (common + ((meld["owner"] - me) % n) * 3 + 2) * k
            flat += [laid + c for c in cards]
            if i < cap:
                row = (table_row + i) * k
                flat += [row + c for c in cards]
            if meld["joker_as"]:
                flat.append(6 * k + index[meld["joker_as"]])
        dense: list[tuple[int, Any]] = [(common + rel * 3, h.known[rel]) for rel in range(1, n)]
        for rel in range(n):
            base = (common + rel * 3 + 1) * k
            flat += [base + c for c in h.discards[rel]]
        unseen = self._copies - np.bincount(seen_cards, minlength=k)[:k]
        dense.append((5, np.maximum(unseen, 0)))
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
        return self._finish(flat, scalars + seat_scalars, dense)


def encoder_for(view: Mapping[str, Any]) -> Encoder:
    """The encoder for the game, rules and table size that ``view`` shows."""
    factory = _ENCODERS.get(view["game"])
    if factory is None:
        raise ValueError(f"no observation encoder for game {view['game']!r}")
    return factory(int(view["players"]), view["rules"])


def _marriage(players: int, rules: Mapping[str, Any]) -> Encoder:
    return MarriageEncoder(players, int(rules["decks"]), int(rules["hand_size"]))


def _tunisian(players: int, rules: Mapping[str, Any]) -> Encoder:
    decks = int(rules["decks"])
    jokers = int(rules["jokers"])
    return TunisianEncoder(players, decks, jokers, (52 * decks + jokers) // 3)


_ENCODERS = {"marriage": _marriage, "tunisian": _tunisian}
