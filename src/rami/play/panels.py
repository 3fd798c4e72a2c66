"""The end-of-deal panels, the ledger and the full-screen pages of ``rami play``.

Like the turn screen they are drawn from the human seat's view (at the end of a deal it
holds the result: the revealed tiplu, every player's maal items or points) and from the
match's public standing, never from a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from rami.games import get_game
from rami.play.commands import game_verbs, game_words
from rami.play.hooks import TerminalHooks, hooks_of
from rami.views import GameView

__all__ = [
    "Ledger",
    "deal_end_screen",
    "help_lines",
    "ledger_table",
    "match_end_lines",
    "panel_table",
    "table_lines",
    "verb_help",
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


def panel_table(ascii: bool, title: str | None = None) -> Table:
    """A table in the panels' style (plain ASCII borders with ``--ascii``)."""
    return Table(
        title=title,
        box=box.ASCII if ascii else box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
        title_justify="left",
        title_style="bold",
    )


def deal_end_screen(
    view: GameView, names: Sequence[str], ledger: Ledger, ascii: bool
) -> list[RenderableType]:
    """The end-of-deal panels: how it ended, each player's result, then the ledger."""
    result = view.get("result")  # each game's view types its own result
    details = result.get("details") if isinstance(result, dict) else None
    details = details if isinstance(details, dict) else {}
    out: list[RenderableType] = []
    out.extend(hooks_of(view).deal_end(view, details, names, ascii))
    out.append(Text(ledger.title, style="bold"))
    out.append(ledger_table(ledger, ascii))
    out.extend(Text(n, style="dim") for n in ledger.notes)
    return out


def ledger_table(ledger: Ledger, ascii: bool) -> Table:
    """The running score: each finished deal's numbers and the totals."""
    table = panel_table(ascii)
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
    what = get_game(game).match_word
    return [Text(f"{who} {verb} {what}!", style="bold green")]


def table_lines(view: GameView, names: Sequence[str]) -> list[str]:
    """Every meld the seat can see, in full (the ``table`` command)."""
    return hooks_of(view).table_lines(view, names)


# ---------------------------------------------------------------------- help


def verb_help(view: GameView) -> list[str]:
    """A line for each verb of the game's the common commands leave out, from its own
    metadata (``Game.verbs``: its words and help): the help of a game that writes none."""
    words, _ = game_words(view)
    lines: list[str] = []
    for verb in game_verbs(view):
        typed = [w for w, v in words.items() if v == verb.name]
        if typed:
            lines.append(f"{' / '.join(sorted(typed, key=len)):<18}{verb.help}".rstrip())
    return lines


def help_lines(game: str, view: GameView) -> list[str]:
    """The command summary for ``help``: the common commands around the game's own
    (which may depend on the rules ``view`` plays by)."""
    spec = get_game(game)
    hooks = spec.terminal() if spec.terminal is not None else TerminalHooks()
    lines = [
        "d / draw          draw from the stock      t / take   take the latest discard",
        "x 7c / x 7♣       discard a card (suits: ♠♥♦♣ or s h d c; 10 or t)",
    ]
    lines += hooks.help_lines(view) if hooks.help_lines is not None else verb_help(view)
    lines += [
        "1, 2, …           pick from the numbered list shown",
        "? / hint          advice from the solver on your cards",
        "log / table       the whole history of this deal / every meld in full",
        "q / quit          save and leave; resume with 'rami play --resume'",
    ]
    return lines
