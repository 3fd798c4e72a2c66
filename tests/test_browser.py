"""End to end in a real browser (issue 6): Playwright drives Debian's Chromium, headless.

A real uvicorn server runs on a free port with a temporary SQLite file and no bot delay.
Through the pages only (a 375 px wide phone screen): create a Marriage table with three
bots and play a whole deal to the settlement panel; create a Tunisian 1 v 1 table and
play a deal to its end, partly with the keyboard, then switch to Arabic (right to left);
seat the shipped learned bot from the lobby's picker (offered at Tunisian 1 v 1 only).
The human's moves are whatever legal buttons the page offers. Screenshots go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
playwright_api = pytest.importorskip("playwright.sync_api")

from browser_support import CHROMIUM, PHONE, SHOTS, served  # noqa: E402

from rami.server import ServerConfig  # noqa: E402

DEAL_SECONDS = 50

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "rami.db"
    with served(ServerConfig(db_url=f"sqlite:///{db}", bot_delay=0, require_invite=True)) as url:
        yield url


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def create_table(page: Any, base_url: str, game: str, bots: int, max_turns: int) -> None:
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Ann")
    page.select_option("#game", game)
    page.wait_for_selector(f"#players option[value='{bots + 1}']", state="attached")
    if page.locator("#players").is_enabled():
        page.select_option("#players", str(bots + 1))
    for seat in range(1, bots + 1):
        page.select_option(f"select[data-seat='{seat}']", "bot:medium")
    page.click("#options-box summary")
    page.fill("#opt-max_turns", str(max_turns))
    for name in ("decks", "hand_size", "jokers"):  # each preset's own (issue 28's decision)
        assert page.locator(f"#opt-{name}").count() == 0
    page.click("#create-button")
    page.wait_for_selector("body[data-version]")


def no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a 375 px screen"


def make_a_move(page: Any, keyboard: bool) -> str:
    """Click one of the legal moves the page offers (simple moves first, then discard)."""
    for button in page.locator("#actions button[data-action]").all():
        action = button.get_attribute("data-action") or ""
        if " " not in action:  # draw, take, pass, see
            button.click()
            return action
    card = page.locator("#hand .card.discardable").first
    if card.count():
        text = card.get_attribute("data-card") or ""
        if keyboard:
            card.focus()
            page.keyboard.press("d")
            return f"discard {text}"
        card.click()
        page.locator(f"#actions button[data-action='discard {text}']").click()
        return f"discard {text}"
    button = page.locator("#actions button[data-action]").first
    if button.count():
        action = button.get_attribute("data-action") or ""
        button.click()
        return action
    page.select_option("#all-moves", index=1)  # nothing is preselected (issue 21)
    page.click("#play-selected")
    return "from the list"


def play_deal(page: Any, keyboard: bool = False) -> int:
    """Play the human's turns until the end-of-deal panel shows; the number of moves."""
    moves = 0
    deadline = time.time() + DEAL_SECONDS
    while page.get_attribute("body", "data-deal-over") != "1":
        assert time.time() < deadline, "the deal did not end in time"
        if page.get_attribute("body", "data-my-turn") != "1":
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || document.body.dataset.dealOver === '1'",
                timeout=DEAL_SECONDS * 1000,
            )
            continue
        version = page.get_attribute("body", "data-version")
        make_a_move(page, keyboard and moves % 2 == 1)
        moves += 1
        page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=10_000)
        if moves == 3:
            no_overflow(page)
    return moves


def test_marriage_deal_with_three_bots_to_the_settlement(page: Any, base_url: str) -> None:
    page.goto(base_url + "/rules/marriage/nepali")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#options tr").count() > 10
    no_overflow(page)
    page.click("#play")
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#game") == "marriage"
    no_overflow(page)
    shot(page, "lobby")
    create_table(page, base_url, "marriage", bots=3, max_turns=60)
    page.wait_for_selector("#opponents .seat-box >> nth=2")
    assert page.locator("#hand .card").count() == 21
    assert page.locator("#opponents .seat-box").count() == 3
    assert (
        page.locator("#opponents .mark.unseen").count()
        + page.locator("#opponents .mark.seen").count()
        == 3
    )
    shot(page, "marriage-table")
    moves = play_deal(page)
    assert moves > 0
    panel = page.locator("#result")
    panel.wait_for(state="visible")
    text = panel.inner_text()
    assert "settlement" in text.lower() and "maal" in text
    assert page.locator("#result .result-table tbody tr").count() == 4
    assert page.locator("#ledger tbody tr").count() == 2  # the deal and the totals
    assert page.locator("#next-deal").is_visible()
    no_overflow(page)
    shot(page, "marriage-settlement")


def test_tunisian_1v1_deal_to_the_end_with_keyboard_and_arabic(page: Any, base_url: str) -> None:
    create_table(page, base_url, "tunisian", bots=1, max_turns=40)
    page.wait_for_selector("#hand .card")
    assert page.locator("#table-melds-box").is_visible()
    page.click("#hint-button")
    page.wait_for_selector("#hint p")
    shot(page, "tunisian-table")
    play_deal(page, keyboard=True)
    page.locator("#result").wait_for(state="visible")
    assert page.locator("#result .result-table tbody tr").count() == 2
    assert "points" in page.locator("#result").inner_text().lower()
    shot(page, "tunisian-end")
    page.select_option("#lang", "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert page.locator("#next-deal").inner_text() == "الدور التالي"
    no_overflow(page)
    shot(page, "tunisian-end-arabic")
    page.click("#next-deal")
    page.wait_for_function("document.body.dataset.dealOver === '0'")
    page.select_option("#lang", "en")


def test_a_friend_joins_from_a_second_browser(browser: Any, page: Any, base_url: str) -> None:
    page.goto(base_url + "/?game=tunisian&preset=1v1")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Ann")
    page.select_option("select[data-seat='1']", "human")
    page.click("#create-button")
    page.wait_for_selector("body[data-status='waiting']")
    assert page.locator("#start").is_visible()
    invite = page.locator("#seat-list a").first.get_attribute("href")
    assert invite is not None and "?seat=2#invite=" in invite  # the seat needs the invite
    friend_context = browser.new_context(viewport=PHONE, locale="fr-FR")
    try:
        friend = friend_context.new_page()
        friend.goto(invite)
        friend.wait_for_selector("#free-seats button.wanted")
        assert friend.locator("#hand-box").is_hidden()  # a spectator until seated
        friend.fill("#join-name", "Bo")
        friend.click("#free-seats button.wanted")
        friend.wait_for_selector("body[data-status='playing']")
        page.wait_for_selector("body[data-status='playing']")
        friend.wait_for_selector("body[data-seated='1'] #hand .card")
        assert friend.locator("#hand .card").count() in (14, 15)
        assert friend.locator("#join-panel").is_hidden()
        assert "Bo" in page.locator("#opponents").inner_text()
        for _ in range(3):  # whoever is to move plays; the other sees it arrive
            mover = page if page.get_attribute("body", "data-my-turn") == "1" else friend
            other = friend if mover is page else page
            version = int(other.get_attribute("body", "data-version") or 0)
            make_a_move(mover, keyboard=False)
            for p in (page, friend):  # both see the move before the next one
                p.wait_for_function(f"Number(document.body.dataset.version) > {version}")
        shot(friend, "tunisian-friend-fr")
    finally:
        friend_context.close()


LEARNED_OPTION = "bot:learned:tunisian_1v1"


def seat_options(page: Any) -> list[str]:
    """Every option value of the lobby's seat pickers."""
    values: list[str] = page.eval_on_selector_all(
        "#seats select option", "els => els.map(e => e.value)"
    )
    return values


def test_the_lobby_offers_the_learned_bot_only_at_its_table_and_it_plays(
    page: Any, base_url: str
) -> None:
    """The shipped model is offered for Tunisian 1 v 1 only (the table it was trained
    for), dropped when the table changes, and plays once seated."""
    pytest.importorskip("numpy")
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", "Ann")
    page.select_option("#game", "tunisian")
    page.select_option("#preset", "1v1")
    picker = page.locator("select[data-seat='1']")
    assert LEARNED_OPTION in seat_options(page)
    page.select_option("select[data-seat='1']", LEARNED_OPTION)
    page.select_option("#preset", "ffa")  # four players: the model does not fit
    page.wait_for_selector("select[data-seat='3']")
    assert LEARNED_OPTION not in seat_options(page)
    assert picker.input_value() == "bot:medium"  # the choice fell back to the default
    page.select_option("#game", "marriage")
    for players in ("2", "4"):
        page.select_option("#players", players)
        assert not [v for v in seat_options(page) if v.startswith("bot:learned:")]
    page.select_option("#game", "tunisian")
    page.select_option("#preset", "1v1")
    page.wait_for_function("!document.querySelector(\"select[data-seat='2']\")")
    page.select_option("select[data-seat='1']", LEARNED_OPTION)
    label = picker.locator(f"option[value='{LEARNED_OPTION}']").text_content()
    assert label == "Bot: learned (tunisian_1v1)"
    page.select_option("#lang", "fr")  # the pickers are redrawn in French, the choice kept
    checked = "document.querySelector(\"select[data-seat='1'] option:checked\").textContent"
    page.wait_for_function(f"{checked} === 'Bot : entraîné (tunisian_1v1)'")
    assert picker.input_value() == LEARNED_OPTION
    page.select_option("#lang", "en")
    page.wait_for_function(f"{checked} === '{label}'")
    assert picker.input_value() == LEARNED_OPTION
    picker.scroll_into_view_if_needed()
    box = picker.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"]
    no_overflow(page)
    shot(page, "lobby-learned-bot")
    page.click("#create-button")
    page.wait_for_selector("body[data-version] #opponents .seat-box")
    badge = page.locator("#opponents .seat-box .badge").first
    assert badge.inner_text() == "bot, learned (tunisian_1v1)"
    deadline = time.time() + DEAL_SECONDS
    while not page.evaluate(  # the human plays until the bot has made a move of its own
        "[...document.querySelectorAll('#log li strong')].some(s => s.textContent === 'Bot 2: ')"
    ):
        assert time.time() < deadline, "the learned bot did not move"
        if page.get_attribute("body", "data-deal-over") == "1":
            break
        if page.get_attribute("body", "data-my-turn") == "1":
            version = page.get_attribute("body", "data-version")
            make_a_move(page, keyboard=False)
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        else:
            page.wait_for_timeout(100)
    assert page.evaluate(
        "[...document.querySelectorAll('#log li strong')].some(s => s.textContent === 'Bot 2: ')"
    ), "no move of the learned bot in the log"
    page.wait_for_timeout(400)  # the discard's landing animation (0.28 s) is over
    shot(page, "tunisian-learned-bot-table")
