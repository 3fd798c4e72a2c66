"""A table's open record (``GET /api/tables/{code}/record``) and its shuffle commitment.

Each deal's seed is committed to before the deal (``rami.records.shuffle``): the table's
summary carries ``shuffle`` (the deal's commitment; its seed and salt once the deal is
over) and the record holds every deal. A deal still in play shows only its public moves
and its commitment: no seat's cards, no stock draw, no seed.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import TypedDict

from rami.games import Game, Match
from rami.records import SeatInfo, commitment, match_record, shuffle_salt, write
from rami.server.storage import SeatRecord

__all__ = ["SEED_BITS", "ShuffleInfo", "new_match_seed", "shuffle_info", "table_record"]

SEED_BITS = 63  # the match seed: secret, and the deals' seeds and salts derive from it


def new_match_seed() -> int:
    """A table's match seed, unpredictable (``secrets``) and fitting a signed 64-bit column."""
    return secrets.randbits(SEED_BITS)


class ShuffleInfo(TypedDict):
    """The public shuffle facts of the deal in play (a table summary's ``shuffle``)."""

    deal: int  # 1-based
    commitment: str | None
    seed: int | None  # revealed once the deal is over
    salt: str | None


def shuffle_info(match: Match, match_seed: int) -> ShuffleInfo:
    """The commitment of the deal in play; its seed and salt once it is over."""
    number = int(match.standing()["deal_number"])
    seed = getattr(match.current, "seed", None)
    salt = shuffle_salt(match_seed, number)
    commit = commitment(seed, salt) if isinstance(seed, int) else None
    over = match.current.is_over and commit is not None
    return {
        "deal": number + 1,
        "commitment": commit,
        "seed": seed if over else None,
        "salt": salt if over else None,
    }


def table_record(
    spec: Game,
    match: Match,
    seats: list[SeatRecord],
    match_seed: int,
    created_at: float,
    ascii: bool = False,
) -> str:
    """The table's ``.rami`` text: finished deals in full, the deal in play public only."""
    infos = [SeatInfo(s.name, s.kind, s.level if s.kind == "bot" else None) for s in seats]
    date = datetime.fromtimestamp(created_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return write(match_record(spec, match, infos, seed=match_seed, date=date), ascii=ascii)
