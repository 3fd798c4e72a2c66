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
from itertools import compress
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
from rami.engine import Action, Chance, DealResult, Event, EventData, as_action, chance_rng
from rami.errors import IllegalAction, InputError, NotYourTurn, Reason
from rami.memo import GenerationMemo
from rami.tunisian.melds import (
    Meld,
    add_to_meld,
    make_meld,
    position_card,
    swap_joker,
)
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
from rami.tunisian.phases import Phase, Verb
from rami.tunisian.rules import TunisianRules, rules_from
from rami.tunisian.scoring import deal_points
from rami.tunisian.solver import (
    may_hold_meld,
    opening_at_least_packed,
)
from rami.tunisian.view import build_view
from rami.view_cache import ViewCache

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
_VERBS = tuple(v.value for v in Verb)

TableMeld = tuple[Meld, int]
"""A meld on the table and the seat that laid it."""

_Offs = tuple[
    tuple[tuple[int, dict[Action, Meld]], ...], tuple[tuple[int, dict[Action, Meld]], ...]
]

_JOKER_INDEX = int(JOKER)
_TEXT = tuple(str(c) for c in CARDS)  # card index -> its text
_DRAW = Action("draw")
_TAKE = Action("take")
_DISCARDS = tuple(Action("discard", (c,)) for c in CARDS)
# {discard c: None} for each kind: ``dict.update`` from these reuses the stored hash, so
# listing the discards (on every step) does not hash each action again.
_DISCARD_ENTRIES = tuple({a: None} for a in _DISCARDS)
_MISSING: Any = object()  # not among the legal actions
_DRAW_ONLY: dict[Action, Any] = {_DRAW: None}
_DRAW_OR_TAKE: dict[Action, Any] = {_DRAW: None, _TAKE: None}
# why the discard may not be taken (``_take_block``; ``_take_problem`` words them)
_PILE_EMPTY, _NO_OTHER_DISCARD, _FIRST_ROUND, _NO_OPENING = range(4)
_CACHE_LIMIT = 20_000
# The log's texts of the actions that need no look-up (``str(action)`` builds a list and
# joins it on every step otherwise).
_DRAW_TEXT = str(_DRAW)
_TAKE_TEXT = str(_TAKE)
_DISCARD_TEXTS = tuple(str(a) for a in _DISCARDS)

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


_LAY_OFFS = GenerationMemo.over(
    _lay_off_cache, _CACHE_LIMIT, name="tunisian.game.lay_offs", shared=True
)
_MELD_ACTIONS = GenerationMemo.over(
    _meld_actions, _CACHE_LIMIT, name="tunisian.game.meld_actions", shared=True
)
_ACTION_TEXTS = GenerationMemo.over(
    _action_texts, _CACHE_LIMIT, name="tunisian.game.action_texts", shared=True
)


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


def _lay_offs(
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


def _meld_action(cards: tuple[Card, ...]) -> Action:
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


def _card_list(cards: str | Sequence[Any]) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [c if isinstance(c, Card) else parse_cards([str(c)])[0] for c in cards]


class TunisianState:
    """One deal of Tunisian rami. Build with ``new_deal`` (or ``from_position``)."""

    __slots__ = (
        "_actions",
        "_active",
        "_after",
        "_all_offs",
        "_below",
        "_discard",
        "_drawn",
        "_end_reason",
        "_events",
        "_fact",
        "_hands",
        "_keys",
        "_last_opening",
        "_legal",
        "_need",
        "_offs",
        "_opened",
        "_opening_values",
        "_phase",
        "_restocks",
        "_result",
        "_sizes",
        "_staged",
        "_staged_melds",
        "_start",
        "_stock",
        "_table",
        "_taken",
        "_through",
        "_to_move",
        "_took",
        "_turn",
        "_view_cache",
        "dealer",
        "rules",
        "seed",
    )

    rules: TunisianRules
    seed: int
    dealer: int
    _active: tuple[bool, ...]
    _after: tuple[int, ...]  # ``next_seat`` of each seat, worked out once a deal
    _hands: list[bytearray]  # count vectors
    _keys: list[int]  # the same hands packed (``UNIT``)
    _sizes: list[int]
    _stock: list[Card]
    _discard: list[Card]
    _table: list[TableMeld]
    # what each table meld takes (``_lay_offs``) as {action: meld after it} entries by
    # card (adds, swaps), None until asked; in step with ``_table``
    _offs: list[_Offs | None]
    _all_offs: _Offs | None  # every index's adds, then every index's swaps; None: remake
    _opened: list[bool]
    _opening_values: list[int | None]
    _last_opening: int | None
    _to_move: int
    _phase: Phase
    _turn: int
    _staged: int
    _staged_melds: list[int]
    _took: Card | None
    _taken: Card | None  # the discard taken this turn, opened or not (T-3)
    _need: Card | None
    _restocks: int
    _actions: list[str]
    _events: list[Event]
    _view_cache: ViewCache | None  # what views reuse (rami.view_cache); unset in clones
    _result: DealResult[TunisianDetails] | None
    _end_reason: str | None
    _start: dict[str, Any] | None
    _legal: dict[Action, Any] | None
    # Speed-ups only (never change what is legal): see ``_meld_candidates``.
    _below: list[int | None]
    _fact: int | None
    _drawn: Card | None
    # A card every opening the unopened seat to move can still complete this turn holds:
    # its hand without the card holds no melds worth what the opening still needs (the
    # card drawn or taken onto a hand known, by ``_below``, to hold no opening). Staging
    # a meld without it keeps that so; staging one with it ends it (T-6).
    _through: Card | None

    # ----------------------------------------------------------------- building

    def __init__(self) -> None:
        raise TypeError("use new_deal(...) or TunisianState.from_position(...)")

    @classmethod
    def _blank(cls, rules: TunisianRules, seed: int, dealer: int, active: tuple[bool, ...]) -> Any:
        self = object.__new__(cls)
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self._active = active
        n = rules.players
        after = []
        for seat in range(n):
            s = seat
            for _ in range(n):
                s = (s - 1) % n
                if active[s]:
                    break
            after.append(s if active[s] else seat)
        self._after = tuple(after)
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
        self._to_move = dealer
        self._phase = FIRST_DISCARD
        self._turn = 0
        self._staged = 0
        self._staged_melds = []
        self._took = None
        self._taken = None
        self._need = None
        self._restocks = 0
        self._actions = []
        self._events = []
        self._result = None
        self._end_reason = None
        self._start = None
        self._legal = None
        self._below = [None] * n
        self._fact = None
        self._drawn = None
        self._through = None
        return self

    @classmethod
    def new(
        cls,
        rules: TunisianRules | str | Mapping[str, Any] | None,
        seed: int,
        dealer: int = 0,
        active: Sequence[bool] | None = None,
    ) -> TunisianState:
        """A freshly dealt deal (T-2): the dealer 15 cards, the others 14, no discard."""
        rules = rules_from(rules)
        act = _check_seats(rules, dealer, active)
        cards = shuffled_shoe(rules.decks, rules.jokers, chance_rng(seed, 0, "deal"))
        return cls._dealt(rules, seed, dealer, act, cards)

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

    def clone(self) -> TunisianState:
        """An independent copy (lists copied, immutable parts shared; no deepcopy)."""
        other: TunisianState = object.__new__(TunisianState)
        other.rules = self.rules
        other.seed = self.seed
        other.dealer = self.dealer
        other._active = self._active
        other._after = self._after
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
        other._to_move = self._to_move
        other._phase = self._phase
        other._turn = self._turn
        other._staged = self._staged
        other._staged_melds = self._staged_melds[:]
        other._took = self._took
        other._taken = self._taken
        other._need = self._need
        other._restocks = self._restocks
        other._actions = self._actions[:]
        other._events = self._events[:]
        other._result = self._result
        other._end_reason = self._end_reason
        other._start = self._start
        other._legal = self._legal
        other._below = self._below[:]
        other._fact = self._fact
        other._drawn = self._drawn
        other._through = self._through
        return other

    # --------------------------------------------------------------- protocol

    @property
    def num_players(self) -> int:
        return self.rules.players

    @property
    def active(self) -> tuple[bool, ...]:
        """Seats still in the game (T-13); the others hold no cards and never move."""
        return self._active

    @property
    def to_move(self) -> int | None:
        return None if self._phase == OVER else self._to_move

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def result(self) -> DealResult[TunisianDetails] | None:
        return self._result

    @property
    def events(self) -> Sequence[Event]:
        return self._events

    @property
    def actions(self) -> Sequence[str]:
        """The canonical text of every applied action, in order (the replay log)."""
        return self._actions

    @property
    def phase(self) -> Phase:
        """``first_discard``, ``draw``, ``play`` or ``over``."""
        return self._phase

    @property
    def turn(self) -> int:
        """Turns completed so far in this deal."""
        return self._turn

    @property
    def first_round(self) -> bool:
        """True during every player's first turn (T-3): nobody may open."""
        return self._turn < len(self._active) - self._active.count(False)

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

    def hand(self, seat: int) -> list[Card]:
        """The cards of ``seat``, sorted (server side; views show only one's own)."""
        return sorted(from_counts(self._hands[seat]), key=sort_key)

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        return tuple(self._hands[seat])

    def team(self, seat: int) -> int | None:
        """0 for seats 0 and 2, 1 for seats 1 and 3 in 2v2 (T-1); None otherwise."""
        return seat % 2 if self.rules.teams else None

    def next_seat(self, seat: int) -> int:
        """The next active seat counter-clockwise: (seat − 1) mod n (T-2)."""
        return self._after[seat]

    def _seats_from(self, seat: int) -> list[int]:
        out = [seat]
        s = self.next_seat(seat)
        while s != seat:
            out.append(s)
            s = self.next_seat(s)
        return out

    def view(self, seat: int | None) -> TunisianView:
        """What ``seat`` may know (``None``: a spectator). See ``rami.tunisian.view``."""
        return build_view(self, seat)

    # ---------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a stable order (draw/take, meld, add, swap, discard)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> dict[Action, Any]:
        legal: dict[Action, Any] = {}
        phase = self._phase
        if phase == OVER:
            return legal
        seat = self._to_move
        hand = self._hands[seat]
        if phase == FIRST_DISCARD:
            # the held kinds in kind order, picked in C (``compress``) rather than by a
            # Python test of each of the 53 counts
            for entry in compress(_DISCARD_ENTRIES, hand):
                legal.update(entry)
            return legal
        if phase == DRAW:  # shared, never changed (as every listing once made)
            return _DRAW_ONLY if self._take_block() is not None else _DRAW_OR_TAKE
        # PLAY
        if not self.first_round:
            for meld in self._meld_candidates(self._keys[seat]):
                legal.setdefault(_meld_action(meld.cards), meld)
            if self._sizes[seat] >= 2 and self._may_lay_off():
                self._lay_off_actions(hand, legal)
        if self._discard_problem() is None:
            banned = self._banned_discard()
            skip = None if banned is None else _DISCARD_ENTRIES[banned]
            for entry in compress(_DISCARD_ENTRIES, hand):
                if entry is not skip:
                    legal.update(entry)
        return legal

    def _meld_candidates(self, key: int) -> list[Meld]:
        """The melds the seat to move may lay now (T-4, T-6, T-8, T-9), ``key`` its
        packed hand, in ``meld_options`` order."""
        seat = self._to_move
        size = self._sizes[seat]
        if size < 4:
            return []
        hand = self._hands[seat]
        if self._opened[seat]:
            if not may_hold_meld(key):
                return []
            banned = self._banned_discard(strict=True)
            return [
                m
                for m, _, _ in hand_melds(key)
                if len(m.cards) < size and keeps_other(hand, size, m.cards, banned)
            ]
        threshold = self.threshold
        staged = self._staged
        need = self._need
        fresh = staged == 0 and self._took is None
        if fresh:
            self._fact = None
        # Any completed opening is an opening of this hand: reject without listing melds.
        # Last turn this hand, less its discard, held no opening below ``_below``
        # (thresholds only rise), so one now holds the card drawn or taken (``_through``).
        through = self._through
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
                    self._fact = threshold
                return []
        options = [e for e in hand_melds(key) if len(e[0].cards) < size]
        if not options or (staged >= threshold and need is None):
            return [m for m, _, _ in options]
        if need is not None:
            return [
                m
                for m, d, _ in options
                if self._staging_ok(key - d, size - len(m.cards), m, staged, need, threshold)
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
            if beside or self._staging_ok(key - d, size - len(m.cards), m, staged, need, threshold):
                out.append(m)
        return out

    def _staging_ok(
        self, rest: int, size: int, meld: Meld, staged: int, need: Card | None, threshold: int
    ) -> bool:
        """Can an opening still be completed after staging ``meld``? (T-6, T-8).

        ``rest``: the packed hand without the meld's cards, ``size`` cards.
        """
        if need is not None and need in meld.cards:
            need = None
        through = self._through
        if through is not None and through in meld.cards:
            through = None
        return completable(rest, size, staged + meld.value, need, threshold, through)

    def _may_lay_off(self) -> bool:
        """Opened, or an opening staged this turn that may be committed (T-6, T-7)."""
        seat = self._to_move
        if self._opened[seat]:
            return True
        return self._staged >= self.threshold and self._need is None

    def _lay_off_actions(self, hand: Sequence[int], legal: dict[Action, Any]) -> None:
        banned = self._banned_discard(strict=True)
        size = self._sizes[self._to_move]
        every = self._all_offs
        if every is None:
            offs = []  # what each table meld takes, worked out once per meld and index
            for index, entry in enumerate(self._offs):
                if entry is None:
                    adds, swaps = _lay_offs(self._table[index][0])
                    add_actions = _index_actions(_add_actions, "add", index)
                    swap_actions = _index_actions(_swap_actions, "swap", index)
                    # one-entry dicts: ``dict.update`` reuses their hashes on every listing
                    entry = self._offs[index] = (
                        tuple((c, {add_actions[c]: new}) for c, new in adds),
                        tuple((c, {swap_actions[c]: new}) for c, new in swaps),
                    )
                offs.append(entry)
            # the table changes less often than it is listed: the listing order, flat
            every = self._all_offs = (
                tuple(e for add_entries, _ in offs for e in add_entries),
                tuple(e for _, swap_entries in offs for e in swap_entries),
            )
        add_entries, swap_entries = every
        if banned is None:
            for c, e in add_entries:
                if hand[c]:
                    legal.update(e)
        else:
            for c, e in add_entries:
                if hand[c] and keeps_other(hand, size, (c,), banned):
                    legal.update(e)
        for c, e in swap_entries:
            if hand[c]:
                legal.update(e)

    def _banned_discard(self, strict: bool = False) -> int | None:
        """The card kind the seat to move may not discard now, or None (T-3).

        Option ``rediscard_taken`` off: the card taken from the discard pile this turn,
        nor an identical copy, may not be discarded again. When the hand holds nothing
        else (only an unopened seat's opening can leave it so) it may, or the turn
        could not end; ``strict`` ignores that exception (to filter melds and adds).
        """
        taken = self._taken
        if taken is None or self.rules.rediscard_taken:
            return None
        seat = self._to_move
        if not strict and self._hands[seat][taken] >= self._sizes[seat]:
            return None
        return int(taken)

    def _take_problem(self) -> str | None:
        """Why the seat to move may not take the discard now, or None (T-3, T-8)."""
        why = self._take_block()
        if why is None:
            return None
        top = self._discard[-1] if self._discard else None
        if why == _PILE_EMPTY:
            return Reason("the discard pile is empty", key="pile_empty")
        if why == _NO_OTHER_DISCARD:
            return Reason(
                f"you may not take {top}: it may not be discarded again this turn and "
                "your hand holds nothing else to discard (T-3)",
                key="take_leaves_nothing",
            )
        if why == _FIRST_ROUND:
            return Reason(
                "nobody may open during the first round, so you may not take "
                f"{top} before opening (T-3, T-8)",
                key="first_round_no_take",
            )
        with_it = " with it" if self.rules.taken_card_in_opening else ""
        return Reason(
            f"you have not opened: you may take {top} only to open{with_it} this turn, "
            f"and your hand holds no opening of {self.threshold} (T-8)",
            key="take_to_open",
        )

    def _take_block(self) -> int | None:
        """``_take_problem``'s reason as a code, or None: the legal list asks on every
        draw step and needs no message."""
        if not self._discard:
            return _PILE_EMPTY
        seat = self._to_move
        top = self._discard[-1]
        if not self.rules.rediscard_taken and self._hands[seat][top] >= self._sizes[seat]:
            return _NO_OTHER_DISCARD
        if self._opened[seat]:
            return None
        if self.first_round:
            return _FIRST_ROUND
        key = self._keys[seat] + UNIT[top]
        threshold = self.threshold
        need = top if self.rules.taken_card_in_opening else None
        # A top card that fits no meld adds nothing to an opening: with the option it
        # cannot be in one, and otherwise the hand was already known to hold none.
        size = self._sizes[seat] + 1
        if need is None and self._below[seat] is not None:
            # the hand held no melds worth the threshold: an opening now holds the top card
            if fits_no_meld(key, top) or not reaches_through(key, size, top, threshold):
                return _NO_OPENING
            return None
        dead = fits_no_meld(key, top) and need is not None
        if dead or not completable(key, size, 0, need, threshold):
            return _NO_OPENING
        return None

    def _discard_problem(self) -> str | None:
        """Why the seat to move may not end the turn now, or None (T-6, T-8)."""
        seat = self._to_move
        if self._opened[seat] or (self._staged == 0 and self._took is None):
            return None
        return self._commit_problem()

    def _commit_problem(self) -> str | None:
        threshold = self.threshold
        if self._staged < threshold:
            if self._staged == 0:
                return Reason(
                    f"you took {self._took} before opening, so you must open this turn "
                    f"with {threshold} or more (T-8)",
                    key="must_open",
                )
            return Reason(
                f"this opening is worth {self._staged}; it needs {threshold}: "
                "lay more melds first (T-6)",
                key="opening_short",
            )
        if self._need is not None:
            return Reason(
                f"your opening must include the card you took ({self._need}) (T-8)",
                key="opening_needs_taken",
            )
        return None

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        """Play one step; all-or-nothing (``IllegalAction`` with the reason, no change).

        ``seat``, when given, must be the seat to move: a front end passes who is
        acting and gets "it is seat 2's turn" rather than a move made for someone else.
        Returns the canonical action applied (the text the log keeps).
        """
        act = as_action(action)
        if self._phase == OVER:
            raise IllegalAction("the deal is over", key="deal_over")
        if seat is not None and seat != self._to_move:
            raise NotYourTurn(self._to_move)
        legal = self._legal
        payload = _MISSING if legal is None else legal.get(act, _MISSING)
        if payload is _MISSING:
            act, payload = self._verify(act)
        kind = act.kind
        if kind == "draw":
            self._do_draw()
        elif kind == "take":
            self._do_take()
        elif kind == "meld":
            self._do_meld(act, payload)
        elif kind == "add":
            self._do_lay_off(act, payload, swap=False)
        elif kind == "swap":
            self._do_lay_off(act, payload, swap=True)
        else:
            self._do_discard(act)
        self._legal = None
        return act

    def check(self, action: Action | str, seat: int | None = None) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal (changes nothing)."""
        try:
            act = as_action(action)
            if self._phase == OVER:
                return Reason("the deal is over", key="deal_over")
            if seat is not None and seat != self._to_move:
                return str(NotYourTurn(self._to_move))
            self._verify(act)
        except IllegalAction as exc:
            return str(exc)
        return None

    def _verify(self, act: Action) -> tuple[Action, Any]:
        """Check ``act`` in full; return its canonical form and prepared data.

        The slow path of ``apply`` and the whole of ``check``; ``legal_actions`` lists
        from the same helpers (``_take_problem``, ``_discard_problem``,
        ``_banned_discard``, ``_staging_ok``, ``_may_lay_off``), so each rule is stated
        once. One ``_verify_<verb>`` per verb.
        """
        kind = act.kind
        if kind not in _VERBS:
            raise IllegalAction(
                f"unknown action '{kind}': use draw, take, meld, add, swap or discard"
            )
        if kind in ("draw", "take"):
            return self._verify_draw(act)
        if self._phase == DRAW:
            raise IllegalAction(
                "draw first: 'draw' from the stock or 'take' the discard (T-3)", "T-3", "draw_first"
            )
        if kind == "discard":
            return self._verify_discard(act)
        if self._phase == FIRST_DISCARD:
            raise IllegalAction(
                "the dealer's first turn is a discard only (T-2)", key="dealer_discards"
            )
        if kind == "meld":
            return self._verify_meld(act)
        return self._verify_lay_off(act)

    def _verify_draw(self, act: Action) -> tuple[Action, Any]:
        """T-2, T-3, T-8: a turn starts with ``draw`` (the stock) or ``take`` (the discard)."""
        kind = act.kind
        phase = self._phase
        if act.cards or act.target is not None:
            raise IllegalAction(f"'{kind}' takes no cards and no meld: write just '{kind}'")
        if phase == FIRST_DISCARD:
            raise IllegalAction(
                "the dealer's first turn is a discard only, no draw (T-2)", key="dealer_discards"
            )
        if phase == PLAY:
            raise IllegalAction("you have already drawn this turn", key="drawn_already")
        if kind == "take":
            problem = self._take_problem()
            if problem is not None:
                raise IllegalAction(problem)
        return act, None

    def _verify_discard(self, act: Action) -> tuple[Action, Any]:
        """T-2, T-3, T-6, T-8, T-9: a discard ends the turn (and commits an opening)."""
        if len(act.cards) != 1 or act.target is not None:
            raise IllegalAction("discard names one card, e.g. 'discard 7♣'")
        c = act.cards[0]
        if not self._hands[self._to_move][c]:
            raise IllegalAction(f"you do not hold {c}", key="not_held")
        if self._phase == PLAY:
            problem = self._discard_problem()
            if problem is not None:
                raise IllegalAction(problem)
            if c == self._banned_discard():
                raise IllegalAction(
                    f"you took {c} from the discard pile this turn: you may not "
                    "discard it (nor an identical card) again this turn (T-3)",
                    "T-3",
                    "taken_discard",
                )
        return act, None

    def _verify_meld(self, act: Action) -> tuple[Action, Any]:
        """T-3, T-4, T-6, T-8, T-9: a new meld; before opening, one the opening can use."""
        seat = self._to_move
        hand = self._hands[seat]
        if act.target is not None:
            raise IllegalAction("a new meld takes no '@N': write e.g. 'meld 5♥ 6♥ 7♥'")
        if len(act.cards) < 3:
            raise IllegalAction("a meld needs at least three cards (T-4)", key="meld_min_three")
        wanted = counts(act.cards)
        for c in set(act.cards):
            if wanted[c] > hand[c]:
                raise IllegalAction(f"you do not hold {_times(wanted[c])}{c}", key="not_held")
        if self.first_round:
            raise IllegalAction(
                "nobody may open or lay melds during the first round (T-3)",
                key="first_round_no_melds",
            )
        meld = make_meld(act.cards)
        if len(act.cards) >= self._sizes[seat]:
            raise IllegalAction("you must keep a card to discard (T-9)", key="keep_a_card")
        banned = self._banned_discard(strict=True)
        if self._opened[seat] and not keeps_other(hand, self._sizes[seat], act.cards, banned):
            raise IllegalAction(
                f"you must keep a card to discard other than {CARDS[banned or 0]}, "
                "the card you took this turn (T-3, T-9)",
                key="keep_a_card",
            )
        if not self._opened[seat]:
            rest = self._keys[seat] - packed(meld.cards)
            size = self._sizes[seat] - len(meld.cards)
            if not self._staging_ok(rest, size, meld, self._staged, self._need, self.threshold):
                need = None if self._need in meld.cards else self._need
                reach = reach_value(rest, size, self._staged + meld.value, need)
                if self._need is not None:
                    raise IllegalAction(
                        f"no opening of {self.threshold} with {self._need} (the card you "
                        f"took) is left if you lay {meld.text()} (T-6, T-8)",
                        key="opening_short",
                    )
                raise IllegalAction(
                    f"with {meld.text()} your opening can reach at most {reach}; "
                    f"it needs {self.threshold} (T-6)",
                    key="opening_short",
                )
        return Action("meld", meld.cards), meld

    def _verify_lay_off(self, act: Action) -> tuple[Action, Any]:
        """T-6, T-7, T-9: ``add`` a card to a table meld or ``swap`` a joker, once opened."""
        seat = self._to_move
        hand = self._hands[seat]
        kind = act.kind
        if len(act.cards) != 1 or act.target is None:
            raise IllegalAction(f"{kind} names one card and a table meld, e.g. '{kind} 8♥ @2'")
        c = act.cards[0]
        index = act.target
        if not 0 <= index < len(self._table):
            raise IllegalAction(f"there is no meld @{index} on the table", key="no_such_meld")
        if not hand[c]:
            raise IllegalAction(f"you do not hold {c}", key="not_held")
        verb = "add to melds on the table" if kind == "add" else "swap jokers"
        if not self._opened[seat] and (self._staged < self.threshold or self._need is not None):
            problem = self._commit_problem() if self._staged else None
            tail = f" ({problem})" if problem else ""
            raise IllegalAction(
                f"you have not opened: you may not {verb}{tail} (T-6)", key="not_opened"
            )
        meld = self._table[index][0]
        if kind == "add":
            if self._sizes[seat] < 2:
                raise IllegalAction("you must keep a card to discard (T-9)", key="keep_a_card")
            banned = self._banned_discard(strict=True)
            if not keeps_other(hand, self._sizes[seat], (c,), banned):
                raise IllegalAction(
                    f"you must keep a card to discard other than {CARDS[banned or 0]}, "
                    "the card you took this turn (T-3, T-9)",
                    key="keep_a_card",
                )
            if c == _JOKER_INDEX and meld.has_joker:
                raise IllegalAction(
                    "that meld already holds a joker (T-4, T-7)", key="meld_has_joker"
                )
            new = add_to_meld(meld, c)
            if new is None:
                raise IllegalAction(
                    f"{c} does not fit meld @{index} ({meld.text()}) (T-7)", key="does_not_fit"
                )
            return act, new
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
        return act, new

    # ------------------------------------------------------------- mutations

    def _log(
        self,
        act: Action,
        card: Card | None = None,
        data: EventData | None = None,
        text: str | None = None,
    ) -> None:
        if text is None:
            text = _text_of(act)
        self._actions.append(text)
        event: Event = {"seat": self._to_move, "action": text}
        if card is not None:
            event["card"] = _TEXT[card]
        if data is not None:
            event["data"] = data
        self._events.append(event)

    def chance_outcomes(self) -> list[Chance]:
        """What chance decided so far, in order: the deal, then reshuffles (T-11)."""
        return [e["chance"] for e in self._events if "chance" in e]

    def _do_draw(self) -> None:
        seat = self._to_move
        c = self._stock.pop()
        self._hands[seat][c] += 1
        self._keys[seat] += UNIT[c]
        self._sizes[seat] += 1
        self._phase = PLAY
        self._drawn = c
        self._through = c if self._below[seat] is not None else None
        self._taken = None
        self._fact = None
        self._log(_DRAW, c, text=_DRAW_TEXT)

    def _do_take(self) -> None:
        seat = self._to_move
        c = self._discard.pop()
        self._hands[seat][c] += 1
        self._keys[seat] += UNIT[c]
        self._sizes[seat] += 1
        self._phase = PLAY
        self._drawn = None
        self._through = c if self._below[seat] is not None else None
        self._taken = c
        self._fact = None
        if not self._opened[seat]:
            self._took = c
            if self.rules.taken_card_in_opening:
                self._need = c
        self._log(_TAKE, c, text=_TAKE_TEXT)

    def _do_meld(self, act: Action, meld: Meld) -> None:
        seat = self._to_move
        hand = self._hands[seat]
        for c in meld.cards:
            hand[c] -= 1
        self._keys[seat] -= packed(meld.cards)
        self._sizes[seat] -= len(meld.cards)
        index = len(self._table)
        self._table.append((meld, seat))
        self._offs.append(None)
        self._all_offs = None
        staged = not self._opened[seat]
        if self._through is not None and self._through in meld.cards:
            self._through = None
        if staged:
            self._staged += meld.value
            self._staged_melds.append(index)
            if self._need is not None and self._need in meld.cards:
                self._need = None
        self._log(act, data={"meld": index, "value": meld.value, "staged": staged})

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

    def _do_lay_off(self, act: Action, new: Meld, swap: bool) -> None:
        seat = self._to_move
        self._commit_opening()
        c = act.cards[0]
        index = act.target
        assert index is not None
        hand = self._hands[seat]
        hand[c] -= 1
        if swap:
            hand[_JOKER_INDEX] += 1
            self._keys[seat] += UNIT[_JOKER_INDEX] - UNIT[c]
        else:
            self._sizes[seat] -= 1
            self._keys[seat] -= UNIT[c]
        owner = self._table[index][1]
        self._table[index] = (new, owner)
        self._offs[index] = None
        self._all_offs = None
        self._log(act, data={"meld": index})

    def _do_discard(self, act: Action) -> None:
        seat = self._to_move
        if self._staged_melds:  # only an unopened seat stages (``_commit_opening``)
            self._commit_opening()
        c = act.cards[0]
        self._hands[seat][c] -= 1
        self._keys[seat] -= UNIT[c]
        self._sizes[seat] -= 1
        self._discard.append(c)
        # What the hand is known not to hold carries to the next turn (a speed-up).
        self._below[seat] = None if self._opened[seat] else self._fact
        self._fact = None
        self._drawn = None
        self._through = None
        self._log(act, text=_DISCARD_TEXTS[c])
        self._turn += 1
        self._staged = 0
        self._staged_melds = []
        self._took = None
        self._taken = None
        self._need = None
        if self._sizes[seat] == 0:
            self._finish(seat, "out")
            return
        cap = self.rules.max_turns
        if cap and self._turn >= cap:
            self._finish(None, "max_turns")
            return
        self._to_move = self._after[seat]
        self._phase = DRAW
        if not self._stock:
            self._begin_draw()

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
        self._result = DealResult(tuple(points), winner, details)
        self._phase = OVER
        self._end_reason = reason
        if winner is not None:
            text = f"seat {winner} goes out"
        else:
            why = "the stock ran out" if reason == "stock" else "the turn cap was reached"
            text = f"the deal ends with no winner: {why}"
        self._events.append(
            {
                "seat": None,
                "action": None,
                "news": "end",
                "text": text,
                "data": {"winner": winner, "reason": reason, "points": points},
            }
        )

    # ----------------------------------------------------------- persistence

    def to_json(self) -> dict[str, Any]:
        """Everything needed to replay this deal exactly (server side: holds the seed).

        The layout every game's deal shares: ``game``, ``rules``, ``seats``, ``seed``,
        ``dealer``, ``active`` (T-13), ``actions`` (the canonical texts) and, for a
        chosen position, ``start``.
        """
        doc: dict[str, Any] = {
            "game": "tunisian",
            "rules": self.rules.to_json(),
            "seats": self.rules.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "active": list(self._active),
            "actions": list(self._actions),
        }
        if self._start is not None:
            doc["start"] = self._start
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> TunisianState:
        """Rebuild a deal from ``to_json`` output by replaying its actions."""
        if not isinstance(doc, Mapping):
            raise InputError("a saved deal must be a JSON object")
        # ``seats`` is new in the shared layout; older saves lack it (the mode fixes it)
        known = {"game", "rules", "seats", "seed", "dealer", "active", "actions", "start"}
        for key in doc:
            if key not in known:
                raise InputError(f"unknown key '{key}' in a saved deal")
        for key in ("rules", "seed", "actions"):
            if key not in doc:
                raise InputError(f"a saved deal needs the key '{key}'")
        if doc.get("game", "tunisian") != "tunisian":
            raise InputError("this is not a saved Tunisian rami deal")
        rules = rules_from(doc["rules"])
        seed = doc["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("'seed' must be a whole number")
        seats = doc.get("seats", rules.players)
        if seats != rules.players or isinstance(seats, bool):
            raise InputError(f"'seats' must be {rules.players} in mode {rules.mode} (T-1)")
        try:
            start = doc.get("start")
            if start is not None:
                state = cls.from_position(
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
            else:
                state = cls.new(rules, seed, doc.get("dealer", 0), doc.get("active"))
            for i, text in enumerate(doc["actions"]):
                try:
                    state.apply(text)
                except IllegalAction as exc:
                    raise InputError(f"saved action {i + 1} ('{text}') is illegal: {exc}") from None
        except (KeyError, TypeError) as exc:
            raise InputError(f"a saved deal is malformed: {exc}") from None
        return state

    def snapshot(self) -> dict[str, Any]:
        """The full state, hidden cards and stock order included (tests, debugging)."""
        return {
            "hands": [list(h) for h in self._hands],
            "stock": [int(c) for c in self._stock],
            "discard": [int(c) for c in self._discard],
            "table": [([int(c) for c in m.cards], m.kind, m.joker_as, o) for m, o in self._table],
            "opened": list(self._opened),
            "opening_values": list(self._opening_values),
            "last_opening": self._last_opening,
            "to_move": self._to_move,
            "phase": self._phase,
            "turn": self._turn,
            "staged": self._staged,
            "staged_melds": list(self._staged_melds),
            "took": self._took,
            "taken": self._taken,
            "need": self._need,
            "restocks": self._restocks,
            "actions": list(self._actions),
            "events": list(self._events),
            "result": None
            if self._result is None
            else [list(self._result.scores), self._result.winner],
        }

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` unless the 108 cards are all where they should be."""
        total = [0] * KINDS
        for seat, h in enumerate(self._hands):
            if any(v < 0 for v in h):
                raise AssertionError(f"seat {seat} holds a negative count")
            if sum(h) != self._sizes[seat]:
                raise AssertionError(f"seat {seat}'s hand size is out of step")
            if self._keys[seat] != packed(from_counts(h)):
                raise AssertionError(f"seat {seat}'s packed hand is out of step")
            if not self._active[seat] and sum(h) > 0:
                raise AssertionError(f"seat {seat} is out of the game but holds cards")
            for i in range(KINDS):
                total[i] += h[i]
        if len(self._offs) != len(self._table):
            raise AssertionError("the table's lay-off facts are out of step")
        through = self._through
        if through is not None and not self._hands[self._to_move][through]:
            raise AssertionError(f"the card every opening must hold ({through}) is not held")
        for index, (meld, _owner) in enumerate(self._table):
            jokers = sum(1 for c in meld.cards if c == _JOKER_INDEX)
            if jokers > 1:
                raise AssertionError(f"meld @{index} holds {jokers} jokers")
            try:
                again = make_meld(meld.cards)
            except IllegalAction as exc:
                raise AssertionError(f"meld @{index} ({meld.cards}) is invalid: {exc}") from None
            if again.value != meld.value or again.kind != meld.kind:
                raise AssertionError(f"meld @{index} does not read back the same")
            for c in meld.cards:
                total[c] += 1
        for c in self._stock:
            total[c] += 1
        for c in self._discard:
            total[c] += 1
        if total != _full_shoe(self.rules):
            raise AssertionError("the cards in play are not exactly the shoe")
        if self._phase != OVER and not self._active[self._to_move]:
            raise AssertionError("a seat out of the game is to move")

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


def _times(n: int) -> str:
    return f"{n}× " if n > 1 else ""


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
    r = rules_from(rules)
    if isinstance(seats, bool) or not isinstance(seats, int) or seats != r.players:
        raise InputError(f"Tunisian rami {r.mode} is for {r.players} seats, not {seats!r} (T-1)")
    return TunisianState.new(r, seed, dealer, active)
