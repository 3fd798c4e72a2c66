"""The RL observation of Tunisian rami (``Game.observation``; docs/rl.md): the card planes and
scalars of the common encoder (``rami.rl.observation``) that are Tunisian rami's own.
"""

from __future__ import annotations

from typing import cast

from rami.engine import GameState
from rami.rl.observation import (
    ALL_PARTS,
    HAND,
    NEWS,
    PILE,
    TABLE,
    TURN_SCALE,
    Encoder,
    Obs,
    Planes,
)
from rami.tunisian.game import TableMeld, TunisianState
from rami.tunisian.phases import Phase
from rami.tunisian.rules import rules_from
from rami.tunisian.view import tunisian_typed
from rami.views import GameView, TypedView, own_seat

# rami: compiled with mypyc in the accelerated build

__all__ = ["TunisianEncoder", "encoder"]

_OVER = Phase.OVER
_JOKER = 52  # the joker's kind, last
_JOKER_SHIFT = 2 * _JOKER  # where a packed hand keeps the jokers' count (3 bits, the top)

# what each verb may change besides the actor's own hand (``Encoder._touches``)
_TOUCHES = {"draw": 0, "take": PILE, "discard": PILE, "meld": TABLE, "add": TABLE, "swap": TABLE}


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
        self.init_args = (players, decks, jokers, table_cap)
        self.decks = decks
        self.jokers = jokers
        self.shoe = 52 * decks + jokers
        maps = self._rows
        self._laid = [maps[common + rel * 3 + 2].__getitem__ for rel in range(players)]
        self._table_maps = [m.__getitem__ for m in maps[common + players * 3 :]]
        pos = self._pos
        self._laid_pos = [pos[common + rel * 3 + 2].__getitem__ for rel in range(players)]
        self._table_pos = [p.__getitem__ for p in pos[common + players * 3 :]]
        self._phase_at = {q: i for i, q in enumerate(self._phases)}  # its scalar's index
        # per observer, the seats in relative order (+0, +1, …) and the partner flags
        self._order = [[(me + r) % players for r in range(players)] for me in range(players)]
        self._partner_of: dict[int, tuple[float, ...]] = {}

    def encode_state(self, state: GameState, seat: int) -> Obs:
        """``encode(state.view(seat))`` from the properties ``seat_view`` reads (and the
        seat's own hand, packed: ``hand_key``), as integers: no view is
        built. The seat's planes are kept between calls and only the parts the new
        events may have changed are compared (``Planes.dirty``)."""
        assert isinstance(state, TunisianState)  # this game's state (the envs hold one)
        me = seat
        p = self._planes_for(state.events, me)
        dirty = p.dirty
        if dirty:  # only the parts the new events may have changed are compared
            if dirty & HAND:
                self._sync_hand_key(p, state.hand_key(seat))
            if dirty & PILE:  # the won deal's farcha lies face down, off the pile (T-9)
                pile = state.discard_pile  # a tuple, kept as it is (_sync_pile)
                won = state.result is not None and state.result.winner is not None
                self._sync_pile(p, pile[:-1] if won else pile)
            if dirty & TABLE:
                self._sync_table(p, state.table, me)
            p.dirty = 0
        self._write_scalars(p, state, me, dirty)
        return self._emit(p)

    def _touches(self, verb: str) -> int:
        return _TOUCHES.get(verb, ALL_PARTS)

    @staticmethod
    def _sync_hand_key(p: Planes, key: int) -> None:
        """Row 0 from the hand as the state keeps it packed (two bits a natural kind, the
        jokers' count from bit 104: ``rami.tunisian.solver.pack``): the kinds whose bits
        differ from the last call's key are the kinds whose counts changed."""
        old = p.hand_key
        if key == old:
            return
        delta = p.delta
        get = delta.get
        x = key ^ old
        while x:
            shift = ((x & -x).bit_length() - 1) & ~1
            if shift < _JOKER_SHIFT:
                k = shift >> 1
                d = ((key >> shift) & 3) - ((old >> shift) & 3)
                x &= ~(3 << shift)
            else:
                k = _JOKER
                d = (key >> _JOKER_SHIFT) - (old >> _JOKER_SHIFT)
                x = 0
            delta[k] = get(k, 0) + d
        p.hand_key = key

    def _sync_table(self, p: Planes, table: tuple[TableMeld, ...], me: int) -> None:
        """The table melds' positions: each seat's "laid on the table" row, the melds'
        own rows and the cards the jokers stand for."""
        parts = p.parts
        kept = parts.get("table")
        if kept is None or kept[0] != table:
            old_table: tuple[TableMeld, ...] = () if kept is None else kept[0]  # type: ignore[assignment]
            for i in range(max(len(table), len(old_table))):
                now = table[i] if i < len(table) else None
                was = old_table[i] if i < len(old_table) else None
                if now != was:
                    self._diff(
                        p.delta, self._meld_positions(was, i, me), self._meld_positions(now, i, me)
                    )
            parts["table"] = (table, [])

    def _write_scalars(self, p: Planes, state: TunisianState, me: int, dirty: int) -> None:
        """The scalars, as ``encode`` computes them (``x if x < 1.0 else 1.0`` is
        min(1, x)), written into the kept vector only where their inputs changed since the
        seat's last call (``p.keys``: most of them stay as they were from turn to turn).
        The inputs are the state's public properties, the ones the view reads (tuples:
        kept as they are, no copy). What
        only an opening changes (the threshold, who opened and with what, T-6) and the
        seats in play (T-13) are compared after a news event only (``NEWS``)."""
        keys = p.keys
        out = p.view
        b = self.plane_size
        phase, turn, stock, seat, staged, must, sizes = state.scalars()  # one call
        if phase != keys[0]:
            at = self._phase_at
            if keys[0] is not None:
                out[b + at[cast(str, keys[0])]] = 0.0
            out[b + at[phase]] = 1.0
            keys[0] = phase
        over = phase == _OVER
        order = self._order[me]
        news = dirty & NEWS
        if news:
            active = state.active
            if active != keys[8]:
                for rel, s in enumerate(order):
                    out[b + 11 + 6 * rel] = 1.0 if active[s] else 0.0
                keys[8] = active
                keys[3] = None  # the first round depends on the seats in play (T-3)
            threshold = max(1, state.threshold)  # T-6: from the last opening
            new_threshold = threshold != keys[4]
            if new_threshold:
                x = threshold / 200.0
                out[b + 7] = x if x < 1.0 else 1.0
                keys[4] = threshold
        else:
            threshold = keys[4]  # type: ignore[assignment]
            new_threshold = False
        if turn != keys[3]:
            x = turn / TURN_SCALE
            out[b + 6] = x if x < 1.0 else 1.0
            keys[3] = turn
            first = state.first_round  # from the turn and the seats in play (T-3)
            if first != keys[1]:
                out[b + 4] = 1.0 if first else 0.0
                keys[1] = first
        if stock != keys[2]:
            out[b + 5] = stock / self.shoe
            keys[2] = stock
        to_move = None if over else seat
        if over:
            staged = 0
        if new_threshold or staged != keys[5]:
            x = staged / threshold
            out[b + 8] = x if x < 1.0 else 1.0
            keys[5] = staged
        must = not over and must  # T-8
        if must != keys[6]:
            out[b + 9] = 1.0 if must else 0.0
            keys[6] = must
        # per seat, in relative order: hand size, active, opened, opening value, partner,
        # to move (six entries from b + 10 + 6 * rel)
        old_sizes = keys[7]
        if sizes != old_sizes:
            if old_sizes is None:
                old_sizes = [-1] * self.players
            for rel, s in enumerate(order):
                if sizes[s] != old_sizes[s]:  # type: ignore[index]
                    x = sizes[s] / 16.0
                    out[b + 10 + 6 * rel] = x if x < 1.0 else 1.0
            keys[7] = sizes
        if news:
            opened = state.opened
            if opened != keys[9]:
                for rel, s in enumerate(order):
                    out[b + 12 + 6 * rel] = 1.0 if opened[s] else 0.0
                keys[9] = opened
            values = state.opening_values
            if new_threshold or values != keys[10]:
                for rel, s in enumerate(order):
                    value = values[s]
                    x = 0.0 if value is None else value / threshold
                    out[b + 13 + 6 * rel] = x if x < 1.0 else 1.0
                keys[10] = values
            if keys[11] is None:  # fixed for a table
                partner = self._partners(state, me)
                for rel, s in enumerate(order):
                    out[b + 14 + 6 * rel] = partner[s]
                keys[11] = True
        if to_move != keys[12]:
            n = self.players
            if keys[12] is not None:
                out[b + 15 + 6 * ((cast(int, keys[12]) - me) % n)] = 0.0
            if to_move is not None:
                out[b + 15 + 6 * ((to_move - me) % n)] = 1.0
            keys[12] = to_move

    def _partners(self, state: TunisianState, me: int) -> tuple[float, ...]:
        """Per seat, 1.0 for ``me``'s partner (2v2, T-1): fixed for a table."""
        found = self._partner_of.get(me)
        if found is None:
            mine = state.team(me)
            found = self._partner_of[me] = tuple(
                1.0 if (t := state.team(s)) is not None and t == mine and s != me else 0.0
                for s in range(self.players)
            )
        return found

    def _meld_positions(self, entry: TableMeld | None, i: int, me: int) -> list[int]:
        """The plane positions table meld ``i`` fills for ``me``: its owner's "laid on the
        table" row, its own row (below the cap) and the card its joker stands for."""
        if entry is None:
            return []
        meld, owner = entry
        cards = meld.cards
        out = list(map(self._laid_pos[(owner - me) % self.players], cards))
        if i < self.table_cap:
            out += map(self._table_pos[i], cards)
        if meld.joker_as is not None:
            out.append(self._pos[6][meld.joker_as])
        return out

    def encode(self, view: TypedView | GameView) -> Obs:
        view = tunisian_typed(view)
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
        h = self._history(view, me)
        laid = self._laid_pos
        table_pos = self._table_pos
        cap = self.table_cap
        jokers_as = pos[6]
        for i, (meld, owner) in enumerate(view.table):
            cards = meld.cards
            flat += map(laid[(owner - me) % n], cards)
            if i < cap:
                flat += map(table_pos[i], cards)
            if meld.joker_as is not None:
                flat.append(jokers_as[meld.joker_as])
        phase = view.phase
        threshold = max(1, view.threshold)
        scalars = [1.0 if phase == p else 0.0 for p in self._phases]
        scalars += [
            1.0 if view.first_round else 0.0,
            view.stock_size / self.shoe,
            min(1.0, view.turn / TURN_SCALE),
            min(1.0, threshold / 200.0),
            min(1.0, view.staged_value / threshold),
            1.0 if view.must_open else 0.0,
        ]
        seat_scalars = [0.0] * (6 * n)
        my_team = view.team
        to_move = view.to_move
        sizes, active, opened = view.hand_sizes, view.active, view.opened
        values = view.opening_values
        teams = view.teams is not None
        for s in range(n):
            rel = (s - me) % n
            value = values[s]
            team = s % 2 if teams else None
            seat_scalars[rel * 6 : rel * 6 + 6] = (
                min(1.0, sizes[s] / 16.0),
                1.0 if active[s] else 0.0,
                1.0 if opened[s] else 0.0,
                0.0 if value is None else min(1.0, value / threshold),
                1.0 if team is not None and team == my_team and s != me else 0.0,
                1.0 if to_move == s else 0.0,
            )
        return self._finish(flat, h, scalars + seat_scalars)


def encoder(players: int, rules: object) -> Encoder:
    """The encoder for a table of ``players`` under these rules (``Game.observation``)."""
    found = rules_from(rules)
    decks = found.decks
    jokers = found.jokers
    return TunisianEncoder(players, decks, jokers, (52 * decks + jokers) // 3)
