"""Errors that reach users. All are ``ValueError`` so a front end catches one type."""

from __future__ import annotations

import re

from rami.cards import CardError

__all__ = ["CardError", "IllegalAction", "InputError", "NotYourTurn", "Reason"]

# "(M-5)" or "(T-4, T-7)" closing a reason: its first rule id
_RULE_AT_END = re.compile(r"\(([A-Z]{1,3}-\d+)[^()]*\)\s*$")


def rule_of(text: str) -> str | None:
    """The rule id a reason ends with ("… (M-5)" → "M-5"), or None."""
    found = _RULE_AT_END.search(text)
    return found.group(1) if found else None


class Reason(str):
    """A check's reason that also names its rule id and, for the refusals front ends word
    in the player's language, a stable ``key`` (e.g. ``draw_first``, ``taken_discard``).

    A plain ``str`` wherever a reason is expected, so checks may return either.
    """

    rule: str | None
    key: str | None

    def __new__(cls, text: str, rule: str | None = None, key: str | None = None) -> Reason:
        self = super().__new__(cls, text)
        self.rule = rule if rule is not None else rule_of(text)
        self.key = key
        return self


class IllegalAction(ValueError):
    """An action that the rules forbid here; the message says why in plain words.

    ``rule``: the rule id the refusal rests on (read from a ``Reason`` or from the
    message's closing "(M-5)"), ``key``: a stable name of the reason when it has one.
    Both travel to the server's ``illegal`` error (docs/protocol.md).
    """

    def __init__(self, message: str, rule: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        if isinstance(message, Reason):
            rule = rule or message.rule
            key = key or message.key
        self.rule: str | None = rule if rule is not None else rule_of(str(message))
        self.key: str | None = key


class NotYourTurn(IllegalAction):
    """An action sent for a seat that is not to move (raised by ``apply(action, seat)``).

    Its own type so front ends can say so in their own terms (the server's
    ``not_your_turn`` error code) without checking the turn themselves.
    """

    def __init__(self, to_move: int) -> None:
        super().__init__(f"it is not your turn: it is seat {to_move}'s turn")
        self.to_move = to_move


class InputError(ValueError):
    """A calculator or analysis input (JSON document, options) that cannot be used."""
