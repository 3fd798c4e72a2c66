"""Shuffle commitments (docs/records.md, "Verifiable shuffles").

Before a deal is dealt its seed is published only as ``commitment(seed, salt)``:
the lowercase hex SHA-256 of the seed as 8 bytes, big-endian, followed by the 16 bytes
of the salt (written as 32 lowercase hex digits). Once the deal is over the seed and the
salt are revealed; anyone can then hash them again and replay the seed's deal.

The salt makes the commitment unguessable even though a deal seed has only 48 bits: it
is derived with HMAC-SHA256 from the match seed and the deal's number, so it is stable
across server restarts without being stored, and it reveals nothing of later deals (the
match seed stays secret; servers draw it with ``secrets``).
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["SALT_BYTES", "commitment", "commits", "shuffle_salt"]

SALT_BYTES = 16
_SEED_BYTES = 8
_SALT_KEY = b"rami-shuffle-salt/1"


def _seed_bytes(seed: int) -> bytes | None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        return None
    return seed.to_bytes(_SEED_BYTES, "big")


def shuffle_salt(match_seed: int, deal: int) -> str:
    """The salt of deal ``deal`` (0-based) of the match seeded ``match_seed`` (32 hex digits)."""
    message = f"{match_seed}:{deal}".encode("ascii")
    return hmac.new(_SALT_KEY, message, hashlib.sha256).hexdigest()[: 2 * SALT_BYTES]


def commitment(seed: int, salt: str) -> str | None:
    """``sha256(seed || salt)`` as 64 hex digits; None if the seed does not fit 8 bytes.

    >>> commitment(1, "00" * 16)[:16]
    '54301a433524372b'
    """
    raw = _seed_bytes(seed)
    try:
        salt_raw = bytes.fromhex(salt)
    except ValueError:
        return None
    if raw is None or len(salt_raw) != SALT_BYTES or salt != salt.lower():
        return None
    return hashlib.sha256(raw + salt_raw).hexdigest()


def commits(commit: str, seed: int, salt: str) -> bool:
    """Whether ``seed`` and ``salt`` open the commitment ``commit``."""
    made = commitment(seed, salt)
    return made is not None and hmac.compare_digest(made, commit.lower())
