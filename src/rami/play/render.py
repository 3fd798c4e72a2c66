"""Screens of ``rami play``, drawn from the human seat's view only.

Everything here reads a view (``state.view(seat)``: the seat's own cards and what is
public) and the match's public standing; it never sees a state, so it cannot show
another player's cards or an unseen tiplu. Screens are lists of Rich ``Text`` lines and
tables made to fit an 80 × 24 terminal. ``--ascii`` output goes through ``to_ascii``
(``7♣`` → ``7C``, no box drawing, no colour).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from rami.cards import SUIT_LETTERS, SUITS, Card, parse_card, sort_key
from rami.engine import read_action
from rami.event_words import event_text
from rami.play.hooks import TerminalHooks, hooks_of
from rami.views import GameView, HistoryEntry, SeatView, seat_entries

__all__ = [
    "Frame",
    "card_text",
    "cards_text",
    "hand_text",
    "meld_text",
    "recent_lines",
    "seat_names",
    "to_ascii",
    "turn_screen",
    "turn_so_far",
]

_SUIT_STYLE = {0: "bold", 1: "bold red", 2: "bold red", 3: "bold"}
_ASCII = str.maketrans(
    {
        "♠": "S",
        "♥": "H",
        "♦": "D",
        "♣": "C",
        "·": "-",
        "…": "...",
        "–": "-",
        "—": "-",
        "×": "x",
        "≠": "!=",
        "→": "->",
        "▶": ">",
        "★": "*",
        "✗": "!",
        "✓": "+",
        "│": "|",
        "’": "'",
        "\ufe0f": None,
        "\ufe0e": None,
    }
)
_YOU_VERBS = {"deals": "deal", "sees": "see", "finishes": "finish", "goes": "go", "opens": "open"}
_YOU_VERB = re.compile(r"\bYou (deals|sees|finishes|goes|opens)\b")


def to_ascii(text: str) -> str:
    """The text with card suits as letters and other non-ASCII signs replaced."""
    out = text.replace("♠ ♥ ♦ ♣ (or S H D C)", "S H D C").translate(_ASCII)
    return out.encode("ascii", "replace").decode("ascii")


def seat_names(players: int, human: int, partner: int | None = None) -> list[str]:
    """'You' for the human, 'Bot N' for the others ('Partner N' in 2 v 2)."""
    names = []
    for s in range(players):
        if s == human:
            names.append("You")
        elif s == partner:
            names.append(f"Partner {s}")
        else:
            names.append(f"Bot {s}")
    return names


@dataclass
class Frame:
    """What a turn screen shows besides the view: names, headings, messages, choices."""

    names: list[str]
    human: int
    title: str
    standing: str = ""
    notes: list[tuple[str, str]] = field(default_factory=list)  # (style, text)
    options: list[str] = field(default_factory=list)
    options_title: str = ""
    ascii: bool = False
    width: int = 80
    height: int = 24


# ---------------------------------------------------------------------- cards


def _card(text: str) -> Card:
    return parse_card(text)


def card_text(card: str | Card, ascii: bool = False, wild: bool = False) -> Text:
    """One card, coloured by suit (red ♥ ♦); a wild card is underlined (ASCII: '*')."""
    c = card if isinstance(card, Card) else _card(card)
    label = c.text(ascii)
    style = "bold magenta" if c.is_joker else _SUIT_STYLE[c.suit]
    if wild:
        style += " underline yellow"
        if ascii:
            label += "*"
    return Text(label, style=style)


def cards_text(cards: Sequence[str], ascii: bool, sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c, ascii))
    return out


def meld_text(cards: Sequence[str], ascii: bool, label: str = "") -> Text:
    out = Text(label)
    out.append("[")
    out.append_text(cards_text(cards, ascii))
    out.append("]")
    return out


def hand_text(hand: Sequence[str], ascii: bool, wilds: Sequence[str] = ()) -> Text:
    """The hand sorted and grouped by suit, bridge style: '♠ A 3 4   ♥ 6 6 9   JK'."""
    wild_set = {str(_card(w)) for w in wilds}
    cards = sorted((_card(c) for c in hand), key=sort_key)
    out = Text()
    for suit in range(4):
        group = [c for c in cards if c.suit == suit]
        if not group:
            continue
        if out:
            out.append("   ")
        label = f"{SUIT_LETTERS[suit]}:" if ascii else SUITS[suit]
        out.append(label, style=_SUIT_STYLE[suit])
        for c in group:
            out.append(" ")
            rank = c.text(ascii)[:-1]
            wild = str(c) in wild_set
            style = _SUIT_STYLE[suit] + (" underline yellow" if wild else "")
            out.append(rank + ("*" if wild and ascii else ""), style=style)
    jokers = [c for c in cards if c.is_joker]
    if jokers:
        if out:
            out.append("   ")
        out.append(" ".join("JK" for _ in jokers), style="bold magenta")
    return out


def _fit_pile(pile: Sequence[str], ascii: bool, room: int) -> Text:
    """The discard pile, latest on the right (highlighted), as many as fit in ``room``."""
    if not pile:
        return Text("empty", style="dim")
    shown: list[str] = []
    used = 0
    for c in reversed(pile):
        w = len(_card(c).text(ascii)) + 1
        if used + w > room - 6 and shown:
            break
        shown.append(c)
        used += w
    shown.reverse()
    out = Text()
    if len(shown) < len(pile):
        out.append("… ", style="dim")
    for c in shown[:-1]:
        out.append_text(card_text(c, ascii))
        out.append(" ")
    top = card_text(shown[-1], ascii)
    if ascii:
        out.append("[")
        out.append_text(top)
        out.append("]")
    else:
        top.stylize("reverse")
        out.append_text(top)
    return out


# ---------------------------------------------------------------------- history


def _event_line(entry: HistoryEntry, names: Sequence[str]) -> str:
    """A table event in words (from its code) with the seats' names; "You" takes the
    verb's plain form ("You deal")."""
    text = event_text(entry, lambda s: names[s] if 0 <= s < len(names) else f"seat {s}")
    return _YOU_VERB.sub(lambda m: "You " + _YOU_VERBS[m.group(1)], text)


def _turn_start(history: Sequence[HistoryEntry], me: int | None) -> int:
    """Where the seat's turn in progress begins in ``history`` (its length if none).

    The turn is the trailing run of the seat's own moves and the events among them
    (the tiplu picked, a show completed); events before its first move belong to
    what the others did.
    """
    j = len(history)
    while j > 0 and (history[j - 1].get("seat") == me or "move" not in history[j - 1]):
        j -= 1
    for i in range(j, len(history)):
        if history[i].get("seat") == me and "move" in history[i]:
            return i
    return len(history)


def recent_lines(view: GameView, names: Sequence[str], limit: int = 6) -> list[str]:
    """What the others did since the seat's previous turn, one line per player in turn."""
    history = list(view.get("history") or [])
    me = view.get("seat")
    end = _turn_start(history, me) if view.get("to_move") == me else len(history)
    start = end
    while start > 0 and not (history[start - 1].get("seat") == me and "move" in history[start - 1]):
        start -= 1
    lines: list[str] = []
    seat: int | None = None  # whose moves ``current`` holds (a move always has its seat)
    current: list[str] = []
    for e in history[start:end]:
        if "move" in e:
            s = e.get("seat")
            if s != seat and current and seat is not None:
                lines.append(f"{names[seat]}: {', '.join(current)}")
                current = []
            seat = s
            current.append(str(e["move"]))
        else:
            if current and seat is not None:
                lines.append(f"{names[seat]}: {', '.join(current)}")
                current = []
                seat = None
            lines.append(_event_line(e, names))
    if current and seat is not None:
        lines.append(f"{names[seat]}: {', '.join(current)}")
    return lines[-limit:]


def turn_so_far(view: GameView) -> list[str]:
    """The seat's own steps of the turn in progress (``draw 7♣``, ``show …``)."""
    me = view.get("seat")
    if view.get("to_move") != me:
        return []
    history = list(view.get("history") or [])
    return [
        str(e["move"])
        for e in history[_turn_start(history, me) :]
        if "move" in e and e.get("seat") == me
    ]


# ---------------------------------------------------------------------- turn screen


def _fit(line: Text, frame: Frame) -> None:
    """Cut ``line`` to the screen's width with an ellipsis ('...' in ASCII: 2 more)."""
    line.truncate(frame.width - (2 if frame.ascii else 0), overflow="ellipsis")


def _seat_line(view: GameView, s: SeatView, frame: Frame) -> Text:
    seat = s["seat"]
    a = frame.ascii
    to_move = view.get("to_move")
    marker = ("> " if a else "▶ ") if seat == to_move else "  "
    line = Text(marker, style="bold green")
    name = frame.names[seat]
    line.append(f"{name:<10}", style="bold" if seat == frame.human else "")
    line.append(f"{s.get('hand_size', 0):>2} in hand ")
    _hooks(view).seat_line(view, s, frame, line)
    if seat == view.get("dealer"):
        line.append("(dealer)", style="dim")
    _fit(line, frame)
    return line


def _table_lines(view: Mapping[str, Any], frame: Frame) -> list[Text]:
    """The table's melds (``view["table"]``), several per line, each with its ``@N``."""
    melds = view.get("table") or []
    if not melds:
        return [Text("Table: no melds yet", style="dim")]
    lines: list[Text] = []
    line = Text("Table: ")
    for m in melds:
        owner = frame.names[int(m["owner"])]
        short = "you" if owner == "You" else owner[0] + owner.split()[-1]
        piece = meld_text(m["cards"], frame.ascii, f"@{m['index']} ")
        piece.append(f" {short}  ", style="dim")
        if len(line) + len(piece) > frame.width and len(line) > 7:
            lines.append(line)
            line = Text("       ")
        line.append_text(piece)
    lines.append(line)
    return lines


def _own_lines(view: GameView, frame: Frame) -> list[Text]:
    """The human's own cards: shown melds / table melds, then the hand."""
    me = _seat(view, frame.human)
    a = frame.ascii
    lines: list[Text] = []
    if me is not None:
        lines.extend(_hooks(view).own_lines(view, me, frame))
    hand = list(view.get("hand") or [])
    head = Text(f"Your hand ({len(hand)}): ", style="bold")
    wilds = view.get("wild_cards")  # a game with wild cards shows the seat its own
    head.append_text(hand_text(hand, a, wilds if isinstance(wilds, list) else ()))
    lines.append(head)
    return lines


def _status_line(view: GameView, frame: Frame) -> Text:
    line = Text(f"Stock {view.get('stock_size', 0)}")
    _hooks(view).status_line(view, frame, line)
    if frame.standing:
        line.append(f" · {frame.standing}")
    _fit(line, frame)
    return line


def _verbs(view: GameView, frame: Frame) -> Text:
    """The moves open to the player now, from the view's legal actions."""
    to_move = view.get("to_move")
    if to_move != frame.human:
        return Text(f"{frame.names[to_move]} to play…" if to_move is not None else "", "dim")
    kinds: dict[str, list[bool]] = {}  # verb -> whether each of its moves names something
    for text in view.get("legal_actions") or []:
        action = read_action(text)
        kinds.setdefault(action.kind, []).append(bool(action.cards) or action.target is not None)
    hooks = _hooks(view)
    own = hooks.verb_words
    top = (view["discard_pile"] or ["?"])[-1]
    common = {
        "pass": "pass",
        "draw": "d draw",
        "take": f"t take {top}",
        "finish": "finish CARD ★",
        "meld": hooks.lay_word(view) if "meld" in kinds else "",
        "add": "add CARD @N",
        "swap": "swap CARD @N",
        "discard": "x CARD discard",
    }
    parts: list[str] = []
    known = set(_KNOWN_VERBS)
    for after in ("", *common):  # the game's words go after the common word they name
        if after in kinds:
            parts.append(common[after])
        for where, verbs, word in own:
            known |= verbs
            if where == after and verbs & kinds.keys():
                parts.append(word)
    for verb in kinds.keys() - known:  # a game's own verbs, as the engine writes them
        parts.append(f"{verb} CARD" if any(kinds[verb]) else verb)
    parts += ["? hint", "help", "q quit"]
    line = Text("Your move: ", style="bold")
    line.append(" · ".join(parts))
    return line


_KNOWN_VERBS = frozenset(["pass", "draw", "take", "finish", "meld", "add", "swap", "discard"])


def _hooks(view: GameView) -> TerminalHooks:
    return hooks_of(view)


def seat_entry(view: GameView, seat: int | None) -> Mapping[str, object]:
    """The public entry of ``seat`` in the view's seat list (empty if absent)."""
    return _seat(view, seat) or {}


def _seat(view: GameView, seat: int | None) -> SeatView | None:
    """The public entry of ``seat`` in the view's seat list (read-only)."""
    for s in seat_entries(view):
        if s["seat"] == seat:
            return s
    return None


_NOTE_STYLES = {"error": "bold red", "info": "green", "plain": ""}


def turn_screen(view: GameView, frame: Frame) -> list[Text]:
    """The whole screen at a decision point: table, players, pile, history, hand, moves.

    It fits ``frame.height`` rows with the prompt: the lines on what the others did
    since the player's last turn get the rows the rest leaves (the latest kept).
    """
    top: list[Text] = []
    head = Text(frame.title, style="bold reverse")
    _fit(head, frame)
    top.append(head)
    top.append(_status_line(view, frame))
    for s in seat_entries(view):
        top.append(_seat_line(view, s, frame))
    if _hooks(view).table_section:
        top.extend(_table_lines(view, frame))
    pile = view.get("discard_pile") or []
    line = Text(f"Discards ({len(pile)}): ")
    line.append_text(_fit_pile(pile, frame.ascii, frame.width - len(line)))
    top.append(line)
    bottom = _own_lines(view, frame)
    steps = turn_so_far(view)
    if steps:
        bottom.append(Text("This turn: " + ", ".join(steps), style="bold cyan"))
    if frame.options:
        bottom.append(Text(frame.options_title + ":", style="bold"))
        bottom.extend(_numbered(frame.options, frame.width))
    for style, text in frame.notes:
        mark = "✗ " if style == "error" else ""
        bottom.append(Text(mark + text, style=_NOTE_STYLES.get(style, "")))
    bottom.append(_verbs(view, frame))
    used = sum(_rows(t, frame.width) for t in top + bottom)
    room = max(0, frame.height - 1 - used)  # one row for the prompt
    middle: list[Text] = []
    for text in recent_lines(view, frame.names, limit=room)[-room:] if room else []:
        item = Text("  " + text, style="cyan")
        _fit(item, frame)
        middle.append(item)
    return top + middle + bottom


def _rows(text: Text, width: int) -> int:
    """Terminal rows a line takes when wrapped at ``width``."""
    return max(1, -(-len(text.plain) // max(1, width)))


def _numbered(options: Sequence[str], width: int) -> list[Text]:
    """Options as '1) …' packed several to a line."""
    lines: list[Text] = []
    line = Text("  ")
    for i, text in enumerate(options, start=1):
        piece = f"{i}) {text}   "
        if len(line) + len(piece) > width and len(line) > 2:
            lines.append(line)
            line = Text("  ")
        line.append(piece)
    lines.append(line)
    return lines
