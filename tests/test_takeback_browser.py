"""The take-back of a turn's laid cards at the browser table (M-10, issue 28).

An Indian table whose deal is the position of tests/test_marriage_indian_routes.py: seat 0
draws, shows and melds ``4♥ 5♥ 6♥ 7♥`` over HTTP; the page then offers the take-back as a
button in the actions area (its label from the page language), inside the viewport, and a
click puts the meld back in the hand.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

import httpx
import test_browser
from test_marriage_indian_routes import TAKEBACK_SHOWS, takeback_deal
from test_table_browser import bots, create
from test_table_ui_browser import authorised, context_for, open_seat, shot

base_url = pytest.fixture(scope="module", name="base_url")(test_browser.base_url.__wrapped__)


def _post(base: str, code: str, token: str, action: str) -> None:
    response = httpx.post(
        f"{base}/api/tables/{code}/actions", json={"action": action}, headers=authorised(token)
    )
    assert response.status_code == 200, response.text


def _view(base: str, code: str, token: str) -> Any:
    return httpx.get(f"{base}/api/tables/{code}/view", headers=authorised(token)).json()["view"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_M10_the_take_back_button_picks_up_the_turns_meld(
    browser: Any, base_url: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rami.marriage.match as match_module

    monkeypatch.setattr(match_module, "new_deal", lambda *args: takeback_deal())
    made = create(base_url, "marriage", "indian", [{"kind": "human"}, *bots(2)])
    code, token = made["code"], made["token"]
    for step in ("draw", *(f"show {m}" for m in TAKEBACK_SHOWS)):
        _post(base_url, code, token, step)
    _post(base_url, code, token, "meld 4♥ 5♥ 6♥ 7♥")
    assert "takeback" in _view(base_url, code, token)["legal_actions"]
    context = context_for(browser, lang, size=(1280, 800))
    page, errors = open_seat(context, base_url, code, token)
    try:
        button = page.locator("#actions button[data-action='takeback']")
        button.wait_for()
        box = button.bounding_box()
        assert box is not None and box["width"] > 0 and box["y"] + box["height"] <= 800
        label = button.inner_text()
        assert (
            label == {"en": "Take back this turn's cards", "ru": "Забрать карты этого хода"}[lang]
        )
        shot(page, f"takeback-{lang}")
        before = int(page.get_attribute("body", "data-version") or 0)
        button.click()
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}")
        page.locator("#actions button[data-action='takeback']").wait_for(state="detached")
        view = _view(base_url, code, token)
        assert "takeback" not in view["legal_actions"]
        assert "7♥" in view["hand"] and len(view["seats"][0]["melds"]) == 3
    finally:
        context.close()
    assert not errors, errors
