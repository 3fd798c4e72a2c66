"""What the browser tests share: Debian's Chromium, and the app served on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from rami.server import ServerConfig, create_app

CHROMIUM = Path("/usr/bin/chromium")  # Debian's, never a downloaded build
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
PHONE = {"width": 375, "height": 812}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def served(config: ServerConfig) -> Iterator[str]:
    """The app with ``config`` on uvicorn in a thread; yields its base URL, then stops it."""
    with served_app(create_app(config)) as url:
        yield url


@contextmanager
def served_app(app: FastAPI) -> Iterator[str]:
    """``app`` on uvicorn in a thread on a free loopback port; yields its base URL, then
    stops it."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 15
    while not server.started:
        assert time.time() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _contexts_bypass_csp() -> None:
    """Browser contexts of the tests bypass the pages' Content-Security-Policy unless a
    test asks otherwise (``bypass_csp=False``): Playwright's ``wait_for_function`` polls
    a string predicate with ``eval`` inside the page, which the CSP (``script-src
    'self'``) rightly forbids. The CSP itself is checked in Chromium by
    tests/test_server_hardening.py."""
    try:
        from playwright.sync_api import Browser
    except ImportError:  # the browser tests skip themselves
        return
    plain = Browser.new_context
    if getattr(plain, "bypasses_csp", False):
        return
    plain_page = Browser.new_page  # makes its own context, not through new_context

    def new_context(self: Browser, **options: Any) -> Any:
        options.setdefault("bypass_csp", True)
        return plain(self, **options)

    def new_page(self: Browser, **options: Any) -> Any:
        options.setdefault("bypass_csp", True)
        return plain_page(self, **options)

    new_context.bypasses_csp = True  # type: ignore[attr-defined]
    Browser.new_context = new_context  # type: ignore[method-assign,assignment]
    Browser.new_page = new_page  # type: ignore[method-assign,assignment]


_contexts_bypass_csp()
