"""What the parts of the table server share besides each table's lock.

``rami.server.tables`` makes one ``Shared`` and hands it to every part (lifecycle, play,
seats, turn clock, bots, broadcast): the store, the settings, the metrics once the app
sets them, whether the server is closing, and how to ask for a catch-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from rami.server.config import ServerConfig
from rami.server.metrics import Metrics
from rami.server.storage import Store

__all__ = ["Shared"]


def _nobody(_table_id: int) -> None:
    """No catch-up is wired yet (a part used on its own)."""


@dataclass
class Shared:
    """The server-wide values every part of a table server reads."""

    store: Store
    config: ServerConfig
    metrics: Metrics | None = None  # set by the app (rami.server.metrics)
    closing: bool = False
    loop: asyncio.AbstractEventLoop | None = None  # lets worker threads ask for catch-ups
    notify: Callable[[int], None] = _nobody  # table id (-1: any) changed elsewhere: catch up
