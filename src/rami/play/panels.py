"""The end-of-deal panels, the ledger and the full-screen pages of ``rami play``.

Like the turn screen they are drawn from the human seat's view (at the end of a deal it
holds the result: the revealed tiplu, every player's maal items or points) and from the
match's public standing, never from a state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from rami.play.render import card_text, cards_text, meld_text, table_melding

__all__ = [
    "Ledger",
    "deal_end_screen",
    "help_lines",
    "ledger_table",
    "match_end_lines",
    "table_lines",
]


@dataclass
class Ledger:
    """The match's running score: one row per finished deal, the totals, who is out."""

    title: str
    names: list[str]
    rows: list[tuple[str, list[int]]]
    totals: list[int]
    out: list[bool] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    signed: bool = True  # ledger nets (+12, -9) rather than points (45)


# ---------------------------------------------------------------------- end of a deal


def _table(ascii: bool, title: str | None = None) -> Table:
    return Table(
        title=title,
        box=box.ASCII if ascii else box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        title_justify="left",
        title_style="bold",
    )


def deal_end_screen(
    view: Mapping[str, Any], names: Sequence[str], ledger: Ledger, ascii: bool
) -> list[RenderableType]:
    """The end-of-deal panels: how it ended, each player's result, then the ledger."""
    result = view.get("result") or {}
    details = result.get("details") or {}
    out: list[RenderableType] = []
    if view.get("game") == "marriage":
        out.extend(_marriage_end(details, names, ascii))
    else:
        out.extend(_tunisian_end(view, details, names, ascii))
    out.append(Text(ledger.title, style="bold"))
    out.append(ledger_table(ledger, ascii))
    out.extend(Text(n, style="dim") for n in ledger.notes)
    return out


def _marriage_end(
    details: Mapping[str, Any], names: Sequence[str], ascii: bool
) -> list[RenderableType]:
    out: list[RenderableType] = []
    head = Text("End of the deal: ", style="bold reverse")
    finisher = details.get("finisher")
    if finisher is None:
        why = "turn limit" if details.get("reason") == "max_turns" else "the stock ran out"
        head.append(f"no finisher ({why})", style="bold reverse")
    else:
        kind = (details.get("finish") or {}).get("kind", "melds")
        head.append(f"{names[finisher]} finished with {kind}", style="bold reverse")
    out.append(head)
    line = Text("Tiplu: ")
    tiplu = details.get("tiplu")
    if tiplu:
        line.append_text(card_text(tiplu, ascii))
    else:
        line.append("never picked (nobody showed)", style="dim")
    fin = details.get("finish")
    if fin:
        line.append("   finish: ")
        for g in fin.get("groups") or []:
            line.append_text(meld_text(g, ascii))
            line.append(" ")
        line.append("discard ")
        line.append_text(card_text(fin["discard"], ascii))
    out.append(line)
    table = _table(ascii)
    table.add_column("Player")
    table.add_column("Seen")
    table.add_column("Maal", justify="right")
    table.add_column("Maal items", overflow="fold")
    table.add_column("Net", justify="right")
    for p in details.get("players") or []:
        s = int(p["seat"])
        items = ", ".join(p.get("maal_items") or []) or "-"
        seen = "yes" if p.get("seen") else "no"
        if p.get("path") == "dublees":
            seen += " (dublees)"
        table.add_row(names[s], seen, str(p.get("maal", 0)), items, f"{p.get('net', 0):+d}")
    out.append(table)
    return out


def _tunisian_end(
    view: Mapping[str, Any], details: Mapping[str, Any], names: Sequence[str], ascii: bool
) -> list[RenderableType]:
    out: list[RenderableType] = []
    winner = (view.get("result") or {}).get("winner")
    head = Text("End of the deal: ", style="bold reverse")
    if winner is None:
        why = "turn limit" if details.get("reason") == "max_turns" else "the stock ran out"
        head.append(f"nobody went out ({why})", style="bold reverse")
    else:
        head.append(f"{names[winner]} went out", style="bold reverse")
    out.append(head)
    table = _table(ascii)
    table.add_column("Player")
    table.add_column("Opened")
    table.add_column("Cards left", overflow="fold")
    table.add_column("Points", justify="right")
    hands = details.get("hands") or []
    values = details.get("opening_values") or []
    points = details.get("points") or []
    opened_flags = details.get("opened") or []
    active = details.get("active") or [True] * len(names)
    for s, name in enumerate(names):
        if s < len(active) and not active[s]:
            continue
        if s < len(values) and values[s] is not None:
            opened = str(values[s])
        else:
            opened = "yes" if s < len(opened_flags) and opened_flags[s] else "no"
        left = cards_text(hands[s], ascii) if s < len(hands) and hands[s] else Text("-")
        table.add_row(name, opened, left, str(points[s] if s < len(points) else 0))
    out.append(table)
    return out


def ledger_table(ledger: Ledger, ascii: bool) -> Table:
    """The running score: each finished deal's numbers and the totals."""
    table = _table(ascii)
    table.add_column("Deal")
    for i, name in enumerate(ledger.names):
        label = name + (" (out)" if i < len(ledger.out) and ledger.out[i] else "")
        table.add_column(label, justify="right")

    def num(x: int) -> str:
        return f"{x:+d}" if ledger.signed else str(x)

    for label, nums in ledger.rows:
        table.add_row(label, *(num(x) for x in nums))
    table.add_row(Text("Total", style="bold"), *(Text(num(x), style="bold") for x in ledger.totals))
    return table


def match_end_lines(winners: Sequence[int], names: Sequence[str], game: str) -> list[Text]:
    """The closing line of a match."""
    if not winners:
        return [Text("The match is over.", style="bold")]
    who = " and ".join(names[w] for w in winners)
    verb = "win" if len(winners) > 1 or names[winners[0]] == "You" else "wins"
    what = "the match" if game == "marriage" else "the game"
    return [Text(f"{who} {verb} {what}!", style="bold green")]


def table_lines(view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """Every meld the seat can see, in full (the ``table`` command)."""
    lines: list[str] = []
    if view.get("game") == "tunisian":
        for m in view.get("table") or []:
            value = f" ({m['value']})" if m.get("value") is not None else ""
            lines.append(f"@{m['index']} {' '.join(m['cards'])}{value}  {names[int(m['owner'])]}")
        return lines or ["no melds on the table yet"]
    for s in view.get("seats") or []:
        name = names[int(s["seat"])]
        groups = [" ".join(m) for m in s.get("melds") or []]
        groups += [" ".join([t] * 3) for t in s.get("exposed_tunnelas") or []]
        groups += [f"{d} {d}" for d in s.get("dublees") or []]
        # the player's own Indian table melds are numbered for 'add 8♥ @N' (M-10)
        numbered = s.get("seat") == view.get("seat") and table_melding(view)
        if groups:
            lines.append(f"{name}:")
            lines.extend(f"  @{i} {g}" if numbered else f"  {g}" for i, g in enumerate(groups))
    return lines or ["nobody has shown or laid a meld yet"]


# ---------------------------------------------------------------------- help


def help_lines(game: str, table_melding: bool) -> list[str]:
    """The command summary for ``help``."""
    lines = [
        "d / draw          draw from the stock      t / take   take the latest discard",
        "x 7c / x 7♣       discard a card (suits: ♠♥♦♣ or s h d c; 10 or t)",
    ]
    if game == "marriage":
        lines += [
            "show              list the pure melds you may show (then a number)",
            "show 3s 4s 5s     show one meld;  'show all' (or 'open') shows all three",
            "dublee 7c         show a dublee (7 dublees to see)",
            "finish K♦         finish, discarding K♦; 'finish' alone lists the discards",
            "expose 6h / pass  expose a dealt tunnela / pass (right after the deal)",
        ]
        if table_melding:
            lines += [
                "lay 5h 6h 7h      lay a meld on the table after seeing",
                "lay 8h @2         add 8♥ to your table meld @2 (also: add 8h @2)",
            ]
    else:
        lines += [
            "open              lay the best opening the solver finds, meld by meld",
            "lay 5h 6h 7h      lay one meld (several: separate them with ';')",
            "lay 8h @2         add 8♥ to table meld @2 (also: add 8h @2)",
            "swap 7h @1        take the joker of meld @1, putting 7♥ in its place",
            "x CARD            discard; discarding your last card goes out",
        ]
    lines += [
        "1, 2, …           pick from the numbered list shown",
        "? / hint          advice from the solver on your cards",
        "log / table       the whole history of this deal / every meld in full",
        "q / quit          save and leave; resume with 'rami play --resume'",
    ]
    return lines
