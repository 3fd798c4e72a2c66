"""What ``rami play`` asks of a game beside the engine protocol (``Game.terminal``).

The terminal draws a generic table (title, stock, seats, discards, hand, moves) from
the human seat's view; a game adds its own parts through these hooks: what a seat line
and the status line say, the melds shown beside the hand, the end-of-deal panel, the
ledger, the hints and what its own commands make of the words typed after them (the
words themselves are its verbs' metadata, ``Game.verbs``). Every hook reads views and
the public standing only, never a state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from rich.console import RenderableType
from rich.text import Text

from rami.games import get_game
from rami.views import GameView, HistoryEntry, SeatView, Standing, TypedView

if TYPE_CHECKING:
    from rami.engine import Action
    from rami.play.commands import Command
    from rami.play.panels import Ledger
    from rami.play.render import Frame
    from rami.play.session import Session

__all__ = ["CommandFn", "TerminalHooks", "hooks_of"]

View = GameView
_Line = TypeVar("_Line")  # a line of text: ``str`` or rich's ``Text``
#: A game's own command: what it makes of the words after the verb, given the view and
#: the seat's legal actions (``rami.play.commands`` has the parts to write one with).
CommandFn = Callable[[Sequence[str], View, "list[Action]"], "Command"]


def _nothing(*_args: object) -> None:
    return None


def _no_lines(*_args: object) -> list[_Line]:
    return []


def _no_text(*_args: object) -> str:
    return ""


def _lay(_view: View) -> str:
    return "lay"


def _always(_view: View) -> bool:
    return True


@dataclass(frozen=True)
class TerminalHooks:
    """A game's parts of the terminal (each has a harmless default)."""

    # Turn screen: append to a seat's line and to the status line; lines above the hand
    # (shown melds); whether the table's melds (``view["table"]``) get their own lines.
    seat_line: Callable[[View, SeatView, Frame, Text], None] = _nothing
    status_line: Callable[[View, Frame, Text], None] = _nothing
    own_lines: Callable[[View, SeatView, Frame], list[Text]] = _no_lines
    table_section: bool = False
    lay_word: Callable[[View], str] = _lay  # what the moves line calls laying ("open")
    # End of a deal: the panels before the ledger; the ledger from the standing.
    deal_end: Callable[[View, Mapping[str, object], Sequence[str], bool], list[RenderableType]] = (
        _no_lines
    )
    ledger: Callable[[Standing, list[str], int], Ledger] | None = None
    standing_text: Callable[[Standing, int], str] = _no_text
    # Pages: ``table`` (every meld in sight) and ``help`` (the game's commands; None:
    # the help line of each of its verbs the common commands leave out, ``Game.verbs``).
    table_lines: Callable[[View, Sequence[str]], list[str]] = _no_lines
    help_lines: Callable[[View], list[str]] | None = None
    # ``?``: advice from the solvers on the seat's own cards (never raises).
    hint_lines: Callable[[TypedView], list[str]] = _no_lines  # the seat's typed view
    # The command language: 'open' (lay/show everything the solver finds, step by
    # step; Marriage's 'show all' too), whether melds go on the table, and why a verb
    # the game lacks is refused (keys: show, finish, swap, add, lay_seen).
    quick_lay: Callable[[Session, View], None] | None = None
    lays_on_table: Callable[[View], bool] = _always
    refusals: Mapping[str, str] = field(default_factory=dict)
    # The game's own commands (canonical verb -> its reader; one may replace a common
    # command, as 'lay'); the words typed for them are its verbs' own (``Game.verbs``).
    commands: Mapping[str, CommandFn] = field(default_factory=dict)
    # The moves line: the game's verbs as (after which common word: "" first, the verbs,
    # the word shown), e.g. ("finish", {"show"}, "show"); the note when the only move
    # was to pass and the terminal played it.
    verb_words: Sequence[tuple[str, frozenset[str], str]] = ()
    pass_note: str = "You could only pass, so you passed."
    # What the human learns from a table event its own step brought (a note under the
    # table), from the event's code and words (``HistoryEntry``).
    step_news: Callable[[View, HistoryEntry], list[str]] = _no_lines


def hooks_of(view: View) -> TerminalHooks:
    """The terminal hooks of the game ``view`` belongs to (defaults if it has none)."""
    game = view.get("game")
    if game is None:
        return TerminalHooks()
    spec = get_game(game)
    return spec.terminal() if spec.terminal is not None else TerminalHooks()
