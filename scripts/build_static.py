"""Build dist/: the whole game in the browser, with no server (issue 26; ``make static``).

Writes a site any static host serves from its root (``python3 -m http.server -d dist``):

- ``index.html`` (the solo lobby), ``solo.html`` (the table page, its referee a Web
  Worker running ``rami.solo`` on Pyodide), ``rules/G/P/`` (the rules pages),
  ``score/`` (the scorekeeper, its ledgers computed by the same worker);
- ``static/`` (the web app's scripts, styles, strings; each game's modules under
  ``static/games/G/``), ``api/games`` and ``api/rules/G/P`` (the answers the pages ask
  the server for, written once);
- ``solo-assets/pyodide/`` (Pyodide from node_modules: ``npm ci`` first, the version is
  pinned in package.json) and ``solo-assets/rami.whl`` (rami as a pure-Python wheel
  built from this checkout, without its data files; RAMI_MYPYC is ignored);
- ``solo.webmanifest``, icons, and ``solo-sw.js`` (keeps every file after the first visit).

Nothing is fetched from elsewhere at run time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from rami.games import all_games
from rami.server.rules_info import client_folders, games_info, rules_summary
from rami.server.solo_site import (
    ICON_SIZES,
    STATIC,
    icon_png,
    solo_lobby_page,
    solo_manifest,
    solo_score_page,
    solo_table_page,
    write_json,
)

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# What the browser's rami does not need: the server's own files and the trained models.
WHEEL_SKIP = ("rami/server/static/", "rami/server/migrations/", "rami/rl/models/")
STATIC_SKIP = ("solo-sw.js", "solo-lobby.html")


def build_wheel(out: Path) -> None:
    """rami as a pure-Python wheel from the checkout, its data files left out, as a zip."""
    env = {k: v for k, v in os.environ.items() if k != "RAMI_MYPYC"}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--no-build-isolation",
                "-q",
                "-w",
                tmp,
                str(ROOT),
            ],
            check=True,
            env=env,
        )
        (wheel,) = Path(tmp).glob("rami-*.whl")
        with (
            zipfile.ZipFile(wheel) as src,
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst,
        ):
            for info in sorted(src.infolist(), key=lambda i: i.filename):
                name = info.filename
                if name.startswith(WHEEL_SKIP) or name.endswith((".so", ".pyd")):
                    continue
                item = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                item.compress_type = zipfile.ZIP_DEFLATED
                dst.writestr(item, src.read(name))


def copy_pyodide(node_modules: Path, out: Path) -> None:
    source = node_modules / "pyodide"
    missing = [f for f in PYODIDE_FILES if not (source / f).is_file()]
    if missing:
        sys.exit(f"error: {source} lacks {', '.join(missing)}: run npm ci first")
    out.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(source / name, out / name)


def write_pages(dist: Path) -> None:
    shutil.copytree(
        STATIC,
        dist / "static",
        ignore=shutil.ignore_patterns(*STATIC_SKIP, "__pycache__"),
        dirs_exist_ok=True,
    )
    for name, folder in client_folders().items():
        shutil.copytree(folder, dist / "static" / "games" / name, dirs_exist_ok=True)
    (dist / "index.html").write_text(solo_lobby_page("/"), encoding="utf-8")
    (dist / "solo.html").write_text(solo_table_page("/"), encoding="utf-8")
    (dist / "score").mkdir()
    (dist / "score" / "index.html").write_text(solo_score_page("/"), encoding="utf-8")
    write_json(dist / "api" / "games", games_info())
    rules_page = (STATIC / "rules.html").read_text(encoding="utf-8")
    for spec in all_games():
        for preset in spec.presets:
            write_json(
                dist / "api" / "rules" / spec.name / preset, rules_summary(spec.name, preset)
            )
            page = dist / "rules" / spec.name / preset / "index.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(rules_page, encoding="utf-8")
    write_json(dist / "solo.webmanifest", solo_manifest("/"))
    for size in ICON_SIZES:
        (dist / "solo-assets" / f"icon-{size}.png").write_bytes(icon_png(size))


def write_service_worker(dist: Path) -> list[str]:
    """The service worker with every file's URL and a version from their contents."""
    files = sorted(p for p in dist.rglob("*") if p.is_file() and p.name != "solo-sw.js")
    digest = hashlib.sha256()
    urls = []
    for path in files:
        rel = path.relative_to(dist).as_posix()
        digest.update(rel.encode() + b"\0" + path.read_bytes())
        if rel == "index.html":
            continue  # the scope itself ("/") is the lobby
        urls.append("/" + (rel[: -len("index.html")] if rel.endswith("/index.html") else rel))
    text = (STATIC / "solo-sw.js").read_text(encoding="utf-8")
    text = text.replace('/*VERSION*/ "dev"', repr(digest.hexdigest()[:16]).replace("'", '"'), 1)
    text = text.replace("/*FILES*/ []", json.dumps(urls), 1)
    (dist / "solo-sw.js").write_text(text, encoding="utf-8")
    return urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the site's folder (dist/)")
    parser.add_argument("--node-modules", type=Path, default=ROOT / "node_modules")
    args = parser.parse_args()
    dist: Path = args.out
    if dist.exists():
        shutil.rmtree(dist)
    (dist / "solo-assets").mkdir(parents=True)
    copy_pyodide(args.node_modules, dist / "solo-assets" / "pyodide")
    build_wheel(dist / "solo-assets" / "rami.whl")
    write_pages(dist)
    urls = write_service_worker(dist)
    size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
    print(f"dist: {len(urls) + 1} files, {size / 1e6:.1f} MB in {dist}")


if __name__ == "__main__":
    main()
