"""The rules page shows the preset's own players' guide (issue 28), in headless Chromium.

/rules/marriage/indian in French and in Arabic (right to left) on a phone screen: the
Indian guide's heading (not the Nepali one) is visible inside the viewport, Arabic runs
right to left while the cards (`7♣ 8♣ 9♣`) keep their left-to-right order, and axe-core
finds no serious or critical violation. Screenshots: artifacts/screenshots/rules-indian-*.png.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from browser_support import CHROMIUM, PHONE, SHOTS, served  # noqa: E402
from test_table_ui_browser import AXE, axe_serious  # noqa: E402

from rami.server import ServerConfig  # noqa: E402

RULES = Path(__file__).resolve().parents[1] / "src" / "rami" / "server" / "static" / "rules"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


def first_heading(name: str) -> str:
    return (RULES / name).read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("rules") / "rami.db"
    with served(ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0)) as url:
        yield url


@pytest.mark.parametrize("lang", ["fr", "ar"])
def test_indian_rules_page_shows_the_indian_guide(browser: Any, base_url: str, lang: str) -> None:
    if not AXE.exists() and os.environ.get("CI"):
        pytest.fail("axe-core is not installed: run `make test` (npm ci)")
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem('rami.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base_url + "/rules/marriage/indian")
        page.wait_for_selector("body[data-ready='1'] #guide h2")
        title = page.locator("#guide h2").first
        expected = first_heading(f"marriage.indian.{lang}.md")
        assert title.inner_text() == expected
        assert first_heading(f"marriage.nepali.{lang}.md") not in page.inner_text("#guide")
        box = title.bounding_box()
        assert box is not None and box["height"] > 0
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        # the shared table options follow the preset's own page
        assert page.locator("#guide h3").count() >= 6
        direction = page.evaluate(
            "() => [document.documentElement.dir, getComputedStyle(document.querySelector("
            "'#guide p')).direction, getComputedStyle(document.querySelector('#guide code'))"
            ".direction]"
        )
        if lang == "ar":
            assert direction == ["rtl", "rtl", "ltr"]
            # right to left: the heading hugs the right edge of the screen
            text_right = page.evaluate(
                "() => { const r = document.createRange();"
                " r.selectNodeContents(document.querySelector('#guide h2'));"
                " const b = r.getBoundingClientRect(); return [b.left, b.right]; }"
            )
            assert text_right[1] > PHONE["width"] - 40 and text_right[0] > 10, text_right
        else:
            assert direction[:2] == ["ltr", "ltr"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"rules-indian-{lang}.png"))
        if AXE.exists():
            assert axe_serious(page) == []
    finally:
        context.close()
    assert not errors, errors
