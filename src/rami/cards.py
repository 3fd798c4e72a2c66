"""Cards, their notation (rule N-1) and count vectors.

A card is one of 53 *kinds*: 52 rank/suit pairs and the printed joker. The decks of a
shoe hold identical copies, so a card is its kind and nothing more: ``Card`` is an
``int`` (the kind index) with a text form. That makes count vectors (``list[int]`` of
length ``KINDS``, indexed by card) the natural representation of a hand for solvers.

Kind index: ``suit * 13 + rank - 1`` with suits in the order ♠ ♥ ♦ ♣ and ranks
A=1 … K=13; the joker is 52.

>>> Card.parse("10♣")
Card('10♣')
>>> str(Card.parse("qh")), Card.parse("QH").ascii
('Q♥', 'QH')
>>> [str(c) for c in parse_cards("3♠ 4♠, 5♠")]
['3♠', '4♠', '5♠']
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

__all__ = [
    "CARDS",
    "JOKER",
    "KINDS",
    "RANKS",
    "SUITS",
    "SUIT_LETTERS",
    "Card",
    "CardError",
    "card",
    "cards_from_texts",
    "check_copies",
    "counts",
    "format_cards",
    "from_counts",
    "parse_card",
    "parse_cards",
    "shoe",
    "sort_key",
    "take_out",
]

SUITS = "♠♥♦♣"
SUIT_LETTERS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
KINDS = 53
JOKER_INDEX = 52

_RANK_BY_TEXT = {r: i + 1 for i, r in enumerate(RANKS)} | {"T": 10}
_SUIT_BY_TEXT = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_LETTERS)}
_JOKER_TEXTS = {"JK", "*", "JOKER"}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"
_SPLIT = re.compile(r"[\s,]+")


class CardError(ValueError):
    """A card or list of cards that cannot be read, or holds impossible copies."""


class Card(int):
    """One card kind. Immutable; compares and hashes as its kind index."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self == JOKER_INDEX

    @property
    def rank(self) -> int:
        """1 (ace) … 13 (king); 0 for the joker."""
        return 0 if self == JOKER_INDEX else self % 13 + 1

    @property
    def suit(self) -> int:
        """0 … 3 for ♠ ♥ ♦ ♣; -1 for the joker."""
        return -1 if self == JOKER_INDEX else self // 13

    @property
    def ascii(self) -> str:
        """Canonical ASCII text: ``10C``, ``QH``, ``JK``."""
        if self == JOKER_INDEX:
            return "JK"
        return RANKS[self % 13] + SUIT_LETTERS[self // 13]

    def text(self, ascii: bool = False) -> str:
        return self.ascii if ascii else str(self)

    def __str__(self) -> str:
        if self == JOKER_INDEX:
            return "JK"
        return RANKS[self % 13] + SUITS[self // 13]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card (N-1); raise ``CardError`` saying what is wrong."""
        return parse_card(text)


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(KINDS))
JOKER = CARDS[JOKER_INDEX]


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1 … 13) and ``suit`` (0 … 3)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return CARDS[suit * 13 + rank - 1]


def _describe(token: str, position: int | None) -> str:
    where = f" (token {position})" if position is not None else ""
    return f"bad card '{token}'{where}"


def parse_card(text: str, position: int | None = None) -> Card:
    """Read one card in any N-1 form: ``10♣``, ``TC``, ``qh``, ``A♠️``, ``JK``, ``*``."""
    if not isinstance(text, str):
        raise CardError(f"bad card {text!r}: expected text such as '10♣' or 'QH'")
    token = text.strip()
    cleaned = "".join(ch for ch in token if ch not in _VARIATION_SELECTORS).upper()
    if not cleaned:
        raise CardError("empty card: expected a card such as '10♣' or 'QH'")
    if cleaned in _JOKER_TEXTS:
        return JOKER
    suit = _SUIT_BY_TEXT.get(cleaned[-1])
    if suit is None:
        raise CardError(f"{_describe(token, position)}: suit must be one of ♠ ♥ ♦ ♣ (or S H D C)")
    rank = _RANK_BY_TEXT.get(cleaned[:-1])
    if rank is None:
        raise CardError(f"{_describe(token, position)}: rank must be one of A 2 … 10 J Q K")
    return CARDS[suit * 13 + rank - 1]


def parse_cards(text: str | Sequence[str]) -> list[Card]:
    """Read a list of cards separated by spaces and/or commas, or a list of tokens.

    Errors name the bad token and its 1-based position.
    """
    if isinstance(text, str):
        tokens = [t for t in _SPLIT.split(text.strip()) if t]
    elif isinstance(text, Sequence):
        tokens = list(text)
    else:
        raise CardError(f"expected a list of cards, got {type(text).__name__}")
    return [parse_card(tok, i) for i, tok in enumerate(tokens, start=1)]


def sort_key(c: Card) -> tuple[int, int]:
    """Group by suit (♠ ♥ ♦ ♣), then rank A … K; the joker last."""
    return (4, 0) if c == JOKER_INDEX else (c // 13, c % 13)


def format_cards(cards: Iterable[int], ascii: bool = False, sort: bool = False) -> str:
    """Space-separated canonical text of ``cards``."""
    items = [CARDS[c] for c in cards]
    if sort:
        items.sort(key=sort_key)
    return " ".join(c.text(ascii) for c in items)


def counts(cards: Iterable[int]) -> list[int]:
    """The count vector (length ``KINDS``) of ``cards``."""
    vec = [0] * KINDS
    for c in cards:
        vec[c] += 1
    return vec


def from_counts(vec: Sequence[int]) -> list[Card]:
    """The cards of a count vector, in kind order."""
    out: list[Card] = []
    for i, n in enumerate(vec):
        if n:
            out.extend([CARDS[i]] * n)
    return out


def check_copies(cards: Iterable[int], copies: int, jokers: int = 0) -> None:
    """Raise ``CardError`` naming the first card given more often than the decks hold."""
    vec = counts(cards)
    for i, n in enumerate(vec):
        limit = jokers if i == JOKER_INDEX else copies
        if n > limit:
            if i == JOKER_INDEX and limit == 0:
                raise CardError("JK: this game has no jokers")
            raise CardError(f"too many {CARDS[i]}: {n} given, the decks hold {limit}")


def shoe(decks: int, jokers: int = 0) -> list[Card]:
    """All cards of ``decks`` standard decks plus ``jokers`` printed jokers, unshuffled."""
    return [c for c in CARDS[:52] for _ in range(decks)] + [JOKER] * jokers


def shuffled_shoe(decks: int, jokers: int, rng: random.Random) -> list[Card]:
    """A shuffled shoe; the order depends only on ``rng``."""
    cards = shoe(decks, jokers)
    rng.shuffle(cards)
    return cards


_BY_TEXT = {str(c): c for c in CARDS}


def cards_from_texts(texts: Iterable[str]) -> list[Card]:
    """Cards from canonical texts (as views hold them), any N-1 form accepted too."""
    out: list[Card] = []
    for t in texts:
        found = _BY_TEXT.get(t)
        out.append(found if found is not None else parse_card(t))
    return out


def take_out(pool: list[int], cards: Iterable[int]) -> list[int]:
    """Remove ``cards`` from the count vector ``pool`` in place; ``CardError`` if one
    is not there (more copies seen than the shoe holds). Returns ``pool``."""
    for c in cards:
        pool[c] -= 1
        if pool[c] < 0:
            raise CardError(f"more {CARDS[c]} seen than the decks hold")
    return pool
