"""The table's Download button (issue 24): at a deal's end a player downloads the table's
``.rami`` record, which verifies, and sees the revealed shuffle (seed, salt, commitment)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

import test_browser
from test_browser import CHROMIUM
from test_table_browser import DESKTOP, PHONE, bots, create, inside, open_table, play_to_end, shot

from rami.records import read, verify

base_url = pytest.fixture(scope="module", name="base_url")(test_browser.base_url.__wrapped__)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


def test_download_the_record_at_the_deal_end_and_it_verifies(
    browser: Any, base_url: str, tmp_path: Path
) -> None:
    made = create(
        base_url,
        "tunisian",
        "1v1",
        [{"kind": "human"}, *bots(1)],
        options={"max_turns": 6, "elimination": 50},
    )
    code, token = made["code"], made["token"]
    commitment = made["table"]["shuffle"]["commitment"]
    context, page, errors = open_table(browser, base_url, code, token, DESKTOP)
    try:
        assert page.locator("#record-download").count() == 0  # no record link mid-deal
        play_to_end(page)
        link = page.locator("#record-download")
        link.wait_for(state="visible")
        inside(page, "#record-download, #shuffle-revealed", DESKTOP)
        revealed = page.locator("#shuffle-revealed").inner_text()
        assert commitment in revealed and "seed" in revealed
        with page.expect_download() as info:
            link.click()
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        assert path.name == f"rami-{code}.rami"
        text = path.read_text(encoding="utf-8")
        verdict = verify(text)
        assert verdict.ok, verdict.message
        assert read(text).deals[0].commitment == commitment
        shot(page, "table-record-download")
        page.set_viewport_size(PHONE)
        inside(page, "#record-download", PHONE)
        shot(page, "table-record-download-phone")
        assert page.locator("#next-deal").count() == 1 and page.locator("#replay-button").count()
    finally:
        context.close()
    assert not errors, errors
