"""Helpers for the Marriage game tests: tables with chosen hands, state signatures."""

from __future__ import annotations

from typing import Any

from rami.cards import CARDS, parse_cards
from rami.marriage.game import MarriageState
from rami.marriage.rules import MarriageRules, rules_from

# Thirteen "junk" kinds: one suit per rank and at least three ranks apart within a
# suit, so no two of them make a meld even with one wild card.
JUNK = parse_cards("A♠ 4♠ 7♠ 10♠ 2♥ 5♥ 8♥ J♥ 3♦ 6♦ 9♦ Q♦ K♣")


def table(
    rules: Any,
    hands: dict[int, str],
    players: int = 3,
    *,
    stock: str = "",
    discard: str | None = None,
    tiplu: str | None = None,
    avoid: str = "",
    first: int = 0,
    pass_expose: bool = True,
    seed: int = 0,
) -> MarriageState:
    """A deal where seat ``first`` plays first and ``hands`` give (parts of) hands.

    Each given hand is completed to 21 cards with junk kinds (not in ``avoid``), one
    copy each before any second copy; seats not given get the lowest leftover cards.
    """
    r: MarriageRules = rules_from(rules)
    left = [r.decks] * 52
    used_text = " ".join([*hands.values(), stock, discard or "", tiplu or ""])
    for c in parse_cards(used_text):
        left[c] -= 1
        assert left[c] >= 0, f"too many {c}"
    avoid_kinds = {int(c) for c in parse_cards(avoid)}
    if tiplu is not None:
        from rami.marriage.melds import wild_kinds

        avoid_kinds |= set(wild_kinds(parse_cards(tiplu)[0]))
    out: list[list[int]] = []
    for seat in range(players):
        cards = [int(c) for c in parse_cards(hands.get(seat, ""))]
        if seat in hands:
            held = set(cards)
            for round_ in range(3):
                for j in JUNK:
                    if len(cards) >= r.hand_size:
                        break
                    if j in avoid_kinds or left[j] == 0 or (round_ == 0 and j in held):
                        continue
                    cards.append(int(j))
                    left[j] -= 1
        out.append(cards)
    for seat in range(players):
        cards = out[seat]
        if len(cards) < r.hand_size:
            for k in range(52):
                while left[k] and len(cards) < r.hand_size and (k not in avoid_kinds):
                    cards.append(k)
                    left[k] -= 1
        assert len(cards) == r.hand_size, f"seat {seat}: {len(cards)} cards"
    step = 1 if r.clockwise else -1
    dealer = (first - step) % players
    state = MarriageState.from_setup(
        r,
        [[CARDS[c] for c in h] for h in out],
        discard=discard,
        stock=stock,
        tiplu=tiplu,
        dealer=dealer,
        seed=seed,
    )
    if pass_expose:
        while state.phase == "expose":
            state.apply("pass")
    return state


def signature(state: MarriageState) -> tuple[Any, ...]:
    """Everything that makes up a state (for replay and all-or-nothing checks)."""
    return (
        [h[:] for h in state.hands],
        state.sizes[:],
        [m[:] for m in state.melds],
        [e[:] for e in state.exposed],
        [d[:] for d in state.dublees],
        state.seen[:],
        state.path[:],
        state.stock[:],
        state.pile[:],
        state.tiplu,
        state.tiplu_picked,
        state.phase,
        state.current,
        state.passes,
        state.taken,
        state.must_finish,
        state.turn,
        state.recycles,
        state.actions[:],
        len(state.events),
        None if state.result is None else state.result.scores,
        None if state.base is None else state.base[:],  # M-10: this turn's take-back
        state.laid[:],
    )


def texts(state: MarriageState) -> list[str]:
    return [str(a) for a in state.legal_actions()]
