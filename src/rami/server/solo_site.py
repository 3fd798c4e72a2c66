"""Solo play in the browser (issue 26): the pages, manifest and icons of the static site.

``make static`` (``scripts/build_static.py``) writes ``dist/``: the solo lobby, the solo
table (the table page itself, marked ``data-solo``: its transport is then a Web Worker
running ``rami.solo`` on Pyodide), the rules pages, Pyodide and rami's wheel under
``/solo-assets/``, a web manifest and a service worker. ``rami serve`` offers the same at
``/solo`` (``add_solo_routes``): the pages and manifest are made here, Pyodide, the wheel
and the service worker come from the built ``dist/`` (``RAMI_SOLO_DIST`` or the checkout's
``dist/``); without a build the lobby still opens and the table says to run
``make static``. Names no game.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from rami.games import all_games

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "STATIC",
    "add_solo_routes",
    "dist_dir",
    "icon_png",
    "solo_lobby_page",
    "solo_manifest",
    "solo_score_page",
    "solo_table_page",
]

STATIC = Path(__file__).resolve().parent / "static"
ICON_SIZES = (192, 512)
THEME = "#1f5f3a"


def dist_dir() -> Path:
    """Where ``make static`` wrote the site: ``$RAMI_SOLO_DIST`` or the checkout's dist/."""
    given = os.environ.get("RAMI_SOLO_DIST")
    return Path(given) if given else Path(__file__).resolve().parents[3] / "dist"


def _mark(html: str, tag: str, scope: str, head: str = "") -> str:
    """The page with its ``<body …>`` marked for solo play and ``head`` added."""
    if tag not in html:
        raise ValueError(f"the page has no {tag!r} to mark")
    html = html.replace(tag, f'{tag} data-solo data-scope="{scope}"', 1)
    return html.replace("</head>", f"{head}</head>", 1) if head else html


def solo_table_page(scope: str) -> str:
    """The table page as a solo table (``scope``: the service worker's, "/" or "/solo")."""
    html = (STATIC / "table.html").read_text(encoding="utf-8")
    head = (
        '  <link rel="manifest" href="/solo.webmanifest">\n'
        f'  <meta name="theme-color" content="{THEME}">\n'
        # the referee's worker starts before the page's other scripts (docs/solo.md)
        '  <script type="module" async src="/static/js/solo-start.js" data-solo-start></script>\n'
    )
    return _mark(html, '<body class="table-page"', scope, head)


def solo_score_page(scope: str) -> str:
    """The scorekeeper, its ledgers computed in the browser (``transport.scoreApi``)."""
    html = (STATIC / "score.html").read_text(encoding="utf-8")
    return _mark(html, '<body class="score"', scope)


def solo_lobby_page(scope: str) -> str:
    html = (STATIC / "solo-lobby.html").read_text(encoding="utf-8")
    return html.replace(
        '<body class="lobby" data-solo-lobby',
        f'<body class="lobby" data-solo-lobby data-scope="{scope}"',
        1,
    )


def solo_manifest(scope: str) -> dict[str, object]:
    """The web manifest that makes solo play installable."""
    return {
        "name": "rami: solo",
        "short_name": "rami",
        "description": f"{' and '.join(g.title for g in all_games())} against bots, offline.",
        "start_url": scope,
        "scope": scope,
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {
                "src": f"/solo-assets/icon-{n}.png",
                "sizes": f"{n}x{n}",
                "type": "image/png",
                "purpose": "any",
            }
            for n in ICON_SIZES
        ],
    }


def icon_png(size: int) -> bytes:
    """A square icon: a white card with a red diamond on green felt (no image library)."""
    felt, white, red = (0x1F, 0x5F, 0x3A), (0xFA, 0xFA, 0xF5), (0xC6, 0x28, 0x28)
    x0, x1, y0, y1 = size * 0.25, size * 0.75, size * 0.14, size * 0.86
    cx, cy, r = size / 2, size / 2, size * 0.16
    rows = []
    for y in range(size):
        row = bytearray(b"\x00")
        for x in range(size):
            if abs(x - cx) + abs(y - cy) * 1.3 < r:
                row += bytes(red)
            elif x0 <= x <= x1 and y0 <= y <= y1:
                row += bytes(white)
            else:
                row += bytes(felt)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def add_solo_routes(app: FastAPI) -> None:
    """``/solo`` (lobby), ``/solo.html`` (table), its manifest, service worker and assets."""
    from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles

    scope = "/solo"
    dist = dist_dir()

    @app.get("/solo", include_in_schema=False)
    async def solo_lobby() -> HTMLResponse:
        return HTMLResponse(solo_lobby_page(scope))

    @app.get("/solo.html", include_in_schema=False)
    async def solo_table() -> HTMLResponse:
        return HTMLResponse(solo_table_page(scope))

    @app.get("/solo.webmanifest", include_in_schema=False)
    async def solo_webmanifest() -> JSONResponse:
        return JSONResponse(solo_manifest(scope), media_type="application/manifest+json")

    @app.get("/solo-sw.js", include_in_schema=False, response_model=None)
    async def solo_sw() -> Response:
        path = dist / "solo-sw.js"
        if not path.is_file():
            return Response(
                "// solo play is not built: run make static\n", 404, media_type="text/javascript"
            )
        return FileResponse(path, media_type="text/javascript")

    assets = dist / "solo-assets"
    if assets.is_dir():
        app.mount("/solo-assets", StaticFiles(directory=assets), name="solo-assets")
    else:

        @app.get("/solo-assets/{path:path}", include_in_schema=False)
        async def solo_missing(path: str) -> JSONResponse:
            message = "solo play is not built on this server: run make static"
            return JSONResponse({"error": {"code": "no_table", "message": message}}, 404)


def write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
