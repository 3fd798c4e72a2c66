"""Tunisian rami at the terminal (``Game.terminal``): its parts of the ``rami play`` screens.

Seat lines say who opened and for how much (T-6), the status line the opening
threshold, the table's melds get their own lines, the end of a deal the points left in
hand (T-10), the ledger the totals and eliminations (T-13); 'open' lays the solver's
best opening meld by meld. Drawn from the human seat's view and the public standing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import RenderableType
from rich.text import Text

from rami.cards import Card, counts, parse_cards
from rami.engine import Action
from rami.play.hooks import TerminalHooks
from rami.play.panels import Ledger, panel_table
from rami.play.render import Frame, cards_text, seat_entry
from rami.play.session import Session
from rami.tunisian.solver import best_opening, can_go_out
from rami.tunisian.view import TunisianView, tunisian_typed, tunisian_view
from rami.views import GameView, SeatView, Standing, TypedView, own_seat

__all__ = ["HOOKS"]


# ---------------------------------------------------------------------- turn screen


def seat_line(view: GameView, s: SeatView, frame: Frame, line: Text) -> None:
    """Out, or opened and for how much, or not opened yet (T-6, T-13)."""
    view = tunisian_view(view)
    if not s.get("active", True):
        line.append("out of the game", style="dim")
    elif s.get("opened"):
        line.append(f"opened {s.get('opening_value')} ", style="green")
    else:
        line.append("not opened ", style="dim")


def status_line(view: GameView, frame: Frame, line: Text) -> None:
    """The opening threshold and what the seat has laid this turn (T-6)."""
    view = tunisian_view(view)
    line.append(f" · opening needs {view.get('threshold')}")
    staged = view.get("staged_value") or 0
    if staged and view.get("to_move") == frame.human:
        line.append(f" · you have laid {staged}", style="bold")


def lay_word(view: GameView) -> str:
    """'open' until the seat has opened (T-6), then 'lay'."""
    view = tunisian_view(view)
    return "lay" if seat_entry(view, view.get("seat")).get("opened") else "open"


# ---------------------------------------------------------------------- panels


def deal_end(
    view: GameView, details: Mapping[str, object], names: Sequence[str], ascii: bool
) -> list[RenderableType]:
    """Who went out, each player's opening and the points left in hand (T-10)."""
    result = tunisian_view(view)["result"]
    if result is None:  # the caller's ``details`` come from the view's result
        return []
    details = result["details"]
    out: list[RenderableType] = []
    winner = result["winner"]
    head = Text("End of the deal: ", style="bold reverse")
    if winner is None:
        why = "turn limit" if details.get("reason") == "max_turns" else "the stock ran out"
        head.append(f"nobody went out ({why})", style="bold reverse")
    else:
        head.append(f"{names[winner]} went out", style="bold reverse")
    out.append(head)
    table = panel_table(ascii)
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


def ledger(st: Standing, names: list[str], human: int) -> Ledger:
    """The totals and who is out (T-13)."""
    notes: list[str] = []
    limit = st.get("elimination")
    teams = st.get("team_totals")
    if teams:
        mine = human % 2
        notes.append(
            f"team totals: yours {teams[mine]}, theirs {teams[1 - mine]}; "
            f"a team reaching {limit} loses (T-13)"
        )
    else:
        notes.append(f"a player reaching {limit} is out; the last one left wins (T-13)")
    return Ledger(
        "Totals (points are bad)",
        names,
        [],
        list(st.get("totals") or []),
        out=list(st.get("eliminated") or []),
        notes=notes,
        signed=False,
    )


def standing_text(st: Standing, human: int) -> str:
    """The human's (or team's) total against the elimination limit."""
    totals = st.get("totals") or [0] * (human + 1)
    teams = st.get("team_totals")
    if teams:
        return f"your team {teams[human % 2]}/{st.get('elimination')}"
    return f"your total {totals[human]}/{st.get('elimination')}"


def table_lines(view: GameView, names: Sequence[str]) -> list[str]:
    """Every table meld with its @N, value and owner (the ``table`` command)."""
    view = tunisian_view(view)
    lines: list[str] = []
    for m in view.get("table") or []:
        value = f" ({m['value']})" if m.get("value") is not None else ""
        lines.append(f"@{m['index']} {' '.join(m['cards'])}{value}  {names[int(m['owner'])]}")
    return lines or ["no melds on the table yet"]


def help_lines(view: GameView) -> list[str]:
    """The Tunisian rami commands of ``help``."""
    lines: list[str] = []
    lines += [
        "open              lay the best opening the solver finds, meld by meld",
        "lay 5h 6h 7h      lay one meld (several: separate them with ';')",
        "lay 8h @2         add 8♥ to table meld @2 (also: add 8h @2)",
        "swap 7h @1        take the joker of meld @1, putting 7♥ in its place",
        "x CARD            discard; discarding your last card goes out",
    ]
    return lines


# ---------------------------------------------------------------------- hints and 'open'


def _cards(texts: Sequence[str]) -> list[Card]:
    return parse_cards(list(texts))


def _me(view: TunisianView) -> Mapping[str, object]:
    seat = view.get("seat")
    for s in view.get("seats") or ():
        if s.get("seat") == seat:
            return dict(s)
    return {}


def hint_lines(view: TypedView | GameView) -> list[str]:
    """The best opening against the threshold, or whether the hand can go out (read from
    the seat's typed view: its cards as ``Card``, its legal moves as ``Action``)."""
    view = tunisian_typed(view)
    hand = list(view.hand or ())
    me = view.seats[own_seat(view)]
    threshold = view.threshold
    phase = view.phase
    legal = view.legal
    if phase == "first_discard":
        return ["the dealer's first turn is a discard only: 'x CARD' (T-2)"]
    if view.first_round:
        return ["nobody may open during the first round (T-3): draw and discard"]
    lines: list[str] = []
    if not me.opened:
        staged = view.staged_value
        best = best_opening(counts(hand))
        value = best.value if best is not None else 0
        melds = " · ".join(m.text() for m in best.melds) if best is not None else ""
        if staged >= threshold:
            lines.append(f"your opening ({staged}) is complete: lay more, or discard")
            return lines
        if staged:
            lines.append(f"laid so far: {staged} of the {threshold} needed")
        if staged + value >= threshold and phase == "play":
            lines.append(f"best opening {staged + value}: {melds} (type 'open')")
        elif best is not None:
            lines.append(f"best opening {staged + value} ({melds}); it needs {threshold}")
        else:
            lines.append(f"your hand holds no meld yet; the opening needs {threshold}")
        pile = view.discard_pile
        top = pile[-1] if pile else None
        if phase == "draw" and top is not None and any(a.kind == "take" for a in legal):
            more = best_opening(counts([*hand, top]))
            if more is not None:
                lines.append(f"take {top} and you can open with {more.value}")
        return lines
    if phase == "play":
        table = [meld for meld, _owner in view.table]
        if can_go_out(counts(hand), table, True, threshold):
            lines.append("you can go out this turn: lay everything but one card, then discard it")
        lays = sum(1 for a in legal if a.kind in ("meld", "add", "swap"))
        if lays:
            lines.append(f"{lays} ways to lay cards now: 'lay', 'add' and 'swap' list them")
        best = best_opening(counts(hand))
        if best is not None:
            lines.append("melds in your hand: " + " · ".join(m.text() for m in best.melds))
    if not lines:
        lines.append("draw first, then ask again")
    return lines


def quick_lay(session: Session, view: GameView) -> None:
    """Tunisian rami: lay the best melds the solver finds, one meld at a time (T-6)."""
    view = tunisian_view(view)
    if view.get("phase") != "play":
        session.screen.notes.append(("error", "draw first: 'd' draws, 't' takes the discard"))
        return
    me = next(s for s in view["seats"] if s["seat"] == session.human)
    best = best_opening(counts(parse_cards(view.get("hand") or [])))
    threshold = int(view.get("threshold") or 0)
    staged = int(view.get("staged_value") or 0)
    if best is None:
        session.screen.notes.append(("error", "your hand holds no meld to lay"))
        return
    if not me.get("opened") and staged + best.value < threshold:
        session.screen.notes.append(
            ("error", f"your best opening is {staged + best.value}; it needs {threshold} (T-6)")
        )
        return
    laid = session.play([Action("meld", m.cards) for m in best.melds])
    if laid:
        what = "opening" if not me.get("opened") else "melds"
        session.screen.notes.append(
            ("info", f"Your {what}: {staged + best.value}. Now lay more, or discard.")
        )


HOOKS = TerminalHooks(
    seat_line=seat_line,
    status_line=status_line,
    table_section=True,
    lay_word=lay_word,
    deal_end=deal_end,
    ledger=ledger,
    standing_text=standing_text,
    table_lines=table_lines,
    help_lines=help_lines,
    hint_lines=hint_lines,
    quick_lay=quick_lay,
    refusals={
        "show": "Tunisian rami has no show: 'open' lays your best opening, 'lay' one meld",
        "finish": "to go out, lay your melds and then discard your last card (T-9)",
    },
)
