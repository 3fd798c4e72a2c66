"""The scorekeeper page ``/score`` in a real browser, at phone size (375 × 812), issue 15.

Playwright drives Debian's Chromium against a real uvicorn server on a free port.
Everything is entered by tapping: three Marriage deals (the M-13 worked example with
the maal tapped as cards, a deal with no finisher with the maal counted up on the
stepper, a dublee finish), a bad maal refused in place, a reload (the ledger lives in
the browser), an edit of the first deal with the totals recomputed by the server;
then a Tunisian 1 v 1 evening of two deals with the cards left tapped on the card pad,
its first deal edited, and the page in Arabic (right to left). Screenshots go to
``artifacts/screenshots/score-*.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from browser_support import CHROMIUM, PHONE, SHOTS, served  # noqa: E402

from rami.server import ServerConfig  # noqa: E402

TOUCH = 44  # px: the smallest touch target we accept

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("score") / "rami.db"
    with served(ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0)) as url:
        yield url


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base_url}/score")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"score-{name}.png"), full_page=True)


def totals(page: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for el in page.locator("#totals [data-total]").all():
        out[el.get_attribute("data-total")] = el.inner_text().replace("\u2212", "-")
    return out


def wait_totals(page: Any, expected: dict[str, str], seconds: float = 10) -> None:
    deadline = time.time() + seconds
    while totals(page) != expected:
        assert time.time() < deadline, (
            f"totals {totals(page)} != {expected}; pending: "
            f"{page.locator('#pending').inner_text()!r}; error: "
            f"{page.locator('#deal-error').inner_text()!r}"
        )
        page.wait_for_timeout(50)


def row(page: Any, name: str) -> Any:
    return page.locator(f"#rows .player-row[data-player='{name}']")


def pick_card(page: Any, suit: str, rank: str) -> None:
    page.tap(f"#pad-suits [data-suit='{suit}']")
    page.tap(f"#pad-ranks [data-rank='{rank}']")


def check_layout(page: Any, root: str) -> None:
    """Every visible button of ``root`` lies inside the phone's width and is big enough."""
    boxes = page.eval_on_selector_all(
        f"{root} button",
        """els => els.filter(e => e.offsetParent !== null).map(e => {
            const r = e.getBoundingClientRect();
            return [e.textContent.trim(), r.left, r.right, r.height];
        })""",
    )
    assert boxes
    for text, left, right, height in boxes:
        assert left >= -0.5 and right <= PHONE["width"] + 0.5, (text, left, right)
        assert height >= TOUCH - 0.5, (text, height)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def save(page: Any) -> None:
    page.tap("#save-deal")


def test_marriage_evening_by_tapping(page: Any, browser: Any) -> None:
    names = page.locator("#names input")
    for i, name in enumerate(["Bikash", "Asha", "Chandra"]):
        names.nth(i).fill(name)
    page.tap("#names li:nth-child(2) button[aria-label^='Move']")  # Asha takes seat 1
    assert [names.nth(i).input_value() for i in range(3)] == ["Asha", "Bikash", "Chandra"]
    check_layout(page, "#setup")
    shot(page, "setup")
    page.tap("#start")
    page.wait_for_selector("#entry:not([hidden])")

    # deal 1, the M-13 worked example: A finishes, maal A 10 (a marriage), B 2, C unseen
    page.tap("#tiplu-btn")
    pick_card(page, "♣", "J")
    asha = row(page, "Asha")
    asha.locator("[data-status='melds']").tap()
    asha.locator("[data-mode='cards']").tap()
    for kind in ("jhiplu", "tiplu", "poplu"):
        row(page, "Asha").locator(f"[data-kind='{kind}']").tap()
    bikash = row(page, "Bikash")
    bikash.locator("[data-status='melds']").tap()
    bikash.locator("[data-mode='cards']").tap()
    row(page, "Bikash").locator("[data-kind='jhiplu']").tap()
    page.tap("#finish-row [data-finisher='Asha']")
    page.wait_for_function("document.getElementById('net-0').textContent.includes('31')")
    check_layout(page, "#entry")
    shot(page, "marriage-entry")
    save(page)
    wait_totals(page, {"Asha": "+31", "Bikash": "-9", "Chandra": "-22"})

    # deal 2: nobody finishes; Bikash saw, maal 5 counted up on the stepper (M-14)
    assert "Bikash" in page.inner_text("#entry-dealer")  # the deal passed on (M-2)
    page.tap("#tiplu-btn")
    pick_card(page, "♥", "5")
    row(page, "Bikash").locator("[data-status='melds']").tap()
    row(page, "Chandra").locator("[data-status='melds']").tap()
    plus = row(page, "Bikash").locator("button.step").nth(1)
    for _ in range(5):
        plus.tap()
    save(page)
    wait_totals(page, {"Asha": "+26", "Bikash": "+1", "Chandra": "-27"})

    # a maal no hand can hold is refused in place and changes nothing
    page.tap("#tiplu-btn")
    pick_card(page, "♠", "2")
    row(page, "Asha").locator("[data-status='melds']").tap()
    row(page, "Asha").locator("button.step").nth(1).tap()  # maal 1
    save(page)
    error = page.locator("#deal-error")
    error.wait_for(state="visible")
    assert "maal of 1" in error.inner_text()
    shot(page, "marriage-error")
    assert totals(page) == {"Asha": "+26", "Bikash": "+1", "Chandra": "-27"}
    row(page, "Asha").locator("button.step").nth(0).tap()  # back to 0

    # deal 3: Chandra finishes with dublees (M-9: 5 more from each opponent)
    row(page, "Chandra").locator("[data-status='dublees']").tap()
    page.tap("#finish-row [data-finisher='Chandra']")
    save(page)
    wait_totals(page, {"Asha": "+18", "Bikash": "-14", "Chandra": "-4"})
    assert page.inner_text("#zero-sum").endswith("0")

    # the ledger survives a reload
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    wait_totals(page, {"Asha": "+18", "Bikash": "-14", "Chandra": "-4"})
    assert page.locator("#deals tbody tr").count() == 3

    # edit deal 1: Chandra had seen after all (3 instead of 10): totals recomputed
    page.tap("#deals tbody tr[data-deal='1']")
    assert "Bikash pays Asha 11" in page.inner_text("#deal-detail")
    shot(page, "marriage-detail")
    page.tap("#edit-deal")
    assert page.inner_text("#entry-title") == "Editing deal 1"
    row(page, "Chandra").locator("[data-status='melds']").tap()
    save(page)
    wait_totals(page, {"Asha": "+11", "Bikash": "-14", "Chandra": "+3"})
    assert page.inner_text("#deals tbody tr[data-deal='1']").split() == ["1", "+24", "-9", "-15"]
    check_layout(page, "#standing")
    shot(page, "marriage-ledger")
    summary = page.inner_text("#summary-text")
    assert "Sum: 0" in summary and "Ahead: Asha" in summary
    page.tap("#share-text")
    text = page.input_value("#share-out")
    assert "1. Asha  +11\n2. Chandra  +3\n3. Bikash  -14" in text.replace("\u2212", "-")
    shot(page, "summary")

    # a shared link opens the same ledger on another phone
    page.tap("#share-link")
    link = page.input_value("#share-out")
    assert "/score#ledger=" in link
    other = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    try:
        phone = other.new_page()
        phone.goto(link)
        phone.wait_for_selector("body[data-ready='1']")
        phone.locator("#shared-banner").wait_for(state="visible")
        phone.tap("#shared-open")
        wait_totals(phone, {"Asha": "+11", "Bikash": "-14", "Chandra": "+3"})
        assert phone.locator("#deals tbody tr").count() == 3
    finally:
        other.close()


def test_tunisian_evening_by_tapping_and_arabic(page: Any) -> None:
    page.evaluate("localStorage.removeItem('rami.score')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#import-text", '{"game": "tunisian", "players": ["A"]}')
    page.tap("#import-go")
    page.locator("#import-error").wait_for(state="visible")
    assert "2 players" in page.inner_text("#import-error")  # refused, nothing imported
    page.locator("#game-choice button").nth(1).tap()
    assert page.locator("#names input").count() == 2  # 1 v 1
    page.locator("#names input").nth(0).fill("Sami")
    page.locator("#names input").nth(1).fill("Ines")
    page.tap("#start")
    page.wait_for_selector("#entry:not([hidden])")

    # deal 1: Sami goes out; Ines opened and holds JK K♠ A♦ = 50 + 10 + 10 (T-5, T-10)
    row(page, "Sami").locator("[data-state='won']").tap()
    ines = row(page, "Ines")
    ines.locator("[data-mode='cards']").tap()
    row(page, "Ines").locator("button.tap-cards").tap()
    page.tap("#pad-joker")
    pick_card(page, "♠", "K")
    pick_card(page, "♦", "A")
    shot(page, "tunisian-pad")
    page.tap("#pad-done")
    page.wait_for_function("document.getElementById('net-1').textContent.startsWith('70')")
    check_layout(page, "#entry")
    save(page)
    wait_totals(page, {"Sami": "0", "Ines": "70"})

    # deal 2: Ines goes out, Sami never opened: 100
    row(page, "Ines").locator("[data-state='won']").tap()
    row(page, "Sami").locator("[data-state='unopened']").tap()
    save(page)
    wait_totals(page, {"Sami": "100", "Ines": "70"})

    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    wait_totals(page, {"Sami": "100", "Ines": "70"})

    # edit deal 1: the A♦ was not there after all
    page.tap("#deals tbody tr[data-deal='1']")
    page.tap("#edit-deal")
    row(page, "Ines").locator(".chip").nth(2).tap()
    save(page)
    wait_totals(page, {"Sami": "100", "Ines": "60"})
    shot(page, "tunisian-ledger")

    # the same page in Arabic, right to left, still inside the phone's width
    page.select_option("#lang", "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    page.wait_for_function("document.getElementById('save-deal').textContent !== 'Save deal'")
    check_layout(page, "#entry")
    shot(page, "tunisian-ar")
    page.locator("#summary").scroll_into_view_if_needed()
    shot(page, "summary-ar")


def test_lobby_link_and_offline_once_loaded(page: Any, base_url: str) -> None:
    """The lobby links to /score; once loaded the page opens without a connection (the
    service worker), keeps the deals entered offline and has the server compute them
    when it is back."""
    page.goto(f"{base_url}/")
    link = page.locator("a[data-score-link]")
    link.wait_for()
    box = link.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    link.tap()
    page.wait_for_url(f"{base_url}/score")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("localStorage.removeItem('rami.score')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.tap("#start")  # three players named Player 1, 2, 3
    page.wait_for_selector("#entry:not([hidden])")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")

    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#net-state").is_visible()
    assert page.locator("#totals [data-total]").count() == 3
    # every game's own entry form is kept (the worker reads their URLs from /api/games)
    kept = page.evaluate(
        """async () => {
          const games = await (await caches.match("/api/games")).json();
          const urls = games.map((g) => g.client.score).filter(Boolean);
          const found = await Promise.all(urls.map((u) => caches.match(u)));
          return urls.length === games.length && found.every(Boolean);
        }"""
    )
    assert kept
    # a deal entered offline is kept, to be computed later
    row(page, "Player 2").locator("[data-status='melds']").tap()
    page.tap("#tiplu-btn")
    pick_card(page, "♦", "Q")
    page.fill("#maal-1", "5")
    save(page)
    page.locator("#pending").wait_for(state="visible")
    shot(page, "offline")

    page.context.set_offline(False)  # the page tries again by itself (every 5 s)
    wait_totals(page, {"Player 1": "-5", "Player 2": "+10", "Player 3": "-5"}, seconds=30)
    assert page.locator("#pending").is_hidden()


def test_tunisian_2v2_game_over_imported(page: Any) -> None:
    """A 2 v 2 ledger pasted in: team totals, the losing team at 1001 (T-13), the winners
    announced, and no deal may follow."""
    deal = {
        "winner": "Sami",
        "players": [{}, {"opened": True, "points": 300}, {"opened": False}, {"opened": False}],
    }
    ledger = {
        "game": "tunisian",
        "mode": "2v2",
        "players": ["Sami", "Ines", "Rania", "Youssef"],
        "deals": [deal] * 3,  # Ines + Youssef: 400 a deal, out after the third
    }
    page.evaluate("localStorage.removeItem('rami.score')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#import-text", json.dumps(ledger))
    page.tap("#import-go")
    page.locator("#winner").wait_for(state="visible")
    assert page.inner_text("#winner") == "Sami+Rania won the game!"
    assert "Ines + Youssef" in page.inner_text("#totals")
    assert page.locator("#save-deal").is_hidden()
    assert "The game is over" in page.inner_text("#entry")
    check_layout(page, "#standing")
    shot(page, "tunisian-over")
