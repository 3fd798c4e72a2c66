"""A game with no browser code of its own plays on the table page (issue 10, item 1).

The toy rummy (tests/toy_game) has no ``WebHooks``: /api/games gives it no client
module, and the generic table page shows what every game shares (seats and card counts,
the pile, the hand, the legal moves, a points table at the end) with no page error and
no edit to the client. Headless Debian Chromium; screenshots in artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

import httpx
from browser_support import served
from test_browser import CHROMIUM
from test_table_browser import (
    DESKTOP,
    PHONE,
    inside,
    my_turn,
    open_table,
    play_to_end,
    shot,
    version,
    wait_version,
)
from toy_support import toy_registered

from rami.server import ServerConfig

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


@pytest.fixture(scope="module")
def toy_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("toy-browser") / "rami.db"
    with toy_registered(), served(ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0)) as url:
        yield url


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_game_without_a_client_module_plays_on_the_table_page(
    browser: Any, toy_url: str, size: dict[str, int]
) -> None:
    games = httpx.get(f"{toy_url}/api/games", timeout=10).json()
    toy = next(g for g in games if g["name"] == "toy")
    assert toy["client"] == {"table": None, "score": None}
    assert all(g["client"]["table"] for g in games if g["name"] != "toy")
    body = {
        "game": "toy",
        "preset": "classic",
        "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
    }
    made = httpx.post(f"{toy_url}/api/tables", json=body, timeout=10)
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]
    context, page, errors = open_table(browser, toy_url, code, token, size)
    try:
        for _ in range(6):  # the bot may go out before my first turn: deal again
            my_turn(page)
            if page.get_attribute("body", "data-deal-over") != "1":
                break
            before = version(page)
            page.click("#next-deal")
            wait_version(page, before)
        assert page.get_attribute("body", "data-my-turn") == "1"
        assert page.locator("#tiplu-box").is_hidden()  # no wild-card box for this game
        assert page.locator("#table-melds-box").is_hidden()
        assert inside(page, "#hand .card", size) == len(page.locator("#hand .card").all()) > 0
        assert inside(page, "#actions button[data-action]", size) >= 1
        shot(page, f"table-toy-{'phone' if size is PHONE else 'desktop'}")
        play_to_end(page)
        page.locator("#result").wait_for(state="visible")
        assert page.locator("#result .result-table").count() == 1
        shot(page, f"table-toy-end-{'phone' if size is PHONE else 'desktop'}")
        assert not errors, errors
    finally:
        context.close()
