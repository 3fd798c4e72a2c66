"""The deal kernel: what every game's deal does the same way (docs/architecture.md).

A game's deal is a subclass of ``Deal`` holding its table state (hands, stock, melds, …)
and a few **verbs**, each one rule object (``Verb``): ``options(deal, legal)`` lists the
moves it allows now, ``judge(deal, action)`` says why a move is illegal (raising
``IllegalAction`` with the reason, its rule id and key) or returns the move's canonical
form with what playing it needs, and ``play(deal, action, detail)`` changes the state and
writes the move's typed events to the log. ``problem`` is ``judge`` as a ``Reason`` or
``None``. Each rule is stated once, in its verb: ``legal_actions`` is the union of the
options of the verbs that may act in the current phase, ``check`` is the verb's judgement
and ``apply`` is judgement then play.

The kernel owns the rest:

- the all-or-nothing loop: ``apply(action, seat)`` checks the deal is running and the
  seat is the one to move (the only seat check), then plays; ``check`` answers the same
  question without changing anything;
- the legal-move cache (``_legal``: each listed move with what ``play`` needs, or a
  plain list when every listed move needs nothing, which is cheaper to build) and the
  fast path: a move that is one of the listed moves is played without a judgement;
- turn and phase bookkeeping (``to_move``, ``phase``, ``turn``, ``is_over``, ``result``,
  ``end_reason``, the seats still playing and the seat after each);
- the event log (``events``: typed ``rami.engine.Event`` values, each with its code
  (``action`` or ``news``) and data, and ``actions``: the canonical texts, the replay
  log), and what chance decided (``chance_outcomes``);
- ``to_json``/``from_json`` in the layout every game shares, replay (``replay``) and
  ``clone``;
- the view cache (``view_cache``, ``legal_texts``: a seat's rendered history and the
  legal moves' texts reused while the state is unchanged).

The engine packages use only the standard library, and so does this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, Self, TypeVar

from rami.engine import Action, Chance, DealResult, Event, EventData, as_action
from rami.errors import IllegalAction, InputError, NotYourTurn, Reason
from rami.view_cache import ViewCache, action_texts
from rami.views import Decision

__all__ = ["Deal", "Ruling", "Verb"]

D = TypeVar("D", bound="Deal")

Ruling = tuple[Action, object]
"""A legal move's canonical form and what playing it needs (``Verb.judge``)."""

_MISSING = object()  # not among the listed moves


class Verb(Generic[D]):
    """One verb of a game (``Action.kind``), its rule stated once.

    The metadata say how people name and ask for it: ``aliases`` (other words a front
    end accepts for it), ``help`` (one line), ``shorthand`` (the terminal's short form)
    and ``rules`` (the rule ids it rests on).
    """

    __slots__ = ()

    name: str = ""
    aliases: tuple[str, ...] = ()
    help: str = ""
    shorthand: str = ""
    rules: tuple[str, ...] = ()

    def options(self, deal: D, legal: dict[Action, object]) -> None:
        """Add the moves this verb allows now to ``legal``, each with what ``play``
        needs (the solvers feed this where speed matters)."""

    def judge(self, deal: D, action: Action) -> Ruling:
        """``action`` in its canonical form with what ``play`` needs, or
        ``IllegalAction`` saying why it is illegal now (the rule id in its reason)."""
        raise NotImplementedError

    def extend(self, deal: D, moves: list[Action]) -> None:
        """``options`` as a plain list, for a verb whose moves need nothing to be
        played (detail None) and are never listed twice: the verbs that implement it
        at the end of a phase's listing append their moves to the legal list without
        hashing each (``Deal._list_legal``)."""
        raise NotImplementedError

    def problem(self, deal: D, action: Action) -> Reason | None:
        """Why ``action`` is illegal now (with its rule id and key), or None."""
        try:
            self.judge(deal, action)
        except IllegalAction as exc:
            return Reason(str(exc), exc.rule, exc.key)
        return None

    def play(self, deal: D, action: Action, detail: object) -> None:
        """Change the deal for the legal ``action`` (canonical; ``detail`` as ``judge``
        or ``options`` gave it) and write its events to the log (``Deal._log``)."""
        raise NotImplementedError


R = TypeVar("R", bound=DealResult[Mapping[str, object]])


class Deal:
    """What every game's deal shares; a game subclasses it (see the module's notes).

    A subclass sets ``GAME`` (its registry name), ``TITLE``, ``OVER`` (its phase once the
    deal is over), ``UNKNOWN_VERB`` (the message for a verb it lacks), ``_by_kind`` (every
    verb by kind) and ``_by_phase`` (the verbs that may list moves in each phase, in
    listing order), and implements ``_copy_table`` (its own fields, for ``clone``),
    ``_num_seats``, ``_rules_json`` and ``_rebuild`` (a deal at its start, from a saved
    document).
    """

    __slots__ = (
        "_actions",
        "_active",
        "_after",
        "_details",
        "_end_reason",
        "_events",
        "_legal",
        "_phase",
        "_result",
        "_start",
        "_to_move",
        "_turn",
        "_view_cache",
        "dealer",
        "seed",
    )

    GAME: str = ""
    TITLE: str = ""  # the game's name in messages
    OVER: str = "over"
    UNKNOWN_VERB: str = "unknown action"
    #: the keys of a saved deal (``to_json``); older layouts may add their own
    JSON_KEYS: frozenset[str] = frozenset(
        {"game", "rules", "seats", "seed", "dealer", "active", "actions", "start"}
    )

    seed: int
    dealer: int
    _active: tuple[bool, ...]
    _after: tuple[int, ...]  # the seat after each (``next_seat``), worked out once a deal
    _to_move: int
    _phase: str
    _turn: int
    _actions: list[str]
    _events: list[Event]
    # the listed moves, each with what ``play`` needs, or (a game's ``_list_legal`` may
    # give it) a plain list of moves that need nothing (``None``)
    _legal: dict[Action, object] | list[Action] | None
    # with a plain list: what ``play`` needs of the listed moves that need something
    # (None: none does)
    _details: dict[Action, object] | None
    _view_cache: ViewCache | None  # what views reuse (rami.view_cache); unset in clones
    _result: DealResult[Mapping[str, object]] | None
    _end_reason: str | None
    _start: dict[str, object] | None  # a chosen position's document (``to_json``)

    # ------------------------------------------------------------ the game's part

    #: every verb of the game by its kind (a class attribute of the game's deal)
    _by_kind: Mapping[str, Verb[Self]]
    #: by phase, the verbs that may list moves then, in the order the legal list gives
    #: their moves (a class attribute of the game's deal)
    _by_phase: Mapping[str, Sequence[Verb[Self]]]
    # the same, as the verbs' bound ``options`` and ``play`` (made once per game class:
    # the hot path looks up no attribute per verb)
    _listers: Mapping[str, tuple[Callable[[Self, dict[Action, object]], None], ...]]
    _players: Mapping[str, Callable[[Self, Action, object], None]]
    # by phase, when the listing ends with verbs that have ``extend``: the listers of
    # the verbs before them and their ``extend`` (their moves appended to a plain list:
    # ``_list_legal``); else None
    _tails: Mapping[
        str,
        tuple[
            tuple[Callable[[Self, dict[Action, object]], None], ...],
            tuple[Callable[[Self, list[Action]], None], ...],
        ]
        | None,
    ]
    #: whether a verb listed before a phase's last may give its moves a detail other than
    #: None (if not, a plain legal list keeps no details: ``_details``)
    DETAILS: bool = True

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if "_by_phase" in cls.__dict__:
            cls._listers = {p: tuple(v.options for v in vs) for p, vs in cls._by_phase.items()}
            cls._tails = {p: _tail(vs) for p, vs in cls._by_phase.items()}
        if "_by_kind" in cls.__dict__:
            cls._players = {kind: v.play for kind, v in cls._by_kind.items()}

    def _copy_table(self, other: Self) -> None:
        """Copy the game's own fields into ``other`` (``clone``: lists copied)."""
        raise NotImplementedError

    def _num_seats(self) -> int:
        raise NotImplementedError

    def _rules_json(self) -> Mapping[str, object]:
        raise NotImplementedError

    @classmethod
    def _rebuild(cls, doc: Mapping[str, object], seed: int) -> Self:
        """The deal a saved document starts from (``from_json``), before its actions."""
        raise NotImplementedError

    # ------------------------------------------------------------ building

    def _begin(self, seed: int, dealer: int, active: tuple[bool, ...], to_move: int) -> None:
        """Set the kernel's fields of a fresh deal (the first phase is the game's)."""
        self.seed = seed
        self.dealer = dealer
        self._active = active
        self._after = next_seats(active)
        self._to_move = to_move
        self._turn = 0
        self._actions = []
        self._events = []
        self._legal = None
        self._details = None
        self._view_cache = None
        self._result = None
        self._end_reason = None
        self._start = None

    def clone(self) -> Self:
        """An independent copy (lists copied, immutable parts shared; no deepcopy)."""
        other = object.__new__(type(self))
        other.seed = self.seed
        other.dealer = self.dealer
        other._active = self._active
        other._after = self._after
        other._to_move = self._to_move
        other._phase = self._phase
        other._turn = self._turn
        other._actions = self._actions[:]
        other._events = self._events[:]
        other._legal = self._legal
        other._details = self._details
        other._result = self._result
        other._end_reason = self._end_reason
        other._start = self._start
        self._copy_table(other)
        return other

    # ------------------------------------------------------------ turns and phases

    @property
    def num_players(self) -> int:
        return self._num_seats()

    @property
    def active(self) -> tuple[bool, ...]:
        """Seats still in the game; the others hold no cards and never move."""
        return self._active

    @property
    def to_move(self) -> int | None:
        return None if self._phase == self.OVER else self._to_move

    @property
    def is_over(self) -> bool:
        return self._phase == self.OVER

    @property
    def turn(self) -> int:
        """Turns completed so far in this deal."""
        return self._turn

    @property
    def end_reason(self) -> str | None:
        """Why the deal ended (the game's words), or None while it runs."""
        return self._end_reason

    def next_seat(self, seat: int) -> int:
        """The next active seat in the direction of play."""
        return self._after[seat]

    def _seats_from(self, seat: int) -> list[int]:
        """Every active seat in the order of play, from ``seat``."""
        out = [seat]
        s = self._after[seat]
        while s != seat:
            out.append(s)
            s = self._after[s]
        return out

    def _end(self, result: DealResult[Mapping[str, object]], reason: str, news: Event) -> None:
        """The deal is over: its result, why, and the table's news of it."""
        self._result = result
        self._phase = self.OVER
        self._end_reason = reason
        self._events.append(news)

    # ------------------------------------------------------------ the event log

    @property
    def events(self) -> Sequence[Event]:
        return self._events

    @property
    def actions(self) -> Sequence[str]:
        """The canonical text of every applied action, in order (the replay log)."""
        return self._actions

    def _log(self, text: str, card: str | None = None, data: EventData | None = None) -> None:
        """Log the seat to move's action ``text`` (``card``: what only that seat sees)."""
        self._actions.append(text)
        event: Event = {"seat": self._to_move, "action": text}
        if card is not None:
            event["card"] = card
        if data is not None:
            event["data"] = data
        self._events.append(event)

    def chance_outcomes(self) -> list[Chance]:
        """What chance decided so far, in order."""
        return [e["chance"] for e in self._events if "chance" in e]

    # ------------------------------------------------------------ legal moves

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a stable order: the union of the verbs' options."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return list(legal)

    def legal_details(self) -> dict[Action, object]:
        """Every legal action now with what ``play`` needs of it (None: nothing), in
        the order of ``legal_actions``: the listing's own details, for tests."""
        self.legal_actions()
        legal = self._legal
        if type(legal) is dict:
            return dict(legal)
        details = self._details or {}
        return {a: details.get(a) for a in legal or ()}

    def _list_legal(self: D) -> dict[Action, object] | list[Action]:
        """The listed moves: a dict of each with what ``play`` needs, or, when the
        phase's last verb has ``extend`` (its moves need nothing), a plain list: the
        other verbs' moves, then the last verb's appended without hashing each."""
        return self._list_for(self._phase)

    def _list_for(self: D, key: str) -> dict[Action, object] | list[Action]:
        """``_list_legal`` with the listers of ``key`` (a phase, or a game's finer key)."""
        legal: dict[Action, object] = {}
        tail = self._tails[key]
        if tail is None:
            for options in self._listers[key]:
                options(self, legal)
            return legal
        heads, extends = tail
        for options in heads:
            options(self, legal)
        if legal:
            self._details = legal if self.DETAILS else None
            moves = list(legal)
        else:
            self._details = None
            moves = []
        for extend in extends:
            extend(self, moves)
        return moves

    def apply(self: D, action: Action | str, seat: int | None = None) -> Action:
        """Play one step; all-or-nothing (``IllegalAction`` with the reason, no change).

        ``seat``, when given, must be the seat to move: a front end passes who is
        acting and gets "it is seat 2's turn" rather than a move made for someone else.
        A listed move (``legal_actions``) is played at once; any other is judged by its
        verb first. Returns the canonical action applied (the text the log keeps).
        """
        act = action if isinstance(action, Action) else Action.parse(action)  # as_action
        if self._phase == self.OVER:
            raise IllegalAction("the deal is over", key="deal_over")
        if seat is not None and seat != self._to_move:
            raise NotYourTurn(self._to_move)
        legal = self._legal
        if legal is None:
            detail = _MISSING
        elif type(legal) is dict:
            detail = legal.get(act, _MISSING)
        else:  # a plain list: the move itself, or an equal one; its detail, if any
            detail = _MISSING
            for listed in legal:
                if listed is act:
                    detail = None
                    break
            else:
                if act in legal:
                    detail = None
            if detail is None:
                details = self._details
                if details is not None:
                    detail = details.get(act)
        if detail is _MISSING:
            act, detail = self._judge(act)
        self._players[act.kind](self, act, detail)
        self._legal = None
        return act

    def check(self, action: Action | str, seat: int | None = None) -> str | None:
        """Why ``action`` is illegal now, or None if it is legal (changes nothing): a
        ``Reason``, with the rule id and key the judgement gave."""
        try:
            act = as_action(action)
            if self._phase == self.OVER:
                return Reason("the deal is over", key="deal_over")
            if seat is not None and seat != self._to_move:
                return str(NotYourTurn(self._to_move))
            self._judge(act)
        except IllegalAction as exc:
            return Reason(str(exc), exc.rule, exc.key)
        return None

    def _judge(self: D, act: Action) -> Ruling:
        verb = self._by_kind.get(act.kind)
        if verb is None:
            raise IllegalAction(self.UNKNOWN_VERB.format(kind=act.kind))
        return verb.judge(self, act)

    # ------------------------------------------------------------ views

    def view_cache(self) -> ViewCache:
        """The state's view cache, made afresh for a new events list (``rami.view_cache``)."""
        events = self._events
        try:
            cache = self._view_cache
        except AttributeError:  # a state built without one (an unpickled state)
            cache = None
        if cache is None or cache.events is not events:
            cache = self._view_cache = ViewCache(events)
        return cache

    def legal_texts(self) -> list[str]:
        """The texts of the legal actions, kept while the listed moves are unchanged."""
        actions = self.legal_actions()  # fills ``_legal``, the object the texts are kept for
        return self.view_cache().legal_texts(self._legal, lambda: action_texts(actions))

    def legal_pair(self) -> tuple[tuple[Action, ...], tuple[str, ...]]:
        """The legal actions and their texts, as a typed view holds them (the texts kept
        while the listed moves are unchanged: no copy of them)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return tuple(legal), self.view_cache().texts_of(legal)

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (public: every view shows it); the game's."""
        raise NotImplementedError

    def decision(self, seat: int) -> Decision:
        """``seat``'s decision point (``rami.views.Decision``) as its view shows it, without
        building the view (which has one history entry per event: ``rami.view_cache``).
        ``NotImplementedError`` from a game that does not give ``hand_size``."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self._active):
            raise InputError(f"seat must be a number from 0 to {len(self._active) - 1}")
        legal: tuple[Action, ...] = ()
        texts: tuple[str, ...] = ()
        if seat == self._to_move and self._phase != self.OVER:
            legal, texts = self.legal_pair()
        size = self.hand_size(seat)
        return Decision(seat, len(self._events), self._turn, self._phase, size, legal, texts)

    # ------------------------------------------------------------ persistence

    def to_json(self) -> dict[str, object]:
        """Everything needed to replay this deal exactly (server side: holds the seed).

        The layout every game's deal shares: ``game``, ``rules``, ``seats``, ``seed``,
        ``dealer``, ``active``, ``actions`` (the canonical texts) and, for a chosen
        position, ``start``.
        """
        doc: dict[str, object] = {
            "game": self.GAME,
            "rules": self._rules_json(),
            "seats": self._num_seats(),
            "seed": self.seed,
            "dealer": self.dealer,
            "active": list(self._active),
            "actions": list(self._actions),
        }
        if self._start is not None:
            doc["start"] = self._start
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, object]) -> Self:
        """Rebuild a deal from ``to_json`` output by replaying its actions."""
        if not isinstance(doc, Mapping):
            raise InputError("a saved deal must be a JSON object")
        for key in doc:
            if key not in cls.JSON_KEYS:
                raise InputError(f"unknown key '{key}' in a saved deal")
        for key in ("rules", "seed", "actions"):
            if key not in doc:
                raise InputError(f"a saved deal needs the key '{key}'")
        if doc.get("game", cls.GAME) != cls.GAME:
            raise InputError(f"this is not a saved {cls.TITLE} deal")
        seed = doc["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError("'seed' must be a whole number")
        try:
            state = cls._rebuild(doc, seed)
            actions = doc["actions"]
            if not isinstance(actions, list):
                raise InputError("'actions' must be a list of action texts")
            state.replay(actions)
        except (KeyError, TypeError) as exc:
            raise InputError(f"a saved deal is malformed: {exc}") from None
        return state

    def replay(self, actions: Sequence[Action | str]) -> Self:
        """Apply saved actions in order; ``InputError`` names the first illegal one."""
        for i, text in enumerate(actions):
            try:
                self.apply(text)
            except IllegalAction as exc:
                raise InputError(f"saved action {i + 1} ('{text}') is illegal: {exc}") from None
        return self


def _tail(
    verbs: Sequence[Verb[D]],
) -> (
    tuple[
        tuple[Callable[[D, dict[Action, object]], None], ...],
        tuple[Callable[[D, list[Action]], None], ...],
    ]
    | None
):
    """A phase's listing split (``Deal._tails``): the verbs' listers before the last
    run of verbs with ``extend``, and their ``extend``; None when the last has none."""
    cut = len(verbs)
    while cut and type(verbs[cut - 1]).extend is not Verb.extend:
        cut -= 1
    if cut == len(verbs):
        return None
    return tuple(v.options for v in verbs[:cut]), tuple(v.extend for v in verbs[cut:])


def next_seats(
    active: Sequence[bool], step: Callable[[int, int], int] | None = None
) -> tuple[int, ...]:
    """The next active seat after each seat (a seat out of the game: itself).

    ``step(seat, n)`` is the seat after ``seat`` at a table of ``n``; by default the
    direction of play is counter-clockwise, ``(seat - 1) mod n`` (T-2, M-4).
    """
    n = len(active)
    after = []
    for seat in range(n):
        s = seat
        for _ in range(n):
            s = step(s, n) if step is not None else (s - 1) % n
            if active[s]:
                break
        after.append(s if active[s] else seat)
    return tuple(after)
