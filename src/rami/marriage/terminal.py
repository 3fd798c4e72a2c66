"""Marriage at the terminal (``Game.terminal``): its parts of the ``rami play`` screens.

Seat lines say seen/unseen and the melds shown (M-6, M-7), the status line the tiplu
once the seat may know it, the end of a deal each player's maal and net (M-12, M-13),
the ledger the balances (M-16); 'open' (or 'show all') shows step by step with the
engine's legal shows. Drawn from the human seat's view and the public standing only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import RenderableType
from rich.text import Text

from rami.cards import Card, counts, parse_cards
from rami.engine import Action
from rami.errors import InputError
from rami.marriage.game import SHOW_MELDS as _SHOW_MELDS
from rami.marriage.maal import maal
from rami.marriage.solver import dublee_count, dublees_to_finish, max_show_melds, missing_at_least
from rami.marriage.view import MarriageSeatView, MarriageView, marriage_typed, marriage_view
from rami.play.commands import (
    Command,
    act,
    choose,
    lay,
    legal_actions,
    meld_groups,
    pick,
    read_cards,
    refuse,
)
from rami.play.hooks import TerminalHooks
from rami.play.panels import Ledger, panel_table
from rami.play.render import Frame, card_text, cards_text, meld_text
from rami.play.session import Session
from rami.views import GameView, HistoryEntry, SeatView, Standing, TypedView, own_seat

__all__ = ["HOOKS"]


# ---------------------------------------------------------------------- turn screen


def seat_line(view: GameView, s: SeatView, frame: Frame, line: Text) -> None:
    """Seen or unseen, exposed tunnelas and the others' shown melds (M-6, M-7)."""
    seat = s["seat"]
    s = marriage_view(view)["seats"][seat]
    a = frame.ascii
    seen = bool(s.get("seen"))
    line.append("seen   " if seen else "unseen ", style="green" if seen else "dim")
    for t in s.get("exposed_tunnelas") or []:
        line.append_text(meld_text([t] * 3, a))
        line.append(" ")
    for m in s.get("melds") or []:
        if seat != frame.human:
            line.append_text(meld_text(m, a))
            line.append(" ")
    dublees = s.get("dublees") or []
    if dublees and seat != frame.human:
        line.append(f"{len(dublees)} dublees ")


def status_line(view: GameView, frame: Frame, line: Text) -> None:
    """The tiplu and the wild cards once the seat has seen (M-7)."""
    view = marriage_view(view)
    a = frame.ascii
    line.append(" · Tiplu: ")
    if view.get("tiplu"):
        line.append_text(card_text(view["tiplu"], a))
        wild = view.get("wild_cards") or []
        if wild:
            line.append(" · wild: ")
            line.append_text(cards_text(wild, a))
    elif view.get("tiplu_picked"):
        line.append("picked, hidden until you see", style="dim")
    else:
        line.append("not picked yet", style="dim")


def own_lines(view: GameView, me: SeatView, frame: Frame) -> list[Text]:
    """The seat's shown melds (or, in Indian Marriage, its table melds @N, M-10)."""
    view = marriage_view(view)
    me = view["seats"][me["seat"]]
    a = frame.ascii
    lines: list[Text] = []
    table = table_melding(view)
    shown = Text("Your table: " if table else "Your shown: ")
    parts = 0
    for i, m in enumerate(me.get("melds") or []):
        shown.append_text(meld_text(m, a, f"@{i} " if table else ""))
        shown.append(" ")
        parts += 1
    for t in me.get("exposed_tunnelas") or []:
        shown.append_text(meld_text([t] * 3, a, "tunnela"))
        shown.append(" ")
        parts += 1
    for d in me.get("dublees") or []:
        shown.append_text(meld_text([d, d], a))
        shown.append(" ")
        parts += 1
    if parts:
        lines.append(shown)
    return lines


# ---------------------------------------------------------------------- panels


def deal_end(
    view: GameView, details: Mapping[str, object], names: Sequence[str], ascii: bool
) -> list[RenderableType]:
    """How the deal ended, the tiplu, each player's maal and net (M-12, M-13)."""
    result = marriage_view(view).get("result")
    if result is None:  # the caller's ``details`` come from the view's result
        return []
    details = result["details"]
    out: list[RenderableType] = []
    head = Text("End of the deal: ", style="bold reverse")
    finisher = details.get("finisher")
    if finisher is None:
        why = "turn limit" if details.get("reason") == "max_turns" else "the stock ran out"
        head.append(f"no finisher ({why})", style="bold reverse")
    else:
        finish = details.get("finish")
        kind = finish["kind"] if finish else "melds"
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
    table = panel_table(ascii)
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


def ledger(st: Standing, names: list[str], human: int) -> Ledger:
    """The balances of the rotation (M-16)."""
    played = len(st.get("deals") or [])
    notes = [f"{played} of {st.get('deals_total', '?')} deals played; the best balance wins (M-16)"]
    return Ledger("Ledger", names, [], list(st.get("totals") or []), notes=notes)


def standing_text(st: Standing, human: int) -> str:
    """The human's balance for the status line."""
    totals = st.get("totals") or [0] * (human + 1)
    return f"your balance {totals[human]:+d}"


def table_lines(view: GameView, names: Sequence[str]) -> list[str]:
    """Every shown meld, tunnela and dublee, by player (the ``table`` command)."""
    view = marriage_view(view)
    lines: list[str] = []
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


def table_melding(view: GameView) -> bool:
    """Indian Marriage: melds go on the table after seeing (M-10)."""
    return bool((view.get("rules") or {}).get("table_melding"))


def help_lines(view: GameView) -> list[str]:
    """The Marriage commands of ``help`` (laying on the table in Indian Marriage, M-10)."""
    lines: list[str] = []
    lines += [
        "show              list the pure melds you may show (then a number)",
        "show 3s 4s 5s     show one meld;  'show all' (or 'open') shows all three",
        "dublee 7c         show a dublee (7 dublees to see)",
        "finish K♦         finish, discarding K♦; 'finish' alone lists the discards",
        "expose 6h / pass  expose a dealt tunnela / pass (right after the deal)",
    ]
    if table_melding(view):
        lines += [
            "lay 5h 6h 7h      lay a meld on the table after seeing",
            "lay 8h @2         add 8♥ to your table meld @2 (also: add 8h @2)",
            "takeback          pick up every card you laid on the table this turn (M-10)",
        ]
    return lines


# ---------------------------------------------------------------------- hints and 'open'


def _cards(texts: Sequence[str]) -> list[Card]:
    return parse_cards(list(texts))


def _me(view: MarriageView) -> MarriageSeatView:
    return view["seats"][own_seat(view)]  # seats are listed in seat order


def hint_lines(view: TypedView | GameView) -> list[str]:
    """Whether the hand can show or finish, how many cards it misses, its maal (read from
    the seat's typed view: its cards as ``Card``, its legal moves as ``Action``)."""
    view = marriage_typed(view)
    rules = view.rules
    show_dublees = dublees_to_finish(rules) - 1  # M-9
    hand = list(view.hand or ())
    me = view.seats[own_seat(view)]
    legal = view.legal
    phase = view.phase
    lines: list[str] = []
    if phase == "expose":
        exposes = [str(a.cards[0]) for a in legal if a.kind == "expose"]
        if exposes:
            lines.append(
                "you may expose a tunnela of " + ", ".join(exposes) + ": it counts as a shown "
                "meld and may earn a bonus (M-3, M-12)"
            )
        else:
            lines.append("you hold no tunnela: type 'pass'")
        return lines
    vec = counts(hand)
    pile = view.discard_pile
    top = pile[-1] if pile else None
    if not me.seen:
        shown = len(me.melds) + len(me.exposed_tunnelas)
        dublees = len(me.dublees)
        if phase == "play" and any(a.kind in ("show", "dublee", "see") for a in legal):
            lines.append("you can show now and see the tiplu: type 'show' (or 'show all')")
        have = shown + max_show_melds(vec, rules, _SHOW_MELDS - shown)
        text = f"you hold {min(have, _SHOW_MELDS)} of the {_SHOW_MELDS} pure melds needed to show"
        if rules.dublees_allowed(view.players):
            pairs = dublees + dublee_count(vec)
            text += f", and {min(pairs, show_dublees)} of {show_dublees} dublees"
        lines.append(text)
        if phase == "draw" and top is not None and any(a.kind == "take" for a in legal):
            more = counts([*hand, top])
            if shown + max_show_melds(more, rules, _SHOW_MELDS - shown) > have:
                lines.append(f"taking {top} would give you another pure meld")
        return lines
    tiplu = view.tiplu
    if tiplu is None:  # a seat that has seen knows the tiplu (M-7)
        return lines
    finishes = [str(a.cards[0]) for a in legal if a.kind == "finish"]
    shown_melds = [list(m) for m in me.melds]
    shown_melds += [[t] * 3 for t in me.exposed_tunnelas]
    shown_melds += [[d] * 2 for d in me.dublees]
    if finishes:
        lines.append("you can finish: " + " or ".join(f"'finish {c}'" for c in finishes[:4]))
    elif phase == "play":
        gap, exact = missing_at_least(vec, rules, tiplu, shown_melds)
        least = "" if exact else "at least "
        lines.append(f"{least}{gap} card{'s' if gap != 1 else ''} missing before you can finish")
    elif phase == "draw" and top is not None and any(a.kind == "take" for a in legal):
        lines.append(f"the top discard is {top}; draw or take, then ask again")
    own = [*hand]
    for m in shown_melds:
        own.extend(m)
    exposed = me.exposed_tunnelas
    bonus = me.path == "melds" and bool(exposed)
    points, items = maal(own, tiplu, rules, exposed, bonus)
    detail = f": {', '.join(items)}" if items else ""
    lines.append(f"your maal now: {points}{detail}")
    return lines


def quick_lay(session: Session, view: GameView) -> None:
    """Marriage: complete a show step by step with the engine's legal shows (M-6)."""
    view = marriage_view(view)
    if view.get("seen"):
        session.screen.notes.append(("error", "you have already seen the tiplu"))
        return
    if view.get("phase") != "play":
        session.screen.notes.append(("error", "draw first: 'd' draws, 't' takes the discard"))
        return
    steps = 0
    while True:
        current = session.match.current.view(session.human)
        if current.get("seen") or session.match.current.to_move != session.human:
            break
        legal = legal_actions(current)
        see = [a for a in legal if a.kind == "see"]
        shows = [a for a in legal if a.kind == "show"] or [a for a in legal if a.kind == "dublee"]
        step = see[0] if see else shows[0] if shows else None
        if step is None:
            break
        if not session.play([step]):
            return
        steps += 1
    if not steps:
        session.screen.notes.append(("error", "you cannot show now (type ? for a hint)"))


# ---------------------------------------------------------------------- commands


def show_command(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    """``show`` lists the legal shows; ``show 3s 4s 5s`` (``;`` between melds, six cards
    as two melds, a pair as a dublee); ``show all`` completes a show step by step (M-6)."""
    options = [a for a in legal if a.kind in ("show", "dublee", "see")]
    if not rest:
        return choose(
            "you may show (pick a number, or 'show all')",
            options,
            "you cannot show now (type ? for a hint)",
        )
    if len(rest) == 1 and rest[0].lower() in ("all", "*", "everything"):
        return Command("open")
    if len(rest) == 1 and rest[0].isdigit():
        shows = [a for a in options if a.kind != "see"]
        return pick(int(rest[0]), shows)
    actions: list[Action] = []
    for group in meld_groups(rest):
        cards, target = read_cards(group)
        if target is not None:
            raise InputError("'show' takes no '@N'")
        if (len(cards) == 2 and cards[0] == cards[1]) or len(cards) == 1:
            actions.append(Action("dublee", (cards[0], cards[0])))
        elif len(cards) == 6 and not any(";" in w or "|" in w for w in rest):
            actions.extend((Action("show", tuple(cards[:3])), Action("show", tuple(cards[3:]))))
        else:
            actions.append(Action("show", tuple(cards)))
    return act(*actions)


def dublee_command(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    """``dublee 7c`` shows the pair; ``dublee`` alone lists them (M-6)."""
    cards, _ = read_cards(rest)
    if cards:
        return act(Action("dublee", (cards[0], cards[0])))
    options = [a for a in legal if a.kind == "dublee"]
    return choose("dublees you may show", options, "no dublee can be shown now")


def expose_command(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    """``expose 6h`` right after the deal; ``expose`` alone lists the tunnelas (M-3)."""
    cards, _ = read_cards(rest)
    if cards:
        return act(Action("expose", (cards[0],)))
    options = [a for a in legal if a.kind == "expose"]
    return choose("tunnelas you may expose", options, "you hold no tunnela to expose")


def lay_command(rest: Sequence[str], view: GameView, legal: list[Action]) -> Command:
    """Melds go on the table only after seeing in Indian Marriage (M-10); before, and in
    Nepali Marriage, 'lay' means show."""
    if table_melding(view):
        return lay(rest, view, legal)
    if view.get("seen"):
        refuse("lay_seen", view)
    return show_command(rest, view, legal)


def step_news(view: GameView, entry: HistoryEntry) -> list[str]:
    """Seeing shows the seat the tiplu (M-7)."""
    tiplu = view.get("tiplu")
    mine = (entry.get("args") or {}).get("seat") == view.get("seat")
    if entry.get("code") == "sees" and mine and tiplu:
        return [f"You see the tiplu: {tiplu}."]
    return []


HOOKS = TerminalHooks(
    commands={
        "show": show_command,
        "dublee": dublee_command,
        "expose": expose_command,
        "lay": lay_command,
    },
    verb_words=(
        ("", frozenset({"expose"}), "expose CARD (a tunnela)"),
        ("finish", frozenset({"show", "dublee", "see"}), "show"),
    ),
    pass_note="You had no tunnela to expose, so you passed.",
    step_news=step_news,
    seat_line=seat_line,
    status_line=status_line,
    own_lines=own_lines,
    deal_end=deal_end,
    ledger=ledger,
    standing_text=standing_text,
    table_lines=table_lines,
    help_lines=help_lines,
    hint_lines=hint_lines,
    quick_lay=quick_lay,
    lays_on_table=table_melding,
    refusals={
        "swap": "Marriage has no joker swaps",
        "lay_seen": "in Nepali Marriage melds stay in hand until you 'finish'",
        "add": "in Nepali Marriage nobody adds to melds (M-6)",
    },
)
