"""T-9 on the table page: the winner's farcha lies face down on the pile (issue 28).

A Tunisian 1 v 1 table is played over HTTP (the human seat by the medium bot) until a
player goes out; then the table is opened, by the player and by a spectator: the pile's
top is a card back marked "farcha" inside the viewport, the line under it names who
threw it, the log has the farcha entry, and only the thrower sees which card it was.
Screenshots: artifacts/screenshots/farcha-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

import httpx
import test_table_browser as tb
from test_table_browser import PHONE, bots, create, open_table, shot
from test_table_ui_browser import AXE, axe_serious

from rami.bots import make_bot

base_url = tb.base_url
pytestmark = tb.pytestmark


def _won_table(base: str) -> tuple[str, str, dict[str, Any]]:
    """A table whose first deal someone won by going out (T-9); its code, token, view."""
    bot = make_bot("tunisian", "medium", 1)
    for attempt in range(4):
        made = create(base, "tunisian", "1v1", [{"kind": "human"}, *bots(1)])
        code, token = made["code"], made["token"]
        auth = {"Authorization": f"Bearer {token}"}
        deadline = time.time() + 60
        while time.time() < deadline:
            view = httpx.get(f"{base}/api/tables/{code}/view", headers=auth).json()["view"]
            if view.get("result"):
                if view["result"]["winner"] is not None:
                    return code, token, view
                break  # no winner (the stock ran out): another table
            if view["to_move"] == view["seat"] and view["legal_actions"]:
                action = str(bot.act(view))
                httpx.post(
                    f"{base}/api/tables/{code}/actions", json={"action": action}, headers=auth
                )
            else:
                time.sleep(0.02)
        del attempt
    raise AssertionError("no deal was won by a farcha")


def _check_pile(page: Any, thrower: str | None) -> None:
    """The pile's top is the marked card back, in the viewport; the card only to its thrower."""
    page.locator("#result-hide").click()  # "See the table"
    top = page.locator("#pile-top-card")
    top.wait_for(state="visible")
    assert "back" in (top.get_attribute("class") or "")
    assert top.inner_text().strip().lower() == "farcha"
    box = top.bounding_box()
    size = page.viewport_size
    assert box is not None and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]
    by = page.inner_text("#pile-by")
    assert "farcha" in by and "face down" in by
    shown = page.locator("#pile-by .card")
    if thrower is None:
        assert shown.count() == 0
    else:
        assert shown.count() == 1 and shown.get_attribute("data-card") == thrower


def test_T9_the_table_shows_the_farcha_face_down(browser: Any, base_url: str) -> None:
    code, token, view = _won_table(base_url)
    winner = view["result"]["winner"]
    farcha = view["farcha"]
    assert farcha["seat"] == winner and (farcha["card"] is None) == (winner != view["seat"])
    for who, key in ((token, "player"), (None, "spectator")):
        context, page, errors = open_table(browser, base_url, code, who, PHONE)
        try:
            page.locator("#result .overlay-card").wait_for(state="visible")
            mine = who is not None and winner == view["seat"]
            _check_pile(page, farcha["card"] if mine else None)
            shot(page, f"farcha-face-down-{key}")
            if AXE.exists():  # `make test` installs axe-core (the table UI tests need it)
                assert not axe_serious(page)
            page.click("[data-drawer='log-box']")
            log = page.locator("#log li").filter(has_text="farcha")
            assert log.count() == 1 and ("face down" in log.inner_text())
            shot(page, f"farcha-log-{key}")
        finally:
            context.close()
        assert not errors, errors
