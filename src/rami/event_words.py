"""A table event in words, from its code and words (``HistoryEntry.code``/``args``).

Every front end words events at its edge, in its language, from the same strings: the
browser from ``static/i18n/<lang>.json`` (``log_text.js``), the terminal and other
Python readers in English from ``static/i18n/en.json`` here. The key of an event is
``ev_<code>``; its ``{placeholders}`` are the event's ``args``, ``{seat}`` shown as the
seat's name. No reader parses the English ``event`` text the engines also write; it is
shown as it is only for an event with no code (a record from before codes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files

from rami.views import HistoryEntry

__all__ = ["event_text", "strings"]


@cache
def strings() -> Mapping[str, str]:
    """The English event strings (``ev_*`` keys of ``en.json``), read once."""
    doc = json.loads(files("rami").joinpath("server/static/i18n/en.json").read_text("utf-8"))
    return {k: v for k, v in doc.items() if k.startswith("ev_") and isinstance(v, str)}


def _seat_words(seat: int | None) -> str:
    return f"seat {seat}"


def event_text(entry: HistoryEntry, name_of: Callable[[int], str] = _seat_words) -> str:
    """``entry``'s event in English, ``{seat}`` as ``name_of(seat)`` (by default the
    engines' own "seat N"). An entry with no code or an unknown one reads its ``event``."""
    template = strings().get(f"ev_{entry.get('code')}")
    if template is None:
        return str(entry.get("event", ""))
    for name, value in (entry.get("args") or {}).items():
        shown = name_of(value) if name == "seat" and isinstance(value, int) else str(value)
        template = template.replace(f"{{{name}}}", shown)
    return template
