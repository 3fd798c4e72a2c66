"""Solo play in the browser (issue 26): sizes, start-up time and bot move times.

Builds the static site (``scripts/build_static.py``, needs ``npm ci``), serves it on
127.0.0.1 with a plain static server that counts what it sends, and drives Debian's
Chromium with Playwright. Prints, not asserting any timing:

- bytes sent on the first visit (the lobby, then a solo table) and on a later one (the
  service worker answers from its cache), raw and as gzip would send them (a static
  host such as GitHub Pages compresses);
- the time from navigation to the first dealt hand (``#hand [data-card]``) on the first
  and on later visits (``--later N`` of them, each in a new tab: their median), with how
  the worker started (``boot``: Python booted, or ``snapshot``: restored from the memory
  snapshot the first visit kept, docs/solo.md) and when its phases ended;
- the bots' move times in the worker (Pyodide) at ``medium`` and ``hard``, p50 and p95,
  over one deal of Marriage ``nepali`` (4 players) and of Tunisian rami ``1v1``.

Run: ``.venv/bin/python bench/static_app.py [--deals N] [--later N] [--dist DIR]``
(under ``nice``; a few minutes). ``--dist`` serves a site built before (say from an older
checkout, to compare) instead of building this checkout's; ``--deals 0`` skips the bots.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

GAMES = (("marriage", "nepali"), ("tunisian", "1v1"))


class Counter:
    """What the static server sent: raw bytes and their gzip size, per request."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.raw = 0
        self.gzipped = 0
        self.requests = 0
        self._gz: dict[str, int] = {}

    def add(self, path: Path, size: int) -> None:
        key = str(path)
        if key not in self._gz:
            self._gz[key] = len(gzip.compress(path.read_bytes(), 6))
        with self.lock:
            self.raw += size
            self.gzipped += self._gz[key]
            self.requests += 1

    def take(self) -> tuple[int, int, int]:
        with self.lock:
            out = (self.raw, self.gzipped, self.requests)
            self.raw = self.gzipped = self.requests = 0
        return out


def serve(dist: Path, counter: Counter) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def copyfile(self, source: Any, outputfile: Any) -> None:
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            super().copyfile(source, outputfile)
            counter.add(path, path.stat().st_size)

    handler = functools.partial(Handler, directory=str(dist))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


DRIVE = """async ([game, preset, level, deals]) => {
  const worker = new Worker("/static/js/solo-worker.js", { type: "module" });
  const times = [];
  let left = deals;
  return await new Promise((resolve, reject) => {
    let acted = -1;
    const send = (m) => worker.postMessage(JSON.stringify(m));
    worker.onmessage = (event) => {
      const data = event.data;
      if (data.type === "_open") return send({ type: "hello", token: null });
      if (data.type === "_failed") return reject(new Error(data.message));
      if (data.type === "_bot") return times.push(data.ms);
      if (typeof data !== "string") return;
      const m = JSON.parse(data);
      if (m.type === "error") return reject(new Error(m.message));
      if (m.type !== "state" || m.version <= acted) return;
      if (m.view.result) {
        acted = m.version;
        if (--left <= 0 || m.view.match?.over) { worker.terminate(); return resolve(times); }
        return send({ type: "next_deal", id: m.version });
      }
      if ((m.view.legal_actions || []).length) {
        acted = m.version;
        send({ type: "action", action: m.view.legal_actions[0], id: m.version });
      }
    };
    worker.postMessage({ type: "open", game, preset, level, seed: 2026, players: null,
                         delay: 0, fresh: true, code: `bench-${game}-${level}` });
  });
}"""


def first_hand(page: Any, url: str) -> float:
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector("#hand [data-card]", timeout=120_000)
    return time.perf_counter() - started


def boot_note(page: Any) -> str:
    """How the page's worker started and when its phases ended (ms since navigation)."""
    mode = page.evaluate("document.body.dataset.soloBoot || 'boot'")
    marks = json.loads(page.evaluate("document.body.dataset.soloBootMarks || '{}'"))
    return f"{mode}: " + ", ".join(f"{k} {v}" for k, v in marks.items())


def mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def kb(n: int) -> str:
    return f"{n / 1e3:.1f} KB"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1, help="deals per game and level")
    parser.add_argument("--later", type=int, default=3, help="later visits (new tabs)")
    parser.add_argument("--dist", type=Path, help="serve this built site, not a fresh build")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dist = args.dist or Path(tmp) / "dist"
        if not args.dist:
            env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
            subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "build_static.py"), "--out", str(dist)],
                check=True,
                env=env,
            )
        counter = Counter()
        server, base = serve(dist, counter)
        table = f"{base}/solo.html?game=tunisian&preset=1v1&level=medium&new=1"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                context = browser.new_context()
                page = context.new_page()
                first = first_hand(page, table)
                first_boot = boot_note(page)
                if page.evaluate("document.body.dataset.soloBoot") == "boot":
                    # the snapshot for later visits, made in the background (docs/solo.md)
                    page.wait_for_selector("body[data-solo-snapshot]", timeout=120_000)
                    first_boot += (
                        f"; snapshot {page.evaluate('document.body.dataset.soloSnapshot')}"
                    )
                page.goto(base + "/")
                page.wait_for_selector("body[data-ready]")
                page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                page.wait_for_function(
                    "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k)"
                    ".then(c => c.keys())))).then(l => l.flat().some(r => "
                    "r.url.endsWith('pyodide.asm.wasm')))",
                    timeout=120_000,
                )
                raw1, gz1, n1 = counter.take()
                page.close()
                later: list[float] = []
                boots: list[str] = []
                for _ in range(max(1, args.later)):
                    page = context.new_page()
                    later.append(first_hand(page, table))
                    boots.append(boot_note(page))
                    page.goto(base + "/")
                    page.wait_for_selector("body[data-ready]")
                    page.close()
                page = context.new_page()
                page.goto(base + "/")
                raw2, gz2, n2 = counter.take()
                print(f"first visit: {n1} requests, {mb(raw1)} sent, {mb(gz1)} gzipped")
                print(f"later visits: {n2} requests, {kb(raw2)} sent, {kb(gz2)} gzipped")
                print(f"navigation to the first dealt hand: first visit {first:.2f} s ", end="")
                print(f"({first_boot})")
                each = ", ".join(f"{t:.2f}" for t in later)
                print(f"  later visits: median {statistics.median(later):.2f} s ({each} s)")
                for note in boots:
                    print(f"    {note}")
                for level in ("medium", "hard") if args.deals > 0 else ():
                    for game, preset in GAMES:
                        times = page.evaluate(DRIVE, [game, preset, level, args.deals])
                        print(f"bot moves in the worker, {level:6} {game} {preset}: ", end="")
                        p50 = statistics.median(times)
                        print(f"{len(times)} moves, p50 {p50:.0f} ms, ", end="")
                        print(f"p95 {pct(times, 0.95):.0f} ms, max {max(times):.0f} ms")
                browser.close()
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
