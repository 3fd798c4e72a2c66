"""Where the server listens and the addresses people should use to reach it.

Bound to all interfaces (``0.0.0.0`` or ``::``), the address that works for a friend on
the same network is the machine's LAN address, not ``localhost``: it is found by asking
the OS which local address routes towards a private network (a UDP ``connect`` sends no
packet). ``--public-url`` overrides it, e.g. behind a reverse proxy.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
from urllib.parse import urlsplit

from rami.errors import InputError

__all__ = ["ALL_INTERFACES", "bind_socket", "check_public_url", "lan_address", "start_lines"]

ALL_INTERFACES = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """This machine's address on its local network, or None if it has none."""
    for probe, family in (("10.254.254.254", socket.AF_INET), ("192.168.254.254", socket.AF_INET)):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = str(s.getsockname()[0])
        except OSError:
            continue
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def check_public_url(url: str) -> str:
    """``url`` without a trailing slash, if it is an http(s) URL (``InputError`` if not)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"--public-url must look like https://rami.example.org, not {url!r}")
    return url.strip().rstrip("/")


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or an ``InputError`` saying why not."""
    if not 0 < port < 65536:
        raise InputError(f"--port must be 1 to 65535, not {port}")
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError):
        raise InputError(f"--host {host!r} is not an address or name of this machine") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(
                f"port {port} is already in use on {host or 'all interfaces'}: "
                f"stop the other server or choose another --port"
            ) from None
        if exc.errno == errno.EACCES:
            raise InputError(
                f"no permission to listen on port {port}: use a port above 1023"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise InputError(f"--host {host} is not an address of this machine") from None
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.setblocking(False)
    return sock


def start_lines(host: str, port: int, public_url: str | None) -> list[str]:
    """What ``rami serve`` prints: addresses that work from here and for friends."""
    lines = []
    if host in ALL_INTERFACES:
        lines.append(f"rami: playing at {_url('localhost', port)} on this machine")
        friends = public_url + "/" if public_url else None
        if friends is None:
            lan = lan_address()
            friends = _url(lan, port) if lan else None
        if friends:
            lines.append(f"      friends on your network: {friends}")
        else:
            lines.append("      (no network address found: friends cannot reach this machine)")
    else:
        lines.append(f"rami: playing at {_url(host, port)}")
        if public_url:
            lines.append(f"      public address: {public_url}/")
        elif ipaddress.ip_address(host).is_loopback if _is_ip(host) else host == "localhost":
            lines.append("      (only this machine can connect: --host 0.0.0.0 lets friends in)")
    return lines


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
