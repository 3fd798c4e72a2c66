"""Checks shared by the two ledgers: keys, names, whole numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rami.errors import InputError

__all__ = ["check_keys", "deals_of", "names_of", "whole"]

#: More deals than any evening holds; keeps one request's work bounded.
MAX_DEALS = 500


def check_keys(
    obj: Mapping[str, object], allowed: set[str], required: Sequence[str], where: str
) -> None:
    for key in obj:
        if key not in allowed:
            raise InputError(f"unknown key {key!r} in {where}")
    for key in required:
        if key not in obj:
            raise InputError(f"missing required key {key!r} in {where}")


def whole(value: object, what: str, low: int = 0) -> int:
    """A whole number of at least ``low`` (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    if value < low:
        if low == 0:
            raise InputError(f"{what} must not be negative, not {value}")
        raise InputError(f"{what} must be at least {low}, not {value}")
    return value


def names_of(value: object, counts: Sequence[int]) -> list[str]:
    """The players' names in seat order; their number must be one of ``counts``."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise InputError("'players' must be a list of names in seat order")
    names = [n.strip() for n in value]
    if any(not n for n in names):
        raise InputError("every player needs a name")
    if any(len(n) > 40 for n in names):
        raise InputError("a name has at most 40 characters")
    for i, n in enumerate(names):
        if n in names[:i]:
            raise InputError(f"two players are named {n!r}")
    if len(names) not in counts:
        raise InputError(
            f"these rules are for {counts[0]}–{counts[-1]} players, not {len(names)}"
            if len(counts) > 1
            else f"these rules are for {counts[0]} players, not {len(names)}"
        )
    return names


def deals_of(doc: Mapping[str, object]) -> list[object]:
    deals = doc.get("deals", [])
    if not isinstance(deals, list):
        raise InputError("'deals' must be a list of deals")
    if len(deals) > MAX_DEALS:
        raise InputError(f"a ledger holds at most {MAX_DEALS} deals")
    return deals


def seat_of(value: object, names: Sequence[str], what: str) -> int:
    """A seat given by its player's name or its index."""
    if isinstance(value, str) and value.strip() in names:
        return names.index(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    raise InputError(f"{what} {value!r} is not one of the players")
