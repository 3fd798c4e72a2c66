"""Open records of rami matches: the ``.rami`` text format (docs/records.md).

``read(text) -> MatchRecord`` parses a record and replays every revealed deal through
the engine (one ``RecordError`` naming the line and the rule for anything wrong);
``write(record, ascii=False)`` prints one; ``match_record`` builds one from a live match
(its ``deal_docs()``, replayed through the registry's ``Game.load_deal``); ``verify`` checks
the shuffle commitments. A deal's states move by move: ``DealRecord.states()``,
``DealRecord.replay()``.
"""

from __future__ import annotations

from rami.records.model import (
    FORMAT_VERSION,
    ChanceStep,
    DealRecord,
    MatchRecord,
    Move,
    RecordError,
    ResultRecord,
    SeatInfo,
    StandingRecord,
    Step,
    deal_record,
    match_record,
    single_deal_record,
)
from rami.records.shuffle import commitment, commits, shuffle_salt
from rami.records.text import read, write
from rami.records.verify import Verdict, verify, verify_record

__all__ = [
    "FORMAT_VERSION",
    "ChanceStep",
    "DealRecord",
    "MatchRecord",
    "Move",
    "RecordError",
    "ResultRecord",
    "SeatInfo",
    "StandingRecord",
    "Step",
    "Verdict",
    "commitment",
    "commits",
    "deal_record",
    "match_record",
    "read",
    "shuffle_salt",
    "single_deal_record",
    "verify",
    "verify_record",
    "write",
]
