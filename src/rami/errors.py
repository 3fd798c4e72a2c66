"""Errors that reach users. All are ``ValueError`` so a front end catches one type."""

from __future__ import annotations

from rami.cards import CardError

__all__ = ["CardError", "IllegalAction", "InputError"]


class IllegalAction(ValueError):
    """An action that the rules forbid here; the message says why in plain words."""


class InputError(ValueError):
    """A calculator or analysis input (JSON document, options) that cannot be used."""
