"""The RL observation of Marriage (``Game.observation``; docs/rl.md): the card planes and
scalars of the common encoder (``rami.rl.observation``) that are Marriage's own.
"""

from __future__ import annotations

from typing import cast

from rami.cards import Card
from rami.engine import GameState
from rami.marriage.game import MarriageState
from rami.marriage.phases import Phase
from rami.marriage.rules import rules_from
from rami.marriage.view import marriage_typed
from rami.rl.observation import (
    ALL_PARTS,
    HAND,
    NAMED,
    NEWS,
    PILE,
    TABLE,
    TURN_SCALE,
    Encoder,
    Obs,
    Planes,
)
from rami.views import GameView, TypedView, own_seat

# rami: compiled with mypyc in the accelerated build

__all__ = ["MarriageEncoder", "encoder"]

_OVER = Phase.OVER

# what ``_sync_seats`` keeps per seat: copies of its melds, exposed tunnelas and dublees,
# and the plane positions of each meld and of the tunnelas and dublees
_Seat = tuple[list[tuple[Card, ...]], list[Card], list[Card], list[list[int]], list[int]]

# what each verb may change besides the actor's own hand (``Encoder._touches``): TABLE is
# the seats' shown melds, exposed tunnelas and dublees; each of these changes the actor's
# hand in the kinds it names (and the card drawn or taken) only (NAMED); a verb not named
# here (``pass``, ``see``, ``finish``) keeps every part compared
_TOUCHES = {
    "draw": NAMED,
    "take": PILE | NAMED,
    "discard": PILE | NAMED,
    "show": TABLE | NAMED,
    "dublee": TABLE | NAMED,
    "expose": TABLE | NAMED,
    "meld": TABLE | NAMED,
    "add": TABLE | NAMED,
}


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
        self.init_args = (players, decks, hand_size)
        self.decks = decks
        self.hand_size = hand_size
        self.shoe = 52 * decks
        maps = self._rows
        self._seat_maps = [  # per relative seat: shown melds, exposed tunnelas, dublees
            tuple(maps[common + rel * 5 + j].__getitem__ for j in range(3))
            for rel in range(players)
        ]
        self._phase_at = {q: i for i, q in enumerate(self._phases)}  # its scalar's index
        # per observer, the seats in relative order (+0, +1, …)
        self._order = [[(me + r) % players for r in range(players)] for me in range(players)]
        pos = self._pos
        self._seat_pos = [
            tuple(pos[common + rel * 5 + j].__getitem__ for j in range(3)) for rel in range(players)
        ]

    def encode_state(self, state: GameState, seat: int) -> Obs:
        """``encode(state.view(seat))`` from the same fields ``build_view`` reads (the
        tiplu and wild cards only once the seat has seen, M-7), as integers. The seat's
        planes are kept between calls and only the parts that changed are moved
        (``Planes``)."""
        assert isinstance(state, MarriageState)  # this game's state (the envs hold one)
        me = seat
        pos = self._pos
        p = self._planes_for(state.events, me)
        delta = p.delta
        parts = p.parts
        diff = self._diff
        dirty = p.dirty  # only the parts the new events may have changed are compared
        p.dirty = 0
        if dirty & HAND:
            self._sync_hand(p, state.hands[seat][:52])  # no joker in Marriage
        elif dirty & NAMED:
            self._sync_kinds(p, state.hands[seat])
        if dirty & PILE:
            self._sync_pile(p, state.pile)
        if dirty & NEWS:  # the tiplu is picked, seen, or shown at the end by news (M-7)
            over = state.is_over
            tiplu = state.tiplu
            if (over or state.seen[seat]) and state.tiplu_picked and tiplu is not None:
                key: object = (int(tiplu), state.wilds)  # a frozenset
            else:
                key = None
            kept = parts.get("tiplu")
            if kept is None or kept[0] != key:
                new: list[int] = []
                if tiplu is not None and key is not None:
                    new.append(pos[5][int(tiplu)])
                    new += map(pos[6].__getitem__, state.wilds)
                diff(delta, [] if kept is None else kept[1], new)
                parts["tiplu"] = (key, new)
        if dirty & (PILE | NEWS):  # set by a take, cleared when the turn or deal ends
            taken = state.taken
            kept = parts.get("taken")
            if kept is None or kept[0] != taken:
                new = [] if taken is None else [pos[7][taken]]
                diff(delta, [] if kept is None else kept[1], new)
                parts["taken"] = (taken, new)
        if dirty & TABLE:
            self._sync_seats(p, state, me)
        self._write_scalars(p, state, me, dirty)
        return self._emit(p)

    def _touches(self, verb: str) -> int:
        return _TOUCHES.get(verb, ALL_PARTS)

    def _sync_seats(self, p: Planes, state: MarriageState, me: int) -> None:
        """Each seat's shown melds, exposed tunnelas and dublees (M-6, M-8). A seat's
        melds are compared one by one with the last call's: only a meld that is new or
        changed (Indian: a card added, M-10) moves its positions, not every meld the seat
        has on the table (many changes at once take the slower numpy path, ``_emit``)."""
        delta = p.delta
        parts = p.parts
        diff = self._diff
        seat_pos = self._seat_pos
        all_melds, all_exposed, all_dublees = state.melds, state.exposed, state.dublees
        for rel, s in enumerate(self._order[me]):
            melds, exposed, dublees = all_melds[s], all_exposed[s], all_dublees[s]
            kept = parts.get(s)
            if kept is None:
                old: _Seat = ([], [], [], [], [])
            else:
                old = cast(_Seat, kept[0])
                if melds == old[0] and exposed == old[1] and dublees == old[2]:
                    continue
            old_melds, old_exposed, old_dublees, old_pos, old_rest = old
            shown, exposing, dubleeing = seat_pos[rel]
            if melds != old_melds:
                done = len(old_melds)
                positions: list[list[int]] = []
                for i, meld in enumerate(melds):
                    if i < done and old_melds[i] == meld:
                        positions.append(old_pos[i])
                        continue
                    now = list(map(shown, meld))
                    diff(delta, old_pos[i] if i < done else (), now)
                    positions.append(now)
                for was in old_pos[len(melds) :]:
                    diff(delta, was, ())
            else:
                positions = old_pos
            if exposed != old_exposed or dublees != old_dublees:
                rest: list[int] = []
                if exposed:
                    rest += list(map(exposing, exposed)) * 3
                if dublees:
                    rest += list(map(dubleeing, dublees)) * 2
                diff(delta, old_rest, rest)
            else:
                rest = old_rest
            parts[s] = ((list(melds), list(exposed), list(dublees), positions, rest), rest)

    def _write_scalars(self, p: Planes, state: MarriageState, me: int, dirty: int) -> None:
        """The scalars, as ``encode`` computes them (``x if x < 1.0 else 1.0`` is
        min(1, x)), written into the kept vector only where their inputs changed since the
        seat's last call (``p.keys``; the state's lists are kept as copies). Whether the
        tiplu is picked and who has seen it change by news only (``NEWS``), a seat's path
        by a show or dublee (``TABLE``) or news."""
        keys = p.keys
        out = p.view
        b = self.plane_size
        phase, turn, stock, seat, sizes = state.scalars()  # one call (sizes: a tuple)
        if phase != keys[0]:
            at = self._phase_at
            if keys[0] is not None:
                out[b + at[cast(str, keys[0])]] = 0.0
            out[b + at[phase]] = 1.0
            keys[0] = phase
        if stock != keys[1]:
            out[b + 4] = stock / self.shoe
            keys[1] = stock
        if turn != keys[2]:
            x = turn / TURN_SCALE
            out[b + 5] = x if x < 1.0 else 1.0
            keys[2] = turn
        news = dirty & NEWS
        if news:
            picked = state.tiplu_picked
            if picked != keys[3]:
                out[b + 6] = 1.0 if picked else 0.0
                keys[3] = picked
        # per seat, in relative order: hand size, seen, melds path, dublees path, to move
        # (five entries from b + 7 + 5 * rel)
        order = self._order[me]
        old_sizes = keys[4]
        if sizes != old_sizes:
            size_scale = self.hand_size + 1
            if old_sizes is None:
                old_sizes = (-1,) * self.players
            for rel, s in enumerate(order):
                if sizes[s] != old_sizes[s]:  # type: ignore[index]
                    out[b + 7 + 5 * rel] = sizes[s] / size_scale
            keys[4] = sizes
        if news:
            seen = state.seen
            if seen != keys[5]:
                for rel, s in enumerate(order):
                    out[b + 8 + 5 * rel] = 1.0 if seen[s] else 0.0
                keys[5] = seen[:]
        if dirty & (TABLE | NEWS):
            paths = state.path
            if paths != keys[6]:
                for rel, s in enumerate(order):
                    path = paths[s]
                    out[b + 9 + 5 * rel] = 1.0 if path == "melds" else 0.0
                    out[b + 10 + 5 * rel] = 1.0 if path == "dublees" else 0.0
                keys[6] = paths[:]
        to_move = None if phase == _OVER else seat  # ``state.to_move``
        if to_move != keys[7]:
            n = self.players
            if keys[7] is not None:
                out[b + 11 + 5 * ((cast(int, keys[7]) - me) % n)] = 0.0
            if to_move is not None:
                out[b + 11 + 5 * ((to_move - me) % n)] = 1.0
            keys[7] = to_move

    def encode(self, view: TypedView | GameView) -> Obs:
        view = marriage_typed(view)
        me = own_seat(view)
        n = self.players
        pos = self._pos
        flat: list[int] = []
        hand = view.hand
        if hand:
            flat += map(pos[0].__getitem__, hand)
        pile = view.discard_pile
        if pile:
            flat += map(pos[1].__getitem__, pile)
            for depth in range(min(3, len(pile))):
                flat.append(pos[2 + depth][pile[-1 - depth]])
        tiplu = view.tiplu
        if tiplu is not None:
            flat.append(pos[5][tiplu])
            flat += map(pos[6].__getitem__, view.wild_cards or ())
        taken = view.taken
        if taken is not None:
            flat.append(pos[7][taken])
        h = self._history(view, me)
        to_move = view.to_move
        phase = view.phase
        scalars = [1.0 if phase == p else 0.0 for p in self._phases]
        scalars += [
            view.stock_size / self.shoe,
            min(1.0, view.turn / TURN_SCALE),
            1.0 if view.tiplu_picked else 0.0,
        ]
        seat_scalars = [0.0] * (5 * n)
        size_scale = self.hand_size + 1
        seat_pos = self._seat_pos
        for s, entry in enumerate(view.seats):
            rel = (s - me) % n
            shown, exposing, dubleeing = seat_pos[rel]
            for meld in entry.melds:
                flat += map(shown, meld)
            exposed = entry.exposed_tunnelas
            if exposed:
                flat += list(map(exposing, exposed)) * 3
            dublees = entry.dublees
            if dublees:
                flat += list(map(dubleeing, dublees)) * 2
            path = entry.path
            seat_scalars[rel * 5 : rel * 5 + 5] = (
                entry.hand_size / size_scale,
                1.0 if entry.seen else 0.0,
                1.0 if path == "melds" else 0.0,
                1.0 if path == "dublees" else 0.0,
                1.0 if to_move == s else 0.0,
            )
        return self._finish(flat, h, scalars + seat_scalars)


def encoder(players: int, rules: object) -> Encoder:
    """The encoder for a table of ``players`` under these rules (``Game.observation``)."""
    found = rules_from(rules).for_players(players)
    return MarriageEncoder(players, found.decks, found.hand_size)
