"""Installing the web app (issue 21): the manifest with its icons and the app shell's
service worker, served from the site's root so that its scope is the whole site. The
scorekeeper keeps its own worker (``/sw.js``, scope ``/score``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

STATIC = Path(__file__).parent / "static"

router = APIRouter()

MANIFEST: dict[str, object] = {
    "name": "rami",
    "short_name": "rami",
    "description": "Rummy tables with friends and bots",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#0a3a24",
    "theme_color": "#0a3a24",
    "icons": [
        {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/icon-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
}


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> JSONResponse:
    return JSONResponse(MANIFEST, media_type="application/manifest+json")


@router.get("/app-sw.js", include_in_schema=False)
async def app_worker() -> FileResponse:
    """The app shell's worker; ``Service-Worker-Allowed`` is not needed at the root."""
    return FileResponse(
        STATIC / "app-sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )
