"""The table players prefer (issue 21), in headless Debian Chromium.

- Every phone shape: both games at 375×812, 812×375 (sideways), 915×412, 1280×800 and the
  range's ends 640×360, 360×640 and 1920×1080, in English and Arabic: on the player's
  turn the whole hand, the stock, the pile's top and who threw it, the move controls and
  the status are inside the viewport (bounding boxes) and not clipped, the page does not
  scroll, every control is a 44 px touch target, nothing is preselected in "All moves",
  seats have avatars, in 2 v 2 the partner is marked, and Arabic writes tiplu as تيبلو with
  the Latin word as tooltip.
- axe-core (npm, pinned in package.json; ``make test`` installs it) on the lobby, a table,
  the rules and /score in every language: no serious or critical violation.
- Motion: a draw (a tap on the stock) flies the new card from the stock into the hand
  (positions read along the flight's own timeline, whatever the load); with reduced motion
  nothing animates, and the draw and a discard are made with the keyboard alone.
- Installable: the manifest with its icons, the app shell's service worker (registered
  with scope /), compressed static files.

Screenshots go to artifacts/screenshots/ui-*.png.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

import httpx  # noqa: E402
import test_browser  # noqa: E402
from test_browser import CHROMIUM, SHOTS  # noqa: E402
from test_table_browser import bots, create, inside, my_turn, version, wait_version  # noqa: E402

base_url = pytest.fixture(scope="module", name="base_url")(test_browser.base_url.__wrapped__)

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
LANGS = [
    p.stem
    for p in sorted(
        (Path(__file__).resolve().parents[1] / "src/rami/server/static/i18n").glob("*.json")
    )
]
SIZES = [(375, 812), (812, 375), (915, 412), (1280, 800), (640, 360), (360, 640), (1920, 1080)]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"ui-{name}.png"))


def context_for(
    browser: Any, lang: str, *, size: tuple[int, int] = (375, 812), motion: str = "reduce"
) -> Any:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale="en-GB", reduced_motion=motion
    )
    context.add_init_script(f"localStorage.setItem('rami.lang', '{lang}')")
    return context


def authorised(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def past_first_discard(base: str, code: str, token: str) -> None:
    """A dealer who opens with a discard (T-2) throws one over HTTP, so that the pile has a
    top when the seat's next turn comes."""
    view = httpx.get(f"{base}/api/tables/{code}/view", headers=authorised(token)).json()["view"]
    first = next((a for a in view["legal_actions"] if a.startswith("discard")), None)
    if first is not None:
        response = httpx.post(
            f"{base}/api/tables/{code}/actions", json={"action": first}, headers=authorised(token)
        )
        assert response.status_code == 200, response.text


def open_seat(context: Any, base: str, code: str, token: str) -> tuple[Any, list[str]]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/t/{code}#token={token}")
    page.wait_for_selector("body[data-version]")
    return page, errors


@pytest.mark.parametrize(
    ("game", "preset", "others"), [("marriage", "nepali", 3), ("tunisian", "2v2", 3)]
)
def test_every_phone_shape_shows_the_whole_turn(
    browser: Any, base_url: str, game: str, preset: str, others: int
) -> None:
    made = create(base_url, game, preset, [{"kind": "human"}, *bots(others)])
    code, token = made["code"], made["token"]
    past_first_discard(base_url, code, token)
    for lang in ("en", "ar"):
        context = context_for(browser, lang)
        page, errors = open_seat(context, base_url, code, token)
        try:
            my_turn(page)
            page.wait_for_selector("#pile-top .card")
            hand_size = page.locator("#hand .card").count()
            assert hand_size >= 13
            for width, height in SIZES:
                size = {"width": width, "height": height}
                page.set_viewport_size(size)
                page.wait_for_timeout(150)  # the resize redraws the seats and the fan
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                assert page.evaluate("document.documentElement.scrollHeight") <= height
                assert inside(page, "#hand .card", size) == hand_size
                assert inside(page, "#stock", size) == 1
                assert inside(page, "#pile-top .card", size) == 1
                assert inside(page, "#pile-by", size) == 1  # who threw it
                assert inside(page, "#actions button[data-action]", size) >= 1
                inside(page, "#all-moves, #play-selected, #hint-button, #status-text", size)
                # the move controls are not clipped by their own box either
                clipped = page.evaluate(
                    "() => { const box = document.getElementById('actions-box')"
                    ".getBoundingClientRect(); return [...document.querySelectorAll("
                    "'#actions button, #play-selected, #hint-button')]"
                    ".filter(b => { const r = b.getBoundingClientRect();"
                    " return r.bottom > box.bottom + 1 || r.top < box.top - 1; }).length; }"
                )
                assert clipped == 0, (game, lang, size)
                small = page.evaluate(
                    "() => [...document.querySelectorAll('header button, header select, #stock,"
                    " #actions-box button, #actions-box select, .hand-tools button')]"
                    ".filter(e => e.offsetParent !== null).map(e => [e.id || e.textContent,"
                    " e.getBoundingClientRect()])"
                    ".filter(([, r]) => r.height < 43.5 || r.width < 43.5)"
                    ".map(([n, r]) => `${n} ${r.width}x${r.height}`)"
                )
                assert not small, small  # touch targets of 44 px at least
                chosen = page.eval_on_selector("#all-moves", "s => s.value")
                assert chosen == ""  # nothing preselected
                assert page.is_disabled("#play-selected")
                if game == "tunisian":
                    assert page.locator(".seat-box .badge.partner").count() == 1
                    assert page.locator("#me .badge.partner").count() == 1
                assert page.locator(".seat-box .avatar").count() == others
                if lang == "ar":
                    assert page.evaluate("document.documentElement.dir") == "rtl"
                if lang == "ar" and game == "marriage":  # a term in Arabic script, Latin tooltip
                    term = page.eval_on_selector(
                        "#wild-label .term", "e => [e.textContent, e.title]"
                    )
                    assert term == ["تيبلو", "tiplu"]
                shot(page, f"{game}-{width}x{height}-{lang}")
        finally:
            context.close()
        assert not errors, errors


def axe_serious(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
        " return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))"
        ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')); }"
    )
    return list(found)


def test_axe_finds_no_serious_violation_on_any_page_in_any_language(
    browser: Any, base_url: str
) -> None:
    if not AXE.exists():  # `make test` installs it; CI must not skip it
        if os.environ.get("CI"):
            pytest.fail("axe-core is not installed: run `make test` (npm ci)")
        pytest.skip("axe-core is not installed (npm ci)")
    made = create(base_url, "tunisian", "2v2", [{"kind": "human"}, *bots(3)])
    code, token = made["code"], made["token"]
    assert len(LANGS) == 6
    problems: dict[str, list[str]] = {}
    for lang in LANGS:
        context = context_for(browser, lang)
        try:
            page = context.new_page()
            for name, url, ready in (
                ("lobby", "/", "body[data-ready]"),
                ("table", f"/t/{code}#token={token}", "body[data-version]"),
                ("rules", "/rules/marriage/nepali", "body[data-ready]"),
                ("score", "/score", "body[data-ready]"),
                ("replay", "/replay", "body[data-ready]"),  # issue 24's replay page
            ):
                page.goto(base_url + url)
                page.wait_for_selector(ready)
                page.wait_for_timeout(200)
                found = axe_serious(page)
                if found:
                    problems[f"{name}/{lang}"] = found
                if lang in ("en", "ar") and name == "table":
                    shot(page, f"axe-table-{lang}")
        finally:
            context.close()
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)


def draw_turn(base: str) -> tuple[str, str]:
    """A Tunisian 1 v 1 table where the seat's turn starts with a draw."""
    made = create(base, "tunisian", "1v1", [{"kind": "human"}, *bots(1)])
    past_first_discard(base, made["code"], made["token"])
    return made["code"], made["token"]


# Samples the drawn card's flight by the animation's own clock, not the wall clock: every
# animation started on a hand card is paused as it starts (Element.animate wrapped), then
# the card's position is read at eleven points of its timeline (currentTime), so a loaded
# machine that renders few frames still sees the whole path. With reduced motion nothing
# is animated, and the card is sampled over a few frames where it lies.
SAMPLE_DRAW = """async () => {
  const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
  const frame = () => new Promise((ok) => requestAnimationFrame(ok));
  const stock = centre(document.querySelector('#stock .card.back').getBoundingClientRect());
  const before = Number(document.body.dataset.version);
  const flights = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    if (this.closest && this.closest('#hand')) {
      animation.pause();
      flights.push({node: this, animation, keyframes: args[0]});
    }
    return animation;
  };
  let card = null;
  try {
    document.getElementById('stock').click();
    const t0 = performance.now();
    while (!card && performance.now() - t0 < 15000) {
      await frame();
      const moved = Number(document.body.dataset.version) > before;
      card = moved ? document.querySelector('#hand .card.drawn') : null;
    }
    // its flight may start a frame or two after the card is in the hand
    const t1 = performance.now();
    // (with two decks the hand may hold two copies of the drawn card: the flown one counts)
    const flown = (f) => f.node.isConnected && f.node.matches('#hand .card.drawn');
    while (card && !flights.some(flown) && performance.now() - t1 < 1500) {
      await frame();
    }
  } finally {
    Element.prototype.animate = animate;
  }
  const samples = [];
  const mine = flights.filter((f) => f.node.isConnected && f.node.matches('#hand .card.drawn'));
  if (mine.length) card = mine[0].node;
  let keyframes = null;
  if (mine.length) {
    const {animation} = mine[0];
    keyframes = mine[0].keyframes.map((k) => k.transform);
    const timing = animation.effect.getComputedTiming();
    for (let i = 0; i <= 10; i++) {
      animation.currentTime = timing.delay + (timing.activeDuration * i) / 10;
      samples.push(centre(card.getBoundingClientRect()));
    }
  }
  for (const f of flights) f.animation.finish();
  const rest = card ? centre(card.getBoundingClientRect()) : null;
  for (let i = 0; card && !mine.length && i < 5; i++) {
    await frame();
    samples.push(centre(card.getBoundingClientRect()));
  }
  return {stock, samples, rest, keyframes, animated: mine.length,
          running: document.getAnimations().length};
}"""


def test_a_draw_flies_from_the_stock_into_the_hand(browser: Any, base_url: str) -> None:
    code, token = draw_turn(base_url)
    context = context_for(browser, "en", size=(812, 375), motion="no-preference")
    context.add_init_script(  # which elements fly (motion.js animates with element.animate)
        "window.flights = []; const animate = Element.prototype.animate;"
        "Element.prototype.animate = function (...a) {"
        " window.flights.push(this.id || this.dataset.card || this.className);"
        " return animate.apply(this, a); };"
    )
    page, errors = open_seat(context, base_url, code, token)
    try:
        page.wait_for_function("document.body.dataset.myTurn === '1'")
        page.wait_for_selector("#stock.playable")  # tapping the stock draws (direct play)
        got = page.evaluate(SAMPLE_DRAW)
        samples = got["samples"]
        assert got["animated"] >= 1 and len(samples) == 11, got
        first, last = got["keyframes"][0], got["keyframes"][-1]
        assert first.startswith("translate(") and last == "none", got["keyframes"]
        stock = got["stock"]
        dist = [math.dist(stock, s) for s in samples]
        assert dist[0] < 20, dist  # it starts on the stock
        assert dist[-1] > 30 and math.dist(samples[-1], got["rest"]) < 1, got  # and lands
        assert all(b >= a - 1 for a, b in itertools.pairwise(dist)), dist  # toward the hand
        moving = {(round(x), round(y)) for x, y in samples}
        assert len(moving) >= 5, samples  # seen in flight, not only at both ends
        shot(page, "motion-after-draw")
        # my discard flies to the pile, then the bot's from its seat (and its draw to it)
        page.evaluate("window.flights = []")
        before = version(page)
        page.locator("#hand .card.discardable").first.dblclick()
        wait_version(page, before)
        page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=20_000)
        page.wait_for_timeout(100)
        flights = page.evaluate("window.flights")
        assert flights.count("pile-top-card") >= 2, flights  # mine and the bot's
        assert any("back" in f for f in flights), flights  # the bot's draw from the stock
    finally:
        context.close()
    assert not errors, errors


def test_reduced_motion_moves_nothing_and_the_keyboard_plays(browser: Any, base_url: str) -> None:
    code, token = draw_turn(base_url)
    context = context_for(browser, "en", size=(812, 375), motion="reduce")
    page, errors = open_seat(context, base_url, code, token)
    try:
        page.wait_for_function("document.body.dataset.myTurn === '1'")
        page.wait_for_selector("#stock.playable")
        got = page.evaluate(SAMPLE_DRAW)
        assert got["animated"] == 0 and got["running"] == 0, got
        assert len({(round(x), round(y)) for x, y in got["samples"]}) == 1, got["samples"]
        # a selected card (raised, gold) never looks like the focused one (blue ring)
        page.focus("#hand .card >> nth=0")
        page.keyboard.press("Space")  # selects it
        page.keyboard.press("ArrowRight" if page.evaluate("document.dir") != "rtl" else "ArrowLeft")
        looks = page.evaluate(
            "() => [...document.querySelectorAll('#hand .card')].slice(0, 2).map(c => {"
            " const s = getComputedStyle(c); return [c.getAttribute('aria-pressed'),"
            " c === document.activeElement, s.outlineStyle, s.outlineColor, s.transform,"
            " s.backgroundColor]; })"
        )
        (
            (pressed0, focus0, outline0, _, lift0, paper0),
            (pressed1, focus1, outline1, ring1, lift1, paper1),
        ) = looks
        assert pressed0 == "true" and not focus0 and outline0 == "none" and lift0 != "none"
        assert pressed1 == "false" and focus1 and outline1 == "solid" and lift1 == "none"
        assert ring1 == "rgb(26, 115, 232)" and paper0 != paper1, looks
        # the keyboard alone: D discards the focused card
        before = version(page)
        card = page.locator("#hand .card.discardable").first
        card.focus()
        page.keyboard.press("d")
        wait_version(page, before)
        assert page.locator("#hand .card").count() == 14
        # the stock is a button with a name and takes the keyboard (Enter) on the next turn
        page.wait_for_function("document.body.dataset.myTurn === '1'", timeout=20_000)
        if page.locator("#stock.playable").count():
            assert page.get_attribute("#stock", "aria-label")
            before = version(page)
            page.focus("#stock")
            page.keyboard.press("Enter")
            wait_version(page, before)
            assert page.locator("#hand .card").count() == 15
    finally:
        context.close()
    assert not errors, errors


def test_installable_manifest_worker_and_compressed_files(browser: Any, base_url: str) -> None:
    manifest = httpx.get(f"{base_url}/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["start_url"] == "/" and body["display"] == "standalone"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        got = httpx.get(base_url + icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            assert got.content[:8] == b"\x89PNG\r\n\x1a\n"
    worker = httpx.get(f"{base_url}/app-sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    script = httpx.get(f"{base_url}/static/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert script.headers.get("content-encoding") == "gzip"
    context = context_for(browser, "en")
    try:
        page = context.new_page()
        page.goto(f"{base_url}/")
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope", [])
        assert scope == f"{base_url}/"
        for url in ("/", "/rules/marriage/nepali"):
            page.goto(base_url + url)
            assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest"
    finally:
        context.close()


NAME = "<b>Ann</b> &amp; co"  # passes the server's name checks; must show as typed


def test_emoji_reactions_and_names_show_as_typed(browser: Any, base_url: str) -> None:
    """Talk (issue 21): an emoji reaction is sent as a key and shown with the sender's name;
    a name holding markup and an entity appears literally (textContent) everywhere."""
    made = create(base_url, "marriage", "nepali", [{"kind": "human"}, *bots(2)], name=NAME)
    context = context_for(browser, "ar", size=(812, 375))
    page, errors = open_seat(context, base_url, made["code"], made["token"])
    try:
        page.wait_for_selector(".seat-box")
        assert NAME in page.inner_text("#me")
        page.click("[data-drawer='talk-box']")
        emoji = page.locator("#reaction-buttons button.emoji")
        assert emoji.count() == 6
        clap = page.locator("[data-reaction='clap']")
        assert clap.get_attribute("aria-label") == "تصفيق"  # named in the reader's language
        box = clap.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44
        clap.click()
        page.wait_for_selector(".bubble")
        for where in ("#bubbles", "#talk-log"):  # "<name> (you): 👏"
            text = page.inner_text(where)
            assert text.startswith(NAME) and text.rstrip().endswith("👏"), text
        assert page.locator("#bubbles b, #talk-log b, #me b, #main b").count() == 0
        shot(page, "talk-emoji-literal-name")
    finally:
        context.close()
    assert not errors, errors


def _axe_or_skip() -> None:
    if not AXE.exists():  # `make test` installs it; CI must not skip it
        if os.environ.get("CI"):
            pytest.fail("axe-core is not installed: run `make test` (npm ci)")
        pytest.skip("axe-core is not installed (npm ci)")


def _one_move(page: Any) -> None:
    """A simple legal move: a one-word action button, else a discard by keyboard."""
    for button in page.locator("#actions button[data-action]").all():
        if " " not in (button.get_attribute("data-action") or ""):
            button.click()
            return
    card = page.locator("#hand .card.discardable").first
    if card.count():
        card.focus()
        page.keyboard.press("d")
        return
    page.click("#play-selected")


def test_axe_on_shown_melds_the_result_and_the_drawers(browser: Any, base_url: str) -> None:
    """axe-core (issue 21) on more table states, in English and Arabic: a table with shown
    melds (when a seat showed before the deal's end), the deal's result (M-8 … M-15),
    and the move log, scoreboard and talk drawers open: no serious or critical violation."""
    _axe_or_skip()
    made = create(
        base_url, "marriage", "nepali", [{"kind": "human"}, *bots(3)], options={"max_turns": 40}
    )
    code, token = made["code"], made["token"]
    problems: dict[str, list[str]] = {}
    audited: list[str] = []

    def audit(page: Any, name: str) -> None:
        page.wait_for_timeout(150)
        audited.append(name)
        found = axe_serious(page)
        if found:
            problems[name] = found

    def drawers(page: Any, lang: str) -> None:
        if page.locator("#result-hide").is_visible():
            page.click("#result-hide")
        for drawer in ("ledger-box", "log-box", "talk-box"):
            page.click(f"[data-drawer='{drawer}']")
            page.wait_for_selector(f"#{drawer}:not([hidden])")
            audit(page, f"{drawer}/{lang}")
            if drawer == "ledger-box":
                shot(page, f"axe-{drawer}-{lang}")
            page.click(f"#{drawer} [data-close]")

    context = context_for(browser, "en", size=(1280, 800))
    page, errors = open_seat(context, base_url, code, token)
    try:
        deadline = time.time() + 120
        while page.get_attribute("body", "data-deal-over") != "1":
            assert time.time() < deadline, "the deal did not end in time"
            if "melds/en" not in audited and page.locator("#main .groups .card").count():
                audit(page, "melds/en")
                shot(page, "axe-shown-melds-en")
            if page.get_attribute("body", "data-my-turn") == "1":
                before = version(page)
                _one_move(page)
                page.wait_for_function(
                    f"Number(document.body.dataset.version) > {before} || "
                    "document.body.dataset.dealOver === '1'",
                    timeout=30_000,
                )
            else:
                page.wait_for_timeout(50)
        page.wait_for_selector("#result .overlay-card")
        audit(page, "result/en")
        shot(page, "axe-result-en")
        drawers(page, "en")
    finally:
        context.close()
    assert not errors, errors
    context = context_for(browser, "ar", size=(1280, 800))
    page, errors = open_seat(context, base_url, code, token)
    try:
        page.wait_for_selector("#result .overlay-card")
        audit(page, "result/ar")
        shot(page, "axe-result-ar")
        items = page.locator("#result .items li")  # maal items worded from their codes
        assert items.count() == page.locator("#result .items li[data-kind]").count()
        texts = items.all_text_contents()
        assert all("\u2066" in x for x in texts), texts  # the cards isolated, left to right
        if page.locator("#main .groups .card").count():
            audit(page, "melds/ar")
        drawers(page, "ar")
    finally:
        context.close()
    assert not errors, errors
    assert {"result/en", "result/ar", "ledger-box/ar", "log-box/en"} <= set(audited), audited
    assert not problems, json.dumps(problems, ensure_ascii=False, indent=1)
