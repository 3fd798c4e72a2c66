"""Small helpers for the words users read (issue 23: "1 deals", "names 1 bots")."""

from __future__ import annotations

__all__ = ["count"]


def count(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, plural unless ``n`` is one: "1 deal", "3 deals", "2 bots"."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"
