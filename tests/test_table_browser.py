"""The table page as players meet it (issue 9), in headless Debian Chromium.

Tables are made over HTTP (quicker than the lobby, which test_browser.py covers) on a
real uvicorn server with no bot delay. Checked with bounding boxes, not only visibility:
on the player's turn the pile's top card, the whole hand and the legal move controls are
inside a 1280×800 and a 375×812 viewport, in English and in Arabic (right to left), for
both games. Then: double-click and keyboard discards, focus after a move, the deal's end
panel in view with the figures of ``rami score``, a player who leaves (turn timer, a bot
takes the seat, the seat code brings them back from another browser), rematch, replay,
reactions, and a hostile name shown as text. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import subprocess
import sys
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

base_url = pytest.fixture(scope="module", name="base_url")(test_browser.base_url.__wrapped__)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}
XSS = "<img src=x onerror=alert(1)>"
SRC = Path(__file__).resolve().parents[1] / "src"


def create(base: str, game: str, preset: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    body = {"game": game, "preset": preset, "seats": seats, "name": extra.pop("name", "Ann")}
    body.update(extra)
    response = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def bots(n: int) -> list[dict[str, Any]]:
    return [{"kind": "bot", "level": "easy"} for _ in range(n)]


def open_table(
    browser: Any, base: str, code: str, token: str | None, size: dict[str, int], lang: str = "en"
) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=size, locale="en-GB", reduced_motion="reduce")
    context.add_init_script(f"localStorage.setItem('rami.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(f"{base}/t/{code}" + (f"#token={token}" if token else ""))
    page.wait_for_selector("body[data-version]" if code != "NOSUCH" else "body[data-ready]")
    return context, page, errors


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def inside(page: Any, selector: str, size: dict[str, int]) -> int:
    """Every element matching ``selector`` lies inside the viewport once the layout has
    settled (a loaded machine may measure a panel mid-layout); how many there are."""
    script = (
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })"
    )

    def fits(box: list[float]) -> bool:
        left, top, right, bottom = box
        return (
            left >= -0.5
            and top >= -0.5
            and right <= size["width"] + 0.5
            and (bottom <= size["height"] + 0.5)
        )

    deadline = time.monotonic() + 3.0
    boxes = page.eval_on_selector_all(selector, script)
    while not all(fits(b) for b in boxes) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        boxes = page.eval_on_selector_all(selector, script)
    for left, top, right, bottom in boxes:
        assert left >= -0.5 and top >= -0.5, (selector, left, top)
        assert right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5, (
            selector,
            right,
            bottom,
            size,
        )
    return len(boxes)


def my_turn(page: Any, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "document.body.dataset.myTurn === '1' || document.body.dataset.dealOver === '1'",
        timeout=timeout,
    )


def version(page: Any) -> int:
    return int(page.get_attribute("body", "data-version") or 0)


def wait_version(page: Any, after: int, timeout: float = 10_000) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version) > {after}", timeout=timeout)


def simple_move(page: Any) -> None:
    """One legal move: draw/take/pass/see if offered, else the first discardable card."""
    for button in page.locator("#actions button[data-action]").all():
        if " " not in (button.get_attribute("data-action") or ""):
            button.click()
            return
    card = page.locator("#hand .card.discardable").first
    if card.count():
        card.dblclick()
        return
    page.select_option("#all-moves", index=1)  # nothing is preselected (issue 21)
    page.click("#play-selected")


def play_to_end(page: Any, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while page.get_attribute("body", "data-deal-over") != "1":
        assert time.time() < deadline, "the deal did not end in time"
        my_turn(page)
        if page.get_attribute("body", "data-deal-over") == "1":
            break
        before = version(page)
        simple_move(page)
        try:
            page.wait_for_function(
                f"Number(document.body.dataset.version) > {before} || "
                "document.body.dataset.dealOver === '1'",
                timeout=10_000,
            )
        except Exception:
            shot(page, "table-stuck")
            raise


@pytest.mark.parametrize(
    ("game", "preset", "others"), [("marriage", "nepali", 3), ("tunisian", "1v1", 1)]
)
def test_one_screen_per_turn_desktop_and_phone_english_and_arabic(
    browser: Any, base_url: str, game: str, preset: str, others: int
) -> None:
    made = create(base_url, game, preset, [{"kind": "human"}, *bots(others)])
    code, token = made["code"], made["token"]
    if game == "tunisian":  # the dealer's first discard, so the pile has a top card
        view = httpx.get(
            f"{base_url}/api/tables/{code}/view", headers={"Authorization": f"Bearer {token}"}
        ).json()["view"]
        first = next((a for a in view["legal_actions"] if a.startswith("discard")), None)
        if first is not None:
            httpx.post(
                f"{base_url}/api/tables/{code}/actions",
                json={"action": first},
                headers={"Authorization": f"Bearer {token}"},
            )
    for size, tag in ((DESKTOP, "desktop"), (PHONE, "phone")):
        for lang in ("en", "ar"):
            context, page, errors = open_table(browser, base_url, code, token, size, lang)
            try:
                my_turn(page)
                page.wait_for_selector("#pile-top .card")
                assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
                assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
                assert inside(page, "#pile-top .card", size) == 1
                assert inside(page, "#hand .card", size) == (21 if game == "marriage" else 14)
                assert inside(page, "#actions button[data-action]", size) >= 1
                inside(page, "#all-moves, #play-selected, #hint-button", size)
                inside(page, "#status-text", size)
                assert inside(page, ".seat-box", size) == others
                if lang == "ar":
                    assert page.evaluate("document.documentElement.dir") == "rtl"
                    log = page.locator("#log").text_content() or ""
                    assert log and "seat " not in log and "deals" not in log  # translated
                    assert "Ann" in log or "Bot" in log  # seats by the names shown
                shot(page, f"table-{game}-{tag}-{lang}")
            finally:
                context.close()
            assert not errors, errors


def test_double_click_and_keyboard_discard_keep_focus_on_the_controls(
    browser: Any, base_url: str
) -> None:
    made = create(base_url, "tunisian", "1v1", [{"kind": "human"}, *bots(1)])
    context, page, errors = open_table(browser, base_url, made["code"], made["token"], PHONE)
    try:
        my_turn(page)
        if page.locator("#actions button[data-action='draw']").count():
            page.locator("#actions button[data-action='draw']").focus()
            before = version(page)
            page.keyboard.press("Enter")  # draw with the keyboard
            wait_version(page, before)
            page.wait_for_selector("#hand .card.drawn")
            focused = page.evaluate(
                "document.activeElement !== document.body && "
                "!!document.activeElement.closest('#actions-box, #hand')"
            )
            assert focused, page.evaluate("document.activeElement.outerHTML")
            shot(page, "table-drawn-card-marked")
        card = page.locator("#hand .card.discardable").first
        text = card.get_attribute("data-card")
        held = page.locator(f"#hand .card[data-card='{text}']").count()
        before = version(page)
        card.dblclick()  # double-click discards
        wait_version(page, before)
        top, by, older = page.evaluate(
            "[document.querySelector('#pile-top .card').dataset.card,"
            " document.querySelector('#pile-by').textContent,"
            " [...document.querySelectorAll('#pile .card')].map(c => c.dataset.card)]"
        )  # read at once: the bot may already have thrown on top of it
        # the card left the hand; it is on the pile unless the bot took it and threw another
        assert page.locator(f"#hand .card[data-card='{text}']").count() == held - 1
        recent = page.evaluate(
            "[...document.querySelectorAll('#log > *')].slice(0, 4)"
            ".map(e => [...e.querySelectorAll('.card')].map(c => c.dataset.card))"
        )  # the newest entries' cards: a take of it shows next to my discard
        taken = sum(text in cards for cards in recent) >= 2
        assert (top == text and "(you)" in by) or text in older[:2] or taken, (
            top,
            by,
            older,
            recent,
        )
        assert page.evaluate("!!document.activeElement.closest('#hand, #actions-box')")
        my_turn(page)
        page.click("#actions button[data-action='draw']")
        page.wait_for_selector("#hand .card.drawn")
        card = page.locator("#hand .card.discardable").first
        card.focus()
        before = version(page)
        page.keyboard.press("d")  # D discards the focused card
        wait_version(page, before)
        assert page.evaluate("!!document.activeElement.closest('#hand, #actions-box')")
    finally:
        context.close()
    assert not errors, errors


def _score_doc(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    details = view["result"]["details"]
    players = []
    for p in details["players"]:
        entry: dict[str, Any] = {"name": names[p["seat"]], "cards": p["cards"], "seen": p["seen"]}
        if p["seen"]:
            entry["qualified"] = p["path"]
        if p.get("exposed_tunnelas"):
            entry["exposed_tunnelas"] = p["exposed_tunnelas"]
        players.append(entry)
    winner = view["result"]["winner"]
    return {
        "rules": view["rules"],
        "tiplu": details.get("tiplu"),
        "players": players,
        "finisher": None if winner is None else names[winner],
    }


def test_deal_end_panel_in_view_with_the_figures_of_rami_score(browser: Any, base_url: str) -> None:
    made = create(
        base_url, "marriage", "nepali", [{"kind": "human"}, *bots(3)], options={"max_turns": 24}
    )
    code, token = made["code"], made["token"]
    context, page, errors = open_table(browser, base_url, code, token, PHONE)
    try:
        play_to_end(page)
        panel = page.locator("#result .overlay-card")
        panel.wait_for(state="visible")
        inside(page, "#result .overlay-card h2, #next-deal", PHONE)
        view = httpx.get(
            f"{base_url}/api/tables/{code}/view", headers={"Authorization": f"Bearer {token}"}
        ).json()["view"]
        names = [f"P{i}" for i in range(4)]
        doc = _score_doc(view, names)
        out = subprocess.run(
            [sys.executable, "-c", "from rami.cli import app; app()", "score", "marriage", "-"],
            input=json.dumps(doc),
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        )
        assert out.returncode == 0, out.stderr
        scored = json.loads(out.stdout)
        rows = scored["players"]
        for seat, row in enumerate(rows):
            maal = page.locator(f"#result .maal[data-seat='{seat}']").inner_text().split("\n")[0]
            net = page.locator(f"#result .net[data-seat='{seat}']").inner_text()
            assert int(maal) == row["maal"], (seat, maal, row)
            assert int(net.replace("+", "")) == row["net"], (seat, net, row)
        shot(page, "table-marriage-end-phone")
    finally:
        context.close()
    assert not errors, errors


def test_a_player_leaves_a_bot_plays_and_the_seat_code_brings_them_back(
    browser: Any, base_url: str
) -> None:
    made = create(
        base_url, "tunisian", "1v1", [{"kind": "human"}, {"kind": "human"}], turn_seconds=5
    )
    code = made["code"]
    joined = httpx.post(
        f"{base_url}/api/tables/{code}/join", json={"name": "Bo", "invite": made["invite"]}
    ).json()
    ann_ctx, ann, ann_errors = open_table(browser, base_url, code, made["token"], DESKTOP)
    bo_ctx, bo, _ = open_table(browser, base_url, code, joined["token"], PHONE)
    waiting = bo if ann.get_attribute("body", "data-my-turn") == "1" else ann
    waiting.click("#hint-button")  # out of turn: the hint says so instead of nothing
    waiting.wait_for_selector("#hint p")
    assert "Not your turn" in waiting.inner_text("#hint")
    seat_code = bo.locator("#seat-code").inner_text()
    assert len(seat_code) == 8
    bo.click("[data-drawer='talk-box']")
    bo.click("[data-reaction='hello']")  # a quick reaction reaches the other seat
    ann.wait_for_selector(".bubble")
    assert "Bo" in ann.inner_text("#bubbles")
    bo_ctx.close()  # Bo leaves
    try:
        deadline = time.time() + 40
        while ann.locator("#opponents .badge.auto").count() == 0:
            assert time.time() < deadline, "no bot took the absent seat"
            if ann.get_attribute("body", "data-my-turn") == "1":
                before = version(ann)
                simple_move(ann)
                wait_version(ann, before)
            else:
                ann.wait_for_timeout(200)
        ann.wait_for_selector("#timer", state="attached")
        shot(ann, "table-absent-seat-auto")
        back_ctx, back, back_errors = open_table(browser, base_url, code, None, PHONE)
        try:
            back.fill("#seat-code-input", seat_code.lower())
            back.click("#seat-code-form button")
            back.wait_for_selector("body[data-seated='1'] #hand .card")
            ann.wait_for_function(
                "document.querySelectorAll('#opponents .badge.auto').length === 0"
            )
            table = httpx.get(f"{base_url}/api/tables/{code}").json()
            assert table["seats"][1]["online"] and not table["seats"][1]["auto"]
            shot(back, "table-seat-code-back")
        finally:
            back_ctx.close()
        assert not back_errors, back_errors
    finally:
        ann_ctx.close()
    assert not ann_errors, ann_errors


def test_rematch_same_seats_and_the_deal_replays_to_its_final_position(
    browser: Any, base_url: str
) -> None:
    made = create(
        base_url,
        "tunisian",
        "1v1",
        [{"kind": "human"}, *bots(1)],
        options={"max_turns": 6, "elimination": 50},
    )
    code = made["code"]
    context, page, errors = open_table(browser, base_url, code, made["token"], DESKTOP)
    try:
        play_to_end(page)
        page.wait_for_selector("#rematch:visible")
        final_hands = [
            page.eval_on_selector_all(
                f"#result .result-table tbody tr:nth-child({s + 1}) .card",
                "els => els.map(e => e.dataset.card)",
            )
            for s in range(2)
        ]
        page.click("#replay-button")
        page.wait_for_selector("#replay:not([hidden]) #replay-body .hands")
        assert page.get_attribute("#replay-step", "data-step") == "0"
        page.click("#replay-next")
        assert page.get_attribute("#replay-step", "data-step") == "1"
        page.click("#replay-end")
        replay_hands = [
            page.eval_on_selector_all(
                f"#replay-body .hands > div:nth-child({s + 1}) .card",
                "els => els.map(e => e.dataset.card)",
            )
            for s in range(2)
        ]
        assert sorted(replay_hands[0]) == sorted(final_hands[0])
        assert sorted(replay_hands[1]) == sorted(final_hands[1])
        shot(page, "table-replay-final")
        page.keyboard.press("Escape")
        page.click("#result-show")
        page.click("#rematch")
        page.wait_for_url(lambda url: code not in url)
        page.wait_for_selector("body[data-seated='1'] #hand .card")
        new_code = page.url.rstrip("/").split("/")[-1]
        old = httpx.get(f"{base_url}/api/tables/{code}").json()
        new = httpx.get(f"{base_url}/api/tables/{new_code}").json()
        assert old["rematch"] == new_code
        assert [(s["kind"], s["name"]) for s in new["seats"]] == [
            (s["kind"], s["name"]) for s in old["seats"]
        ]
        assert new["status"] == "playing" and new["version"] < 5
        shot(page, "table-rematch")
    finally:
        context.close()
    assert not errors, errors


def test_a_hostile_name_is_shown_as_text(browser: Any, base_url: str) -> None:
    made = create(
        base_url, "marriage", "nepali", [{"kind": "human"}, {"kind": "human"}, *bots(1)], name=XSS
    )
    code = made["code"]
    httpx.post(
        f"{base_url}/api/tables/{code}/join", json={"name": XSS + "2", "invite": made["invite"]}
    )
    httpx.post(
        f"{base_url}/api/tables/{code}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    context, page, errors = open_table(browser, base_url, code, made["token"], DESKTOP)
    try:
        page.wait_for_selector(".seat-box")
        assert XSS in page.inner_text("#me")
        assert XSS + "2" in page.inner_text("#main")
        page.click("[data-drawer='invite']")
        assert XSS in page.inner_text("#seat-list")
        page.click("[data-drawer='talk-box']")
        page.click("[data-reaction='gg']")
        page.wait_for_selector(".bubble")
        assert XSS in page.inner_text("#bubbles")
        assert page.locator("img[src='x']").count() == 0
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_timeout(300)
        shot(page, "table-hostile-name")
    finally:
        context.close()
    assert not errors, errors


def test_rules_page_is_a_players_guide_in_the_reader_language(browser: Any, base_url: str) -> None:
    for lang, heading in (("fr", "Jouer au Marriage"), ("ar", "Marriage")):
        context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
        context.add_init_script(f"localStorage.setItem('rami.lang', '{lang}')")
        page = context.new_page()
        try:
            page.goto(base_url + "/rules/marriage/nepali")
            page.wait_for_selector("#guide h2")
            guide = page.inner_text("#guide")
            assert heading in page.inner_text("#guide h2") and "|" not in guide
            assert page.locator("#guide table tbody tr").count() >= 3  # tables rendered
            assert "|---" not in page.inner_text("main")
            assert "deal_tunnela_bonus" not in page.inner_text("#options")  # labels
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            shot(page, f"rules-marriage-{lang}")
        finally:
            context.close()


def test_spectator_of_a_full_table_gets_no_dead_join_form(browser: Any, base_url: str) -> None:
    made = create(base_url, "tunisian", "1v1", [{"kind": "human"}, *bots(1)])
    context, page, errors = open_table(browser, base_url, made["code"], None, PHONE)
    try:
        page.wait_for_selector("#join-panel:not([hidden])")
        assert page.locator("#join-name").is_hidden()
        assert page.locator("#free-seats button").count() == 0
        assert "No free seat" in page.inner_text("#free-seats")
        assert page.locator("#seat-code-input").is_visible()  # a seated player may come back
        assert page.locator("#hand-box").is_hidden() and page.locator("#actions-box").is_hidden()
        shot(page, "table-spectator")
    finally:
        context.close()
    assert not errors, errors


def test_unknown_table_code_says_so(browser: Any, base_url: str) -> None:
    context, page, errors = open_table(browser, base_url, "NOSUCH", None, PHONE)
    try:
        page.wait_for_selector("body[data-missing='1']")
        assert "NOSUCH" in page.inner_text("#notice")
        assert page.locator("#hand-box").is_hidden()
        assert page.locator("#join-panel").is_hidden()
    finally:
        context.close()
    assert not errors, errors


def hand_order(page: Any) -> list[str]:
    order: list[str] = page.eval_on_selector_all(
        "#hand .card", "els => els.map(e => e.dataset.card)"
    )
    return order


def test_drag_to_reorder_and_auto_group_survive_a_reload(browser: Any, base_url: str) -> None:
    made = create(base_url, "marriage", "nepali", [{"kind": "human"}, *bots(1)])
    context, page, errors = open_table(browser, base_url, made["code"], made["token"], PHONE)
    try:
        page.wait_for_selector("#hand .card >> nth=20")
        before = hand_order(page)
        first = page.locator("#hand .card").nth(0).bounding_box()
        target = page.locator("#hand .card").nth(4).bounding_box()
        assert first is not None and target is not None
        page.mouse.move(first["x"] + 8, first["y"] + 20)
        page.mouse.down()
        for step in range(1, 6):  # a pointer drag, in steps
            x = first["x"] + 8 + (target["x"] + 8 - first["x"] - 8) * step / 5
            page.mouse.move(x, target["y"] + 20)
        page.mouse.up()
        after = hand_order(page)
        assert after != before and sorted(after) == sorted(before)
        assert after[4] == before[0]
        page.reload()
        page.wait_for_selector("#hand .card >> nth=20")
        assert hand_order(page) == after  # the arrangement survives a reload
        page.click("#sort-group")
        page.wait_for_selector("#sort-group[aria-pressed='true']")
        grouped = hand_order(page)
        assert sorted(grouped) == sorted(before)
        assert page.locator("#hand .card.gap").count() + page.locator(".hand-row").count() >= 2
        shot(page, "table-hand-grouped")
        page.reload()
        page.wait_for_selector("#sort-group[aria-pressed='true']")
        assert hand_order(page) == grouped
    finally:
        context.close()
    assert not errors, errors


def test_errors_are_worded_in_the_reader_language(browser: Any, base_url: str) -> None:
    made = create(base_url, "tunisian", "1v1", [{"kind": "human"}, {"kind": "human"}])
    code = made["code"]
    context, page, errors = open_table(browser, base_url, code, None, PHONE, "fr")
    try:
        page.wait_for_selector("#free-seats button[data-seat='1']")
        # someone else was quicker: the server's answer, as it gives it (English, a code)
        page.route(
            "**/api/tables/*/join",
            lambda route: route.fulfill(
                status=409,
                content_type="application/json",
                body='{"error": {"code": "seat_taken", "message": "seat 1 is not free"}}',
            ),
        )
        page.click("#free-seats button[data-seat='1']")
        page.wait_for_selector("#toast:not([hidden])")
        assert page.inner_text("#toast") == "Cette place est prise."
    finally:
        context.close()
    assert not errors, errors
