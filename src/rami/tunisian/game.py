"""The Tunisian rami deal as a state machine (rules T-1 … T-11).

A turn is built from small steps so that every decision point has a short list of legal
actions: ``draw`` or ``take``; any number of ``meld``, ``add`` and ``swap``; ``discard``
(which ends the turn, and going out is discarding the last card, T-9). Before opening,
melds are *staged*: each ``meld`` is legal only if the opening can still be completed
(the staged value plus the best opening the rest of the hand holds reaches the
threshold), and the opening is committed by the first step that is not a ``meld``. So an
opening below the threshold can never be committed, and a player who took the discard
before opening (T-8) always has a way to open.

``apply`` is all-or-nothing: it checks everything, raises ``IllegalAction`` with a reason
a person understands, and only then changes the state. Chance (the deal, reshuffling the
discard pile, T-11) is derived from ``(seed, counter)`` with ``chance_rng``, so a state
clones cheaply and replays exactly from ``(rules, seed, dealer, active, actions)``.

Engine decisions (the rules leave them open):

- Every meld laid before the commit counts in the opening (T-6 "in one action").
- The empty stock is remade when a draw step starts (T-11), before the player chooses
  between ``draw`` and ``take``; with at most one card in the pile the deal ends then.
- During the first round nobody may take the discard before opening either, since
  taking it obliges an opening that the first round forbids (T-3, T-8).
- The going-out card is put on the discard pile and shown: the deal is over (T-9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rami.cards import (
    CARDS,
    JOKER,
    KINDS,
    Card,
    CardError,
    counts,
    from_counts,
    parse_cards,
    shoe,
    shuffled_shoe,
    sort_key,
)
from rami.engine import DealResult, Event, chance_rng
from rami.errors import IllegalAction, InputError
from rami.kernel import Deal
from rami.tunisian.invariants import check_invariants, snapshot
from rami.tunisian.melds import Meld, make_meld
from rami.tunisian.opening_search import packed
from rami.tunisian.phases import Phase, Verb
from rami.tunisian.rules import TunisianRules, rules_from
from rami.tunisian.settle import deal_points
from rami.tunisian.verbs import BY_KIND, BY_PHASE, Offs
from rami.tunisian.view import build_view

if TYPE_CHECKING:
    from rami.tunisian.view import TunisianDetails, TunisianView

__all__ = [
    "PHASES",
    "Phase",
    "TableMeld",
    "TunisianState",
    "Verb",
    "new_deal",
]

#: Turn steps: the dealer's discard-only first turn (T-2), drawing, laying/discarding.
FIRST_DISCARD = Phase.FIRST_DISCARD
DRAW = Phase.DRAW
PLAY = Phase.PLAY
OVER = Phase.OVER
PHASES = tuple(Phase)

TableMeld = tuple[Meld, int]
"""A meld on the table and the seat that laid it."""

_JOKER_INDEX = int(JOKER)
_TEXT = tuple(str(c) for c in CARDS)  # card index -> its text


def _card_list(cards: str | Sequence[Any]) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [c if isinstance(c, Card) else parse_cards([str(c)])[0] for c in cards]


class TunisianState(Deal):
    """One deal of Tunisian rami on the deal kernel (``rami.kernel.Deal``): the table
    state below, its verbs in ``rami.tunisian.verbs``. Build with ``new_deal`` (or
    ``from_position``)."""

    __slots__ = (
        "_all_offs",
        "_below",
        "_discard",
        "_drawn",
        "_fact",
        "_hands",
        "_keys",
        "_last_opening",
        "_need",
        "_offs",
        "_opened",
        "_opening_values",
        "_restocks",
        "_round",
        "_sizes",
        "_staged",
        "_staged_melds",
        "_stock",
        "_table",
        "_taken",
        "_through",
        "_took",
        "rules",
    )

    GAME = "tunisian"
    TITLE = "Tunisian rami"
    OVER = OVER
    UNKNOWN_VERB = "unknown action '{kind}': use draw, take, meld, add, swap or discard"
    _by_kind = BY_KIND
    _by_phase = BY_PHASE

    rules: TunisianRules
    _phase: Phase
    _result: DealResult[TunisianDetails] | None
    _hands: list[bytearray]  # count vectors
    _keys: list[int]  # the same hands packed (``rami.tunisian.opening_search``)
    _sizes: list[int]
    _stock: list[Card]
    _discard: list[Card]
    _table: list[TableMeld]
    # what each table meld takes (``verbs.lay_offs``) as {action: meld after it} entries
    # by card (adds, swaps), None until asked; in step with ``_table``
    _offs: list[Offs | None]
    _all_offs: Offs | None  # every index's adds, then every index's swaps; None: remake
    _opened: list[bool]
    _opening_values: list[int | None]
    _last_opening: int | None
    _staged: int
    _staged_melds: list[int]
    _took: Card | None
    _taken: Card | None  # the discard taken this turn, opened or not (T-3)
    _need: Card | None
    _restocks: int
    _round: int  # the turns of the first round: one per active seat (T-3)
    # Speed-ups only (never change what is legal): see ``verbs._Meld.candidates``.
    _below: list[int | None]
    _fact: int | None
    _drawn: Card | None
    # A card every opening the unopened seat to move can still complete this turn holds:
    # its hand without the card holds no melds worth what the opening still needs (the
    # card drawn or taken onto a hand known, by ``_below``, to hold no opening). Staging
    # a meld without it keeps that so; staging one with it ends it (T-6).
    _through: Card | None

    # ----------------------------------------------------------------- the kernel's hooks

    def _num_seats(self) -> int:
        return self.rules.players

    def _rules_json(self) -> Mapping[str, object]:
        return self.rules.to_json()

    def _copy_table(self, other: TunisianState) -> None:
        other.rules = self.rules
        other._hands = [h[:] for h in self._hands]
        other._keys = self._keys[:]
        other._sizes = self._sizes[:]
        other._stock = self._stock[:]
        other._discard = self._discard[:]
        other._table = self._table[:]
        other._offs = self._offs[:]
        other._all_offs = self._all_offs  # tuples, never changed
        other._opened = self._opened[:]
        other._opening_values = self._opening_values[:]
        other._last_opening = self._last_opening
        other._staged = self._staged
        other._staged_melds = self._staged_melds[:]
        other._took = self._took
        other._taken = self._taken
        other._need = self._need
        other._restocks = self._restocks
        other._round = self._round
        other._below = self._below[:]
        other._fact = self._fact
        other._drawn = self._drawn
        other._through = self._through

    # ----------------------------------------------------------------- building

    def __init__(self) -> None:
        raise TypeError("use new_deal(...) or TunisianState.from_position(...)")

    @classmethod
    def _blank(
        cls, rules: TunisianRules, seed: int, dealer: int, active: tuple[bool, ...]
    ) -> TunisianState:
        self = object.__new__(cls)
        self._begin(seed, dealer, active, dealer)
        self.rules = rules
        n = rules.players
        self._hands = [bytearray(KINDS) for _ in range(n)]
        self._sizes = [0] * n
        self._keys = [0] * n
        self._stock = []
        self._discard = []
        self._table = []
        self._offs = []
        self._all_offs = None
        self._opened = [False] * n
        self._opening_values = [None] * n
        self._last_opening = None
        self._phase = FIRST_DISCARD
        self._staged = 0
        self._staged_melds = []
        self._took = None
        self._taken = None
        self._need = None
        self._restocks = 0
        self._round = sum(active)
        self._below = [None] * n
        self._fact = None
        self._drawn = None
        self._through = None
        return self

    @classmethod
    def new(
        cls,
        rules: TunisianRules | str | Mapping[str, Any] | None,
        seats: int,
        seed: int,
        dealer: int = 0,
        *,
        active: Sequence[bool] | None = None,
    ) -> TunisianState:
        """A freshly dealt deal (T-2): the dealer 15 cards, the others 14, no discard.

        The builder every game's deal shares: ``new(rules, seats, seed, dealer)``;
        ``seats`` is the table's size, which the mode fixes (T-1: 2 in 1v1, 4 in ffa and
        2v2); ``active`` marks the seats still in the game (T-13).
        """
        r = rules_from(rules)
        if isinstance(seats, bool) or not isinstance(seats, int) or seats != r.players:
            raise InputError(
                f"Tunisian rami {r.mode} is for {r.players} seats, not {seats!r} (T-1)"
            )
        act = _check_seats(r, dealer, active)
        cards = shuffled_shoe(r.decks, r.jokers, chance_rng(seed, 0, "deal"))
        return cls._dealt(r, seed, dealer, act, cards)

    @classmethod
    def _dealt(
        cls,
        rules: TunisianRules,
        seed: int,
        dealer: int,
        act: tuple[bool, ...],
        cards: Sequence[Card],
    ) -> TunisianState:
        self: TunisianState = cls._blank(rules, seed, dealer, act)
        pos = 0
        for seat in self._seats_from(dealer):
            take = rules.hand_size + (1 if seat == dealer else 0)
            for c in cards[pos : pos + take]:
                self._hands[seat][c] += 1
            self._sizes[seat] = take
            self._keys[seat] = packed(cards[pos : pos + take])
            pos += take
        self._stock = list(cards[pos:])
        self._events.append(
            {
                "seat": dealer,
                "action": None,
                "news": "deal",
                "text": f"seat {dealer} deals",
                "data": {"dealer": dealer, "hand_sizes": list(self._sizes)},
                "chance": {"kind": "deal", "cards": [_TEXT[c] for c in cards]},
            }
        )
        return self

    @staticmethod
    def dealt_seats(
        rules: TunisianRules | str | Mapping[str, Any] | None,
        seats: int,
        dealer: int = 0,
        *,
        active: Sequence[bool] | None = None,
    ) -> list[int | None]:
        """Who gets each position of the shoe as dealt (the ``deal`` chance outcome).

        T-2: the dealer's 15 cards first, then 14 to each seat in the direction of
        play (counter-clockwise), then the stock (``None``; its last card is drawn first).
        """
        r = rules_from(rules)
        act = _check_seats(r, dealer, active)
        blank: TunisianState = TunisianState._blank(r, 0, dealer, act)
        out: list[int | None] = []
        for seat in blank._seats_from(dealer):
            out += [seat] * (r.hand_size + (1 if seat == dealer else 0))
        return out + [None] * (sum(_full_shoe(r)) - len(out))

    @classmethod
    def from_deal(
        cls,
        rules: TunisianRules | str | Mapping[str, Any] | None,
        seats: int,
        order: Sequence[int],
        seed: int,
        dealer: int = 0,
        *,
        active: Sequence[bool] | None = None,
    ) -> TunisianState:
        """The deal of the shoe in exactly ``order`` (as ``dealt_seats`` lays it out).

        ``new`` is this with a shuffled shoe; a wrapper that deals by chance nodes
        (OpenSpiel) builds its deal here. Reshuffles follow from ``seed`` and are
        reported by ``chance_outcomes``.
        """
        r = rules_from(rules)
        if seats != r.players:
            raise InputError(f"Tunisian rami {r.mode} is for {r.players} seats, not {seats!r}")
        act = _check_seats(r, dealer, active)
        cards = [CARDS[int(c)] for c in order]
        if counts(cards) != _full_shoe(r):
            raise InputError("the order must hold the whole shoe once")
        return cls._dealt(r, seed, dealer, act, cards)

    @classmethod
    def from_position(
        cls,
        rules: TunisianRules | str | Mapping[str, Any] | None,
        hands: Sequence[str | Sequence[Any]],
        *,
        stock_top: str | Sequence[Any] = (),
        stock: str | Sequence[Any] | None = None,
        discard: str | Sequence[Any] = (),
        table: Sequence[tuple[str | Sequence[Any], int]] = (),
        opened: Sequence[bool] | None = None,
        opening_values: Sequence[int | None] | None = None,
        last_opening: int | None = None,
        to_move: int = 0,
        dealer: int | None = None,
        phase: str | Phase = DRAW,
        turn: int | None = None,
        active: Sequence[bool] | None = None,
        seed: int = 0,
        staged: Sequence[int] = (),
        took: str | Card | None = None,
        taken: str | Card | None = None,
    ) -> TunisianState:
        """A chosen position (tests, puzzles, teaching) holding all the shoe's cards.

        ``stock_top`` lists the next cards drawn, first one first; the rest of the shoe
        fills the stock beneath them in a seeded order. Give ``stock`` instead for an
        exact stock (top last); then the cards left over go to the bottom of the discard
        pile. ``turn`` counts turns already played (default: past the first round).
        In the ``play`` phase, ``staged`` lists the table melds the unopened seat to move
        has laid towards its opening this turn, and ``took`` the discard it took (T-8);
        ``taken``, for an opened seat in ``play``, the discard it took this turn (T-3).
        """
        rules = rules_from(rules)
        dealer = to_move if dealer is None else dealer
        act = _check_seats(rules, dealer, active)
        if phase not in (FIRST_DISCARD, DRAW, PLAY):
            raise InputError(f"phase must be one of {FIRST_DISCARD}, {DRAW}, {PLAY}")
        if not (0 <= to_move < rules.players and act[to_move]):
            raise InputError(f"seat {to_move} cannot be the seat to move")
        if len(hands) != rules.players:
            raise InputError(f"give {rules.players} hands, one per seat")
        self: TunisianState = cls._blank(rules, seed, dealer, act)
        used: list[Card] = []
        for seat, hand in enumerate(hands):
            cards = _card_list(hand)
            if cards and not act[seat]:
                raise InputError(f"seat {seat} is out of the game and holds no cards")
            for c in cards:
                self._hands[seat][c] += 1
            self._sizes[seat] = len(cards)
            self._keys[seat] = packed(cards)
            used += cards
        for cards_spec, owner in table:
            cards = _card_list(cards_spec)
            try:
                meld = make_meld(cards)
            except IllegalAction as exc:
                raise InputError(f"table meld {format_list(cards)}: {exc}") from None
            self._table.append((meld, owner))
            self._offs.append(None)
            self._all_offs = None
            used += cards
        self._discard = _card_list(discard)
        used += self._discard
        full = counts(shoe(rules.decks, rules.jokers))
        have = counts(used)
        for i in range(KINDS):
            if have[i] > full[i]:
                raise CardError(f"too many {CARDS[i]}: {have[i]} given, the shoe holds {full[i]}")
        rest = from_counts([full[i] - have[i] for i in range(KINDS)])
        if stock is None:
            top = _card_list(stock_top)
            for c in top:
                if rest.count(c) == 0:
                    raise CardError(f"too many {c}: the shoe holds {full[c]}")
                rest.remove(c)
            chance_rng(seed, 0, "fill").shuffle(rest)
            self._stock = rest + top[::-1]
        else:
            self._stock = _card_list(stock)
            for c in self._stock:
                if rest.count(c) == 0:
                    raise CardError(f"too many {c}: the shoe holds {full[c]}")
                rest.remove(c)
            self._discard = rest + self._discard
        self._opened = list(opened) if opened is not None else [False] * rules.players
        if opening_values is not None:
            self._opening_values = list(opening_values)
        else:
            self._opening_values = [None] * rules.players
        self._last_opening = last_opening
        self._to_move = to_move
        self._phase = Phase(phase)
        self._turn = sum(act) if turn is None else turn
        if staged or took is not None:
            self._restore_turn(staged, took)
        if taken is not None:
            card = taken if isinstance(taken, Card) else _card_list([taken])[0]
            if phase != PLAY:
                raise InputError("a card taken this turn belongs to the play phase")
            self._taken = card
        self._start = self._position_doc()
        self._events.append(
            {
                "seat": None,
                "action": None,
                "news": "position",
                "text": "the deal starts from a set position",
                "data": {"to_move": to_move, "hand_sizes": list(self._sizes)},
            }
        )
        if phase == DRAW:
            self._begin_draw()
        return self

    def _restore_turn(self, staged: Sequence[int], took: str | Card | None) -> None:
        seat = self._to_move
        if self._phase != PLAY or self._opened[seat]:
            raise InputError("staged melds and a taken card belong to an unopened seat in play")
        for index in staged:
            if not (0 <= index < len(self._table) and self._table[index][1] == seat):
                raise InputError(f"staged meld @{index} is not a table meld of seat {seat}")
        self._staged_melds = list(staged)
        self._staged = sum(self._table[i][0].value for i in staged)
        if took is not None:
            card = took if isinstance(took, Card) else _card_list([took])[0]
            self._took = card
            self._taken = card
            used = any(card in self._table[i][0].cards for i in staged)
            if self.rules.taken_card_in_opening and not used:
                self._need = card

    def _position_doc(self) -> dict[str, Any]:
        return {
            "hands": [[str(c) for c in from_counts(h)] for h in self._hands],
            "stock": [str(c) for c in self._stock],
            "discard": [str(c) for c in self._discard],
            "table": [{"cards": [str(c) for c in m.cards], "owner": o} for m, o in self._table],
            "opened": list(self._opened),
            "opening_values": list(self._opening_values),
            "last_opening": self._last_opening,
            "to_move": self._to_move,
            "phase": self._phase,
            "turn": self._turn,
            "staged": list(self._staged_melds),
            "took": None if self._took is None else str(self._took),
        }

    # --------------------------------------------------------------- the table

    @property
    def phase(self) -> Phase:
        """``first_discard``, ``draw``, ``play`` or ``over``."""
        return self._phase

    @property
    def result(self) -> DealResult[TunisianDetails] | None:
        return self._result

    @property
    def first_round(self) -> bool:
        """True during every player's first turn (T-3): nobody may open."""
        return self._turn < self._round

    @property
    def threshold(self) -> int:
        """What the next opening must reach (T-6)."""
        if self._last_opening is None:
            return self.rules.opening_threshold
        return self._last_opening + self.rules.opening_step

    @property
    def staged_value(self) -> int:
        """Value of the opening the seat to move has laid so far this turn, not committed."""
        return self._staged

    @property
    def staged_melds(self) -> tuple[int, ...]:
        return tuple(self._staged_melds)

    @property
    def must_open(self) -> bool:
        """The seat to move took the discard before opening and must open now (T-8)."""
        return self._took is not None and not self._opened[self._to_move]

    @property
    def table(self) -> tuple[TableMeld, ...]:
        return tuple(self._table)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        return tuple(self._discard)

    @property
    def stock_size(self) -> int:
        return len(self._stock)

    @property
    def opened(self) -> tuple[bool, ...]:
        return tuple(self._opened)

    @property
    def opening_values(self) -> tuple[int | None, ...]:
        return tuple(self._opening_values)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(self._sizes)

    @property
    def end_reason(self) -> str | None:
        """``out`` (someone went out), ``stock`` (T-11) or ``max_turns``; None if running."""
        return self._end_reason

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat``, sorted (server side; views show only one's own)."""
        return sorted(from_counts(self._hands[seat]), key=sort_key)

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        return tuple(self._hands[seat])

    def scalars(self) -> tuple[Phase, int, int, int, int, bool, tuple[int, ...]]:
        """(``phase``, ``turn``, ``stock_size``, the seat whose turn it is or was,
        ``staged_value``, ``must_open``, ``hand_sizes``) in one call: what the RL encoder
        compares from step to step (``rami.tunisian.observation``), one call instead of
        seven property reads (issue 22's guard: the env step no slower)."""
        return (
            self._phase,
            self._turn,
            len(self._stock),
            self._to_move,
            self._staged,
            self._took is not None and not self._opened[self._to_move],
            tuple(self._sizes),
        )

    def hand_key(self, seat: int) -> int:
        """The hand of ``seat`` packed (``rami.tunisian.opening_search``): equal keys, equal
        hands (the RL encoder compares it from step to step; server side)."""
        return self._keys[seat]

    def team(self, seat: int) -> int | None:
        """0 for seats 0 and 2, 1 for seats 1 and 3 in 2v2 (T-1); None otherwise."""
        return seat % 2 if self.rules.teams else None

    def view(self, seat: int | None) -> TunisianView:
        """What ``seat`` may know (``None``: a spectator). See ``rami.tunisian.view``."""
        return build_view(self, seat)

    # ------------------------------------------------------------- the deal's course

    def _commit_opening(self) -> None:
        """Turn the staged melds into the seat's opening (T-6)."""
        seat = self._to_move
        if self._opened[seat] or not self._staged_melds:
            return
        threshold = self.threshold
        value = self._staged
        self._opened[seat] = True
        self._opening_values[seat] = value
        self._last_opening = value
        self._events.append(
            {
                "seat": seat,
                "action": None,
                "news": "open",
                "text": f"seat {seat} opens with {value} (needed {threshold})",
                "data": {"value": value, "threshold": threshold, "melds": list(self._staged_melds)},
            }
        )

    def _begin_draw(self) -> None:
        """Start a draw step; an empty stock is remade from the discard pile (T-11)."""
        if self._stock:
            return
        if len(self._discard) < 2:
            self._finish(None, "stock")
            return
        self._restocks += 1
        top = self._discard[-1]
        pile = self._discard[:-1]
        chance_rng(self.seed, self._restocks, "restock").shuffle(pile)
        self._stock = pile
        self._discard = [top]
        self._events.append(
            {
                "seat": None,
                "action": None,
                "news": "restock",
                "text": f"the discard pile is shuffled into a new stock of {len(pile)} cards",
                "data": {"size": len(pile)},
                "chance": {"kind": "reshuffle", "cards": [_TEXT[c] for c in reversed(pile)]},
            }
        )

    def _finish(self, winner: int | None, reason: str) -> None:
        """End the deal and score it (T-9, T-10, T-11)."""
        n = self.rules.players
        hands = [from_counts(h) for h in self._hands]
        points = deal_points(hands, self._opened, winner, self.rules)
        points = [p if self._active[s] else 0 for s, p in enumerate(points)]
        details: TunisianDetails = {
            "reason": reason,
            "hands": [[str(c) for c in sorted(h, key=sort_key)] for h in hands],
            "opened": list(self._opened),
            "opening_values": list(self._opening_values),
            "points": points,
            "active": list(self._active),
            "turns": self._turn,
        }
        if self.rules.teams:
            details["team_points"] = [
                sum(points[s] for s in range(n) if s % 2 == t) for t in range(2)
            ]
        if winner is not None:
            text = f"seat {winner} goes out"
        else:
            why = "the stock ran out" if reason == "stock" else "the turn cap was reached"
            text = f"the deal ends with no winner: {why}"
        news: Event = {
            "seat": None,
            "action": None,
            "news": "end",
            "text": text,
            "data": {"winner": winner, "reason": reason, "points": points},
        }
        self._end(DealResult(tuple(points), winner, details), reason, news)

    # ----------------------------------------------------------- persistence

    @classmethod
    def _rebuild(cls, doc: Mapping[str, Any], seed: int) -> TunisianState:
        rules = rules_from(doc["rules"])
        # ``seats`` is new in the shared layout; older saves lack it (the mode fixes it)
        seats = doc.get("seats", rules.players)
        if seats != rules.players or isinstance(seats, bool):
            raise InputError(f"'seats' must be {rules.players} in mode {rules.mode} (T-1)")
        start = doc.get("start")
        if start is None:
            return cls.new(
                rules, rules.players, seed, doc.get("dealer", 0), active=doc.get("active")
            )
        return cls.from_position(
            rules,
            start["hands"],
            stock=start["stock"],
            discard=start["discard"],
            table=[(t["cards"], t["owner"]) for t in start["table"]],
            opened=start["opened"],
            opening_values=start["opening_values"],
            last_opening=start["last_opening"],
            to_move=start["to_move"],
            dealer=doc.get("dealer"),
            phase=start["phase"],
            turn=start["turn"],
            active=doc.get("active"),
            seed=seed,
            staged=start.get("staged", ()),
            took=start.get("took"),
        )

    def snapshot(self) -> dict[str, Any]:
        """The full state, hidden cards and stock order included (tests, debugging)."""
        return snapshot(self)

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` unless the shoe's cards are all where they should be."""
        check_invariants(self)

    def __repr__(self) -> str:
        return (
            f"<TunisianState {self.rules.mode} turn {self._turn} phase {self._phase} "
            f"to_move {self.to_move}>"
        )

    # ------------------------------------------------------------------ positions (part D)

    def resume_turn(self, staged: Sequence[int], took: Card | None = None) -> TunisianState:
        """Put back the mover's turn so far as its view shows it, for determinizations
        (``rami.sampling``): the melds it staged this turn (also those of an opening a
        lay-off has just committed, T-6) and the discard it took to open (T-8). Returns
        the state."""
        if any(not 0 <= i < len(self._table) for i in staged):
            raise InputError("a staged meld is not on the table")
        self._staged_melds = list(staged)
        self._staged = sum(self._table[i][0].value for i in staged)
        self._took = took
        if took is not None and self.rules.taken_card_in_opening:
            used = any(took in self._table[i][0].cards for i in staged)
            self._need = None if used else took
        return self


_shoe_counts: dict[tuple[int, int], list[int]] = {}


def _full_shoe(rules: TunisianRules) -> list[int]:
    """The count vector of the whole shoe (T-1: 108 cards in the standard rules)."""
    key = (rules.decks, rules.jokers)
    found = _shoe_counts.get(key)
    if found is None:
        found = _shoe_counts[key] = counts(shoe(rules.decks, rules.jokers))
    return found


def format_list(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _check_seats(
    rules: TunisianRules, dealer: int, active: Sequence[bool] | None
) -> tuple[bool, ...]:
    n = rules.players
    act = tuple(bool(a) for a in active) if active is not None else (True,) * n
    if len(act) != n:
        raise InputError(f"'active' must list {n} seats")
    if sum(act) < 2:
        raise InputError("a deal needs at least two players still in the game")
    if not (isinstance(dealer, int) and 0 <= dealer < n and act[dealer]):
        raise InputError(f"the dealer must be an active seat 0 … {n - 1}")
    return act


def new_deal(
    rules: TunisianRules | str | Mapping[str, Any] | None,
    seats: int,
    seed: int,
    dealer: int = 0,
    *,
    active: Sequence[bool] | None = None,
) -> TunisianState:
    """Deal a new Tunisian rami deal (T-2), the same call as every game's ``new_deal``.

    ``seats`` is the table's size, which the mode fixes (T-1: 2 in 1v1, 4 in ffa and
    2v2); ``active`` marks the seats still in the game (T-13).
    """
    return TunisianState.new(rules, seats, seed, dealer, active=active)
