"""What the server accepts from a client, and how it writes JSON back safely.

Hostile input must get a clear refusal, never a crash: JSON nested deeper than
``MAX_JSON_DEPTH`` (Python's parser would raise ``RecursionError``), ``NaN``/``Infinity``
(not JSON), lone UTF-16 surrogates such as ``"\\ud800"`` (valid JSON escapes, but they
cannot be encoded as UTF-8, so echoing them in an error killed the socket or made a 500).
Incoming strings have surrogates replaced by U+FFFD, and everything written out goes
through :func:`dumps`, which never fails on them.

The ASGI :class:`BodyGuard` applies the same rules to HTTP bodies before FastAPI sees
them, and bounds header and body sizes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import NoReturn

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_HEADER_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_SCORE_BODY_BYTES",
    "MAX_WS_MESSAGE_BYTES",
    "BadJSON",
    "BodyGuard",
    "SafeJSONResponse",
    "clean",
    "dumps",
    "loads",
]

MAX_JSON_DEPTH = 32
MAX_WS_MESSAGE_BYTES = 64 * 1024
MAX_BODY_BYTES = 64 * 1024
#: The scorekeeper's documents (a whole evening's ledger) may be larger (docs/score.md).
MAX_SCORE_BODY_BYTES = 512 * 1024
SCORE_PATHS = "/api/score/"
MAX_HEADER_BYTES = 16 * 1024

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_SURROGATES = re.compile("[\ud800-\udfff]")


class BadJSON(ValueError):
    """The text is not JSON the server accepts; the message says why, in one line."""


def _reject_constant(name: str) -> NoReturn:
    raise BadJSON(f"{name} is not a JSON value")


def _depth(text: str) -> int:
    """The deepest nesting of arrays/objects, without parsing (strings removed first)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def clean(value: object) -> object:
    """``value`` with lone surrogates in its strings (keys too) replaced by U+FFFD."""
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value) if _SURROGATES.search(value) else value
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    return value


def loads(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> object:
    """Parse client JSON: no NaN/Infinity, bounded depth, surrogates cleaned (``BadJSON``)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON("the body is not UTF-8 text") from None
    if len(text) > MAX_WS_MESSAGE_BYTES:
        raise BadJSON(f"longer than {MAX_WS_MESSAGE_BYTES} characters")
    if text.count("[") + text.count("{") > max_depth and _depth(text) > max_depth:
        raise BadJSON(f"JSON nested deeper than {max_depth} levels")
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except BadJSON:
        raise
    except RecursionError:  # belt and braces: the depth check should have caught it
        raise BadJSON(f"JSON nested deeper than {max_depth} levels") from None
    except ValueError as exc:
        raise BadJSON(f"not valid JSON: {getattr(exc, 'msg', exc)}") from None
    return clean(value)


def _finite(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


def _fast_dumps() -> Callable[[object], bytes] | None:
    try:
        import orjson
    except ImportError:  # optional: the web extra installs it
        return None
    return orjson.dumps


_ORJSON_DUMPS = _fast_dumps()


def dumps(value: object) -> str:
    """Compact JSON that is always valid and encodable as UTF-8 (for sockets and bodies).

    orjson (when installed) encodes a state message several times faster than ``json``;
    it refuses lone surrogates and non-string keys, which take the ``json`` path below.
    """
    if _ORJSON_DUMPS is not None:
        try:
            return _ORJSON_DUMPS(value).decode("utf-8")
        except TypeError:  # orjson.JSONEncodeError: surrogates, odd keys or types
            pass
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:  # a non-finite float somewhere: send null instead
        text = json.dumps(_finite(value), ensure_ascii=False, separators=(",", ":"))
    if _SURROGATES.search(text):
        text = json.dumps(clean(json.loads(text)), ensure_ascii=False, separators=(",", ":"))
    return text


class SafeJSONResponse(JSONResponse):
    """A JSON response that cannot fail to render (NaN, lone surrogates: see ``dumps``)."""

    def render(self, content: object) -> bytes:
        return dumps(content).encode("utf-8")


def _error_body(code: str, message: str) -> bytes:
    return dumps({"error": {"code": code, "message": message}}).encode("utf-8")


class BodyGuard:
    """ASGI middleware: bounded headers and bodies; JSON bodies checked and cleaned.

    Bodies: ``max_body`` bytes, ``max_score_body`` for the scorekeeper (``/api/score/``).

    A JSON body that is too deep, holds NaN or is not JSON gets ``400 bad_json``; one with
    lone surrogates is passed on with them replaced. Nothing else is touched.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY_BYTES,
        max_score_body: int = MAX_SCORE_BODY_BYTES,
        max_headers: int = MAX_HEADER_BYTES,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.max_score_body = max_score_body
        self.max_headers = max_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        size = sum(len(k) + len(v) for k, v in scope.get("headers", ()))
        if size > self.max_headers:
            if scope["type"] == "http":
                await self._refuse(send, 431, "headers_too_large", "request headers too large")
            else:
                await send({"type": "websocket.close", "code": 1009})
            return
        if scope["type"] == "websocket" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        path = str(scope.get("path", ""))
        max_body = self.max_score_body if path.startswith(SCORE_PATHS) else self.max_body
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > max_body:
                limit = f"bodies are limited to {max_body // 1024} KB here"
                await self._refuse(send, 413, "too_large", limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        ctype = dict(scope.get("headers", ())).get(b"content-type", b"")
        if body and b"json" in ctype:
            try:
                body = json.dumps(loads(body), ensure_ascii=False).encode("utf-8")
            except BadJSON as exc:
                await self._refuse(send, 400, "bad_json", str(exc))
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Send, status: int, code: str, message: str) -> None:
        body = _error_body(code, message)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
