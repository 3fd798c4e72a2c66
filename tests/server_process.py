"""Start and stop ``rami serve`` in a child process on 127.0.0.1 (server tests, benches)."""

from __future__ import annotations

import base64
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: str | Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``rami serve`` on ``port``; returns once it answers (the caller stops it)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    command = [sys.executable, "-c", "from rami.cli import main; main()", "serve"]
    proc = subprocess.Popen(
        [*command, "--port", str(port), "--db", url, "--bot-delay", "0", *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            break
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    out = proc.stdout.read().decode() if proc.stdout else ""
    raise AssertionError("the server did not start: " + out)


def stop(proc: subprocess.Popen[bytes]) -> str:
    """Stop the server; what it printed."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.stdout.read().decode(errors="replace") if proc.stdout else ""


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def silent_socket(port: int, path: str, hello: bytes) -> socket.socket:
    """A raw WebSocket client that says hello and then never reads (a hostile client)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise AssertionError("handshake refused")
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    mask = os.urandom(4)
    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
    assert len(payload) < 126
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + payload)
    return sock
