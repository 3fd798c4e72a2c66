"""What keeps one client or one page from harming others (issue 23).

- :class:`Guard`, ASGI middleware: security headers on every HTTP answer (a CSP that
  allows the pages' own files only, no framing, no MIME sniffing, no referrer), and a
  cap on the WebSockets open from one address and at one table (``RateLimits``), so
  that one address cannot take every file descriptor or flood a table's sockets.
- :class:`Refusals`: a socket that sends faster than its message budget gets *one*
  ``rate_limited`` error for a burst, which names every refused message's ``id``, so a
  client that reads everything is not dropped as too slow by its own refusals.
- :func:`clean_name`: names without control characters, direction overrides, only
  invisible characters, or a bot's name on a human seat.
- :func:`link_host_allowed`: links follow a request's ``Host`` only when it names
  this machine or an allowed host.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rami.server.limits import BadJSON, dumps, loads
from rami.server.protocol import TableError
from rami.server.ratelimit import RateLimits, TokenBucket, refuse

if TYPE_CHECKING:
    from rami.server.connection import Connection

__all__ = [
    "CSP",
    "SECURITY_HEADERS",
    "Guard",
    "Refusals",
    "clean_name",
    "link_host_allowed",
    "message_id",
]

#: The pages load only their own scripts, styles and modules; the favicon is ``data:``.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: FastAPI's /docs and /redoc pages load their scripts from a CDN with inline code.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs", "/redoc")
#: Solo play (/solo, docs/solo.md) runs Pyodide in a Web Worker: WebAssembly needs
#: 'wasm-unsafe-eval', for the pages and for the worker's own script.
SOLO_CSP = CSP.replace("script-src 'self';", "script-src 'self' 'wasm-unsafe-eval';")
SOLO_PATHS = ("/solo", "/static/js/solo-worker.js")
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
SOCKET_PATH = "/ws/tables/"
CLOSE_TOO_MANY = 4429
MAX_ID_TEXT = 4096  # a refused message longer than this is not parsed for its id
MAX_IDS = 200  # ids named by one rate_limited error


class Guard:
    """ASGI middleware: security headers, and the caps on open WebSockets."""

    def __init__(self, app: ASGIApp, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits
        self.by_address: Counter[str] = Counter()
        self.by_table: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.app(scope, receive, self._with_headers(scope, send))
        elif scope["type"] == "websocket" and str(scope.get("path", "")).startswith(SOCKET_PATH):
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    @staticmethod
    def _with_headers(scope: Scope, send: Send) -> Send:
        path = str(scope.get("path", ""))
        csp = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP
        if path.startswith(SOLO_PATHS):
            csp = SOLO_CSP

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _value in headers}
                extra = [(b"content-security-policy", csp.encode()), *SECURITY_HEADERS]
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        return sending

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        address = str(client[0]) if client else "?"
        table = str(scope["path"])[len(SOCKET_PATH) :].strip().upper()
        per_address, per_table = self.limits.sockets_per_address, self.limits.sockets_per_table
        if per_address is not None and self.by_address[address] >= per_address:
            await _refuse_socket(
                receive,
                send,
                f"too many connections from your address (at most {per_address}): "
                "close some tables' pages and try again",
            )
            return
        if per_table is not None and self.by_table[table] >= per_table:
            await _refuse_socket(
                receive,
                send,
                f"this table has too many connections (at most {per_table}): try again later",
            )
            return
        self.by_address[address] += 1
        self.by_table[table] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            for counts, key in ((self.by_address, address), (self.by_table, table)):
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]


async def _refuse_socket(receive: Receive, send: Send, message: str) -> None:
    """Accept, say why in one ``error`` message, and close with 4429."""
    first = await receive()
    if first["type"] != "websocket.connect":
        return
    error = TableError("too_many_sockets", message).to_message()
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": dumps(error)})
    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY})


def message_id(raw: str) -> object:
    """The ``id`` of a client's message (None if it has none or cannot be read)."""
    if len(raw) > MAX_ID_TEXT:
        return None
    try:
        doc = loads(raw)
    except BadJSON:
        return None
    ref = doc.get("id") if isinstance(doc, dict) else None
    return ref if isinstance(ref, (str, int)) and not isinstance(ref, bool) else None


class Refusals:
    """One socket's ``rate_limited`` replies, merged while one is still waiting to go out.

    ``send`` wraps the socket's sender and counts the messages written; a refusal that is
    still in the send queue (fewer messages written than were ahead of it) takes the next
    refused ``id`` into its ``ids`` instead of queueing a message of its own.
    """

    def __init__(self, sender: Callable[[str], Awaitable[None]]) -> None:
        self._sender = sender
        self.written = 0
        self._pending: dict[str, object] | None = None
        self._ids: list[object] = []
        self._due = 0  # the ``written`` count once the pending refusal has gone out

    async def send(self, text: str) -> None:
        self.written += 1
        await self._sender(text)

    def refuse(self, conn: Connection, raw: str, bucket: TokenBucket) -> None:
        ref = message_id(raw)
        waiting = self._pending is not None and self.written < self._due and not conn.closed
        if waiting and len(self._ids) < MAX_IDS:
            self._ids.append(ref)
            return
        self._ids = [ref]
        message: dict[str, object] = {**refuse("messages", bucket).to_message(ref)}
        message["ids"] = self._ids
        conn.send(message)
        self._pending = message
        self._due = self.written + conn.queue.qsize()


# ---------------------------------------------------------------------------- names

#: Embeddings, overrides, isolates and marks that reorder text (``‮`` made "evil" read
#: "live"); a name in any script needs none of them.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Invisible characters dropped from names (zero-width space, word joiner, BOM, soft
#: hyphen); the joiners U+200C and U+200D stay: Devanagari and emoji need them.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u2060\ufeff\u00ad\u180e"))
_BOT_LIKE = re.compile(r"bots?\b")
MAX_NAME = 40


def clean_name(name: str | None, fallback: str, human: bool = True) -> str:
    """A seat's name: spaces collapsed, at most 40 characters, ``fallback`` if empty.

    ``bad_request`` for control characters (NUL, ESC, …), text-direction controls, text
    with nothing visible, and, on a human seat, a name that reads as a bot's ("Bot 2").
    """
    text = " ".join(unicodedata.normalize("NFC", name or "").translate(_INVISIBLE).split())
    if not (name or "").strip():
        return fallback
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        raise TableError("bad_request", "a name cannot hold control characters (NUL, ESC, …)")
    if any(ch in _BIDI for ch in text):
        raise TableError(
            "bad_request", "a name cannot hold text-direction controls (right-to-left overrides)"
        )
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in text):
        raise TableError("bad_request", "a name needs visible letters, not only invisible ones")
    if human and _BOT_LIKE.match(unicodedata.normalize("NFKC", text).casefold()):
        raise TableError(
            "bad_request", f"{text[:MAX_NAME]!r} reads as a bot's name: choose another name"
        )
    return text[:MAX_NAME]


# ---------------------------------------------------------------------------- links


def link_host_allowed(hostname: str | None, allowed: Iterable[str]) -> bool:
    """Whether links may be built from a request's ``Host`` (this machine, or allowed)."""
    if not hostname:
        return False
    name = hostname.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    if name in {a.strip("[]").lower().rstrip(".") for a in allowed}:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
