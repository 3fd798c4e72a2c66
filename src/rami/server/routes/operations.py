"""Health, readiness and the Prometheus metrics of the process."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import Response

from rami.server.metrics import CONTENT_TYPE_LATEST
from rami.server.protocol import ErrorResponse, TableError
from rami.server.routes.common import Manager

__all__ = ["router"]

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up and its event loop answers."""
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"model": ErrorResponse}})
async def readyz(mgr: Manager) -> dict[str, str]:
    """Ready to serve: the database answers."""
    try:
        await asyncio.to_thread(mgr.store.ping)
    except Exception as exc:
        raise TableError("unavailable", f"the database does not answer: {exc}") from None
    return {"status": "ready"}


@router.get("/metrics", include_in_schema=False)
async def metrics(mgr: Manager) -> Response:
    assert mgr.metrics is not None
    return Response(mgr.metrics.render(), media_type=CONTENT_TYPE_LATEST)
