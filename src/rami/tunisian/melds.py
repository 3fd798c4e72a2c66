"""Tunisian rami melds (T-4), their values (T-5), lay-offs and joker swaps (T-7).

A meld is a frozen value: its kind (``"run"`` for a tierce/sequence, ``"set"`` for a
brelan or carré), its cards, and ``joker_as``, the card its joker stands for.

Runs live on *positions* 1 … 14 of one suit: position 1 is the low ace, 2 … 13 the
ranks, 14 the high ace. A run is a window of consecutive positions, so K-A-2 can never
be one (T-4). **Decision:** the rules forbid the ace only in the middle, so a full
window 1 … 14 (A 2 … K A, both aces at the ends) is a valid 14-card run.

>>> m = make_meld(parse_cards("5♥ JK 7♥"))
>>> m.text(), m.joker_as, m.value
('5♥ JK 7♥', Card('6♥'), 18)
>>> make_meld(parse_cards("Q♠ K♠ A♠")).value
30
>>> str(add_to_meld(m, Card.parse("8♥")))
'5♥ JK 7♥ 8♥'
"""

from __future__ import annotations

# rami: compiled with mypyc in the accelerated build
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rami.cards import CARDS, JOKER, KINDS, Card, parse_cards
from rami.errors import IllegalAction
from rami.memo import GenerationMemo
from rami.runs import ACE_HIGH, ACE_LOW, POSITIONS, kind_at, positions

__all__ = [
    "POSITION_VALUE",
    "Meld",
    "add_to_meld",
    "make_meld",
    "meld_options",
    "meld_options_packed",
    "melds_holding",
    "position_card",
    "rank_value",
    "swap_joker",
]

#: T-5 value of a run position: the low ace 1, 2 … 10 face, J Q K and the high ace 10.
POSITION_VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10)


def rank_value(rank: int) -> int:
    """T-5 value of a card of ``rank`` in a brelan or carré: the ace counts 10."""
    return 10 if rank == 1 or rank >= 10 else rank


def position_card(position: int, suit: int) -> Card:
    """The card at run ``position`` (1 … 14; 1 and 14 are both the ace) of ``suit``."""
    return CARDS[kind_at(suit, position)]


def _run_low(cards: Sequence[Card]) -> int:
    """The position of a valid run's first card, read from its first natural card."""
    for i, c in enumerate(cards):
        if c != JOKER:
            rank = c.rank
            if rank == 1:
                return 1 if i == 0 else 14 - i
            return rank - i
    raise IllegalAction("a run needs natural cards", key="not_a_meld")


def _suit_of(cards: Sequence[Card]) -> int:
    return next(c.suit for c in cards if c != JOKER)


def _rank_of(cards: Sequence[Card]) -> int:
    return next(c.rank for c in cards if c != JOKER)


@dataclass(frozen=True)
class Meld:
    """A meld on the table or in a plan (T-4).

    ``cards``: runs in position order with the joker where it stands; sets with the
    natural cards by suit and the joker last. ``joker_as``: for a run the exact card
    the joker stands for; for a set a card of its rank in the lowest missing suit
    (the joker may stand for any missing suit, T-7).
    """

    kind: str
    cards: tuple[Card, ...]
    joker_as: Card | None = None

    def __reduce__(self) -> tuple[object, ...]:
        """Copied and pickled as a call with its fields: compiled (the accelerated build), a
        frozen dataclass's default rebuild assigns its fields one by one and is refused."""
        return (Meld, (self.kind, self.cards, self.joker_as))

    @property
    def has_joker(self) -> bool:
        return JOKER in self.cards

    @property
    def span(self) -> tuple[int, int]:
        """For a run, its first and last positions (1 … 14); for a set, (rank, rank)."""
        if self.kind == "set":
            rank = _rank_of(self.cards)
            return rank, rank
        low = _run_low(self.cards)
        return low, low + len(self.cards) - 1

    @property
    def suit(self) -> int:
        """A run's suit; -1 for a set."""
        return _suit_of(self.cards) if self.kind == "run" else -1

    @property
    def rank(self) -> int:
        """A set's rank; 0 for a run."""
        return _rank_of(self.cards) if self.kind == "set" else 0

    @property
    def value(self) -> int:
        """T-5: the sum of the card values, each by its place; a joker as its card."""
        if self.kind == "set":
            return rank_value(_rank_of(self.cards)) * len(self.cards)
        low, high = self.span
        return sum(POSITION_VALUE[low : high + 1])

    def text(self, ascii: bool = False) -> str:
        return " ".join(c.text(ascii) for c in self.cards)

    def __str__(self) -> str:
        return self.text()


# --- building melds ---------------------------------------------------------------


# Melds are frozen values, and a hand's melds are built over and over (``meld_options``
# on every turn): the constructors below remember each meld they make (a few thousand).


def run_from_positions(suit: int, low: int, high: int, joker_at: int = 0) -> Meld:
    """The run of ``suit`` on ``low`` … ``high``, the joker at ``joker_at`` (0: none): one
    object per run, however the arguments are written (the legal-action listing tells
    melds apart by identity)."""
    return _run_of(suit, low, high, joker_at)


@cache
def _run_of(suit: int, low: int, high: int, joker_at: int) -> Meld:
    cards = tuple(JOKER if p == joker_at else position_card(p, suit) for p in range(low, high + 1))
    joker_as = position_card(joker_at, suit) if joker_at else None
    return Meld("run", cards, joker_as)


def set_from(rank: int, suits: Sequence[int], joker: bool) -> Meld:
    return _set_of(rank, tuple(sorted(suits)), joker)


@cache
def _set_of(rank: int, ordered: tuple[int, ...], joker: bool) -> Meld:
    cards = tuple(CARDS[s * 13 + rank - 1] for s in ordered)
    if not joker:
        return Meld("set", cards, None)
    missing = next(s for s in range(4) if s not in ordered)
    return Meld("set", (*cards, JOKER), CARDS[missing * 13 + rank - 1])


def _as_laid(cards: Sequence[Card]) -> Meld | None:
    """The run the cards make in exactly the order given (ascending), if any."""
    first = next(i for i, c in enumerate(cards) if c != JOKER)
    rank = cards[first].rank
    suit = cards[first].suit
    starts = [p - first for p in positions(rank - 1)]
    for low in starts:
        high = low + len(cards) - 1
        if low < ACE_LOW or high > ACE_HIGH:
            continue
        joker_at = 0
        for offset, c in enumerate(cards):
            pos = low + offset
            if c == JOKER:
                joker_at = pos
            elif c.suit != suit or position_card(pos, suit) != c:
                break
        else:
            return run_from_positions(suit, low, high, joker_at)
    return None


def _run_any_order(naturals: list[Card], jokers: int) -> Meld:
    """The run the cards make in any order; the joker at an end goes high if it can."""
    suit = naturals[0].suit
    aces = sum(1 for c in naturals if c.rank == 1)
    others = sorted(c.rank for c in naturals if c.rank != 1)
    if len(set(others)) != len(others) or aces > 2:
        twice = next(c for c in naturals if naturals.count(c) > 1)
        raise IllegalAction(
            f"{twice} twice: a sequence holds each card once (T-4)", key="not_a_meld"
        )
    ace_options: list[list[int]] = (
        [[]] if aces == 0 else [[p] for p in POSITIONS[0]] if aces == 1 else [list(POSITIONS[0])]
    )
    for ace_positions in ace_options:
        spots = sorted(others + ace_positions)
        low, high = spots[0], spots[-1]
        gaps = high - low + 1 - len(spots)
        if gaps == 0 and jokers == 0:
            return run_from_positions(suit, low, high)
        if gaps == 1 and jokers == 1:
            hole = next(p for p in range(low, high + 1) if p not in spots)
            return run_from_positions(suit, low, high, hole)
        if gaps == 0 and jokers == 1:
            if high < 14:
                return run_from_positions(suit, low, high + 1, high + 1)
            if low > 1:
                return run_from_positions(suit, low - 1, high, low - 1)
            raise IllegalAction(
                "a sequence holds at most 14 cards, A 2 … K A (T-4)", key="not_a_meld"
            )
    ranks = {c.rank for c in naturals}
    if 1 in ranks and 13 in ranks and 2 in ranks:
        raise IllegalAction(
            "the ace is low (A-2-3) or high (Q-K-A), never in the middle: "
            "K-A-2 is not a sequence (T-4)",
            key="not_a_meld",
        )
    shown = " ".join(str(c) for c in sorted(naturals))
    if jokers:
        raise IllegalAction(
            f"not a sequence: {shown} leave more gaps than one joker can fill (T-4)",
            key="not_a_meld",
        )
    raise IllegalAction(f"not a sequence: {shown} are not consecutive (T-4)", key="not_a_meld")


def _make_set(naturals: list[Card], jokers: int) -> Meld:
    suits = [c.suit for c in naturals]
    for c in naturals:
        if suits.count(c.suit) > 1:
            raise IllegalAction(
                f"{c} twice: a brelan or carré holds one card of each suit (T-4)", key="not_a_meld"
            )
    if len(naturals) + jokers > 4:
        raise IllegalAction(
            "a carré holds at most 4 cards, one of each suit (T-4)", key="not_a_meld"
        )
    return set_from(naturals[0].rank, suits, jokers == 1)


def make_meld(cards: Sequence[int]) -> Meld:
    """Read a meld as a player lays it (T-4); raise ``IllegalAction`` saying why not.

    For runs the order given places the joker (``5♥ JK 7♥``, ``JK 6♥ 7♥``); a
    descending run is read the same way. Cards in another order are accepted when they
    are unambiguous; a joker that could stand at either end then goes to the high end
    (at the low end only when the run already reaches the high ace).

    >>> make_meld(parse_cards("JK 6♥ 7♥")).joker_as
    Card('5♥')
    >>> make_meld(parse_cards("7♥ 6♥ JK")).text()
    'JK 6♥ 7♥'
    """
    try:
        items = [CARDS[c] for c in cards]
    except (IndexError, TypeError):
        raise IllegalAction("a meld is a list of cards", key="not_a_meld") from None
    if len(items) < 3:
        raise IllegalAction("a meld needs at least 3 cards (T-4)", key="not_a_meld")
    jokers = items.count(JOKER)
    if jokers > 1:
        raise IllegalAction("at most one joker per meld (T-4)", key="not_a_meld")
    naturals = [c for c in items if c != JOKER]
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    if len(ranks) == 1:
        return _make_set(naturals, jokers)
    if len(suits) > 1:
        raise IllegalAction(
            "not a meld: a sequence is of one suit, a brelan or carré of one rank (T-4)",
            key="not_a_meld",
        )
    laid = _as_laid(items) or _as_laid(items[::-1])
    if laid is not None:
        return laid
    return _run_any_order(naturals, jokers)


def meld_of(text: str) -> Meld:
    """``make_meld`` on card text, for tests and examples."""
    return make_meld(parse_cards(text))


# --- all melds of a hand -----------------------------------------------------------


def meld_options(hand_counts: Sequence[int]) -> list[Meld]:
    """Every distinct meld that can be laid from a hand count vector (index 52 = joker).

    Runs of length ≥ 3 with at most one joker, the joker at any position (ends
    included, also in place of a card the hand holds); brelans and carrés, with at most
    one joker. Bound: a meld lies in one window of positions of one suit or on one rank,
    and the hand must hold all of its cards but the joker. A random 15-card hand gives
    at most about 100 melds (usually a handful); the extreme, a whole suit with both
    aces and a joker, gives 598.
    """
    if len(hand_counts) != KINDS:
        raise ValueError(f"a count vector has {KINDS} entries, not {len(hand_counts)}")
    has_joker = hand_counts[JOKER] > 0
    out: list[Meld] = []
    for suit in range(4):
        base = suit * 13
        out.extend(_suit_runs(suit, tuple(hand_counts[base : base + 13]), has_joker))
    h = hand_counts
    for k in range(13):
        held = (h[k] > 0) | (h[k + 13] > 0) << 1 | (h[k + 26] > 0) << 2 | (h[k + 39] > 0) << 3
        if held & (held - 1):  # two suits or more
            out.extend(_rank_sets(k + 1, held, has_joker))
    return out


# A meld as the packed-hand callers use it: the meld, its cards packed (two bits per
# natural kind ``k`` at bit ``2k``, the joker at bit 104: rami.tunisian.solver.pack), its
# value (T-5).
MeldEntry = tuple[Meld, int, int]
_SUIT_BITS = (1 << 26) - 1  # one suit's counts in a packed hand
_RANK_BITS = sum(1 << (2 * r) for r in range(13))  # the low count bit of each rank of a suit
_PRESENT = _RANK_BITS | _RANK_BITS << 26 | _RANK_BITS << 52 | _RANK_BITS << 78


# by ``id``: the melds built by the remembered constructors live as long as this table
_entries: dict[int, MeldEntry] = {}


def _entry(meld: Meld) -> MeldEntry:
    found = _entries.get(id(meld))
    if found is not None and found[0] is meld:
        return found
    delta = 0
    for c in meld.cards:
        delta += 1 << (2 * c)
    found = _entries[id(meld)] = (meld, delta, meld.value)
    return found


def _run_pattern(chunk: int) -> int:
    """What a suit's runs depend on in its packed counts: which ranks are held, and
    whether both aces are (a run from the low ace to the high one needs both, T-4).
    Other counts of 2 read as 1, so the remembered runs are shared by more hands (a
    meld is the same object either way: its cards make it, not the hand's counts)."""
    return ((chunk | chunk >> 1) & _RANK_BITS) | (chunk & 2)


# The remembered listings below are bounded by the solvers' memory budget (rami.memo).
_SUIT_RUN_ENTRIES: GenerationMemo[int, tuple[MeldEntry, ...]] = GenerationMemo(
    1 << 14, name="tunisian.suit_run_entries", shared=True
)
_RUNS_HOLDING: GenerationMemo[int, tuple[MeldEntry, ...]] = GenerationMemo(
    1 << 15, name="tunisian.runs_holding", shared=True
)
_suit_run_table = _SUIT_RUN_ENTRIES.table  # read at the call sites (no call on a hit)
_runs_holding_table = _RUNS_HOLDING.table
_SUIT_RUNS: GenerationMemo[tuple[int, tuple[int, ...], bool], tuple[Meld, ...]] = GenerationMemo(
    1 << 14, name="tunisian.suit_runs", shared=True
)


def _suit_run_entries(suit: int, chunk: int, has_joker: bool) -> tuple[MeldEntry, ...]:
    """``_suit_runs`` of one suit's packed counts (a ``_run_pattern``), as entries."""
    key = chunk | suit << 26 | has_joker << 28
    found = _SUIT_RUN_ENTRIES.table.get(key)
    if found is None:
        suit_counts = tuple((chunk >> (2 * r)) & 3 for r in range(13))
        found = _SUIT_RUN_ENTRIES.remember(
            key, tuple(_entry(m) for m in _suit_runs(suit, suit_counts, has_joker))
        )
    return found


@cache
def _rank_set_entries(rank: int, held: int, has_joker: bool) -> tuple[MeldEntry, ...]:
    return tuple(_entry(m) for m in _rank_sets(rank, held, has_joker))


def meld_options_packed(key: int) -> list[MeldEntry]:
    """``meld_options`` of a packed hand (``rami.tunisian.solver.pack``), in the same
    order, each meld with its packed cards and value: what the game's legal-action
    listing reads, with no count vector built and no value worked out again."""
    has_joker = key >> 104 > 0
    out: list[MeldEntry] = []
    for suit in range(4):
        chunk = (key >> (26 * suit)) & _SUIT_BITS
        if chunk:
            pattern = _run_pattern(chunk)
            runs = _suit_run_table.get(pattern | suit << 26 | has_joker << 28)  # inlined
            out.extend(runs if runs is not None else _suit_run_entries(suit, pattern, has_joker))
    # the ranks held in two suits or more, from the presence bits of the four suits
    present = (key | key >> 1) & _PRESENT
    s0 = present & _RANK_BITS
    s1 = (present >> 26) & _RANK_BITS
    s2 = (present >> 52) & _RANK_BITS
    s3 = (present >> 78) & _RANK_BITS
    pairs = s0 & (s1 | s2 | s3) | s1 & (s2 | s3) | s2 & s3
    while pairs:
        low = pairs & -pairs
        pairs ^= low
        shift = low.bit_length() - 1
        held = (
            (s0 >> shift & 1)
            | (s1 >> shift & 1) << 1
            | (s2 >> shift & 1) << 2
            | (s3 >> shift & 1) << 3
        )
        out.extend(_rank_set_entries(shift // 2 + 1, held, has_joker))
    return out


def melds_holding(key: int, card: int) -> tuple[MeldEntry, ...]:
    """The entries of ``meld_options_packed(key)`` whose meld holds ``card`` (the packed
    hand holds it), in no set order: the runs of its suit and the sets of its rank."""
    if card == JOKER:
        return tuple(e for e in meld_options_packed(key) if JOKER in e[0].cards)
    has_joker = key >> 104 > 0
    suit, r = divmod(card, 13)
    pattern = _run_pattern((key >> (26 * suit)) & _SUIT_BITS)
    runs = _runs_holding_table.get(pattern | suit << 26 | has_joker << 28 | card << 29)
    if runs is None:
        runs = _runs_holding(suit, pattern, has_joker, card)
    shift = 2 * r
    held = (
        (key >> shift & 3 > 0)
        | (key >> (shift + 26) & 3 > 0) << 1
        | (key >> (shift + 52) & 3 > 0) << 2
        | (key >> (shift + 78) & 3 > 0) << 3
    )
    if held & (held - 1):
        return runs + _sets_holding(r + 1, held, has_joker, suit)
    return runs


def _runs_holding(suit: int, chunk: int, has_joker: bool, card: int) -> tuple[MeldEntry, ...]:
    key = chunk | suit << 26 | has_joker << 28 | card << 29
    found = _RUNS_HOLDING.table.get(key)
    if found is None:
        found = _RUNS_HOLDING.remember(
            key,
            tuple(e for e in _suit_run_entries(suit, chunk, has_joker) if card in e[0].cards),
        )
    return found


@cache
def _sets_holding(rank: int, held: int, has_joker: bool, suit: int) -> tuple[MeldEntry, ...]:
    card = suit * 13 + rank - 1
    return tuple(e for e in _rank_set_entries(rank, held, has_joker) if card in e[0].cards)


def _suit_runs(suit: int, suit_counts: tuple[int, ...], has_joker: bool) -> tuple[Meld, ...]:
    """The runs of ``meld_options`` in one suit (counts of its A … K), remembered."""
    key = (suit, suit_counts, has_joker)
    found = _SUIT_RUNS.table.get(key)
    if found is None:
        found = _SUIT_RUNS.remember(key, _suit_runs_of(suit, suit_counts, has_joker))
    return found


def _suit_runs_of(suit: int, suit_counts: tuple[int, ...], has_joker: bool) -> tuple[Meld, ...]:
    out: list[Meld] = []
    ace = suit_counts[0]
    held = (0, *suit_counts, ace)
    for low in range(1, 13):
        missing: list[int] = []
        for high in range(low, 15):
            if held[high] == 0 or (high == 14 and low == 1 and ace < 2):
                missing.append(high)
                if len(missing) > 1 or not has_joker:
                    break
            if high - low < 2:
                continue
            if not missing:
                out.append(run_from_positions(suit, low, high))
                if has_joker:
                    out.extend(run_from_positions(suit, low, high, q) for q in range(low, high + 1))
            else:
                out.append(run_from_positions(suit, low, high, missing[0]))
    return tuple(out)


@cache
def _rank_sets(rank: int, held: int, has_joker: bool) -> tuple[Meld, ...]:
    """The brelans and carrés of ``meld_options`` of one rank held in suits ``held`` (bits)."""
    suits = [s for s in range(4) if held >> s & 1]
    out: list[Meld] = []
    for size in (3, 4):
        out.extend(set_from(rank, chosen, False) for chosen in combinations(suits, size))
    if has_joker:
        for size in (2, 3):
            out.extend(set_from(rank, chosen, True) for chosen in combinations(suits, size))
    return tuple(out)


# --- laying off and swapping (T-7) --------------------------------------------------


def add_to_meld(meld: Meld, card: int) -> Meld | None:
    """The meld with ``card`` laid off on it (T-7), or ``None`` if it cannot take it.

    A run grows at either end (an ace that fits both ends goes high; a joker goes to
    the high end, else the low end); a brelan becomes a carré. A meld that holds a
    joker never takes a second one.
    """
    c = CARDS[card]
    if meld.kind == "set":
        naturals = [x for x in meld.cards if x != JOKER]
        if len(meld.cards) >= 4:
            return None
        if c == JOKER:
            return (
                None
                if meld.has_joker
                else set_from(naturals[0].rank, [x.suit for x in naturals], True)
            )
        if c.rank != naturals[0].rank or any(x.suit == c.suit for x in naturals):
            return None
        return set_from(c.rank, [x.suit for x in naturals] + [c.suit], meld.has_joker)
    low, high = meld.span
    suit = meld.suit
    if c == JOKER:
        if meld.has_joker:
            return None
        if high < 14:
            return Meld("run", (*meld.cards, JOKER), position_card(high + 1, suit))
        if low > 1:
            return Meld("run", (JOKER, *meld.cards), position_card(low - 1, suit))
        return None
    if c.suit != suit:
        return None
    for pos in (14, 1) if c.rank == 1 else (c.rank,):
        if pos == high + 1 <= 14:
            return Meld("run", (*meld.cards, c), meld.joker_as)
        if pos == low - 1 >= 1:
            return Meld("run", (c, *meld.cards), meld.joker_as)
    return None


def swap_joker(meld: Meld, card: int) -> Meld | None:
    """The meld with ``card`` put in place of its joker (T-7), or ``None``.

    In a run the card must be exactly the one the joker stands for; in a set it may be
    any missing suit of the rank. The joker goes back to the player's hand.
    """
    c = CARDS[card]
    if not meld.has_joker or c == JOKER:
        return None
    if meld.kind == "run":
        if c != meld.joker_as:
            return None
        return Meld("run", tuple(c if x == JOKER else x for x in meld.cards), None)
    naturals = [x for x in meld.cards if x != JOKER]
    if c.rank != naturals[0].rank or any(x.suit == c.suit for x in naturals):
        return None
    return set_from(c.rank, [x.suit for x in naturals] + [c.suit], False)
