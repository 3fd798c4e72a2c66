"""What the views of one game state reuse from call to call (both games).

A view's history is the event log as one seat may read it; the log only grows during a
deal, so each seat's rendering is kept and extended by the new events instead of being
rebuilt on every call (the rebuild was most of an RL environment step). The legal
actions' texts are kept while the state's cached legal list is the same object. The
cache belongs to one events list: a state whose log was replaced (a clone, a
determinized world) or shortened starts afresh, so a view never shows stale entries.

Views hand out fresh tuples, but the history *entries* are shared between successive
views of one state: readers must treat them as read-only (every consumer does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rami.engine import Action, read_action
from rami.memo import GenerationMemo
from rami.views import HistoryEntry

__all__ = ["ViewCache", "action_of", "action_texts"]

Entry = HistoryEntry

# action -> its text; actions are frozen, texts are pure (a bounded memo, not a leak)
_ACTION_TEXTS: GenerationMemo[object, str] = GenerationMemo(
    200_000, name="view_cache.action_texts", shared=True
)


# text -> its action: the inverse, for views read back from JSON (``rami.views.typed_view``)
_ACTIONS: GenerationMemo[str, Action] = GenerationMemo(50_000, name="bots.actions", shared=True)


def action_of(text: str) -> Action:
    """``read_action`` with a memo: views list the same few dozen action texts."""
    found = _ACTIONS.table.get(text)
    if found is None:
        found = _ACTIONS.remember(text, read_action(text))
    return found


def action_texts(actions: Sequence[object]) -> list[str]:
    """``[str(a) for a in actions]``, each text built once per distinct action."""
    get = _ACTION_TEXTS.table.get
    out = []
    for a in actions:
        text = get(a)
        if text is None:
            text = _ACTION_TEXTS.remember(a, str(a))
        out.append(text)
    return out


class ViewCache:
    """Per-seat rendered histories and the legal actions' texts of one state."""

    __slots__ = ("_histories", "_last", "_legal", "_legal_texts", "events")

    def __init__(self, events: Sequence[object]) -> None:
        self.events = events
        self._histories: dict[int | None, list[Entry]] = {}
        self._last: dict[int | None, object] = {}  # the last event rendered, per seat
        self._legal: object = None
        self._legal_texts: tuple[str, ...] = ()

    def history(
        self, seat: int | None, render: Callable[[Any, int | None], Entry]
    ) -> tuple[Entry, ...]:  # render takes one of the game's events
        """``seat``'s history (a tuple, for its typed view): the kept entries plus the new
        events rendered."""
        events = self.events
        out = self._histories.get(seat)
        if out is not None:
            done = len(out)
            if done > len(events) or (done and events[done - 1] is not self._last[seat]):
                out = None  # the log was shortened or rewritten: read it again
        if out is None:
            out = self._histories[seat] = []
            done = 0
        if done < len(events):
            out.extend([render(e, seat) for e in events[done:]])
            self._last[seat] = events[-1]
        return tuple(out)

    def legal_texts(self, legal: object, texts: Callable[[], list[str]]) -> list[str]:
        """The texts of the legal actions, computed again when ``legal`` is a new object."""
        if legal is None or legal is not self._legal:
            self._legal_texts = tuple(texts())
            self._legal = legal
        return list(self._legal_texts)

    def texts_of(self, legal: Iterable[object]) -> tuple[str, ...]:
        """The texts of the listed moves ``legal`` (the state's own listing, kept while it
        is the same object), as the tuple a typed view holds: no copy."""
        if legal is not self._legal:
            self._legal_texts = tuple(action_texts(list(legal)))
            self._legal = legal
        return self._legal_texts
