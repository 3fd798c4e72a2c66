"""The web replay (issue 24): a player finishes a deal, opens its replay link; another
browser steps through it with the arrow keys, sees the settlement and verifies the shuffle;
the player reviews their own decisions with a progress line that survives a reload; a
``.rami`` file opens in the replay page and a bad one gets one error naming its line."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

import httpx
from browser_support import served_app
from test_browser import CHROMIUM
from test_table_browser import DESKTOP, PHONE, bots, create, inside, open_table, play_to_end, shot
from test_table_ui_browser import AXE
from test_table_ui_browser import axe_serious as table_axe

from rami.games import get_game
from rami.records import SeatInfo, match_record, read, write
from rami.server import ServerConfig, create_app
from rami.server.replays import ReviewJobs, real_reviewer

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


def axe_serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations (``make test`` installs axe-core; a run
    without it checks the rest, except on CI)."""
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail("axe-core is not installed: run `make test` (npm ci)")
        return []
    return table_axe(page)


def two_deals() -> str:
    """A record of a two-deal match played at random (T-13: six turns a deal)."""
    game = get_game("tunisian")
    match = game.new_match({"preset": "1v1", "max_turns": 6}, 2, 5)
    rng = random.Random(2)
    for number in range(2):
        if number:
            match.next_deal()
        state = match.current
        while not state.is_over:
            legal = state.view(state.to_move)["legal_actions"]
            state.apply(rng.choice(legal), state.to_move)
    seats = [SeatInfo("Ann"), SeatInfo("Bo", "bot", "easy")]
    return write(match_record(game, match, seats, seed=9, date="2026-12-02T00:00:00Z"))


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("replay") / "rami.db"
    patch = pytest.MonkeyPatch()
    patch.setenv("RAMI_CACHE_DIR", str(db.parent / "reviews"))  # not the user's cache
    app = create_app(ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0))
    # the real review (rami.review in its own process), with few determinizations
    app.state.review_jobs = ReviewJobs(real_reviewer(samples=4))
    try:
        with served_app(app) as url:
            yield url
    finally:
        patch.undo()


def test_replay_link_arrow_keys_verify_and_a_review_with_progress(
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
    context, page, errors = open_table(browser, base_url, code, token, DESKTOP)
    other = browser.new_context(viewport=DESKTOP, locale="en-GB", reduced_motion="reduce")
    other.add_init_script("try { localStorage.setItem('rami.lang', 'en') } catch {}")
    try:
        play_to_end(page)
        link = page.locator("#replay-link")
        link.wait_for(state="visible")
        inside(page, "#replay-link, #review-link", DESKTOP)
        shot(page, "replay-table-link")
        url = link.get_attribute("href") or ""
        assert "/r/" in url and code not in url
        # another browser, with no seat: the link, the arrow keys, the settlement, verify
        viewer = other.new_page()
        viewer.on("pageerror", lambda exc: errors.append("viewer: " + str(exc)))
        viewer.goto(f"{url}#review")  # even with the table's review link
        viewer.wait_for_selector("body[data-ready='1']")
        assert viewer.locator("#review-box").is_hidden()  # not their seat: no review
        assert viewer.locator("#replay-seats .seat-box").count() == 2
        assert viewer.get_attribute("body", "data-step") == "0"
        viewer.locator("body").press("ArrowRight")
        viewer.locator("body").press("ArrowRight")
        viewer.locator("body").press("ArrowRight")
        assert viewer.get_attribute("body", "data-step") == "3"
        viewer.locator("body").press("ArrowLeft")
        assert viewer.get_attribute("body", "data-step") == "2"
        assert viewer.locator("#replay-move").inner_text().strip()
        shot(viewer, "replay-step")
        viewer.locator("body").press("End")
        viewer.locator("#replay-result").wait_for(state="visible")
        assert "finished" in viewer.locator("#replay-result").inner_text() or "no finisher" in (
            viewer.locator("#replay-result").inner_text()
        )
        viewer.click("#replay-verify")
        viewer.wait_for_selector("body[data-verified]")
        verdict = viewer.locator("#replay-verdict").inner_text()
        assert viewer.get_attribute("body", "data-verified") == "ok", verdict
        assert "The shuffle holds" in verdict and "verified 1 deal" in verdict
        inside(viewer, "#replay-steps button, #replay-verify", DESKTOP)
        shot(viewer, "replay-settlement-verified")
        assert axe_serious(viewer) == []
        # every hand or one seat's view: the bot's cards become backs from seat 0's view
        viewer.select_option("#replay-pov", "0")
        backs = viewer.locator("#replay-seats .seat-box").nth(1).locator(".card.back")
        assert backs.count() > 0
        viewer.set_viewport_size(PHONE)
        viewer.locator("body").press("Home")
        inside(viewer, "#replay-steps button, #replay-slider", PHONE)
        wide = viewer.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => "
            "e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 5)"
            ".map(e => e.tagName + '#' + e.id + '.' + e.className)"
        )
        assert viewer.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
        shot(viewer, "replay-phone")
        # the player: their own review, with a progress line that survives a reload
        assert link.get_attribute("target") == "_blank"  # the table stays open
        mine = context.new_page()  # the same browser as the table: it knows the seat
        mine.on("pageerror", lambda exc: errors.append("mine: " + str(exc)))
        review_url = page.locator("#review-link").get_attribute("href") or ""
        assert review_url == f"{url}#review"  # the result panel's Review my decisions
        mine.goto(review_url)
        mine.wait_for_selector("body[data-ready='1']")
        mine.locator("#review-box").wait_for(state="visible")
        assert mine.locator("#review-start").is_disabled()  # started by the link
        progress = mine.locator("#review-progress")
        progress.wait_for(state="visible")
        assert "Review" in progress.inner_text() or "Waiting" in progress.inner_text()
        shot(mine, "replay-review-progress")
        mine.reload()
        mine.wait_for_selector("body[data-ready='1']")
        mine.wait_for_selector("body[data-review]")  # the same job, found again
        mine.wait_for_selector("body[data-review='done']", timeout=60_000)
        rows = mine.locator("#review-result tr")
        assert rows.count() >= 2
        summary = mine.locator(".review-summary").inner_text()
        assert "points lost" in summary and "accuracy" in summary
        shot(mine, "replay-review-done")
        assert axe_serious(mine) == []
        first = mine.locator("#review-result td button").first
        index = int(first.inner_text()) - 1
        first.click()  # the position of that decision, from the player's own view
        assert mine.get_attribute("body", "data-step") == str(index)
        assert mine.locator("#replay-pov").input_value() == "0"
        # the creator makes the table's replays private: the other browser is refused
        page.click("#result-hide")  # see the table, then its invite drawer
        page.click("[data-drawer='invite']")
        private = page.locator("#replay-private")
        private.wait_for(state="visible")
        shot(page, "replay-private-setting")
        private.check()
        page.wait_for_function("!document.getElementById('replay-private').disabled")
        viewer.reload()
        viewer.wait_for_selector("body[data-ready='1']")
        assert "keeps its replays private" in viewer.locator("#replay-notice").inner_text()
        assert viewer.locator("#replay-seats .seat-box").count() == 0
        mine.reload()  # the player's own browser still opens it
        mine.wait_for_selector("body[data-ready='1']")
        assert mine.locator("#replay-seats .seat-box").count() == 2
        # a .rami file opened in the replay page; a bad one names its line
        # private now: the table's code alone gets no record, a seat's token does
        closed = httpx.get(f"{base_url}/api/tables/{code}/record", timeout=10)
        assert closed.status_code == 403
        text = httpx.get(
            f"{base_url}/api/tables/{code}/record",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).text
        good = tmp_path / "deal.rami"
        good.write_text(text, encoding="utf-8")
        bad = tmp_path / "bad.rami"
        bad.write_text(text.replace("Seed: ", "Seed: x", 1), encoding="utf-8")
        viewer.goto(f"{base_url}/replay")
        viewer.wait_for_selector("body[data-ready='1']")
        viewer.set_input_files("#replay-file", str(bad))
        viewer.wait_for_function(
            "document.getElementById('replay-notice').textContent.includes('bad.rami')"
        )
        error = viewer.locator("#replay-notice").inner_text()
        assert "line" in error and "\n" not in error.strip(), error
        shot(viewer, "replay-bad-file")
        viewer.set_input_files("#replay-file", str(good))
        viewer.wait_for_function("document.body.dataset.steps > 0")
        assert viewer.locator("#replay-notice").is_hidden()
        viewer.click("#replay-verify")
        viewer.wait_for_selector("body[data-verified='ok']")
        shot(viewer, "replay-file")
        # a record of two deals: the other deal's positions come when it is chosen
        two = tmp_path / "two.rami"
        record = two_deals()
        two.write_text(record, encoding="utf-8")
        first, second = (len(d.moves) for d in read(record).deals)
        viewer.set_input_files("#replay-file", str(two))
        viewer.wait_for_function("document.getElementById('replay-deal').options.length === 2")
        assert viewer.locator("#replay-deal").input_value() == "1"  # the last finished deal
        assert viewer.get_attribute("body", "data-steps") == str(second)
        viewer.select_option("#replay-deal", "0")
        viewer.wait_for_function(f"document.body.dataset.steps === '{first}'")
        viewer.locator("body").press("End")
        viewer.locator("#replay-result").wait_for(state="visible")
        viewer.select_option("#lang", "ar")
        viewer.wait_for_function("document.documentElement.dir === 'rtl'")
        assert viewer.locator("#replay-verify").inner_text() == "تحقق من هذا الخلط"
        shot(viewer, "replay-file-arabic")
    finally:
        other.close()
        context.close()
    assert not errors, errors
