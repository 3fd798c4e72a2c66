"""A narrated Marriage deal between random legal players (``rami demo marriage``).

The narrator sees everything (it is not a player's view): each move with its seat,
the tiplu when it is picked, each player's maal items and the settlement table.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from rami.cards import CARDS, format_cards
from rami.marriage.game import MarriageState, new_deal
from rami.marriage.rules import rules_from

__all__ = ["DEMO_MAX_TURNS", "run_demo"]

DEMO_MAX_TURNS = 200  # random players rarely finish; cap the demo unless the rules do


def run_demo(
    seed: int,
    players: int = 4,
    rules: object = "nepali",
    out: Callable[[str], None] = print,
    max_turns: int | None = DEMO_MAX_TURNS,
) -> None:
    """Play one seeded deal, each seat choosing uniformly among its legal actions."""
    r = rules_from(rules)
    if r.max_turns is None and max_turns is not None:
        r = dataclasses.replace(r, max_turns=max_turns)
    rng = random.Random(seed)
    dealer = rng.randrange(players) if players > 0 else 0
    state = new_deal(r, players, seed, dealer)
    out(
        f"Marriage ({r.preset_name} rules), {players} players, seed {seed}; "
        f"seat {dealer} deals, play goes {r.direction}"
        + (f", at most {r.max_turns} turns" if r.max_turns is not None else "")
    )
    for s in range(players):
        out(f"  seat {s} is dealt {format_cards(state.final_cards(s), sort=True)}")
    out(f"  turned up: {CARDS[state.pile[-1]]}")
    line: list[str] = []
    line_seat: int | None = None

    def flush() -> None:
        nonlocal line, line_seat
        if line:
            out(f"seat {line_seat}: {', '.join(line)}")
        line, line_seat = [], None

    while not state.is_over:
        action = rng.choice(state.legal_actions())
        before = len(state.events)
        state.apply(action)
        for event in state.events[before:]:
            move = event["action"]
            if move is not None:
                if event["seat"] != line_seat:
                    flush()
                    line_seat = event["seat"]
                card = event.get("card")
                line.append(move if card is None else f"{move} {card}")
            else:
                flush()
                text = event.get("text", "")
                if text.startswith("the tiplu is picked"):
                    text += f" (it is {state.tiplu}; only seen players know)"
                out(f"  {text}")
    flush()
    _print_result(state, out)


def _print_result(state: MarriageState, out: Callable[[str], None]) -> None:
    result = state.result
    assert result is not None
    details = result.details
    out("")
    out(f"Tiplu: {details['tiplu'] or 'never picked (nobody showed)'}")
    fin = details["finish"]
    if fin is not None:
        groups = "  ".join(" ".join(g) for g in fin["groups"])
        who = details["finisher"]
        out(f"Seat {who} finishes with {fin['kind']}: {groups}; discards {fin['discard']}")
    else:
        out("No finisher: only maal is settled (M-14)")
    for p in details["players"]:
        items = "; ".join(p["maal_items"]) or "no maal"
        out(f"  seat {p['seat']} maal {p['maal']}: {items}")
    indian = state.rules.scoring == "indian"
    out("")
    header = f"{'seat':>4}  {'seen':<5} {'path':<8} {'maal':>5}"
    header += f" {'in hand':>7}" if indian else ""
    out(header + f" {'net':>6}")
    for p in details["players"]:
        seen = "yes" if p["seen"] else "no"
        row = f"{p['seat']:>4}  {seen:<5} {p['path'] or '-':<8} {p['maal']:>5}"
        if indian:
            row += f" {p['card_points']:>7}"
        out(row + f" {p['net']:>+6}")
    out(f"{'':>4}  ledger sums to {sum(result.scores)}")
