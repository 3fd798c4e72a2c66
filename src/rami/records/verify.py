"""``rami verify``: does each revealed seed open its commitment and deal the record's cards?

Reading a record already replays every revealed deal from its seed and compares every
card dealt and drawn, every reshuffle and the result with the record (``read``); this
adds the commitments: ``sha256(seed || salt)`` must equal the commitment published
before the deal (``rami.records.shuffle``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rami.errors import InputError
from rami.records.model import MatchRecord
from rami.records.shuffle import commits
from rami.records.text import read

__all__ = ["Verdict", "verify", "verify_record"]


@dataclass(frozen=True)
class Verdict:
    """The one-line answer of ``rami verify``: ``ok`` and what was (or was not) shown."""

    ok: bool
    message: str


def verify_record(record: MatchRecord) -> Verdict:
    """The commitments of a record that ``read`` accepted (so its cards are the seeds')."""
    checked = 0
    waiting: list[int] = []
    for deal in record.deals:
        if deal.seed is None:
            waiting.append(deal.number)
            continue
        if deal.commitment is None or deal.salt is None:
            return Verdict(False, f"deal {deal.number} has no shuffle commitment to check")
        if not commits(deal.commitment, deal.seed, deal.salt):
            return Verdict(
                False,
                f"deal {deal.number}: sha256(seed || salt) does not match the commitment "
                "published before the deal: the seed or the salt was changed",
            )
        checked += 1
    if not checked:
        return Verdict(False, "no deal of this record is over yet: nothing to verify")
    later = f" (deal {', '.join(map(str, waiting))} still in play)" if waiting else ""
    deals = "1 deal" if checked == 1 else f"{checked} deals"
    return Verdict(
        True,
        f"verified {deals}: each seed matches its commitment and deals exactly "
        f"the record's cards{later}",
    )


def verify(text: str) -> Verdict:
    """Read ``text`` (replaying each revealed deal from its seed) and check its commitments."""
    try:
        record = read(text)
    except InputError as exc:
        return Verdict(False, str(exc))
    return verify_record(record)
