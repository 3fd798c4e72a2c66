"""Per-client rate limits: token buckets for messages, joins and table look-ups.

A table code is short enough to read aloud, so it must not be cheap to guess: look-ups
of codes that do not exist are what a prober makes, and they are limited hard (a client
that has used up its misses is refused every look-up until the bucket refills, except
look-ups that carry a token of the table's own seats: its players are not locked out by
a prober behind the same address). Joins and table creations are limited per client
address, WebSocket messages per connection, open WebSockets per address and per table.
A refused request is ``429 rate_limited`` over HTTP and an ``error`` message with the
same code over the WebSocket; it changes nothing.

Clients are told apart by address (behind a reverse proxy, uvicorn takes it from
``X-Forwarded-For`` sent by the trusted proxy).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, replace

from rami.server.protocol import TableError

__all__ = ["Bucket", "Limiter", "RateLimits", "TokenBucket", "refuse"]


@dataclass(frozen=True)
class Bucket:
    """``burst`` requests at once, then ``per_second`` on average."""

    burst: float
    per_second: float


@dataclass(frozen=True)
class RateLimits:
    """The limits of one server (``None``: that kind of request is not limited)."""

    messages: Bucket | None = Bucket(burst=60, per_second=20)  # per WebSocket
    joins: Bucket | None = Bucket(burst=30, per_second=0.5)  # creates + joins, per client
    lookups: Bucket | None = Bucket(burst=600, per_second=10)  # any table look-up
    misses: Bucket | None = Bucket(burst=20, per_second=1 / 6)  # look-ups of no table
    sockets_per_address: int | None = 64  # open WebSockets of one client address
    sockets_per_table: int | None = 64  # open WebSockets of one table (players + spectators)

    @classmethod
    def off(cls) -> RateLimits:
        return cls(None, None, None, None, None, None)

    def scaled(self, factor: float) -> RateLimits:
        """Every limit ``factor`` times as generous (``rami serve --limits-scale``): load
        benches and clubs behind one address get room without switching limits off."""
        if not factor > 0:
            raise ValueError(f"the limits' scale must be above 0, not {factor}")

        def more(bucket: Bucket | None) -> Bucket | None:
            if bucket is None:
                return None
            return Bucket(bucket.burst * factor, bucket.per_second * factor)

        def count(limit: int | None) -> int | None:
            return None if limit is None else max(1, round(limit * factor))

        return replace(
            self,
            messages=more(self.messages),
            joins=more(self.joins),
            lookups=more(self.lookups),
            misses=more(self.misses),
            sockets_per_address=count(self.sockets_per_address),
            sockets_per_table=count(self.sockets_per_table),
        )


class TokenBucket:
    __slots__ = ("bucket", "level", "stamp")

    def __init__(self, bucket: Bucket) -> None:
        self.bucket = bucket
        self.level = bucket.burst
        self.stamp = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.level = min(
            self.bucket.burst, self.level + (now - self.stamp) * self.bucket.per_second
        )
        self.stamp = now

    def take(self) -> bool:
        self._refill()
        if self.level >= 1:
            self.level -= 1
            return True
        return False

    def empty(self) -> bool:
        self._refill()
        return self.level < 1

    def wait(self) -> float:
        """Seconds until one request is allowed again."""
        return max(0.0, (1 - self.level) / self.bucket.per_second) if self.bucket.per_second else 60


def refuse(what: str, bucket: TokenBucket) -> TableError:
    return TableError(
        "rate_limited", f"too many {what}: wait {max(1, round(bucket.wait()))} s and try again"
    )


class Limiter:
    """The buckets of every client (the least recently seen are forgotten past a cap)."""

    def __init__(self, limits: RateLimits, max_clients: int = 20_000) -> None:
        self.limits = limits
        self.max_clients = max_clients
        self._buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()

    def _bucket(self, kind: str, client: str, spec: Bucket) -> TokenBucket:
        key = (kind, client)
        found = self._buckets.get(key)
        if found is None:
            found = self._buckets[key] = TokenBucket(spec)
            if len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return found

    def join(self, client: str) -> None:
        """A table creation or a join (``rate_limited`` if too many)."""
        spec = self.limits.joins
        if spec is not None:
            bucket = self._bucket("join", client, spec)
            if not bucket.take():
                raise refuse("tables created or joined", bucket)

    def lookup(self, client: str) -> None:
        """Before a table look-up: refused while the client has no misses left."""
        blocked = self.out_of_misses(client)
        if blocked is not None:
            raise blocked
        self.count_lookup(client)

    def out_of_misses(self, client: str) -> TableError | None:
        """The refusal of a client that has used up its misses (None: it has some left)."""
        if self.limits.misses is not None:
            misses = self._bucket("miss", client, self.limits.misses)
            if misses.empty():
                return refuse("look-ups of tables that do not exist", misses)
        return None

    def count_lookup(self, client: str) -> None:
        """One table look-up against the client's budget (``rate_limited`` if spent)."""
        if self.limits.lookups is not None:
            bucket = self._bucket("lookup", client, self.limits.lookups)
            if not bucket.take():
                raise refuse("table look-ups", bucket)

    def miss(self, client: str) -> None:
        """A look-up found no table."""
        if self.limits.misses is not None:
            self._bucket("miss", client, self.limits.misses).take()

    def message_bucket(self) -> TokenBucket | None:
        """A bucket for one WebSocket connection's messages."""
        return TokenBucket(self.limits.messages) if self.limits.messages is not None else None
