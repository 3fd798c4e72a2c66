"""The lobby's seat picker shows each bot level's measured strength (issue 25): the
shipped ladder's rating with its 95% interval and its points a deal against medium, in
small text tied to the picker (``aria-describedby``), inside a phone's screen.
Screenshot: ``artifacts/screenshots/lobby-bot-strength.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from browser_support import CHROMIUM, CHROMIUM_ARGS, PHONE, SHOTS, served  # noqa: E402

from rami.bots.strength import bot_strength  # noqa: E402
from rami.server import ServerConfig  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Any]:
    with (
        served(ServerConfig(db_url=f"sqlite:///{tmp_path / 'rami.db'}", bot_delay=0)) as url,
        playwright_api.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=PHONE, locale="en-GB")
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready='1']")
        yield page
        browser.close()
        assert not errors, errors


def test_the_seat_picker_shows_the_measured_strength(page: Any) -> None:
    page.select_option("#game", "marriage")
    page.select_option("#preset", "nepali")
    page.select_option("#players", "4")
    page.select_option("select[data-seat='1']", "bot:hard")
    note = page.locator("#seat-strength-1")
    hard = bot_strength("marriage", "nepali")["hard"]
    text = note.inner_text()
    assert text.startswith(f"Rating {hard['rating']:.1f} (95%: ")
    assert "points a deal against medium" in text
    assert page.get_attribute("select[data-seat='1']", "aria-describedby") == "seat-strength-1"
    # medium, the reference, shows its rating only; a friend's seat shows nothing
    page.select_option("select[data-seat='2']", "bot:medium")
    assert "against" not in page.locator("#seat-strength-2").inner_text()
    page.select_option("select[data-seat='3']", "human")
    assert page.locator("#seat-strength-3").is_hidden()
    # Tunisian rami: fewer points are better, and the text says so
    page.select_option("#game", "tunisian")
    page.select_option("#preset", "1v1")
    page.select_option("select[data-seat='1']", "bot:hard")
    assert "(fewer is better)" in note.inner_text()
    note.scroll_into_view_if_needed()
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    size = page.evaluate("getComputedStyle(document.querySelector('#seat-strength-1')).fontSize")
    assert 11 <= float(size.removesuffix("px")) < 16  # small, but readable
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lobby-bot-strength.png"), full_page=True)
    page.select_option("#lang", "fr")  # redrawn in French
    page.wait_for_function(
        "document.querySelector('#seat-strength-1').textContent.startsWith('Classement')"
    )
