"""Errors that reach users. All are ``ValueError`` so a front end catches one type."""

from __future__ import annotations

from rami.cards import CardError

__all__ = ["CardError", "IllegalAction", "InputError", "NotYourTurn"]


class IllegalAction(ValueError):
    """An action that the rules forbid here; the message says why in plain words."""


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
