"""The Marriage deal as a state machine (M-1 … M-15) on the deal kernel (``rami.kernel``).

A deal is reproducible from ``(rules, seats, seed, dealer, actions)``: chance (the
shuffle, the tiplu, reshuffles of the discard pile) is derived with ``chance_rng`` from
the seed and the number of actions so far, so a state holds no random generator and
``clone()`` only copies small lists.

Hands are count vectors over the 53 card kinds (identical copies are the same card).
A Nepali player's shown melds, exposed tunnelas and shown dublees are kept out of the
hand vector: they are face up and can never be discarded or rearranged (M-3, M-6).
An Indian player's shown and laid melds are on the table (M-10).

The verbs (expose, pass, draw, take, show, dublee, see, meld, add, takeback, finish,
discard) are rule objects in ``rami.marriage.verbs``, the conditions they share in
``rami.marriage.conditions``; the kernel runs them (``legal_actions``, ``apply``,
``check``), keeps the event log, persistence, replay, clones and the view cache.

``legal_actions()`` never depends on the tiplu for a seat that has not seen it (M-7):
the only tiplu-dependent checks (wild cards, finishing) apply to seen players.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from rami.cards import CARDS, KINDS, Card, counts, shoe
from rami.engine import Action, DealResult, Event, chance_rng
from rami.errors import InputError
from rami.kernel import Deal, next_seats
from rami.marriage import actions as act
from rami.marriage.chosen_deal import check_table, choose
from rami.marriage.conditions import DUBLEES_PATH, MELDS_PATH, SHOW_MELDS, joins_show_meld
from rami.marriage.invariants import InvariantError, check_invariants
from rami.marriage.meld_options import AddFacts
from rami.marriage.melds import wild_kinds
from rami.marriage.outcome import settle
from rami.marriage.phases import Phase, Verb
from rami.marriage.rules import MarriageRules, rules_from
from rami.marriage.solver import Finish, dublee_count, dublees_to_finish
from rami.marriage.verbs import BY_KIND, BY_PHASE, SEEN_PLAY
from rami.marriage.view import build_view

if TYPE_CHECKING:
    from rami.marriage.view import MarriageDetails, MarriageView

__all__ = [
    "DUBLEES_PATH",
    "MELDS_PATH",
    "SHOW_MELDS",
    "InvariantError",
    "MarriageState",
    "Phase",
    "Verb",
    "new_deal",
]

EXPOSE_PHASE = Phase.EXPOSE
DRAW_PHASE = Phase.DRAW
PLAY_PHASE = Phase.PLAY
OVER = Phase.OVER

_NO_WILDS: frozenset[int] = frozenset()
_TEXT = tuple(str(c) for c in CARDS)  # card index -> its text


def _clockwise(seat: int, n: int) -> int:
    return (seat + 1) % n


class MarriageState(Deal):
    """One Marriage deal on the deal kernel (``rami.kernel.Deal``): the table state
    below, its verbs in ``rami.marriage.verbs``. Build it with ``new_deal``,
    ``MarriageState.from_setup`` or ``from_position``."""

    __slots__ = (
        "_add_facts",
        "_base",
        "_dublee_show",
        "_dublees",
        "_exposed",
        "_finish",
        "_finisher",
        "_hands",
        "_laid",
        "_melds",
        "_must_finish",
        "_n",
        "_no_finish_turn",
        "_pair_ub",
        "_passes",
        "_path",
        "_pile",
        "_recycles",
        "_seen",
        "_show_ub",
        "_sizes",
        "_stock",
        "_taken",
        "_tiplu",
        "_tiplu_picked",
        "_wilds",
        "rules",
    )

    GAME = "marriage"
    TITLE = "Marriage"
    OVER = OVER
    UNKNOWN_VERB = "unknown action '{kind}': use one of " + ", ".join(act.VERBS)
    # a saved deal, and the former Marriage keys still read: ``players`` for ``seats``,
    # ``setup`` for ``start``
    JSON_KEYS = Deal.JSON_KEYS | {"players", "setup"}
    _by_kind = BY_KIND
    _by_phase = BY_PHASE
    DETAILS = False  # every move's detail is None
    _listers: Mapping[str, tuple[Callable[[MarriageState, dict[Action, object]], None], ...]]

    rules: MarriageRules
    _phase: Phase
    _result: DealResult[MarriageDetails] | None
    _n: int
    _hands: list[list[int]]
    _sizes: list[int]
    _melds: list[list[tuple[Card, ...]]]
    _exposed: list[list[Card]]
    _dublees: list[list[Card]]
    _dublee_show: int  # dublees shown to see (M-6), 0 if no dublee path at the table (M-9)
    _seen: list[bool]
    _show_ub: list[int]  # an upper bound of each seat's disjoint show melds (``_card_in``)
    _pair_ub: list[int]  # an upper bound of each seat's dublees in hand (``_card_in``)
    _path: list[str | None]
    _stock: list[int]  # top last
    _pile: list[int]
    _tiplu: Card | None
    _tiplu_picked: bool
    _wilds: frozenset[int]
    _passes: int
    _taken: int | None
    _must_finish: bool
    _recycles: int
    _finish: Finish | None
    _finisher: int | None
    _base: list[tuple[Card, ...]] | None  # M-10: the mover's table melds before this turn's
    _laid: list[Card]  # M-10: the cards the mover laid on the table this turn (meld, add)
    _add_facts: AddFacts  # what each table meld accepts (meld_options), shared by clones
    _no_finish_turn: int  # the turn whose mover was found unable to finish (-1: none)

    # ------------------------------------------------------------------ the kernel's hooks

    def _num_seats(self) -> int:
        return self._n

    def _rules_json(self) -> Mapping[str, object]:
        return self.rules.to_json()

    def _copy_table(self, other: MarriageState) -> None:
        other.rules = self.rules
        other._n = self._n
        other._hands = [h[:] for h in self._hands]
        other._sizes = self._sizes[:]
        other._melds = [m[:] for m in self._melds]
        other._exposed = [e[:] for e in self._exposed]
        other._dublees = [d[:] for d in self._dublees]
        other._dublee_show = self._dublee_show
        other._seen = self._seen[:]
        other._show_ub = self._show_ub[:]
        other._pair_ub = self._pair_ub[:]
        other._path = self._path[:]
        other._stock = self._stock[:]
        other._pile = self._pile[:]
        other._tiplu = self._tiplu
        other._tiplu_picked = self._tiplu_picked
        other._wilds = self._wilds
        other._passes = self._passes
        other._taken = self._taken
        other._must_finish = self._must_finish
        other._recycles = self._recycles
        other._finish = self._finish
        other._finisher = self._finisher
        other._base = None if self._base is None else self._base[:]
        other._laid = self._laid[:]
        other._add_facts = self._add_facts
        other._no_finish_turn = self._no_finish_turn

    def _list_legal(self) -> dict[Action, object] | list[Action]:
        """The union of the options of the verbs that may list moves now: by phase and,
        in the play phase, by whether the seat to move has seen (``verbs.BY_PHASE``).

        Every Marriage move needs nothing more to be played (its detail is None,
        ``DETAILS``), and the discards, most of the moves, end the play phase's
        listing: appended to a plain list without hashing each (``_Discard.extend``).
        """
        key: str = self._phase
        if key == PLAY_PHASE and self._seen[self._to_move]:
            key = SEEN_PLAY
        return self._list_for(key)

    # ------------------------------------------------------------------ creation

    @classmethod
    def _lay_out(
        cls,
        rules: MarriageRules,
        players: int,
        seed: int,
        dealer: int,
        hands: Sequence[Sequence[int]],
        pile: Sequence[int],
        stock: Sequence[int],
        tiplu: Card | None,
        setup: dict[str, object] | None,
    ) -> MarriageState:
        """Lay out a dealt table (M-2); ``stock`` is listed top first."""
        self = object.__new__(cls)
        self.rules = rules
        self._n = players
        active = (True,) * players  # every Marriage seat plays the whole deal
        self._begin(seed, dealer, active, 0)
        if rules.clockwise:  # M-2: counter-clockwise unless the rules say otherwise
            self._after = next_seats(active, _clockwise)
        self._to_move = self._after[dealer]
        self._start = setup
        self._hands = [counts(h) for h in hands]
        self._sizes = [len(h) for h in hands]
        self._melds = [[] for _ in range(players)]
        self._exposed = [[] for _ in range(players)]
        self._dublees = [[] for _ in range(players)]
        self._dublee_show = dublees_to_finish(rules) - 1 if rules.dublees_allowed(players) else 0
        self._seen = [False] * players
        self._show_ub = [SHOW_MELDS] * players
        self._pair_ub = [dublee_count(h) for h in self._hands]
        self._path = [None] * players
        self._stock = list(reversed(stock))  # top of the stock is the end of the list
        self._pile = list(pile)
        self._tiplu = tiplu
        self._tiplu_picked = False
        self._wilds = _NO_WILDS
        self._passes = 0
        self._taken = None
        self._must_finish = False
        self._recycles = 0
        self._finish = None
        self._finisher = None
        self._base = None
        self._laid = []
        self._add_facts = {}
        self._no_finish_turn = -1
        # chance (M-2): the shoe as dealt, hands seat by seat, the pile, the stock top first
        order = [c for h in hands for c in h] + list(pile) + list(stock)
        self._events.append(
            {
                "seat": None,
                "action": None,
                "news": "deal",
                "text": f"seat {dealer} deals; {CARDS[self._pile[-1]]} is turned up",
                "data": {"dealer": dealer, "card": _TEXT[self._pile[-1]]},
                "chance": {"kind": "deal", "cards": [_TEXT[c] for c in order]},
            }
        )
        if rules.tiplu_chosen == "after_deal":
            self._pick_tiplu()  # M-7: drawn now, kept hidden until someone shows
        if rules.deal_tunnela_bonus and rules.tunnela_melds:
            self._phase = Phase.EXPOSE  # M-3
        else:
            self._phase = Phase.DRAW
        return self

    @classmethod
    def new(
        cls,
        rules: object,
        seats: int,
        seed: int,
        dealer: int = 0,
        *,
        active: Sequence[bool] | None = None,
    ) -> MarriageState:
        """A freshly shuffled and dealt deal (M-1, M-2): the builder every game's deal
        shares. ``active``, if given, must mark every seat (a Marriage seat plays the
        whole deal)."""
        r = rules_from(rules).for_players(seats)
        check_table(r, seats, dealer)
        if active is not None and list(active) != [True] * seats:
            raise InputError(f"'active' must list {seats} seats, all in play (true)")
        cards = shoe(r.decks)
        chance_rng(seed, 0, "deal").shuffle(cards)
        return cls._dealt(r, seats, seed, dealer, cards)

    @classmethod
    def _dealt(
        cls, r: MarriageRules, players: int, seed: int, dealer: int, cards: Sequence[int]
    ) -> MarriageState:
        size = r.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(players)]
        upcard = cards[players * size]
        stock = cards[players * size + 1 :]
        return cls._lay_out(r, players, seed, dealer, hands, [upcard], stock, None, None)

    @staticmethod
    def dealt_seats(rules: object, seats: int, dealer: int = 0) -> list[int | None]:
        """Who gets each position of the shoe as dealt (the ``deal`` chance outcome).

        M-2: ``hand_size`` cards to each seat in turn from seat 0, then the upcard and
        the stock (``None``), whoever deals.
        """
        r = rules_from(rules).for_players(seats)
        size = r.hand_size
        out: list[int | None] = [s for s in range(seats) for _ in range(size)]
        return out + [None] * (52 * r.decks - len(out))

    @classmethod
    def from_deal(
        cls, rules: object, seats: int, order: Sequence[int], seed: int, dealer: int = 0
    ) -> MarriageState:
        """The deal of the shoe in exactly ``order`` (as ``dealt_seats`` lays it out).

        ``new`` is this with a shuffled shoe; a wrapper that deals by chance nodes
        (OpenSpiel) builds its deal here. The later chance (the tiplu, reshuffles)
        follows from ``seed`` and is reported by ``chance_outcomes``.
        """
        r = rules_from(rules).for_players(seats)
        check_table(r, seats, dealer)
        cards = [int(c) for c in order]
        if sorted(cards) != sorted(shoe(r.decks)):
            raise InputError(f"the order must hold the whole shoe of {r.decks} decks once")
        return cls._dealt(r, seats, seed, dealer, cards)

    @classmethod
    def from_setup(
        cls,
        rules: object,
        hands: Sequence[str | Sequence[int]],
        *,
        discard: str | Sequence[int] | None = None,
        stock: str | Sequence[int] = (),
        tiplu: str | int | None = None,
        dealer: int = 0,
        seed: int = 0,
    ) -> MarriageState:
        """A deal with chosen cards, for tests, puzzles and teaching.

        ``hands`` gives every seat's dealt cards (``hand_size`` each), ``discard`` the
        discard pile (latest last; default one card from the rest), ``stock`` the top
        of the stock (next draw first); the cards left over go below it in an order
        fixed by ``seed``. ``tiplu`` reserves the card that the first show will reveal
        (M-7); without it the tiplu is picked at random as in a real deal.
        """
        chosen = choose(rules, hands, discard, stock, tiplu, dealer, seed)
        r, hand_lists, pile, stock_cards, tiplu_card, doc = chosen
        return cls._lay_out(
            r, len(hands), seed, dealer, hand_lists, pile, stock_cards, tiplu_card, doc
        )

    # ------------------------------------------------------------------ the table

    @property
    def phase(self) -> Phase:
        """ "expose", "draw", "play" or "over" (``rami.marriage.phases``)."""
        return self._phase

    @property
    def result(self) -> DealResult[MarriageDetails] | None:
        """The settled deal (M-12 … M-15) once over."""
        return self._result

    @property
    def current(self) -> int:
        """The seat to move, or the last one to have moved once the deal is over."""
        return self._to_move

    @property
    def hands(self) -> list[list[int]]:
        """Each seat's hand as a count vector (server side: views show only one's own)."""
        return self._hands

    @property
    def sizes(self) -> list[int]:
        """Each seat's number of cards in hand."""
        return self._sizes

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def scalars(self) -> tuple[Phase, int, int, int, tuple[int, ...]]:
        """(``phase``, ``turn``, the stock's size, the seat whose turn it is or was,
        ``sizes``) in one call: what the RL encoder compares from step to step
        (``rami.marriage.observation``), one call instead of five property reads (as
        ``TunisianState.scalars``). All of it public: every view shows it."""
        return (self._phase, self._turn, len(self._stock), self._to_move, tuple(self._sizes))

    @property
    def melds(self) -> list[list[tuple[Card, ...]]]:
        """Each seat's shown (Nepali) or table (Indian) melds (M-6, M-10)."""
        return self._melds

    @property
    def exposed(self) -> list[list[Card]]:
        """Each seat's tunnelas exposed at the deal (M-3)."""
        return self._exposed

    @property
    def dublees(self) -> list[list[Card]]:
        """Each seat's shown dublees (M-6, M-9)."""
        return self._dublees

    @property
    def seen(self) -> list[bool]:
        """Who has seen the tiplu (M-7)."""
        return self._seen

    @property
    def path(self) -> list[str | None]:
        """Each seat's path: ``melds``, ``dublees`` or None before its show (M-6)."""
        return self._path

    @property
    def stock(self) -> list[int]:
        """The stock, top last."""
        return self._stock

    @property
    def pile(self) -> list[int]:
        """The discard pile, latest last."""
        return self._pile

    @property
    def tiplu(self) -> Card | None:
        """The tiplu once drawn or reserved, hidden until someone sees it (M-7)."""
        return self._tiplu

    @property
    def tiplu_picked(self) -> bool:
        """Whether the tiplu has been picked from the stock (M-7)."""
        return self._tiplu_picked

    @property
    def wilds(self) -> frozenset[int]:
        """The wild card kinds once the tiplu is picked (M-7)."""
        return self._wilds

    @property
    def passes(self) -> int:
        """Seats that have passed after the deal (M-3)."""
        return self._passes

    @property
    def taken(self) -> int | None:
        """The discard the seat to move took this turn (M-5)."""
        return self._taken

    @property
    def must_finish(self) -> bool:
        """The seat to move took a discard to complete its eighth dublee (M-9)."""
        return self._must_finish

    @property
    def finish(self) -> Finish | None:
        """How the finisher finished (M-8, M-9), once finished."""
        return self._finish

    @property
    def finisher(self) -> int | None:
        """The seat that finished, or None."""
        return self._finisher

    @property
    def laid(self) -> list[Card]:
        """The cards the seat to move laid on the table this turn (M-10)."""
        return self._laid

    @property
    def base(self) -> list[tuple[Card, ...]] | None:
        """The mover's table melds as the turn found them, once it laid cards (M-10)."""
        return self._base

    @property
    def recycles(self) -> int:
        """Times the discard pile became the stock (M-11)."""
        return self._recycles

    def view(self, seat: int | None) -> MarriageView:
        """What ``seat`` may know (``None``: a spectator); see ``rami.marriage.view``."""
        return build_view(self, seat)

    def seat_wilds(self, seat: int) -> frozenset[int]:
        """The wild cards ``seat`` plays with: none until it has seen the tiplu (M-7)."""
        return self._wilds if self._seen[seat] else _NO_WILDS

    def showing(self, seat: int) -> bool:
        """Whether ``seat`` has started a show this turn that is not complete yet (M-6)."""
        return self._path[seat] is not None and not self._seen[seat]

    def shown_count(self, seat: int) -> int:
        """Melds (Nepali: shown melds plus exposed tunnelas) or dublees shown so far."""
        if self._path[seat] == DUBLEES_PATH:
            return len(self._dublees[seat])
        return len(self._melds[seat]) + len(self._exposed[seat])

    @property
    def show_dublees(self) -> int:
        """Dublees shown to see (M-6): seven, one fewer than finish (M-9)."""
        return dublees_to_finish(self.rules) - 1

    # ------------------------------------------------------------------ the deal's course

    def _card_in(self, s: int, c: int) -> None:
        """Card ``c`` joins the hand of ``s`` (drawn or taken).

        ``show_ub[s]`` bounds from above the disjoint show melds (M-6) in the hand of
        ``s`` (capped at three): a new card raises it only if it is part of a show meld,
        and losing cards never raises it, so most turns skip the search for show
        options. ``pair_ub[s]`` likewise bounds the dublees in the hand (M-9): a card
        makes one more only when its count turns even (the dublee listing tightens it).
        They are pure caches: whatever their values, the legal moves are the same.
        Cards come into a hand only here (and by ``takeback``, to a seen seat's hand).
        """
        hand = self._hands[s]
        hand[c] += 1
        self._sizes[s] += 1
        if not hand[c] & 1:
            self._pair_ub[s] += 1
        ub = self._show_ub[s]
        if ub < SHOW_MELDS and joins_show_meld(hand, c, self.rules):
            self._show_ub[s] = ub + 1

    def _pick_tiplu(self) -> None:
        """M-7: a random stock card becomes the tiplu, out of play for the whole deal."""
        if self._tiplu is None:
            rng = chance_rng(self.seed, len(self._actions), "tiplu")
            self._tiplu = CARDS[self._stock.pop(rng.randrange(len(self._stock)))]
        self._tiplu_picked = True
        self._wilds = wild_kinds(self._tiplu)
        self._events.append(
            {
                "seat": None,
                "action": None,
                "news": "tiplu",
                "text": "the tiplu is picked from the stock",
                "chance": {"kind": "tiplu", "cards": [str(self._tiplu)]},
            }
        )

    def _see(self, s: int) -> None:
        if not self._tiplu_picked:
            self._pick_tiplu()
        self._seen[s] = True
        self._events.append(
            {"seat": s, "action": None, "news": "see", "text": f"seat {s} sees the tiplu"}
        )

    def _laying(self, s: int, cards: Sequence[Card]) -> None:
        """Remember the table as the turn found it, and the cards laid (M-10 take-back)."""
        if self._base is None:
            self._base = list(self._melds[s])
        self._laid.extend(cards)

    def _pick_up(self, s: int) -> None:
        """Every card laid this turn back to the hand, the table as the turn found it."""
        if self._base is None:
            return
        for c in self._laid:
            self._hands[s][c] += 1
        self._sizes[s] += len(self._laid)
        self._melds[s] = self._base
        self._base = None
        self._laid = []

    def _end_turn(self) -> None:
        self._base = None
        self._laid = []
        self._turn += 1
        self._taken = None
        self._must_finish = False
        cap = self.rules.max_turns
        if cap is not None and self._turn >= cap:
            self._close(None, None, "max_turns")
            return
        if not self._stock and not self._recycle():
            self._close(None, None, "stock")
            return
        self._to_move = self.next_seat(self._to_move)
        self._phase = Phase.DRAW

    def _recycle(self) -> bool:
        """M-11: the discard pile but its latest card becomes the stock, if allowed."""
        limit = self.rules.stock_recycles
        if limit is not None and self._recycles >= limit:
            return False
        cards = self._pile[:-1]
        if not cards:
            return False
        del self._pile[:-1]
        if self.rules.shuffle_recycled:
            chance_rng(self.seed, len(self._actions), "recycle").shuffle(cards)
            self._stock = cards
        else:
            self._stock = cards[::-1]  # turned over: the oldest discard is drawn first
        self._recycles += 1
        how = "shuffled" if self.rules.shuffle_recycled else "turned over"
        event: Event = {
            "seat": None,
            "action": None,
            "news": "restock",
            "text": f"the discard pile ({len(cards)} cards) is {how} as the new stock",
            "data": {"size": len(cards), "shuffled": self.rules.shuffle_recycled},
        }
        if self.rules.shuffle_recycled:  # turning the pile over is no chance
            event["chance"] = {"kind": "reshuffle", "cards": [_TEXT[c] for c in reversed(cards)]}
        self._events.append(event)
        return True

    def final_cards(self, s: int) -> list[int]:
        """All of ``s``'s cards (hand, shown, exposed, dublees, table) as a card list."""
        cards = [c for c in range(52) for _ in range(self._hands[s][c])]
        for m in self._melds[s]:
            cards.extend(m)
        for t in self._exposed[s]:
            cards.extend((t, t, t))
        for d in self._dublees[s]:
            cards.extend((d, d))
        return cards

    def _close(self, finisher: int | None, fin: Finish | None, reason: str) -> None:
        """The deal is over: settled (M-12 … M-15), with the table's news of it."""
        self._base = None
        self._laid = []
        self._finisher = finisher
        self._finish = fin
        self._end_reason = reason
        self._taken = None
        self._must_finish = False
        self._phase = OVER
        if finisher is None:
            text = "the deal ends with no finisher" + (
                " (turn limit)" if reason == "max_turns" else " (the stock ran out)"
            )
        else:
            text = f"seat {finisher} finishes"
        news: Event = {
            "seat": finisher,
            "action": None,
            "news": "end",
            "text": text,
            "data": {"winner": finisher, "reason": reason},
        }
        self._end(self._settle(), reason, news)

    def _settle(self) -> DealResult[MarriageDetails]:
        """Maal and settlement (M-12 … M-15): ``rami.marriage.outcome``."""
        return settle(self)

    # ------------------------------------------------------------------ persistence

    @classmethod
    def _rebuild(cls, doc: Mapping[str, object], seed: int) -> MarriageState:
        """The deal a saved document starts from; older saves name ``seats`` as
        ``players`` and ``start`` as ``setup``."""
        seats_key = "seats" if "seats" in doc or "players" not in doc else "players"
        start_key = "setup" if "setup" in doc and "start" not in doc else "start"
        if seats_key not in doc:
            raise InputError(f"a saved deal needs the key '{seats_key}'")
        players, dealer = doc[seats_key], doc.get("dealer", 0)
        for name, value in ((seats_key, players), ("dealer", dealer)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"'{name}' must be a whole number")
        assert isinstance(players, int) and isinstance(dealer, int)
        active = doc.get("active")
        if active is not None and active != [True] * players:
            raise InputError(f"'active' must list {players} seats, all in play (true)")
        setup = doc.get(start_key)
        if setup is None:
            return cls.new(doc["rules"], players, seed, dealer)
        if not isinstance(setup, Mapping):
            raise InputError(f"'{start_key}' must be an object")
        hands = setup.get("hands")
        if not isinstance(hands, list) or len(hands) != players:
            raise InputError(f"'{start_key}.hands' must list {players} hands")
        return cls.from_setup(
            doc["rules"],
            hands,
            discard=setup.get("discard"),
            stock=setup.get("stock", ()),
            tiplu=setup.get("tiplu"),
            dealer=dealer,
            seed=seed,
        )

    def check_invariants(self) -> None:
        """Raise ``InvariantError`` unless every card is exactly accounted for (M-1)."""
        check_invariants(self)

    def __repr__(self) -> str:
        return (
            f"<MarriageState {self.rules.preset_name} turn {self._turn} phase {self._phase} "
            f"to_move {self.to_move}>"
        )

    # ------------------------------------------------------------------ positions (part D)

    @classmethod
    def from_position(
        cls,
        rules: MarriageRules,
        seed: int,
        dealer: int,
        *,
        hands: Sequence[Sequence[int]],
        sizes: Sequence[int],
        melds: Sequence[Sequence[tuple[Card, ...]]],
        exposed: Sequence[Sequence[Card]],
        dublees: Sequence[Sequence[Card]],
        seen: Sequence[bool],
        path: Sequence[str | None],
        stock: Sequence[Card],
        pile: Sequence[int],
        tiplu: Card | None,
        tiplu_picked: bool,
        phase: Phase,
        to_move: int,
        passes: int,
        taken: Card | None,
        must_finish: bool,
        turn: int,
        recycles: int,
        actions: Sequence[str],
        turn_start: Sequence[tuple[Card, ...]] | None = None,
    ) -> MarriageState:
        """A deal in the middle of play laid out as given: the search bots' determinizations
        (a view's public cards, the hidden ones dealt at random: ``rami.sampling``).

        ``hands`` are count vectors, ``stock`` is listed top last; the history before
        the position is not kept (``actions`` are its texts). ``turn_start``: the mover's
        table melds as the turn found them, when it laid cards this turn (M-10: what
        ``takeback`` returns to). Nothing is checked here: ``check()`` says whether the
        cards add up.
        """
        self = cls.new(rules, len(hands), seed, dealer)
        self._hands = [list(h) for h in hands]
        self._sizes = list(sizes)
        self._melds = [list(m) for m in melds]
        self._exposed = [list(e) for e in exposed]
        self._dublees = [list(d) for d in dublees]
        self._seen = list(seen)
        self._path = list(path)
        self._stock = list(stock)
        self._pile = list(pile)
        self._tiplu = tiplu
        self._tiplu_picked = tiplu_picked
        self._wilds = wild_kinds(tiplu) if tiplu_picked and tiplu is not None else _NO_WILDS
        self._phase = phase
        self._to_move = to_move
        self._passes = passes
        self._taken = taken
        self._must_finish = must_finish
        self._turn = turn
        self._recycles = recycles
        self._actions = list(actions)
        self._events = []
        self._legal = None
        self._base = None
        self._laid = []
        if turn_start is not None:
            self._base = list(turn_start)
            left = [0] * KINDS
            for m in self._base:
                for c in m:
                    left[c] += 1
            for m in self._melds[to_move]:
                for c in m:
                    if left[c]:
                        left[c] -= 1
                    else:
                        self._laid.append(c)
        self._pair_ub = [dublee_count(h) for h in self._hands]
        self._no_finish_turn = -1
        return self


def new_deal(
    rules: object, seats: int, seed: int, dealer: int = 0, *, active: Sequence[bool] | None = None
) -> MarriageState:
    """A new shuffled deal for ``seats`` players, the same call as every game's ``new_deal``.

    ``rules`` is a preset name, an options object or ``MarriageRules`` (M-1, M-2).
    """
    return MarriageState.new(rules, seats, seed, dealer, active=active)
