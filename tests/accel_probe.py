"""Solver answers on seeded holdings, one line each: run once on the pure-Python modules and
once on the mypyc-compiled ones (tests/test_accel.py), and the outputs must be identical.

Run: ``PYTHONPATH=<tree>/src python tests/accel_probe.py [holdings per class]``. The first
line names the modules that run compiled (``rami.accel.compiled_modules``).
"""

from __future__ import annotations

import random
import sys
import zlib
from collections.abc import Callable

from rami.accel import compiled_modules
from rami.cards import CARDS, Card, counts, parse_cards
from rami.marriage.game import new_deal
from rami.marriage.melds import is_meld, is_pure_meld, is_show_meld, seq_span, wild_kinds
from rami.marriage.rules import INDIAN, NEPALI, MarriageRules
from rami.marriage.solver import (
    arrange,
    dublee_count,
    find_finish,
    finish_discards,
    missing,
    missing_at_least,
    show_and_finish,
    show_finish_discards,
    show_meld_options,
)
from rami.tunisian.game import new_deal as new_tunisian_deal
from rami.tunisian.melds import meld_options
from rami.tunisian.rules import rules_from as tunisian_rules
from rami.tunisian.solver import best_opening, can_go_out, clear_cache, opening_reaches

Holding = tuple[Card, list[int]]


def _legal(vec: list[int], tiplu: Card) -> bool:
    return max(vec) <= 3 and vec[tiplu] <= 2


def random_holdings(rng: random.Random, n: int, size: int) -> list[Holding]:
    out: list[Holding] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        vec = counts([rng.randrange(52) for _ in range(size)])
        if _legal(vec, tiplu):
            out.append((tiplu, vec))
    return out


def near_holdings(rng: random.Random, n: int) -> list[Holding]:
    """Seven runs (some with a wild card) and a card, then 0-2 cards swapped."""
    out: list[Holding] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        wilds = sorted(wild_kinds(tiplu))
        cards: list[int] = []
        for _ in range(7):
            suit, start = rng.randrange(4), rng.randrange(11)
            meld = [suit * 13 + start + i for i in range(3)]
            if rng.random() < 0.3:
                meld[rng.randrange(3)] = rng.choice(wilds)
            cards += meld
        cards.append(rng.randrange(52))
        for _ in range(rng.randint(0, 2)):
            cards[rng.randrange(len(cards))] = rng.randrange(52)
        vec = counts(cards)
        if _legal(vec, tiplu):
            out.append((tiplu, vec))
    return out


def dense_holdings(rng: random.Random, n: int) -> list[Holding]:
    """Two suits and 2-6 wild cards: the hard class of issue 12."""
    out: list[Holding] = []
    while len(out) < n:
        tiplu = CARDS[rng.randrange(52)]
        wilds = sorted(wild_kinds(tiplu))
        suits = rng.sample(range(4), 2)
        cards = [rng.choice(wilds) for _ in range(rng.randint(2, 6))]
        while len(cards) < 22:
            cards.append((suits[0] if rng.random() < 0.7 else suits[1]) * 13 + rng.randrange(13))
        vec = counts(cards)
        if _legal(vec, tiplu):
            out.append((tiplu, vec))
    return out


def _safe(call: Callable[..., object], *args: object) -> str:
    """The answer's text, or the error it raised (both must agree)."""
    try:
        return repr(call(*args))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def probe_melds(rng: random.Random, out: list[str]) -> None:
    for _ in range(300):
        tiplu = CARDS[rng.randrange(52)]
        wilds = wild_kinds(tiplu)
        cards = [rng.randrange(52) for _ in range(rng.randint(3, 5))]
        if rng.random() < 0.5:  # a run, often the case worth checking
            suit, start = rng.randrange(4), rng.randrange(13)
            cards = [suit * 13 + (start + i) % 13 for i in range(len(cards))]
        calls: list[tuple[Callable[..., object], tuple[object, ...]]] = [
            (seq_span, (cards,)),
            (is_show_meld, (cards, NEPALI)),
            (is_pure_meld, (cards, INDIAN)),
            (is_meld, (cards, NEPALI, wilds)),
            (is_meld, (cards, INDIAN, wilds)),
        ]
        out.append("meld " + " ".join(_safe(f, *args) for f, args in calls))


def probe_nepali(holdings: list[Holding], out: list[str], rules: MarriageRules) -> None:
    for tiplu, vec in holdings:
        wilds = wild_kinds(tiplu)
        hand13, hand21 = list(vec), list(vec)
        for _ in range(9):  # the cards in hand after three melds shown
            live = [k for k in range(52) if hand13[k]]
            hand13[live[0]] -= 1
        hand21[[k for k in range(52) if vec[k]][-1]] -= 1
        calls: list[tuple[Callable[..., object], tuple[object, ...]]] = [
            (finish_discards, (vec, rules, wilds, 0, "melds")),
            (finish_discards, (hand13, rules, wilds, 3, "melds")),
            (finish_discards, (vec, rules, wilds, 0, "dublees")),
            (show_finish_discards, (vec, rules, wilds)),
            (lambda *a: show_and_finish(*a)[:2], (vec, rules, wilds)),
            (arrange, (hand21, rules, wilds)),
            (show_meld_options, (vec, rules)),
            (dublee_count, (vec,)),
            (missing, (vec, rules, tiplu, [])),
            (missing_at_least, (vec, rules, tiplu, [], 2_000)),
        ]
        out.append("nepali " + " | ".join(_safe(f, *args) for f, args in calls))


def probe_indian(holdings: list[Holding], out: list[str]) -> None:
    for tiplu, vec in holdings:
        wilds = wild_kinds(tiplu)
        discards = _safe(finish_discards, vec, INDIAN, wilds, 0, "melds")
        finishes = [
            _safe(find_finish, vec, INDIAN, wilds, 0, "melds", CARDS[d])
            for d in range(52)
            if vec[d]
        ][:3]
        bounded = _safe(missing_at_least, vec, INDIAN, tiplu, [], 5_000)
        out.append(f"indian {discards} | {finishes} | {bounded}")


#: Issue 28's Indian positions (tiplu, table melds, hand): finishes that extend table melds
#: and put a wild card in the middle of a run (M-8, M-10).
ISSUE_28 = (
    ("7♣", ("3♠ 4♠ 5♠", "9♥ 10♥ J♥", "2♦ 3♦ 4♦", "5♥ 6♥ 7♥ 8♥"), "J♠ Q♠ K♠ 7♦"),
    ("2♣", ("3♠ 4♠ 5♠", "9♥ 10♥ J♥", "2♦ 2♥ 2♠"), "9♣ 9♠ 9♥ 7♠ 8♠ Q♠ K♦"),
    ("5♦", ("A♦ A♠ A♥ A♣", "7♦ 7♣ 7♠", "9♥ 10♥ J♥ Q♥"), "3♦ 3♣ 3♥ 8♥ A♥ 5♠ K♣"),
)


def probe_indian_tables(out: list[str]) -> None:
    for tiplu, melds, hand in ISSUE_28:
        table = [[int(c) for c in parse_cards(m)] for m in melds]
        vec = counts(parse_cards(hand))
        wilds = wild_kinds(parse_cards(tiplu)[0])
        discards = _safe(finish_discards, vec, INDIAN, wilds, len(table), "melds", table)
        out.append(f"indian table {tiplu} {discards}")


def probe_play(out: list[str], deals: int) -> None:
    """Seeded random legal play: every legal-action list and every choice must agree."""
    for preset in ("nepali", "indian"):
        rng = random.Random(f"accel-play:{preset}")
        for seed in range(deals):
            state = new_deal({"preset": preset, "max_turns": 200}, 4, seed, dealer=seed % 4)
            trace = 0
            while not state.is_over:
                legal = state.legal_actions()
                trace = zlib.crc32(repr(legal).encode(), trace)
                state.apply(rng.choice(legal))
            out.append(f"play {preset} {seed} {trace} {state.is_over}")


def probe_tunisian(rng: random.Random, out: list[str], n: int) -> None:
    """Openings (T-6) and going out (T-9) on seeded 15-card hands, 0-3 jokers; then play."""
    for i in range(n):
        jokers = i % 4
        if i % 2:  # dense: two suits
            suits = rng.sample(range(4), 2)
            naturals = [rng.choice(suits) * 13 + rng.randrange(13) for _ in range(15 - jokers)]
        else:
            naturals = [rng.randrange(52) for _ in range(15 - jokers)]
        vec = counts([*naturals, *[52] * jokers])
        if max(vec[:52]) > 2:
            continue
        table = meld_options(counts([rng.randrange(52) for _ in range(12)]))[:2]
        calls: list[tuple[Callable[..., object], tuple[object, ...]]] = [
            (best_opening, (vec,)),
            (opening_reaches, (vec, 71)),
            (meld_options, (vec,)),
            (can_go_out, (vec, table, True, 71)),
            (can_go_out, (vec, table, False, 71)),
        ]
        out.append("tunisian " + " | ".join(_safe(f, *args) for f, args in calls))
        if i % 7 == 0:
            clear_cache()
    for mode in ("1v1", "ffa"):
        play = random.Random(f"accel-play:{mode}")
        for seed in range(4):
            rules = tunisian_rules(mode)
            state = new_tunisian_deal(rules, rules.players, seed, dealer=0)
            trace = 0
            while not state.is_over:
                legal = state.legal_actions()
                trace = zlib.crc32(repr(legal).encode(), trace)
                state.apply(play.choice(legal))
            out.append(f"play {mode} {seed} {trace}")


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    out = [f"compiled {compiled_modules()}"]
    rng = random.Random(12)
    probe_melds(rng, out)
    near = near_holdings(rng, n)
    rand = random_holdings(rng, n, 22)
    dense = dense_holdings(rng, n)
    probe_nepali(near + rand + dense, out, NEPALI)
    probe_indian(near + rand + dense, out)
    probe_indian_tables(out)
    probe_play(out, max(2, n // 10))
    probe_tunisian(rng, out, 4 * n)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
