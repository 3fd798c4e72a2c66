"""``rami serve`` on the command line (issue 14): every bad ``--db``/``--host``/``--port``
is one ``error:`` line and exit status 2, checked before "playing at" is printed; the
start line gives addresses that work, and invite links use the public URL."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")

from server_process import free_port, start_server, stop  # noqa: E402

from rami.server.addresses import start_lines  # noqa: E402


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from rami.cli import main; main()", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--db", "{tmp}/no/such/folder/x.db"], "does not exist"),
        (["--db", "{tmp}"], "is a folder"),
        (["--db", "notaurl://x"], "unknown kind of database"),
        (["--db", "sqlite:///{tmp}/missing/x.db"], "does not exist"),
        (["--db", "mysql://nobody@127.0.0.1/x"], "needs its driver"),
        (["--host", "no-such-host.invalid"], "--host"),
        (["--host", "192.0.2.77"], "not an address of this machine"),
        (["--port", "0"], "--port must be 1 to 65535"),
        (["--port", "70000"], "--port must be 1 to 65535"),
        (["--public-url", "ftp://x"], "--public-url"),
        (["--bot-delay", "-1"], "--bot-delay"),
    ],
)
def test_bad_options_are_one_error_line(tmp_path: Path, args: list[str], fragment: str) -> None:
    given = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--db" not in args:
        given += ["--db", str(tmp_path / "x.db")]
    done = serve(*given)  # every case fails before the port is bound
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], lines
    assert "playing at" not in done.stdout and "Traceback" not in done.stderr


def test_port_in_use_is_reported_before_the_start_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = serve("--port", str(port), "--db", str(tmp_path / "x.db"))
    assert done.returncode == 2
    assert "already in use" in done.stderr and "playing at" not in done.stdout


def test_a_plain_path_is_a_sqlite_file_and_invites_use_the_public_url(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "plain.db"
    proc = start_server(str(db), port, "--public-url", "https://rami.example.org/")
    try:
        made = httpx.post(
            f"http://127.0.0.1:{port}/api/tables",
            json={"game": "tunisian", "preset": "1v1", "seats": [{}, {}]},
        ).json()
        assert made["url"] == f"https://rami.example.org/t/{made['code']}"
    finally:
        out = stop(proc)
    assert db.is_file()
    assert f"http://127.0.0.1:{port}/" in out and "https://rami.example.org/" in out


def test_start_lines_name_addresses_that_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rami.server.addresses.lan_address", lambda: "192.168.1.20")
    lines = start_lines("0.0.0.0", 8001, None)
    assert "http://localhost:8001/" in lines[0]
    assert "http://192.168.1.20:8001/" in lines[1]
    assert "https://x.example/" in start_lines("0.0.0.0", 8001, "https://x.example")[1]
    lines = start_lines("127.0.0.1", 8000, None)
    assert "http://127.0.0.1:8000/" in lines[0] and "0.0.0.0" in lines[1]
