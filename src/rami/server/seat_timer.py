"""Nobody stalls a table: the turn timer, seat codes, and what a table keeps beside its rules.

A table may give human seats a time per move (``turn_seconds``; default
``DEFAULT_TURN_SECONDS``, ``None`` for friends who want no clock). When a human's time
runs out, or the other players hand an absent seat to a bot, the seat is played by a
bot and marked *auto* until its player comes back (reconnects or says so).

A **seat code** lets a player take their seat back from another browser or device
without the long private link: eight letters derived from the seat's stored token hash
with the server's secret key (``rami.server.secret``, kept outside the database: a
leaked database gives no seat code), so it needs no new column and dies with the token.
It opens the seat exactly like the token does.

The timer setting is kept in the table's stored rules under ``TABLE_KEYS``; those keys
are the server's, not the game's, and are taken out before the rules reach the engine.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac

from rami.server.protocol import TableError
from rami.views import RulesJson

__all__ = [
    "DEFAULT_TURN_SECONDS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "SEAT_CODE_LENGTH",
    "TABLE_KEYS",
    "check_turn_seconds",
    "game_rules",
    "seat_code",
    "seat_code_matches",
]

DEFAULT_TURN_SECONDS = 60
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 3600
SEAT_CODE_LENGTH = 8
TABLE_KEYS = frozenset({"turn_seconds"})
_ALPHABET = str.maketrans("", "", "=")


def check_turn_seconds(value: object) -> int | None:
    """The turn time of a table request: seconds, or None for no timer (``bad_request`` else)."""
    if value is None or value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError("bad_request", "turn_seconds must be a whole number of seconds, or null")
    if not MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS:
        raise TableError(
            "bad_request",
            f"turn_seconds must be {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}, or null (no timer)",
        )
    return value


def game_rules(stored: RulesJson) -> RulesJson:
    """The stored rules without the server's own keys: what the engine is given."""
    return {k: v for k, v in stored.items() if k not in TABLE_KEYS}


@functools.lru_cache(maxsize=8192)  # sent with every state message: hash once per seat
def seat_code(token_hash: str, key: bytes) -> str:
    """The short code of the seat whose token hashes to ``token_hash`` (A–Z, 2–7).

    An HMAC under the server's ``key``: the stored hash alone does not give it.
    """
    digest = hmac.new(key, f"rami-seat-code:{token_hash}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode().translate(_ALPHABET)[:SEAT_CODE_LENGTH]


def seat_code_matches(text: str, token_hash: str | None, key: bytes) -> bool:
    """Whether ``text`` (any case, spaces and dashes ignored) is that seat's code.

    Text with non-ASCII letters is no code (and must not reach ``compare_digest``, which
    refuses non-ASCII text with a ``TypeError``); no ``key``: seat codes are off.
    """
    if token_hash is None or not key:
        return False
    given = "".join(ch for ch in text.upper() if ch.isalnum())
    if len(given) != SEAT_CODE_LENGTH or not given.isascii():
        return False
    return hmac.compare_digest(given.encode(), seat_code(token_hash, key).encode())
