"""What the ``rami`` command asks of a game: its own sub-commands, by command group.

A game's ``Game.cli`` returns these; ``rami.cli`` adds each under the game's name
(``rami score NAME``, ``rami analyze NAME``, ``rami demo NAME``, ``rami play NAME``), so
the command line names no game. The functions are ordinary Typer commands: their
parameters and docstrings are the options and help users see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the ledger's calculators load when a ledger is computed
    from rami.ledger import LedgerResult

__all__ = ["Ask", "Check", "CliCommands", "LedgerPrompts"]

#: Checks one answer as typed: raises ``ValueError`` (``InputError``, ``CardError``)
#: with a one-line reason if it cannot be right.
Check = Callable[[str], object]


class Ask(Protocol):
    """Asks one question; the default is kept when the answer is empty. With ``check``,
    an answer it refuses is met with its one-line reason and the question asked again,
    so a typo costs one answer, not the whole deal entry (issue 23)."""

    def __call__(self, question: str, default: str = "", check: Check | None = None) -> str: ...


@dataclass(frozen=True)
class CliCommands:
    """A game's commands in each group (``None``: the game has none there)."""

    score: Callable[..., None] | None = None
    analyze: Callable[..., None] | None = None
    demo: Callable[..., None] | None = None
    play: Callable[..., None] | None = None
    ledger: LedgerPrompts | None = None


@dataclass(frozen=True)
class LedgerPrompts:
    """What ``rami ledger`` asks a game: the cells of its standing, one deal's details
    and the questions that make a deal entry (docs/score.md).

    Each is given the ledger as ``rami.ledger.compute`` computed it (the keys every
    ledger has); the game reads its own keys through its ledger's type (``is_ledger``).
    Deals are numbered from 1, as the user sees them."""

    # Deal ``number``'s cell per player in the standing table: (ledger, number).
    deal_cells: Callable[[LedgerResult, int], list[str]]
    # The totals' tail and the lines after them; True when the ledger is over.
    standing_end: Callable[[LedgerResult, list[str]], tuple[str, list[str], bool]]
    # Deal ``number``'s lines below its heading (``rami ledger show N``), with its entry.
    deal_lines: Callable[[LedgerResult, int, Mapping[str, object]], list[str]]
    # The questions for deal ``number`` (None: a new one), from the old entry if any:
    # (ask, ledger document, computed ledger, number, old entry) -> the new entry.
    ask_deal: Callable[
        [Ask, Mapping[str, object], LedgerResult, int | None, Mapping[str, object] | None],
        Mapping[str, object],
    ]
