"""The seat's token as a FastAPI dependency, shared by every router that reads it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

__all__ = ["Token"]

_bearer = HTTPBearer(auto_error=False, description="the seat's secret token")


def _token(
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    return creds.credentials if creds is not None else None


#: ``Authorization: Bearer TOKEN``, or ``None`` when the request has none.
Token = Annotated[str | None, Depends(_token)]
