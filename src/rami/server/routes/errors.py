"""Every refusal as one JSON error body: a ``TableError`` with its status, bad input as
``bad_request``, anything unexpected as ``internal`` (logged; nothing was changed)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from rami.errors import InputError
from rami.server.limits import SafeJSONResponse
from rami.server.protocol import TableError

__all__ = ["add_error_handlers"]

log = logging.getLogger("rami.server.app")


async def _table_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TableError)
    found = getattr(request.app.state, "manager", None)
    if found is not None and found.metrics is not None:
        found.metrics.refused.labels(exc.code).inc()
    body = dict(exc.to_message())
    error = {k: body[k] for k in ("code", "message", "rule", "reason") if k in body}
    return SafeJSONResponse({"error": error}, status_code=exc.status)


async def _input_error(_request: Request, exc: Exception) -> JSONResponse:
    return SafeJSONResponse({"error": {"code": "bad_request", "message": str(exc)}}, 400)


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("internal error on %s %s", request.method, request.url.path)
    message = "the server failed on this request; nothing was changed"
    return SafeJSONResponse({"error": {"code": "internal", "message": message}}, 500)


def add_error_handlers(app: FastAPI) -> None:
    """Install the handlers on ``app`` (they are the app's, not a router's)."""
    app.add_exception_handler(TableError, _table_error)
    app.add_exception_handler(InputError, _input_error)
    app.add_exception_handler(Exception, _unexpected)
