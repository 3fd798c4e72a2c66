"""The RL observation of Tunisian rami (``Game.observation``; docs/rl.md): the card planes and
scalars of the common encoder (``rami.rl.observation``) that are Tunisian rami's own.
"""

from __future__ import annotations

from typing import cast

from rami.engine import GameState
from rami.rl.observation import TURN_SCALE, Encoder, Obs, _Planes
from rami.tunisian.game import TableMeld, TunisianState
from rami.tunisian.rules import rules_from
from rami.tunisian.view import tunisian_view
from rami.views import GameView, own_seat

# rami: compiled with mypyc in the accelerated build

__all__ = ["TunisianEncoder", "encoder"]


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
        """``encode(state.view(seat))`` from the same public properties ``build_view``
        reads (and the seat's own hand), as integers: no view is built. The seat's planes
        are kept between calls and only the parts that changed are moved (``_Planes``)."""
        assert isinstance(state, TunisianState)  # this game's state (the envs hold one)
        me = seat
        p = self._planes_for(state.events, me)
        self._sync_hand(p, state.hand_counts(seat))
        self._sync_pile(p, state.discard_pile)
        table = state.table
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
        self._write_scalars(p, state, me)
        return self._emit(p)

    def _write_scalars(self, p: _Planes, state: TunisianState, me: int) -> None:
        """The scalars, as ``encode`` computes them (``x if x < 1.0 else 1.0`` is
        min(1, x)), written into the kept vector only where their inputs changed since the
        seat's last call (``p.keys``: most of them stay as they were from turn to turn)."""
        keys = p.keys
        out = p.view
        b = self.plane_size
        phase = state.phase
        if phase != keys[0]:
            at = self._phase_at
            if keys[0] is not None:
                out[b + at[cast(str, keys[0])]] = 0.0
            out[b + at[phase]] = 1.0
            keys[0] = phase
        first = state.first_round
        if first != keys[1]:
            out[b + 4] = 1.0 if first else 0.0
            keys[1] = first
        stock = state.stock_size
        if stock != keys[2]:
            out[b + 5] = stock / self.shoe
            keys[2] = stock
        turn = state.turn
        if turn != keys[3]:
            x = turn / TURN_SCALE
            out[b + 6] = x if x < 1.0 else 1.0
            keys[3] = turn
        threshold = max(1, state.threshold)
        new_threshold = threshold != keys[4]
        if new_threshold:
            x = threshold / 200.0
            out[b + 7] = x if x < 1.0 else 1.0
            keys[4] = threshold
        to_move = state.to_move
        staged = state.staged_value if to_move is not None else 0
        if new_threshold or staged != keys[5]:
            x = staged / threshold
            out[b + 8] = x if x < 1.0 else 1.0
            keys[5] = staged
        must = to_move is not None and state.must_open
        if must != keys[6]:
            out[b + 9] = 1.0 if must else 0.0
            keys[6] = must
        # per seat, in relative order: hand size, active, opened, opening value, partner,
        # to move (six entries from b + 10 + 6 * rel)
        order = self._order[me]
        sizes = state.hand_sizes
        if sizes != keys[7]:
            for rel, s in enumerate(order):
                x = sizes[s] / 16.0
                out[b + 10 + 6 * rel] = x if x < 1.0 else 1.0
            keys[7] = sizes
        active = state.active
        if active != keys[8]:
            for rel, s in enumerate(order):
                out[b + 11 + 6 * rel] = 1.0 if active[s] else 0.0
            keys[8] = active
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
            min(1.0, view["turn"] / TURN_SCALE),
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


def encoder(players: int, rules: object) -> Encoder:
    """The encoder for a table of ``players`` under these rules (``Game.observation``)."""
    found = rules_from(rules)
    decks = found.decks
    jokers = found.jokers
    return TunisianEncoder(players, decks, jokers, (52 * decks + jokers) // 3)
