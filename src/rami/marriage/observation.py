"""The RL observation of Marriage (``Game.observation``; docs/rl.md): the card planes and
scalars of the common encoder (``rami.rl.observation``) that are Marriage's own.
"""

from __future__ import annotations

from rami.engine import GameState
from rami.marriage.game import MarriageState
from rami.marriage.rules import rules_from
from rami.marriage.view import marriage_view
from rami.rl.observation import TURN_SCALE, Encoder, Obs
from rami.views import GameView, own_seat

__all__ = ["MarriageEncoder", "encoder"]


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
        self._phase_hot = {q: [1.0 if q == x else 0.0 for x in self._phases] for q in self._phases}
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
        (``_Planes``)."""
        assert isinstance(state, MarriageState)  # this game's state (the envs hold one)
        me = seat
        pos = self._pos
        p = self._planes_for(state.events, me)
        delta = p.delta
        parts = p.parts
        diff = self._diff
        self._sync_hand(p, state.hands[seat][:52])  # no joker in Marriage
        self._sync_pile(p, tuple(state.pile))
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
        taken = state.taken
        kept = parts.get("taken")
        if kept is None or kept[0] != taken:
            new = [] if taken is None else [pos[7][taken]]
            diff(delta, [] if kept is None else kept[1], new)
            parts["taken"] = (taken, new)
        to_move = state.to_move
        scalars = list(self._phase_hot[state.phase])
        turn = state.turn / TURN_SCALE
        scalars += (
            len(state.stock) / self.shoe,
            turn if turn < 1.0 else 1.0,  # min(1, turn), as ``encode``
            1.0 if state.tiplu_picked else 0.0,
        )
        size_scale = self.hand_size + 1
        seat_pos = self._seat_pos
        sizes = state.sizes
        seen = state.seen
        paths = state.path
        all_melds, all_exposed, all_dublees = state.melds, state.exposed, state.dublees
        for rel, s in enumerate(self._order[me]):
            melds, exposed, dublees = all_melds[s], all_exposed[s], all_dublees[s]
            kept = parts.get(s)
            if kept is None or kept[0] != (melds, exposed, dublees):
                shown, exposing, dubleeing = seat_pos[rel]
                new = []
                for meld in melds:
                    new += map(shown, meld)
                if exposed:
                    new += list(map(exposing, exposed)) * 3
                if dublees:
                    new += list(map(dubleeing, dublees)) * 2
                diff(delta, [] if kept is None else kept[1], new)
                parts[s] = ((list(melds), list(exposed), list(dublees)), new)
            path = paths[s]
            scalars += (
                sizes[s] / size_scale,
                1.0 if seen[s] else 0.0,
                1.0 if path == "melds" else 0.0,
                1.0 if path == "dublees" else 0.0,
                1.0 if to_move == s else 0.0,
            )
        return self._emit(p, scalars)

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
            min(1.0, view["turn"] / TURN_SCALE),
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


def encoder(players: int, rules: object) -> Encoder:
    """The encoder for a table of ``players`` under these rules (``Game.observation``)."""
    found = rules_from(rules)
    return MarriageEncoder(players, found.decks, found.hand_size)
