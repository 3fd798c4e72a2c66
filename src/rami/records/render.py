"""``rami record FILE``: a record as a readable replay, from every seat or from one.

From one seat (``seat``) the other seats' dealt cards and stock draws stay hidden while
the deal is played, as at the table; the result and its settlement are shown in full.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from rami.games import get_game
from rami.records.model import ChanceStep, DealRecord, MatchRecord, Move

__all__ = ["render"]


def _who(record: MatchRecord, seat: int) -> str:
    return f"S{seat} {record.seats[seat].name}"


def deal_lines(record: MatchRecord, deal: DealRecord, seat: int | None) -> Iterator[str]:
    yield ""
    head = f"Deal {deal.number} - dealer {_who(record, deal.dealer)}"
    if deal.commitment is not None:
        head += f" - shuffle commitment {deal.commitment[:16]}..."
    yield head
    if deal.seed is None:
        yield "  (still in play: its cards are hidden)"
    for s, hand in enumerate(deal.hands or ()):
        if not deal.active[s]:
            continue
        shown = " ".join(hand) if seat is None or seat == s else f"{len(hand)} cards"
        yield f"  {_who(record, s)} is dealt: {shown}"
    if deal.pile:
        yield f"  turned up: {' '.join(deal.pile)}"
    number = 0
    for step in deal.steps:
        if isinstance(step, Move):
            number += 1
            text = step.action
            if step.card is not None and (
                seat is None or seat == step.seat or step.action != "draw"
            ):
                text += f" ({step.card})"
            yield f"  {number:4d}. {_who(record, step.seat)}: {text}"
        elif isinstance(step, ChanceStep) and step.kind != "deal":
            if seat is None:
                yield f"        chance: {step.kind} {' '.join(step.cards)}"
            else:
                yield f"        chance: {step.kind} (hidden from this seat)"
    if deal.result is not None:
        res = deal.result
        winner = "nobody" if res.winner is None else _who(record, res.winner)
        yield f"  Result: {winner} wins the deal"
        game = get_game(record.game)
        points = ", ".join(
            f"S{s} {p:+d}" if game.signed_points else f"S{s} {p}" for s, p in enumerate(res.points)
        )
        label = game.points_label
        yield f"  {label.capitalize()}: {points}"
        for key, value in res.settlement:
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                yield f"    {key}:"  # one line per item (e.g. per seat)
                for i, item in enumerate(value):
                    yield f"      {i}: {_plain(item)}"
            else:
                yield f"    {key}: {_plain(value)}"


def _plain(value: object) -> str:
    """A settlement value in words: lists of cards as cards, objects as "key value" pairs."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) if value else "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + "; ".join(_plain(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def render(record: MatchRecord, seat: int | None = None) -> list[str]:
    """The replay's lines (``seat``: from that seat's point of view while a deal is played)."""
    game = get_game(record.game)
    lines = [
        f"{game.title} ({record.preset}) - {record.players} players - {record.date}".rstrip(" -")
    ]
    for s, info in enumerate(record.seats):
        kind = info.kind + (f" {info.level}" if info.level else "")
        lines.append(f"  S{s}: {info.name} ({kind})")
    for deal in record.deals:
        lines.extend(deal_lines(record, deal, seat))
    if record.standing is not None:
        st = record.standing
        lines.append("")
        totals = ", ".join(f"S{s} {t}" for s, t in enumerate(st.totals))
        lines.append(f"Standing: {totals}")
        if st.over and st.winners:
            lines.append(
                f"{' and '.join(_who(record, w) for w in st.winners)} wins {game.match_word}"
            )
    return lines
