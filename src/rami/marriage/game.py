"""The Marriage deal as a state machine (M-1 … M-15) behind the engine protocol.

A deal is reproducible from ``(rules, players, seed, dealer, actions)``: chance (the
shuffle, the tiplu, reshuffles of the discard pile) is derived with ``chance_rng`` from
the seed and the number of actions so far, so a state holds no random generator and
``clone()`` only copies small lists.

Hands are count vectors over the 53 card kinds (identical copies are the same card).
A Nepali player's shown melds, exposed tunnelas and shown dublees are kept out of the
hand vector: they are face up and can never be discarded or rearranged (M-3, M-6).
An Indian player's shown and laid melds are on the table (M-10).

``legal_actions()`` never depends on the tiplu for a seat that has not seen it (M-7):
the only tiplu-dependent checks (wild cards, finishing) apply to seen players.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any

from rami.cards import (
    CARDS,
    KINDS,
    Card,
    CardError,
    check_copies,
    counts,
    format_cards,
    parse_cards,
    shoe,
)
from rami.engine import Action, Chance, DealResult, Event, as_action, chance_rng
from rami.errors import IllegalAction, InputError, NotYourTurn, Reason
from rami.marriage import actions as act
from rami.marriage.maal import maal
from rami.marriage.meld_options import AddFacts, listed, meld_steps, show_steps
from rami.marriage.melds import is_meld, is_pure_meld, is_show_meld, wild_kinds
from rami.marriage.phases import Phase, Verb
from rami.marriage.rules import MarriageRules, rules_from
from rami.marriage.settle import capped_values, card_points, settle_indian, settle_nepali
from rami.marriage.solver import (
    Finish,
    dublee_count,
    dublees_to_finish,
    find_finish,
    finish_discards,
    max_show_melds,
)
from rami.marriage.view import build_view
from rami.runs import RUN_KINDS, positions, three_windows
from rami.view_cache import ViewCache

if TYPE_CHECKING:
    from rami.marriage.view import FinishJson, MarriageDetails, MarriagePlayerResult, MarriageView

__all__ = ["InvariantError", "MarriageState", "Phase", "Verb", "new_deal"]

EXPOSE_PHASE = Phase.EXPOSE
DRAW_PHASE = Phase.DRAW
PLAY_PHASE = Phase.PLAY
OVER = Phase.OVER

MELDS_PATH = "melds"
DUBLEES_PATH = "dublees"

SHOW_MELDS = 3  # M-6
_NO_WILDS: frozenset[int] = frozenset()
_KINDS52 = range(52)
_DISCARDS = tuple(act.discard_action(c) for c in range(52))
_DUBLEE_STEPS = tuple(Action(act.DUBLEE, (CARDS[k], CARDS[k])) for k in range(52))  # shared
_TEXT = tuple(str(c) for c in CARDS)  # card index -> its text
# A saved deal (the layout both games share) and the former Marriage keys still read:
# ``players`` for ``seats``, ``setup`` for ``start``.
_JSON_KEYS = {"game", "rules", "seats", "seed", "dealer", "active", "actions", "start"}
_OLD_JSON_KEYS = {"players", "setup"}


class InvariantError(AssertionError):
    """The state broke card conservation or its own bookkeeping (a bug, never user input)."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _cards_text(cards: Sequence[int]) -> str:
    return format_cards(cards, sort=True)


class MarriageState:
    """One Marriage deal. Build it with ``new_deal`` or ``MarriageState.from_setup``."""

    __slots__ = (
        "_add_facts",
        "_legal",
        "_no_finish_turn",
        "_view_cache",
        "actions",
        "base",
        "current",
        "dealer",
        "dublees",
        "end_reason",
        "events",
        "exposed",
        "finish",
        "finisher",
        "first",
        "hands",
        "laid",
        "melds",
        "must_finish",
        "n",
        "passes",
        "path",
        "phase",
        "pile",
        "recycles",
        "result",
        "rules",
        "seed",
        "seen",
        "setup",
        "show_ub",
        "sizes",
        "step",
        "stock",
        "taken",
        "tiplu",
        "tiplu_picked",
        "turn",
        "wilds",
    )

    rules: MarriageRules
    _view_cache: ViewCache | None  # what views reuse (rami.view_cache); unset in clones
    n: int
    seed: int
    dealer: int
    setup: dict[str, Any] | None
    step: int
    first: int
    hands: list[list[int]]
    sizes: list[int]
    melds: list[list[tuple[Card, ...]]]
    exposed: list[list[Card]]
    dublees: list[list[Card]]
    seen: list[bool]
    show_ub: list[int]
    path: list[str | None]
    stock: list[int]
    pile: list[int]
    tiplu: Card | None
    tiplu_picked: bool
    wilds: frozenset[int]
    phase: Phase
    current: int
    passes: int
    taken: int | None
    must_finish: bool
    turn: int
    recycles: int
    actions: list[str]
    events: list[Event]
    result: DealResult[MarriageDetails] | None
    finish: Finish | None
    finisher: int | None
    end_reason: str | None
    _legal: list[Action] | None
    base: list[tuple[Card, ...]] | None  # M-10: the mover's table melds before this turn's
    laid: list[Card]  # M-10: the cards the mover laid on the table this turn (meld, add)
    _add_facts: AddFacts  # what each table meld accepts (meld_options), shared by clones
    _no_finish_turn: int  # the turn whose mover was found unable to finish (-1: none)

    # ------------------------------------------------------------------ creation

    @classmethod
    def _start(
        cls,
        rules: MarriageRules,
        players: int,
        seed: int,
        dealer: int,
        hands: Sequence[Sequence[int]],
        pile: Sequence[int],
        stock: Sequence[int],
        tiplu: Card | None,
        setup: dict[str, Any] | None,
    ) -> MarriageState:
        """Lay out a dealt table (M-2); ``stock`` is listed top first."""
        self = cls.__new__(cls)
        self.rules = rules
        self.n = players
        self.seed = seed
        self.dealer = dealer
        self.setup = setup
        self.step = 1 if rules.clockwise else -1
        self.first = (dealer + self.step) % players
        self.hands = [counts(h) for h in hands]
        self.sizes = [len(h) for h in hands]
        self.melds = [[] for _ in range(players)]
        self.exposed = [[] for _ in range(players)]
        self.dublees = [[] for _ in range(players)]
        self.seen = [False] * players
        self.show_ub = [SHOW_MELDS] * players
        self.path = [None] * players
        self.stock = list(reversed(stock))  # top of the stock is the end of the list
        self.pile = list(pile)
        self.tiplu = tiplu
        self.tiplu_picked = False
        self.wilds = _NO_WILDS
        self.current = self.first
        self.passes = 0
        self.taken = None
        self.must_finish = False
        self.turn = 0
        self.recycles = 0
        self.actions = []
        self.events = []
        self.result = None
        self.finish = None
        self.finisher = None
        self.end_reason = None
        self._legal = None
        self.base = None
        self.laid = []
        self._add_facts = {}
        self._no_finish_turn = -1
        # chance (M-2): the shoe as dealt, hands seat by seat, the pile, the stock top first
        order = [c for h in hands for c in h] + list(pile) + list(stock)
        self.events.append(
            {
                "seat": None,
                "action": None,
                "news": "deal",
                "text": f"seat {dealer} deals; {CARDS[self.pile[-1]]} is turned up",
                "data": {"dealer": dealer, "card": _TEXT[self.pile[-1]]},
                "chance": {"kind": "deal", "cards": [_TEXT[c] for c in order]},
            }
        )
        if rules.tiplu_chosen == "after_deal":
            self._pick_tiplu()  # M-7: drawn now, kept hidden until someone shows
        if rules.deal_tunnela_bonus and rules.tunnela_melds:
            self.phase = EXPOSE_PHASE  # M-3
        else:
            self.phase = DRAW_PHASE
        return self

    @classmethod
    def new(cls, rules: object, players: int, seed: int, dealer: int = 0) -> MarriageState:
        """A freshly shuffled and dealt deal (M-1, M-2)."""
        r = rules_from(rules).for_players(players)
        _check_table(r, players, dealer)
        cards = shoe(r.decks)
        chance_rng(seed, 0, "deal").shuffle(cards)
        return cls._dealt(r, players, seed, dealer, cards)

    @classmethod
    def _dealt(
        cls, r: MarriageRules, players: int, seed: int, dealer: int, cards: Sequence[int]
    ) -> MarriageState:
        size = r.hand_size
        hands = [cards[i * size : (i + 1) * size] for i in range(players)]
        upcard = cards[players * size]
        stock = cards[players * size + 1 :]
        return cls._start(r, players, seed, dealer, hands, [upcard], stock, None, None)

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
        _check_table(r, seats, dealer)
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
        players = len(hands)
        r = rules_from(rules).for_players(players)
        _check_table(r, players, dealer)
        hand_lists = [_read_cards(h, f"hand of seat {i}") for i, h in enumerate(hands)]
        for i, h in enumerate(hand_lists):
            if len(h) != r.hand_size:
                raise InputError(f"seat {i} must be dealt {r.hand_size} cards, not {len(h)}")
        stock_top = _read_cards(stock, "stock")
        tiplu_card: Card | None = None
        if tiplu is not None:
            one = _read_cards(tiplu if isinstance(tiplu, str) else [tiplu], "tiplu")
            if len(one) != 1:
                raise InputError("the tiplu is one card")
            tiplu_card = CARDS[one[0]]
        used = [c for h in hand_lists for c in h] + stock_top
        pile = _read_cards(discard, "discard pile") if discard is not None else []
        used += pile
        if tiplu_card is not None:
            used.append(tiplu_card)
        try:
            check_copies(used, r.decks)
        except CardError as exc:
            raise InputError(str(exc)) from None
        rest_counts = [r.decks] * 52 + [0]
        for c in used:
            rest_counts[c] -= 1
        rest = [c for c in range(52) for _ in range(rest_counts[c])]
        chance_rng(seed, 0, "setup").shuffle(rest)
        if not pile:
            pile = [rest.pop()]
        full_stock = stock_top + rest
        if not full_stock:
            raise InputError("the stock may not be empty at the start of a deal")
        setup = {
            "hands": [[str(CARDS[c]) for c in h] for h in hand_lists],
            "discard": [str(CARDS[c]) for c in pile],
            "stock": [str(CARDS[c]) for c in full_stock],
            "tiplu": None if tiplu_card is None else str(tiplu_card),
        }
        return cls._start(r, players, seed, dealer, hand_lists, pile, full_stock, tiplu_card, setup)

    def clone(self) -> MarriageState:
        """A copy sharing nothing mutable (lists copied, never deep-copied)."""
        other = MarriageState.__new__(MarriageState)
        other.rules = self.rules
        other.n = self.n
        other.seed = self.seed
        other.dealer = self.dealer
        other.setup = self.setup
        other.step = self.step
        other.first = self.first
        other.hands = [h[:] for h in self.hands]
        other.sizes = self.sizes[:]
        other.melds = [m[:] for m in self.melds]
        other.exposed = [e[:] for e in self.exposed]
        other.dublees = [d[:] for d in self.dublees]
        other.seen = self.seen[:]
        other.show_ub = self.show_ub[:]
        other.path = self.path[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.tiplu = self.tiplu
        other.tiplu_picked = self.tiplu_picked
        other.wilds = self.wilds
        other.phase = self.phase
        other.current = self.current
        other.passes = self.passes
        other.taken = self.taken
        other.must_finish = self.must_finish
        other.turn = self.turn
        other.recycles = self.recycles
        other.actions = self.actions[:]
        other.events = self.events[:]
        other.result = self.result
        other.finish = self.finish
        other.finisher = self.finisher
        other.end_reason = self.end_reason
        other._legal = self._legal
        other.base = None if self.base is None else self.base[:]
        other.laid = self.laid[:]
        other._add_facts = self._add_facts
        other._no_finish_turn = self._no_finish_turn
        return other

    # ------------------------------------------------------------------ protocol

    @property
    def num_players(self) -> int:
        return self.n

    @property
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.current

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def view(self, seat: int | None) -> MarriageView:
        """What ``seat`` may know (``None``: a spectator); see ``rami.marriage.view``."""
        return build_view(self, seat)

    def seat_wilds(self, seat: int) -> frozenset[int]:
        """The wild cards ``seat`` plays with: none until it has seen the tiplu (M-7)."""
        return self.wilds if self.seen[seat] else _NO_WILDS

    def showing(self, seat: int) -> bool:
        """Whether ``seat`` has started a show this turn that is not complete yet (M-6)."""
        return self.path[seat] is not None and not self.seen[seat]

    def shown_count(self, seat: int) -> int:
        """Melds (Nepali: shown melds plus exposed tunnelas) or dublees shown so far."""
        if self.path[seat] == DUBLEES_PATH:
            return len(self.dublees[seat])
        return len(self.melds[seat]) + len(self.exposed[seat])

    @property
    def show_dublees(self) -> int:
        """Dublees shown to see (M-6): seven, one fewer than finish (M-9)."""
        return dublees_to_finish(self.rules) - 1

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play (M-2)."""
        return (seat + self.step) % self.n

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        """The verbs' ``_check_…`` rules, listed (the hot path: see each comment).

        Draw, take, expose and pass are asked of their checks; the show, dublee, meld,
        add and finish steps are generated by the solver from the same rules (their
        checks accept every one listed: tests/test_marriage_legality.py); discards are
        the held cards but the taken one, when no show is in progress and no finish is
        due (``_check_discard``).
        """
        phase = self.phase
        s = self.current
        hand = self.hands[s]
        if phase == DRAW_PHASE:
            out = [act.DRAW] if self._check_draw(act.DRAW) is None else []
            if self._check_take(act.TAKE) is None:
                out.append(act.TAKE)
            return out
        if phase == EXPOSE_PHASE:
            exposes = (act.expose_action(c) for c in range(52) if hand[c])
            out = [e for e in exposes if self._check_expose(e) is None]
            out.append(act.PASS)
            return out
        if phase != PLAY_PHASE:
            return []
        taken = self.taken
        if self.must_finish:
            return [act.finish_action(c) for c in self._finish_discards(s) if c != taken]
        out = []
        if not self.seen[s]:
            out.extend(self._show_options(s))
            if self.showing(s):
                return out
        else:
            out.extend(act.finish_action(c) for c in self._play_finishes(s) if c != taken)
            if self.rules.table_melding:
                out.extend(self._meld_options(s))
                if self.laid:
                    out.append(act.TAKEBACK)
        if taken is None:
            out += [_DISCARDS[c] for c in compress(_KINDS52, hand)]
        else:
            out += [_DISCARDS[c] for c in compress(_KINDS52, hand) if c != taken]
        return out

    def _card_in(self, s: int, c: int) -> None:
        """Card ``c`` joins the hand of ``s`` (drawn or taken).

        ``show_ub[s]`` bounds from above the disjoint show melds (M-6) in the hand of
        ``s`` (capped at three): a new card raises it only if it is part of a show meld,
        and losing cards never raises it, so most turns skip the search for show
        options. It is a pure cache: whatever its value, the legal moves are the same.
        """
        self.hands[s][c] += 1
        self.sizes[s] += 1
        ub = self.show_ub[s]
        if ub < SHOW_MELDS and _joins_show_meld(self.hands[s], c, self.rules):
            self.show_ub[s] = ub + 1

    def _show_options(self, s: int) -> list[Action]:
        """Show steps that keep the show completable (M-6); never tiplu-dependent."""
        rules = self.rules
        hand = self.hands[s]
        out: list[Action] = []
        if self.tiplu is None and not self.stock:
            return out  # nothing could become the tiplu (see _tiplu_problem)
        path = self.path[s]
        if path != DUBLEES_PATH:
            need = SHOW_MELDS - len(self.melds[s]) - len(self.exposed[s])
            if need <= 0:
                if path is None:
                    out.append(act.SEE)
            elif self.show_ub[s] >= need:
                steps = show_steps(hand, rules, need, self.sizes[s], self.taken)
                if steps is None:
                    self.show_ub[s] = need - 1  # fewer than ``need`` disjoint show melds
                else:
                    out.extend(steps)
        if path != MELDS_PATH and not self.exposed[s] and rules.dublees_allowed(self.n):
            need = self.show_dublees - len(self.dublees[s])
            have = dublee_count(hand)
            if have >= need:
                # showing the dublee of k leaves ``have - 1 >= left`` dublees (k is held
                # twice or more): only the cards left to discard decide (``_spare`` of
                # the hand without those two cards)
                left = need - 1
                taken = self.taken
                base = self.sizes[s] - 2
                for k in range(52):
                    if hand[k] < 2:
                        continue
                    spare = base
                    if taken is not None:
                        spare -= hand[taken] - (2 if k == taken else 0)
                    if spare >= 2 * left + 1:
                        out.append(_DUBLEE_STEPS[k])
        return out

    def _spare(self, s: int, rest: list[int], removed: int) -> int:
        """Cards of ``rest`` that could still be discarded this turn."""
        n = self.sizes[s] - removed
        if self.taken is not None:
            n -= rest[self.taken]
        return n

    def _meld_options(self, s: int) -> list[Action]:
        """Indian table melding (M-10): a short canonical list of melds and additions
        (``rami.marriage.meld_options``); ``apply`` accepts any valid meld."""
        return meld_steps(
            self.hands[s],
            self.rules,
            self.wilds,
            self.sizes[s],
            self.taken,
            self.melds[s],
            self._add_facts,
        )

    # ------------------------------------------------------------------ solver glue

    def _play_finishes(self, s: int) -> list[Card]:
        """``_finish_discards`` for the seen seat ``s`` in free play, searched once a turn
        when it finds nothing.

        Within a turn a seen seat's holding changes only by melds and additions laid on
        its own table (M-10), and the search starts from the turn's start whatever was
        laid (``_turn_start``: ``takeback`` is a step of every route). So once a turn's
        search found no finishing discard, none appears later in that turn.
        """
        if self._no_finish_turn == self.turn:
            return []
        found = self._finish_discards(s)
        if not found:
            self._no_finish_turn = self.turn
        return found

    def _turn_start(self, s: int) -> tuple[list[int], list[tuple[Card, ...]]]:
        """The hand and the table melds of ``s`` before this turn's melds and additions.

        M-10: a finish is legal exactly when a route of this turn's steps reaches it, and
        ``takeback`` (picking up this turn's laid cards) is one of them, so an Indian
        finish is searched from here, whatever was laid this turn."""
        if self.base is None:
            return self.hands[s], self.melds[s]
        hand = self.hands[s][:]
        for c in self.laid:
            hand[c] += 1
        return hand, self.base

    def _finish_discards(self, s: int) -> list[Card]:
        """Discards with which ``s`` (seen, after drawing) can finish now (M-8, M-9, M-10)."""
        path = self.path[s] or MELDS_PATH
        if self.rules.table_melding:
            hand, table = self._turn_start(s)
            return finish_discards(hand, self.rules, self.wilds, len(table), path, table)
        return finish_discards(self.hands[s], self.rules, self.wilds, self.shown_count(s), path)

    def _find_finish(self, s: int, discard: Card) -> Finish | None:
        path = self.path[s] or MELDS_PATH
        if self.rules.table_melding:
            hand, table = self._turn_start(s)
            return find_finish(hand, self.rules, self.wilds, len(table), path, discard, table)
        return find_finish(
            self.hands[s], self.rules, self.wilds, self.shown_count(s), path, discard
        )

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action | str, seat: int | None = None) -> Action:
        """Play one step for the seat to move; all-or-nothing (``IllegalAction``, no change).

        ``seat``, when given, is checked against the seat to move, so a front end can
        pass who is acting and get "it is seat 2's turn" instead of a wrong move. The
        action is normalised once; the canonical action applied (the text the log keeps,
        e.g. ``show 3♠ 4♠ 5♠``) is returned. Each verb's rules are stated once, in its
        ``_check_<verb>`` (also used by ``legal_actions`` and ``check``); ``_do_<verb>``
        only changes the state.
        """
        legal = self._legal
        if legal is not None and isinstance(action, Action) and listed(action, legal):
            # one of the listed actions itself: canonical and legal (its check would
            # accept it: tests/test_marriage_legality.py), so only the seat is checked
            if seat is not None and seat != self.current:
                raise NotYourTurn(self.current)
            _VERBS[action.kind][1](self, action)
            self._legal = None
            return action
        a = act.normalise(as_action(action))
        if self.phase == OVER:
            raise IllegalAction("the deal is over", key="deal_over")
        if seat is not None and seat != self.current:
            raise NotYourTurn(self.current)
        check, do = _VERBS[a.kind]
        problem = check(self, a)
        if problem is not None:
            raise IllegalAction(problem)
        do(self, a)
        self._legal = None
        return a

    def check(self, action: Action | str, seat: int | None = None) -> str | None:
        """Why ``action`` (by ``seat``, if given) is illegal now, or None (changes nothing)."""
        try:
            a = act.normalise(as_action(action))
        except IllegalAction as exc:
            return str(exc)
        if self.phase == OVER:
            return Reason("the deal is over", key="deal_over")
        if seat is not None and seat != self.current:
            return str(NotYourTurn(self.current))
        return _VERBS[a.kind][0](self, a)

    def _record(self, a: Action) -> None:
        text = act.DISCARD_TEXTS[a.cards[0]] if a.kind == act.DISCARD else str(a)
        self.actions.append(text)
        self.events.append({"seat": self.current, "action": text})

    def chance_outcomes(self) -> list[Chance]:
        """What chance decided so far, in order: the deal, the tiplu, reshuffles."""
        return [e["chance"] for e in self.events if "chance" in e]

    # ------------------------------------------------------------------ shared conditions

    def _phase_problem(self, phase: Phase) -> str | None:
        """Why the deal is not in ``phase`` now, in the player's terms (M-3, M-5)."""
        if self.phase == phase:
            return None
        if self.phase == EXPOSE_PHASE:
            return Reason(
                "tunnelas exposed at the deal come first: expose one or 'pass' (M-3)",
                key="expose_first",
            )
        if phase == EXPOSE_PHASE:
            return Reason(
                "tunnelas may be exposed only right after the deal (M-3)", key="expose_after_deal"
            )
        if phase == DRAW_PHASE:
            return Reason("you have already drawn this turn", key="drawn_already")
        return Reason(
            "you must draw first: 'draw' from the stock or 'take' the discard (M-5)",
            "M-5",
            "draw_first",
        )

    def _free_play_problem(self, finishing: bool = False) -> str | None:
        """Play phase, and not in the middle of something that must be completed first."""
        problem = self._phase_problem(PLAY_PHASE)
        if problem is None and self.must_finish and not finishing:
            return Reason(
                "you took a discard to complete your eighth dublee: you must finish this turn",
                key="must_finish",
            )
        return problem

    def _holding_problem(self, s: int, cards: Sequence[Card]) -> str | None:
        """Whether ``s`` holds all of ``cards`` (copies counted)."""
        hand = self.hands[s]
        for c in dict.fromkeys(cards):  # in the order named
            want = cards.count(c)
            if hand[c] < want:
                return Reason(
                    f"you do not hold {c}" if hand[c] == 0 else f"you hold only {hand[c]} × {c}",
                    key="not_held",
                )
        return None

    def _without(self, s: int, cards: Sequence[Card]) -> list[int]:
        """The hand of ``s`` less ``cards`` (held: checked first)."""
        rest = self.hands[s][:]
        for c in cards:
            rest[c] -= 1
        return rest

    def _tiplu_problem(self) -> str | None:
        """Decision: the first show needs a stock card to become the tiplu (M-7)."""
        if self.tiplu is None and not self.stock:
            return Reason(
                "the stock is empty, so no card can be picked as the tiplu: show on a later turn",
                key="tiplu_stock_empty",
            )
        return None

    def _showing_problem(self, s: int) -> str | None:
        """M-6: a started show must be completed in the same turn before the turn ends."""
        if not self.showing(s):
            return None
        done = self.shown_count(s)
        need = self.show_dublees if self.path[s] == DUBLEES_PATH else SHOW_MELDS
        return Reason(
            f"complete your show first ({done} of {need} shown): a started show must be "
            "completed in the same turn (M-6)",
            key="complete_show",
        )

    def _discard_problem(self, s: int, c: Card, hand: list[int] | None = None) -> str | None:
        """Whether ``s`` may let ``c`` go now (discard or finish; ``hand``: the one it
        comes from, by default the hand): M-5, M-6."""
        problem = self._showing_problem(s)
        if problem is not None:
            return problem
        if (self.hands[s] if hand is None else hand)[c] == 0:
            return Reason(f"you do not hold {c}", key="not_held")
        if c == self.taken:
            return Reason(
                f"you took {c} from the discard pile and cannot discard it this turn (M-5)",
                "M-5",
                "taken_discard",
            )
        return None

    # -- M-3

    def _check_expose(self, a: Action) -> str | None:
        """M-3: right after the deal, a seat may expose a tunnela (three identical cards)."""
        problem = self._phase_problem(EXPOSE_PHASE)
        if problem is None and self.hands[self.current][a.cards[0]] < 3:
            return Reason(
                f"you do not hold three {a.cards[0]} to expose as a tunnela", key="no_tunnela"
            )
        return problem

    def _do_expose(self, a: Action) -> None:
        s = self.current
        c = a.cards[0]
        self.hands[s][c] -= 3
        self.sizes[s] -= 3
        self.exposed[s].append(c)
        self._record(a)

    def _check_pass(self, a: Action) -> str | None:
        """M-3: 'pass' ends a seat's exposing; once every seat passed, play begins."""
        if self.phase != EXPOSE_PHASE:
            return Reason(
                "'pass' ends your tunnela exposure after the deal; now draw, take or discard",
                key="pass_after_deal",
            )
        return None

    def _do_pass(self, a: Action) -> None:
        self._record(a)
        self.passes += 1
        if self.passes >= self.n:
            self.phase = DRAW_PHASE
            self.current = self.first
        else:
            self.current = self.next_seat(self.current)

    # -- M-5 drawing

    def _check_draw(self, a: Action) -> str | None:
        """M-5: a turn starts by drawing the top card of the stock (or taking, below)."""
        problem = self._phase_problem(DRAW_PHASE)
        if problem is None and not self.stock:
            return Reason("the stock is empty: take the discard", key="stock_empty")
        return problem

    def _check_take(self, a: Action) -> str | None:
        """M-5: or by taking the latest discard, when ``_take_problem`` allows it."""
        problem = self._phase_problem(DRAW_PHASE)
        return self._take_problem(self.current) if problem is None else problem

    def _take_problem(self, s: int) -> str | None:
        """Why ``s`` may not take the latest discard now, or ``None`` (M-5)."""
        if not self.pile:
            return Reason("the discard pile is empty", key="pile_empty")
        c = self.pile[-1]
        if self.hands[s][c] == self.sizes[s]:
            # Only copies of the taken card would be left to discard (Indian hands
            # shrink as they meld): taking it would leave no legal end to the turn.
            return Reason(
                f"you could discard nothing but {CARDS[c]} after taking it (M-5)",
                key="take_leaves_nothing",
            )
        if not self.seen[s]:
            return None
        if c in self.wilds and not self.rules.seen_may_take_wild_discard:
            return Reason(
                "seen players may not take a wild card from the discard pile", key="seen_no_wild"
            )
        if self.path[s] == DUBLEES_PATH:
            hand = self.hands[s][:]
            hand[c] += 1
            path_ok = any(
                d != c
                for d in finish_discards(
                    hand, self.rules, self.wilds, len(self.dublees[s]), DUBLEES_PATH
                )
            )
            if not path_ok:
                return Reason(
                    "on the dublee path you may take a discard only to complete your "
                    "eighth dublee and finish this turn",
                    key="dublee_take",
                )
        return None

    def _do_draw(self, a: Action) -> None:
        s = self.current
        c = self.stock.pop()
        self._card_in(s, c)
        self.phase = PLAY_PHASE
        self.actions.append("draw")
        self.events.append({"seat": s, "action": "draw", "card": _TEXT[c]})

    def _do_take(self, a: Action) -> None:
        s = self.current
        c = self.pile.pop()
        self._card_in(s, c)
        self.taken = c
        self.must_finish = self.seen[s] and self.path[s] == DUBLEES_PATH
        self.phase = PLAY_PHASE
        self.actions.append("take")
        self.events.append({"seat": s, "action": "take", "card": _TEXT[c]})

    # -- M-6, M-7 showing and seeing

    def _check_show(self, a: Action) -> str | None:
        """M-6: an unseen seat shows pure melds (three in all) to see the tiplu (M-7).

        A show may be spread over steps of one turn, but each step must leave the rest
        of the hand able to complete it and a card to discard.
        """
        problem = self._free_play_problem()
        if problem is not None:
            return problem
        s = self.current
        rules = self.rules
        if self.seen[s]:
            if rules.table_melding:
                return Reason(
                    "you have already seen the tiplu: lay melds with 'meld'", key="seen_already"
                )
            return Reason("you have already seen the tiplu", key="seen_already")
        if self.path[s] == DUBLEES_PATH:
            return Reason(
                "you are showing dublees; the meld and dublee paths exclude each other (M-6)",
                key="paths_exclusive",
            )
        need = SHOW_MELDS - len(self.melds[s]) - len(self.exposed[s])
        if need <= 0:
            return Reason("your exposed tunnelas already let you see: use 'see'", key="use_see")
        problem = self._tiplu_problem()
        if problem is not None:
            return problem
        cards = a.cards
        if not rules.melds_at_least3 and len(cards) != 3:
            return Reason("a meld is exactly three cards (M-4)", key="meld_three")
        if not is_show_meld(cards, rules):
            kinds = "pure sequence or tunnela" if rules.tunnela_melds else "pure sequence or trial"
            return Reason(f"{_cards_text(cards)} is not a {kinds} (M-6)", key="not_show_meld")
        problem = self._holding_problem(s, cards)
        if problem is not None:
            return problem
        rest = self._without(s, cards)
        left = need - 1
        if self._spare(s, rest, len(cards)) < 3 * left + 1:
            return Reason(
                "showing these cards would leave you nothing to discard", key="nothing_to_discard"
            )
        if left and max_show_melds(rest, rules, left) < left:
            return Reason(
                f"the rest of your hand cannot complete the show: it needs "
                f"{_plural(left, 'more pure meld')} (M-6)",
                key="show_incomplete",
            )
        return None

    def _do_show(self, a: Action) -> None:
        s = self.current
        cards = a.cards
        left = SHOW_MELDS - len(self.melds[s]) - len(self.exposed[s]) - 1
        self.hands[s] = self._without(s, cards)
        self.sizes[s] -= len(cards)
        self.melds[s].append(cards)
        self.path[s] = MELDS_PATH
        self._record(a)
        if left == 0:
            self._see(s)

    def _check_dublee(self, a: Action) -> str | None:
        """M-6, M-9: the dublee path: seven dublees shown to see, the eighth to finish."""
        problem = self._free_play_problem()
        if problem is not None:
            return problem
        s = self.current
        if not self.rules.dublees_allowed(self.n):
            if not self.rules.dublees:
                return Reason("these rules have no dublee path (M-9)", key="no_dublees")
            return Reason(
                f"the dublee path needs at least {self.rules.dublees_min_players} players (M-9)",
                key="dublees_players",
            )
        if self.seen[s]:
            return Reason("you have already seen the tiplu", key="seen_already")
        if self.path[s] == MELDS_PATH:
            return Reason(
                "you are showing melds; the meld and dublee paths exclude each other (M-6)",
                key="paths_exclusive",
            )
        if self.exposed[s]:
            # Decision: an exposed tunnela counts as a shown meld (M-3), so its owner
            # is on the meld path (M-6: the paths exclude each other).
            return Reason(
                "your tunnela exposed at the deal counts as a shown meld: you are on the "
                "meld path, not the dublee path (M-3, M-6)",
                key="tunnela_meld_path",
            )
        problem = self._tiplu_problem() or self._holding_problem(s, a.cards)
        if problem is not None:
            return problem
        rest = self._without(s, a.cards)
        left = self.show_dublees - len(self.dublees[s]) - 1
        if self._spare(s, rest, 2) < 2 * left + 1:
            return Reason(
                "showing this dublee would leave you nothing to discard", key="nothing_to_discard"
            )
        if dublee_count(rest) < left:
            return Reason(
                f"the rest of your hand cannot complete the show: it needs "
                f"{_plural(left, 'more dublee')} (M-6)",
                key="show_incomplete",
            )
        return None

    def _do_dublee(self, a: Action) -> None:
        s = self.current
        left = self.show_dublees - len(self.dublees[s]) - 1
        self.hands[s] = self._without(s, a.cards)
        self.sizes[s] -= 2
        self.dublees[s].append(a.cards[0])
        self.path[s] = DUBLEES_PATH
        self._record(a)
        if left == 0:
            self._see(s)

    def _check_see(self, a: Action) -> str | None:
        """M-3, M-6: three tunnelas exposed at the deal let a seat see without showing."""
        problem = self._free_play_problem()
        if problem is not None:
            return problem
        s = self.current
        if self.seen[s]:
            return Reason("you have already seen the tiplu", key="seen_already")
        if self.path[s] is not None or len(self.exposed[s]) < SHOW_MELDS:
            return Reason(
                "to see the tiplu, show three pure melds (or seven dublees); 'see' alone "
                "needs three tunnelas exposed at the deal (M-6)",
                key="see_needs_show",
            )
        return self._tiplu_problem()

    def _do_see(self, a: Action) -> None:
        s = self.current
        self.path[s] = MELDS_PATH
        self._record(a)
        self._see(s)

    def _pick_tiplu(self) -> None:
        """M-7: a random stock card becomes the tiplu, out of play for the whole deal."""
        if self.tiplu is None:
            rng = chance_rng(self.seed, len(self.actions), "tiplu")
            self.tiplu = CARDS[self.stock.pop(rng.randrange(len(self.stock)))]
        self.tiplu_picked = True
        self.wilds = wild_kinds(self.tiplu)
        self.events.append(
            {
                "seat": None,
                "action": None,
                "news": "tiplu",
                "text": "the tiplu is picked from the stock",
                "chance": {"kind": "tiplu", "cards": [str(self.tiplu)]},
            }
        )

    def _see(self, s: int) -> None:
        if not self.tiplu_picked:
            self._pick_tiplu()
        self.seen[s] = True
        self.events.append(
            {"seat": s, "action": None, "news": "see", "text": f"seat {s} sees the tiplu"}
        )

    # -- M-10 Indian table melding

    def _table_problem(self) -> str | None:
        """M-10: melding on the table, for a seen seat in free play (Indian rules)."""
        if not self.rules.table_melding:
            return Reason(
                "melding on the table is an Indian Marriage rule (M-10)", key="no_table_melding"
            )
        problem = self._free_play_problem()
        if problem is None and not self.seen[self.current]:
            return Reason(
                "you must show three pure melds and see the tiplu before melding (M-10)",
                key="meld_after_seeing",
            )
        return problem

    def _check_meld(self, a: Action) -> str | None:
        """M-10 (M-4): a seen Indian player lays any valid meld, keeping a card to discard."""
        s = self.current
        problem = self._table_problem() or self._holding_problem(s, a.cards)
        if problem is not None:
            return problem
        if not is_meld(a.cards, self.rules, self.wilds):
            return Reason(f"{_cards_text(a.cards)} is not a valid meld (M-4)", key="not_a_meld")
        if self._spare(s, self._without(s, a.cards), len(a.cards)) < 1:
            return Reason(
                "melding these cards would leave you nothing to discard", key="nothing_to_discard"
            )
        return None

    def _do_meld(self, a: Action) -> None:
        s = self.current
        self._laying(s, a.cards)
        self.hands[s] = self._without(s, a.cards)
        self.sizes[s] -= len(a.cards)
        self.melds[s].append(a.cards)
        self._record(a)

    def _check_add(self, a: Action) -> str | None:
        """M-10, M-6: a card added to one's own table meld, three pure melds kept."""
        problem = self._table_problem()
        if problem is not None:
            return problem
        s = self.current
        table = self.melds[s]
        i = a.target
        assert i is not None
        if i >= len(table):
            last = f"@0 … @{len(table) - 1}" if len(table) > 1 else "@0"
            return Reason(f"you have no table meld @{i} (yours are {last})", key="no_such_meld")
        c = a.cards[0]
        problem = self._holding_problem(s, a.cards)
        if problem is not None:
            return problem
        new = tuple(sorted((*table[i], c)))
        if not is_meld(new, self.rules, self.wilds):
            return Reason(
                f"{c} does not fit meld @{i} ({_cards_text(table[i])})", key="does_not_fit"
            )
        if is_pure_meld(table[i], self.rules) and not is_pure_meld(new, self.rules):
            pure = sum(is_pure_meld(m, self.rules) for m in table)
            if pure - 1 < SHOW_MELDS:
                return Reason(
                    "you must keep at least three pure melds on the table (M-6)",
                    key="keep_pure_melds",
                )
        if self._spare(s, self._without(s, a.cards), 1) < 1:
            return Reason(
                "adding this card would leave you nothing to discard", key="nothing_to_discard"
            )
        return None

    def _do_add(self, a: Action) -> None:
        s = self.current
        i = a.target
        assert i is not None
        self._laying(s, a.cards)
        self.hands[s] = self._without(s, a.cards)
        self.sizes[s] -= 1
        self.melds[s][i] = tuple(sorted((*self.melds[s][i], a.cards[0])))
        self._record(a)

    def _laying(self, s: int, cards: Sequence[Card]) -> None:
        """Remember the table as the turn found it, and the cards laid (M-10 take-back)."""
        if self.base is None:
            self.base = list(self.melds[s])
        self.laid.extend(cards)

    def _pick_up(self, s: int) -> None:
        """Every card laid this turn back to the hand, the table as the turn found it."""
        if self.base is None:
            return
        for c in self.laid:
            self.hands[s][c] += 1
        self.sizes[s] += len(self.laid)
        self.melds[s] = self.base
        self.base = None
        self.laid = []

    def _check_takeback(self, a: Action) -> str | None:
        """M-10 (seed 003): a player who changed his mind may pick up the cards laid out in
        the current turn (melds and additions; not the show, which let him see), all of
        them, and lay them again another way. Earlier turns' cards stay."""
        problem = self._table_problem()
        if problem is None and not self.laid:
            return Reason(
                "you have laid no cards on the table this turn: only those may be taken "
                "back (M-10)",
                key="nothing_laid",
            )
        return problem

    def _do_takeback(self, a: Action) -> None:
        self._pick_up(self.current)
        self._record(a)

    # -- M-8, M-9 finishing and ending a turn

    def _check_finish(self, a: Action) -> str | None:
        """M-8, M-9, M-10: a seen seat finishes by discarding the one card left over."""
        problem = self._free_play_problem(finishing=True)
        if problem is not None:
            return problem
        s = self.current
        c = a.cards[0]
        if not self.seen[s]:
            if self.showing(s):
                problem = self._discard_problem(s, c)
            return problem or "you must show and see the tiplu before you can finish (M-8)"
        problem = self._discard_problem(s, c, self._turn_start(s)[0])
        if problem is not None:
            return problem
        if self._find_finish(s, c) is None:
            if self.path[s] == DUBLEES_PATH:
                what = "eight dublees"
            elif self.rules.table_melding:
                what = "valid melds on the table"
            else:
                what = "seven melds with your shown ones"
            return Reason(
                f"you cannot finish by discarding {c}: the rest does not make {what}",
                key="no_finish",
            )
        return None

    def _do_finish(self, a: Action) -> None:
        s = self.current
        c = a.cards[0]
        fin = self._find_finish(s, c)
        assert fin is not None  # checked by _check_finish
        self._pick_up(s)  # M-10: the finish lays the turn's cards its own way
        self.hands[s][c] -= 1
        self.sizes[s] -= 1
        self.pile.append(c)
        self._record(a)
        self._end(s, fin, "finish")

    def _check_discard(self, a: Action) -> str | None:
        """M-5, M-6: a turn ends with a discard (not the discard taken this turn)."""
        return self._free_play_problem() or self._discard_problem(self.current, a.cards[0])

    def _do_discard(self, a: Action) -> None:
        s = self.current
        c = a.cards[0]
        self.hands[s][c] -= 1
        self.sizes[s] -= 1
        self.pile.append(c)
        self._record(a)
        if self.rules.table_melding and self.sizes[s] == 0:
            # M-8 (indian): every card melded on the table and the last one discarded.
            fin = Finish(MELDS_PATH, tuple(self.melds[s]), CARDS[c])
            self._end(s, fin, "finish")
            return
        self._end_turn()

    def _end_turn(self) -> None:
        self.base = None
        self.laid = []
        self.turn += 1
        self.taken = None
        self.must_finish = False
        cap = self.rules.max_turns
        if cap is not None and self.turn >= cap:
            self._end(None, None, "max_turns")
            return
        if not self.stock and not self._recycle():
            self._end(None, None, "stock")
            return
        self.current = self.next_seat(self.current)
        self.phase = DRAW_PHASE

    def _recycle(self) -> bool:
        """M-11: the discard pile but its latest card becomes the stock, if allowed."""
        limit = self.rules.stock_recycles
        if limit is not None and self.recycles >= limit:
            return False
        cards = self.pile[:-1]
        if not cards:
            return False
        del self.pile[:-1]
        if self.rules.shuffle_recycled:
            chance_rng(self.seed, len(self.actions), "recycle").shuffle(cards)
            self.stock = cards
        else:
            self.stock = cards[::-1]  # turned over: the oldest discard is drawn first
        self.recycles += 1
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
        self.events.append(event)
        return True

    # ------------------------------------------------------------------ the end

    def final_cards(self, s: int) -> list[int]:
        """All of ``s``'s cards (hand, shown, exposed, dublees, table) as a card list."""
        cards = [c for c in range(52) for _ in range(self.hands[s][c])]
        for m in self.melds[s]:
            cards.extend(m)
        for t in self.exposed[s]:
            cards.extend((t, t, t))
        for d in self.dublees[s]:
            cards.extend((d, d))
        return cards

    def _end(self, finisher: int | None, fin: Finish | None, reason: str) -> None:
        self.phase = OVER
        self.base = None
        self.laid = []
        self.finisher = finisher
        self.finish = fin
        self.end_reason = reason
        self.taken = None
        self.must_finish = False
        self.result = self._settle()
        if finisher is None:
            text = "the deal ends with no finisher" + (
                " (turn limit)" if reason == "max_turns" else " (the stock ran out)"
            )
        else:
            text = f"seat {finisher} finishes"
        self.events.append(
            {
                "seat": finisher,
                "action": None,
                "news": "end",
                "text": text,
                "data": {"winner": finisher, "reason": reason},
            }
        )

    def _settle(self) -> DealResult[MarriageDetails]:
        """Maal and settlement (M-12 … M-15) and the JSON-ready explanation."""
        rules = self.rules
        n = self.n
        tiplu = self.tiplu
        anyone_seen = any(self.seen) and tiplu is not None
        points: list[int] = []
        items: list[list[str]] = []
        cards_of = [self.final_cards(s) for s in range(n)]
        for s in range(n):
            if not anyone_seen or tiplu is None:
                points.append(0)
                items.append([])
                continue
            bonus = self.seen[s] and self.path[s] == MELDS_PATH and bool(self.exposed[s])
            pts, its = maal(cards_of[s], tiplu, rules, tuple(self.exposed[s]), bonus)
            if not self.seen[s] and not rules.unseen_maal_counts:
                pts, its = 0, []  # M-12 option: an unseen player's maal counts nothing
            points.append(pts)
            items.append(list(its))
        players: list[MarriagePlayerResult] = []
        if rules.scoring == "indian":
            in_hand = [
                0
                if s == self.finisher
                else card_points([c for c in range(52) for _ in range(self.hands[s][c])])
                for s in range(n)
            ]
            nets = settle_indian(points, self.seen, in_hand, self.finisher, rules)
            points, items = capped_values(points, self.seen, items, rules)  # M-15, as shown
        else:
            in_hand = []
            dublee_finish = self.finish is not None and self.finish.kind == DUBLEES_PATH
            nets = settle_nepali(points, self.seen, self.finisher, dublee_finish, rules)
        for s in range(n):
            entry: MarriagePlayerResult = {
                "seat": s,
                "seen": self.seen[s],
                "path": self.path[s],
                "maal": points[s],
                "maal_items": items[s],
                "hand": [str(CARDS[c]) for c in range(52) for _ in range(self.hands[s][c])],
                "cards": [str(CARDS[c]) for c in sorted(cards_of[s])],
                "net": nets[s],
            }
            if in_hand:
                entry["card_points"] = in_hand[s]
            if rules.table_melding:
                entry["table_melds"] = [[str(c) for c in m] for m in self.melds[s]]
            else:
                entry["shown_melds"] = [[str(c) for c in m] for m in self.melds[s]]
                entry["exposed_tunnelas"] = [str(c) for c in self.exposed[s]]
                entry["dublees"] = [str(c) for c in self.dublees[s]]
            players.append(entry)
        finish_doc: FinishJson | None = None
        if self.finish is not None:
            finish_doc = {
                "kind": self.finish.kind,
                "groups": [[str(c) for c in g] for g in self.finish.groups],
                "discard": str(self.finish.discard),
            }
        details: MarriageDetails = {
            "tiplu": None if tiplu is None or not self.tiplu_picked else str(tiplu),
            "finisher": self.finisher,
            "finish": finish_doc,
            "reason": self.end_reason,
            "turns": self.turn,
            "players": players,
        }
        return DealResult(tuple(nets), self.finisher, details)

    # ------------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, Any]:
        """Rules, table, seed and actions: everything needed to replay this deal.

        The layout every game's deal shares: ``game``, ``rules``, ``seats``, ``seed``,
        ``dealer``, ``active`` (every Marriage seat plays the whole deal), ``actions``
        (the canonical texts) and, for a chosen deal, ``start`` (its cards).
        """
        doc: dict[str, Any] = {
            "game": "marriage",
            "rules": self.rules.to_json(),
            "seats": self.n,
            "seed": self.seed,
            "dealer": self.dealer,
            "active": [True] * self.n,
            "actions": list(self.actions),
        }
        if self.setup is not None:
            doc["start"] = self.setup
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> MarriageState:
        """Replay a ``to_json`` document; ``InputError`` says what is wrong with it."""
        if not isinstance(doc, Mapping):
            raise InputError("a saved deal must be a JSON object")
        unknown = set(doc) - _JSON_KEYS - _OLD_JSON_KEYS
        if unknown:
            raise InputError(f"unknown key {sorted(unknown)[0]!r} in saved deal")
        seats_key = "seats" if "seats" in doc or "players" not in doc else "players"
        start_key = "setup" if "setup" in doc and "start" not in doc else "start"
        for key in (seats_key, "seed", "actions"):
            if key not in doc:
                raise InputError(f"saved deal is missing {key!r}")
        if doc.get("game", "marriage") != "marriage":
            raise InputError(f"not a Marriage deal: {doc.get('game')!r}")
        players, seed, dealer = doc[seats_key], doc["seed"], doc.get("dealer", 0)
        for name, value in ((seats_key, players), ("seed", seed), ("dealer", dealer)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"{name!r} must be a whole number")
        active = doc.get("active")
        if active is not None and active != [True] * players:
            raise InputError(f"'active' must list {players} seats, all in play (true)")
        setup = doc.get(start_key)
        if setup is not None:
            if not isinstance(setup, Mapping):
                raise InputError(f"{start_key!r} must be an object")
            hands = setup.get("hands")
            if not isinstance(hands, list) or len(hands) != players:
                raise InputError(f"'{start_key}.hands' must list {players} hands")
            state = cls.from_setup(
                doc.get("rules"),
                hands,
                discard=setup.get("discard"),
                stock=setup.get("stock", ()),
                tiplu=setup.get("tiplu"),
                dealer=dealer,
                seed=seed,
            )
        else:
            state = cls.new(doc.get("rules"), players, seed, dealer)
        moves = doc["actions"]
        if not isinstance(moves, list):
            raise InputError("'actions' must be a list of action texts")
        for i, text in enumerate(moves):
            try:
                state.apply(text)
            except IllegalAction as exc:
                raise InputError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
        return state

    # ------------------------------------------------------------------ checks

    def check_invariants(self) -> None:
        """Raise ``InvariantError`` unless every card is exactly accounted for (M-1)."""
        for s in range(self.n):
            hand = self.hands[s]
            if len(hand) != KINDS or min(hand) < 0:
                raise InvariantError(f"seat {s} has a malformed hand vector")
            if sum(hand) != self.sizes[s]:
                raise InvariantError(f"seat {s}: hand size {self.sizes[s]} ≠ {sum(hand)} cards")
        loose = [*self.stock, *self.pile]
        if self.tiplu is not None:
            loose.append(self.tiplu)
        for s in range(self.n):
            for m in self.melds[s]:
                loose += m
            for t in self.exposed[s]:
                loose += (t, t, t)
            for d in self.dublees[s]:
                loose += (d, d)
        total = [sum(col) for col in zip(*self.hands, strict=True)]
        for c in loose:
            total[c] += 1
        decks = self.rules.decks
        if total[:52] != [decks] * 52 or total[52]:
            c = next(c for c in range(KINDS) if total[c] != (decks if c < 52 else 0))
            raise InvariantError(f"{CARDS[c]}: {total[c]} cards accounted for, not {decks}")
        if self.phase != OVER and self.phase not in (EXPOSE_PHASE, DRAW_PHASE, PLAY_PHASE):
            raise InvariantError(f"unknown phase {self.phase!r}")
        for s in range(self.n):
            owned = (
                self.sizes[s]
                + sum(len(m) for m in self.melds[s])
                + 3 * len(self.exposed[s])
                + 2 * len(self.dublees[s])
            )
            mid_turn = s == self.current and self.phase == PLAY_PHASE
            want = self.rules.hand_size + (1 if mid_turn else 0)
            if self.phase == OVER and s == self.finisher:
                want = self.rules.hand_size
            if owned != want:
                raise InvariantError(f"seat {s} owns {owned} cards, not {want}")

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
        self.hands = [list(h) for h in hands]
        self.sizes = list(sizes)
        self.melds = [list(m) for m in melds]
        self.exposed = [list(e) for e in exposed]
        self.dublees = [list(d) for d in dublees]
        self.seen = list(seen)
        self.path = list(path)
        self.stock = list(stock)
        self.pile = list(pile)
        self.tiplu = tiplu
        self.tiplu_picked = tiplu_picked
        self.wilds = wild_kinds(tiplu) if tiplu_picked and tiplu is not None else _NO_WILDS
        self.phase = phase
        self.current = to_move
        self.passes = passes
        self.taken = taken
        self.must_finish = must_finish
        self.turn = turn
        self.recycles = recycles
        self.actions = list(actions)
        self.events = []
        self._legal = None
        self.base = None
        self.laid = []
        if turn_start is not None:
            self.base = list(turn_start)
            left = [0] * KINDS
            for m in self.base:
                for c in m:
                    left[c] += 1
            for m in self.melds[to_move]:
                for c in m:
                    if left[c]:
                        left[c] -= 1
                    else:
                        self.laid.append(c)
        self._no_finish_turn = -1
        return self


def _joins_show_meld(hand: Sequence[int], c: int, rules: MarriageRules) -> bool:
    """Whether card ``c`` (already in ``hand``) is part of some show meld there (M-6)."""
    suit, r = divmod(c, 13)
    kinds = RUN_KINDS[suit]
    for p in positions(r):  # the ace at both ends
        for lo, mid, hi in three_windows(p):
            if hand[kinds[lo]] and hand[kinds[mid]] and hand[kinds[hi]]:
                return True
    if rules.show_kinds == "sequence+tunnela":
        return hand[c] >= 3
    return sum(1 for t in range(4) if hand[t * 13 + r]) >= 3


def _check_table(rules: MarriageRules, players: int, dealer: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError("the number of players must be a whole number")
    if not rules.min_players <= players <= rules.max_players:
        raise InputError(
            f"{rules.preset_name} Marriage is for {rules.min_players}–{rules.max_players} "
            f"players, not {players} (M-1)"
        )
    if players * rules.hand_size + 2 > 52 * rules.decks:
        raise InputError(f"{rules.decks} decks cannot deal to {players} players")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InputError(f"dealer must be a seat number from 0 to {players - 1}")


def _read_cards(cards: str | Sequence[int] | Sequence[str] | None, what: str) -> list[int]:
    if cards is None:
        return []
    try:
        if isinstance(cards, str):
            return [int(c) for c in parse_cards(cards)]
        out: list[int] = []
        for i, c in enumerate(cards, start=1):
            if isinstance(c, Card):
                out.append(int(c))
            elif isinstance(c, str):
                out.append(int(parse_cards([c])[0]))
            elif isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52:
                out.append(c)
            else:
                raise InputError(f"bad card {c!r} (item {i}) in {what}")
        return out
    except CardError as exc:
        raise InputError(f"{what}: {exc}") from None


_Check = Callable[[MarriageState, Action], str | None]
_Do = Callable[[MarriageState, Action], None]
# Each verb's rule check and its change of state (``apply``, ``check``, ``legal_actions``).
_VERBS: dict[str, tuple[_Check, _Do]] = {
    Verb.EXPOSE: (MarriageState._check_expose, MarriageState._do_expose),
    Verb.PASS: (MarriageState._check_pass, MarriageState._do_pass),
    Verb.DRAW: (MarriageState._check_draw, MarriageState._do_draw),
    Verb.TAKE: (MarriageState._check_take, MarriageState._do_take),
    Verb.SHOW: (MarriageState._check_show, MarriageState._do_show),
    Verb.DUBLEE: (MarriageState._check_dublee, MarriageState._do_dublee),
    Verb.SEE: (MarriageState._check_see, MarriageState._do_see),
    Verb.MELD: (MarriageState._check_meld, MarriageState._do_meld),
    Verb.ADD: (MarriageState._check_add, MarriageState._do_add),
    Verb.TAKEBACK: (MarriageState._check_takeback, MarriageState._do_takeback),
    Verb.FINISH: (MarriageState._check_finish, MarriageState._do_finish),
    Verb.DISCARD: (MarriageState._check_discard, MarriageState._do_discard),
}


def new_deal(rules: object, seats: int, seed: int, dealer: int = 0) -> MarriageState:
    """A new shuffled deal for ``seats`` players, the same call as every game's ``new_deal``.

    ``rules`` is a preset name, an options object or ``MarriageRules`` (M-1, M-2).
    """
    return MarriageState.new(rules, seats, seed, dealer)
