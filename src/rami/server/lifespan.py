"""The app's life: open the store and the table manager, hear other processes, tune the
garbage collector; on the way out, stop the bots and clocks and close the store."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace

from fastapi import FastAPI

from rami.memo import freeze_collector
from rami.server.config import ServerConfig
from rami.server.metrics import Metrics
from rami.server.ratelimit import Limiter
from rami.server.secret import load_secret, secret_path
from rami.server.storage import Store
from rami.server.tables import TableManager

__all__ = ["GC_THRESHOLDS", "lifespan"]

GC_THRESHOLDS = (50_000, 50, 1000)


def lifespan(cfg: ServerConfig) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan for ``cfg``: the manager and limiter live in ``app.state``."""

    @contextlib.asynccontextmanager
    async def run(app: FastAPI) -> AsyncIterator[None]:
        key = cfg.seat_secret
        if key is None:  # the seat codes' key, outside the database (rami.server.secret)
            key = await asyncio.to_thread(load_secret, secret_path(cfg.db_url, cfg.secret_file))
        store = Store(cfg.db_url, busy_ms=cfg.db_busy_ms)
        manager = app.state.manager = TableManager(store, replace(cfg, seat_secret=key))
        app.state.limiter = Limiter(cfg.rate_limits)
        metrics = manager.metrics = Metrics(
            lambda: len(manager.tables), lambda: sum(len(t.conns) for t in manager.tables.values())
        )
        manager.attach()
        listener = None
        if store.shared:  # other processes may serve the same tables: hear their moves
            from rami.server.pubsub import Listener

            listener = Listener(
                cfg.db_url, asyncio.get_running_loop(), manager.notified, store.origin
            )
            listener.start()
        gc.collect()
        # Views and messages are freed by reference counting; the cycle collector's
        # passes stop the event loop. Fewer, later passes: at 100 tables 250 passes in
        # 20 s (330-690 ms in all) fell to 3 (47-290 ms), RSS unchanged (bench/server_load).
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        # start-up objects (modules, app, the memo tables, pinned) leave the generations
        freeze_collector()
        gc.callbacks.append(metrics.on_gc)
        try:
            yield
        finally:
            with contextlib.suppress(ValueError):
                gc.callbacks.remove(metrics.on_gc)
            gc.set_threshold(*thresholds)
            if listener is not None:
                listener.stop()
            reviews = getattr(app.state, "review_jobs", None)
            if reviews is not None:
                reviews.close()
            await manager.close()
            store.close()

    return run
