"""Prometheus metrics of one server process (``/metrics``), and the health checks.

Each app has its own registry, so several apps in one process (tests) do not collide.
Names follow Prometheus conventions (``rami_`` prefix, seconds, ``_total`` counters).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The server's counters; ``tables`` and ``sockets`` are read when scraped."""

    def __init__(self, tables: Callable[[], int], sockets: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        live = Gauge("rami_live_tables", "Tables held in memory", registry=self.registry)
        live.set_function(lambda: float(tables()))
        conns = Gauge("rami_sockets", "Open table WebSockets", registry=self.registry)
        conns.set_function(lambda: float(sockets()))
        self.move_seconds = Histogram(
            "rami_move_seconds",
            "From receiving a move to its acknowledgement (stored and committed)",
            buckets=_LATENCY,
            registry=self.registry,
        )
        self.bot_think_seconds = Histogram(
            "rami_bot_think_seconds",
            "Time a bot takes to choose its move",
            buckets=_LATENCY,
            registry=self.registry,
        )
        self.refused = Counter(
            "rami_refused_messages_total",
            "Requests and messages refused, by error code",
            ["code"],
            registry=self.registry,
        )
        self.dropped = Counter(
            "rami_dropped_clients_total",
            "Clients disconnected because they did not read their messages",
            registry=self.registry,
        )

        self.gc_pause_seconds = Histogram(
            "rami_gc_pause_seconds",
            "Garbage-collection passes (they stop the event loop), by generation",
            ["generation"],
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
            registry=self.registry,
        )
        self._gc_started = 0.0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` hook: time each collection."""
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_started
            self.gc_pause_seconds.labels(str(info.get("generation", "?"))).observe(pause)

    def render(self) -> bytes:
        return generate_latest(self.registry)
