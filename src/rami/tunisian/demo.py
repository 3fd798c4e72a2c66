"""A seeded demonstration: players choose random legal moves, every move is printed.

Uniformly random players almost never open (an opening is a few melds among a dozen
discards), so the demo's players are random but *prefer laying cards*: they take the
discard when that lets them open, lay a meld, add a card or swap a joker whenever they
may, and otherwise draw and discard at random. A deal where nobody opens for long ends
at a turn cap (T-11, ``max_turns``; the demo sets 400 if the rules set none).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from rami.engine import Action, Event
from rami.tunisian.game import TunisianState, new_deal
from rami.tunisian.match import Match
from rami.tunisian.rules import rules_from
from rami.wording import count

__all__ = ["DEMO_MAX_TURNS", "choose_layer", "describe_event", "run_demo"]

DEMO_MAX_TURNS = 400
_LAY = ("meld", "add", "swap")


def choose_layer(state: TunisianState, rng: random.Random) -> Action:
    """Random legal move, preferring to take-to-open and to lay cards over discarding."""
    legal = state.legal_actions()
    kinds = {a.kind for a in legal}
    if "take" in kinds and not state.opened[state.to_move or 0]:
        return Action("take")
    laying = [a for a in legal if a.kind in _LAY]
    if laying:
        return rng.choice(laying)
    return rng.choice(legal)


def describe_event(event: Event) -> str | None:
    """One line of plain text for a logged event (omniscient: shows drawn cards)."""
    kind = event.get("news")
    data = event.get("data") or {}
    text = event.get("action")
    if text is not None:
        seat = event["seat"]
        if text == "draw":
            return f"seat {seat}: draw ({event['card']})"
        if text == "take":
            return f"seat {seat}: take {event['card']}"
        if text.startswith("meld"):
            tag = " towards opening" if data.get("staged") else ""
            return f"seat {seat}: {text}  → @{data['meld']}, worth {data['value']}{tag}"
        return f"seat {seat}: {text}"
    if kind == "open":
        return (
            f"seat {event['seat']} OPENS with {data['value']} "
            f"(needed {data['threshold']}; next opening needs more)"
        )
    if kind == "restock":
        return (
            f"the stock is empty: the discard pile is shuffled into a new stock of {data['size']}"
        )
    if kind == "end":
        if data["winner"] is not None:
            return f"seat {data['winner']} goes out and wins the deal"
        why = "the stock ran out" if data["reason"] == "stock" else "the turn cap was reached"
        return f"the deal ends with no winner: {why}"
    return None


def _play_deal(state: TunisianState, rng: random.Random, out: Callable[[str], None]) -> None:
    mode = state.rules.mode
    first = state.next_seat(state.dealer)
    out(f"dealer: seat {state.dealer}; play goes counter-clockwise (next: seat {first})")
    for seat in range(state.num_players):
        if state.active[seat]:
            cards = state.hand(seat)
            out(f"  seat {seat} ({len(cards)} cards): {' '.join(map(str, cards))}")
    seen = len(state.events)
    step = 0
    while not state.is_over:
        action = choose_layer(state, rng)
        state.apply(action)
        step += 1
        for event in state.events[seen:]:
            line = describe_event(event)
            if line is not None:
                out(f"{step:4}. {line}" if event.get("action") else f"      {line}")
        seen = len(state.events)
    result = state.result
    assert result is not None
    details = result.details
    out(f"end of the deal ({mode}), points (T-10):")
    for seat in range(state.num_players):
        if not state.active[seat]:
            continue
        hand = " ".join(details["hands"][seat]) or "-"
        status = (
            "winner"
            if result.winner == seat
            else (
                f"opened {details['opening_values'][seat]}"
                if details["opened"][seat]
                else "not opened"
            )
        )
        out(f"  seat {seat}: {result.scores[seat]:4} points  ({status}; hand: {hand})")
    if "team_points" in details:
        a, b = details["team_points"]
        out(f"  team points: seats 0+2: {a}, seats 1+3: {b}")


def run_demo(
    seed: int,
    mode: str = "ffa",
    out: Callable[[str], None] = print,
    whole_game: bool = False,
) -> None:
    """Play one seeded deal (or a whole game) between random players and print it."""
    rules = rules_from(mode)
    if rules.max_turns is None:
        rules = replace(rules, max_turns=DEMO_MAX_TURNS)
    rng = random.Random(f"demo:{seed}")
    out(f"Tunisian rami, mode {rules.mode}, seed {seed}")
    out("players: random legal moves, preferring to lay cards (meld/add/swap) over discarding")
    if not whole_game:
        _play_deal(new_deal(rules, rules.players, seed, dealer=seed % rules.players), rng, out)
        return
    match = Match(rules, seed)
    while True:
        out("")
        out(f"=== deal {match.deal_number + 1} ===")
        _play_deal(match.current, rng, out)
        standing = match.standing()
        totals = ", ".join(f"seat {s}: {t}" for s, t in enumerate(standing["totals"]))
        out(f"totals: {totals}")
        if standing["team_totals"] is not None:
            a, b = standing["team_totals"]
            out(f"team totals: seats 0+2: {a}, seats 1+3: {b}")
        gone = standing["deals"][-1]["eliminated"]
        if gone:
            out(f"eliminated (T-13): {', '.join(f'seat {s}' for s in gone)}")
        if match.is_over:
            break
        match.next_deal()
    winners = match.winners or []
    out("")
    out(
        f"game over after {count(match.deal_number + 1, 'deal')}: winner "
        + " + ".join(f"seat {s}" for s in winners)
    )
