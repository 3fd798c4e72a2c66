"""Solo play in the browser with no server (issue 26), in headless Debian Chromium.

``scripts/build_static.py`` (``make static``) builds the site into a temporary folder,
served by ``python -m http.server`` on 127.0.0.1: a static host, no rami server. The
page is loaded once (the service worker keeps every file), the network is cut, and a
Marriage nepali and a Tunisian 1v1 table are played to the end of a deal against easy
bots in the Web Worker (Pyodide), reloaded and resumed from IndexedDB; the scorekeeper
computes a ledger as the server's calculators do; no console error. The first table's
worker boots Python and a background worker keeps a memory snapshot: every later table
starts from it (docs/solo.md), offline too. The worker plays a seeded deal from that
snapshot as a server table does (the same events; random bots). No bot pause keeps it
quick.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rami.games import get_game
from rami.ledger import compute

playwright_api = pytest.importorskip("playwright.sync_api")

from browser_support import CHROMIUM, SHOTS, free_port  # noqa: E402
from test_solo import SEED, server_history  # noqa: E402
from test_table_browser import play_to_end  # noqa: E402
from test_table_ui_browser import AXE, axe_serious  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"
TABLE_IDS = ("hand", "stock", "stock-count", "pile-top", "actions", "status", "result")

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed"),
    pytest.mark.skipif(not PYODIDE.exists(), reason="Pyodide is not installed: make static"),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """dist/ built from this checkout, on a plain static server; its base URL."""
    dist = tmp_path_factory.mktemp("solo") / "dist"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_static.py"), "--out", str(dist)],
        check=True,
        env=env,
        capture_output=True,
    )
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(dist)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 10
        while True:
            try:
                import urllib.request

                urllib.request.urlopen(base + "/api/games", timeout=1).close()
                break
            except OSError:
                assert time.time() < deadline, "the static server did not start"
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def watch(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_offline_solo_tables_play_a_deal_and_resume_after_a_reload(browser: Any, site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    errors = watch(page)
    page.goto(site + "/")
    page.wait_for_selector("body[data-ready]")
    # the first visit: the service worker keeps every file (Pyodide included)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys()))))"
        ".then(lists => lists.flat().some(r => r.url.endsWith('pyodide.asm.wasm')))",
        timeout=60_000,
    )
    context.set_offline(True)
    for game, preset in (("marriage", "nepali"), ("tunisian", "1v1")):
        page.goto(f"{site}/solo.html?game={game}&preset={preset}&level=easy&delay=0&new=1")
        page.wait_for_selector("#hand [data-card]", timeout=60_000)
        if game == "marriage":  # the first table boots Python, then keeps a snapshot
            assert page.get_attribute("body", "data-solo-boot") == "boot"
            page.wait_for_selector("body[data-solo-snapshot='kept']", timeout=90_000)
        else:  # every later table starts from the snapshot
            assert page.get_attribute("body", "data-solo-boot") == "snapshot"
        assert "new=1" not in page.url  # a reload resumes, it does not start again
        for name in TABLE_IDS:
            assert page.locator(f"#{name}").count() == 1, name
        play_to_end(page, seconds=90)
        assert page.locator("#result").is_visible()
        shot(page, f"solo-{game}-deal-over")
        version = page.get_attribute("body", "data-version")
        page.reload()
        page.wait_for_selector("body[data-deal-over='1']", timeout=60_000)
        assert page.get_attribute("body", "data-version") == version  # the same match, resumed
        assert page.get_attribute("body", "data-solo-boot") == "snapshot"
        page.click("#next-deal")
        page.wait_for_function(f"Number(document.body.dataset.version) > {version}", timeout=30_000)
        page.wait_for_selector("#hand [data-card]")
    page.goto(site + "/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("document.querySelectorAll('#saved-list li').length === 2")
    shot(page, "solo-lobby-offline")
    if AXE.exists():  # make test installs it (npm ci)
        assert axe_serious(page) == []
    # the scorekeeper, still offline: its ledgers computed by the same engine in a worker
    page.goto(site + "/score/")
    page.wait_for_selector("body[data-ready]")
    example = get_game("tunisian").web().ledger_example  # type: ignore[misc]
    assert example is not None
    post = (
        "async (doc) => (await import('/static/js/transport.js'))"
        ".scoreApi(`/api/score/${doc.game}/ledger`, { method: 'POST', body: doc })"
        ".catch((err) => ({ refused: err.message }))"
    )
    assert page.evaluate(post, dict(example)) == json.loads(json.dumps(compute(dict(example))))
    refused = page.evaluate(post, {**example, "players": []})
    assert set(refused) == {"refused"} and "\n" not in refused["refused"]
    shot(page, "solo-score-offline")
    assert errors == []
    context.close()


# A worker keeps the memory snapshot later workers start from.
KEEP_SNAPSHOT = """() => new Promise((resolve) => {
  const worker = new Worker("/static/js/solo-worker.js", { type: "module" });
  worker.onmessage = (event) => { worker.terminate(); resolve(event.data); };
  worker.postMessage({ type: "snapshot" });
})"""

# The kept snapshot spoilt as a snapshot of another Pyodide build would be (its build id),
# then a worker opens a table: it must boot instead, and drop the snapshot.
SPOILT_SNAPSHOT = """async () => {
  const cache = await caches.open("rami-boot");
  const [key] = await cache.keys();
  const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
  bytes[20] ^= 0xff;
  await cache.put(key, new Response(bytes));
  const worker = new Worker("/static/js/solo-worker.js", { type: "module" });
  const boot = await new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      if (event.data.type === "_open") resolve(event.data.boot);
      if (event.data.type === "_failed") reject(new Error(event.data.message));
    };
    worker.postMessage({ type: "open", game: "tunisian", preset: "1v1", level: "random",
                         seed: 1, players: null, delay: 0, fresh: true, code: "solo-spoilt" });
  });
  worker.terminate();
  return [boot, (await cache.keys()).length];
}"""

DRIVE = """async ([deals, seed]) => {
  // one worker (one Pyodide start) plays each [game, preset] in turn
  const worker = new Worker("/static/js/solo-worker.js", { type: "module" });
  const histories = [];
  const boots = [];
  return await new Promise((resolve, reject) => {
    let acted = -1;
    const send = (m) => worker.postMessage(JSON.stringify(m));
    const open = () => {
      const [game, preset] = deals[histories.length];
      acted = -1;
      worker.postMessage({ type: "open", game, preset, level: "random", seed, players: null,
                           delay: 0, fresh: true, code: `solo-test-${game}` });
    };
    worker.onmessage = (event) => {
      const data = event.data;
      if (data.type === "_open") {
        boots.push(data.boot);
        return send({ type: "hello", token: null });
      }
      if (data.type === "_failed") return reject(new Error(data.message));
      if (typeof data !== "string") return;
      const m = JSON.parse(data);
      if (m.type === "error") return reject(new Error(m.message));
      if (m.type !== "state" || m.version <= acted) return;
      if (m.view.result) {
        acted = Infinity;
        histories.push(m.view.history);
        if (histories.length === deals.length) {
          worker.terminate();
          return resolve([boots, histories]);
        }
        return open();
      }
      if ((m.view.legal_actions || []).length) {
        acted = m.version;
        send({ type: "action", action: m.view.legal_actions[0], id: m.version });
      }
    };
    open();
  });
}"""
DEALS = [["marriage", "nepali"], ["tunisian", "1v1"]]


def test_the_worker_plays_a_seeded_deal_as_the_server_does(
    browser: Any, site: str, tmp_path: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors = watch(page)
    page.goto(site + "/")
    page.wait_for_selector("body[data-ready]")
    kept = page.evaluate(KEEP_SNAPSHOT)
    assert kept["type"] == "_snapshot" and kept["ok"], kept
    boots, histories = page.evaluate(DRIVE, [DEALS, SEED])
    assert boots == ["snapshot", "snapshot"]  # warmed up, reseeded: the same events
    assert page.evaluate(SPOILT_SNAPSHOT) == ["boot", 0]
    context.close()
    for (game, preset), history in zip(DEALS, histories, strict=True):
        assert history == server_history(game, preset, SEED, tmp_path), game
    assert errors == []
