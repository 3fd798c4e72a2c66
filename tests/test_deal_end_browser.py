"""The end of a deal as players see it (issue 21), in headless Debian Chromium.

- The Marriage result's figures (maal, nets, who pays whom) equal ``rami score`` and the
  scorekeeper's pairwise settlement for the same deal (M-12 … M-15), for nepali and
  indian scoring; the indian result explains each net (card points and value
  difference) and shows no nepali fee note.
- One player's Next deal does not close another player's result, whose Replay still
  works; every finished deal replays from the match scoreboard.
- A refused move shows the engine's reason and rule id next to what was tried (T-3).
Screenshots go to artifacts/screenshots/ (deal-end-*.png).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

import httpx
import test_table_browser as tb
from test_table_browser import (
    DESKTOP,
    PHONE,
    SRC,
    bots,
    create,
    open_table,
    shot,
)

from rami.marriage.ledger import score_deal

base_url = tb.base_url
pytestmark = tb.pytestmark


def _doc(view: dict[str, Any]) -> dict[str, Any]:
    """The N-2 document of the deal, written from the view's result as a table would."""
    details = view["result"]["details"]
    indian = view["rules"].get("scoring") == "indian"
    winner = view["result"]["winner"]
    players = []
    for p in details["players"]:
        entry: dict[str, Any] = {"name": f"P{p['seat']}", "cards": p["cards"], "seen": p["seen"]}
        if p["seen"]:
            entry["qualified"] = p["path"]
        if p.get("exposed_tunnelas"):
            entry["exposed_tunnelas"] = p["exposed_tunnelas"]
        if indian and p["seat"] != winner:
            entry["in_hand"] = p["hand"]
        players.append(entry)
    return {
        "rules": view["rules"],
        "tiplu": details.get("tiplu"),
        "players": players,
        "finisher": None if winner is None else f"P{winner}",
    }


def _view(base: str, code: str, token: str) -> dict[str, Any]:
    got = httpx.get(f"{base}/api/tables/{code}/view", headers={"Authorization": f"Bearer {token}"})
    view: dict[str, Any] = got.json()["view"]
    return view


def _check_figures(page: Any, view: dict[str, Any]) -> None:
    """Each seat's maal and net as `rami score` gives them; each payment as the
    scorekeeper's pairwise settlement gives it."""
    doc = _doc(view)
    out = subprocess.run(
        [sys.executable, "-c", "from rami.cli import app; app()", "score", "marriage", "-"],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    for seat, row in enumerate(json.loads(out.stdout)["players"]):
        maal = page.locator(f"#result .maal[data-seat='{seat}']").inner_text().split("\n")[0]
        net = page.locator(f"#result .net[data-seat='{seat}']").inner_text()
        assert int(maal) == row["maal"], (seat, maal, row)
        assert int(net.replace("+", "")) == row["net"], (seat, net, row)
    pairs = {(int(p["from"][1:]), int(p["to"][1:]), p["points"]) for p in score_deal(doc)["pairs"]}
    shown = set()
    for li in page.locator("#result .pays li[data-payer]").all():
        shown.add(
            (
                int(li.get_attribute("data-payer")),
                int(li.get_attribute("data-payee")),
                int(li.get_attribute("data-points")),
            )
        )
    assert shown == pairs


def _move(page: Any) -> None:
    """One legal move as ``simple_move``, the discard by keyboard (D on a focused card):
    a double-click's two clicks may land too far apart on a loaded machine."""
    for button in page.locator("#actions button[data-action]").all():
        if " " not in (button.get_attribute("data-action") or ""):
            button.click()
            return
    card = page.locator("#hand .card.discardable").first
    if card.count():
        card.focus()
        page.keyboard.press("d")
        return
    page.click("#play-selected")


def _play_to_end(page: Any, seconds: float = 90) -> None:
    _play_both([page], seconds)


def _play_both(pages: list[Any], seconds: float = 90) -> None:
    """Both humans play simple moves until the deal is over on both pages."""
    deadline = time.time() + seconds
    while not all(p.get_attribute("body", "data-deal-over") == "1" for p in pages):
        assert time.time() < deadline, "the deal did not end in time"
        moved = False
        for page in pages:
            if (
                page.get_attribute("body", "data-my-turn") == "1"
                and page.get_attribute("body", "data-deal-over") != "1"
            ):
                before = int(page.get_attribute("body", "data-version") or 0)
                _move(page)
                page.wait_for_function(
                    f"Number(document.body.dataset.version) > {before} || "
                    "document.body.dataset.dealOver === '1'",
                    timeout=30_000,
                )
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)


def test_another_players_next_deal_leaves_my_result_and_its_replay(
    browser: Any, base_url: str
) -> None:
    made = create(
        base_url,
        "marriage",
        "nepali",
        [{"kind": "human"}, {"kind": "human"}, *bots(2)],
        options={"max_turns": 16},
        turn_seconds=None,
    )
    code = made["code"]
    joined = httpx.post(
        f"{base_url}/api/tables/{code}/join", json={"name": "Bo", "invite": made["invite"]}
    ).json()
    ann_ctx, ann, ann_errors = open_table(browser, base_url, code, made["token"], PHONE)
    bo_ctx, bo, bo_errors = open_table(browser, base_url, code, joined["token"], DESKTOP)
    try:
        _play_both([ann, bo])
        ann.locator("#result .overlay-card").wait_for(state="visible")
        _check_figures(ann, _view(base_url, code, made["token"]))
        assert ann.inner_text("#result-title") == "Deal 1 is over"
        shot(ann, "deal-end-nepali-phone")
        # Bo starts the next deal: Ann's result stays, with its Replay
        bo.click("#next-deal")
        bo.wait_for_function("document.body.dataset.dealOver === '0'")
        assert bo.locator("#result").is_hidden()
        ann.wait_for_function("document.body.dataset.dealOver === '0'")
        assert ann.locator("#result").is_visible()
        assert ann.get_attribute("#result", "data-live") == "0"
        assert ann.locator("#result .next-started").is_visible()
        assert ann.locator("#result-close").is_visible() and ann.locator("#next-deal").is_hidden()
        shot(ann, "deal-end-kept-after-next-deal")
        ann.click("#replay-button")
        ann.wait_for_selector("#replay:not([hidden]) #replay-body .hands")
        assert "1" in ann.inner_text("#replay-step")  # deal 1's frames
        ann.click("#replay-end")
        shot(ann, "deal-end-replay-after-next-deal")
        # every finished deal replays from the match scoreboard
        ann.keyboard.press("Escape")
        ann.click("#result-show")
        ann.click("#result-close")
        assert ann.locator("#result").is_hidden()
        ann.click("[data-drawer='ledger-box']")
        ann.click("#ledger [data-replay-deal='0']")
        ann.wait_for_selector("#replay:not([hidden]) #replay-body .hands")
    finally:
        ann_ctx.close()
        bo_ctx.close()
    assert not ann_errors and not bo_errors, (ann_errors, bo_errors)


def test_indian_result_explains_each_net_without_the_nepali_fee_note(
    browser: Any, base_url: str
) -> None:
    made = create(
        base_url, "marriage", "indian", [{"kind": "human"}, *bots(3)], options={"max_turns": 16}
    )
    code, token = made["code"], made["token"]
    context, page, errors = open_table(browser, base_url, code, token, PHONE, "ne")
    try:
        _play_to_end(page)
        page.locator("#result .overlay-card").wait_for(state="visible")
        view = _view(base_url, code, token)
        _check_figures(page, view)
        note = page.inner_text("#result .fee-note")
        assert "M-15" in note and "M-13" not in note
        lines = page.locator("#result .explain li").all_inner_texts()
        assert len(lines) == 4 and all("=" in line for line in lines)
        for p in view["result"]["details"]["players"]:  # every hand is shown
            assert page.locator(f"#result .end-hand[data-seat='{p['seat']}']").count() == 1
        # value items worded from their codes in Nepali (issue 21), never the Latin name
        items = page.locator("#result .items li")
        assert items.count() == page.locator("#result .items li[data-kind]").count()
        for i in range(items.count()):
            kind = items.nth(i).get_attribute("data-kind") or ""
            assert kind not in items.nth(i).inner_text(), items.nth(i).inner_text()
        shot(page, "deal-end-indian-nepali-language")
        page.locator("#result .end-hands").scroll_into_view_if_needed()
        shot(page, "deal-end-indian-hands")
    finally:
        context.close()
    assert not errors, errors


def test_a_refused_move_shows_the_reason_and_rule_id(browser: Any, base_url: str) -> None:
    made = create(base_url, "tunisian", "1v1", [{"kind": "human"}, *bots(1)])
    context, page, errors = open_table(browser, base_url, made["code"], made["token"], PHONE)
    try:
        for _ in range(6):  # the dealer's first turn is a discard (T-2): play it
            tb.my_turn(page)
            if page.locator("#actions button[data-action='draw']").count():
                break
            before = tb.version(page)
            _move(page)
            tb.wait_version(page, before, 30_000)
        page.wait_for_selector("#actions button[data-action='draw']", timeout=20_000)
        page.locator("#hand .card").first.focus()
        page.keyboard.press("d")  # a discard before drawing: refused (T-3)
        page.wait_for_selector("#toast:not([hidden])")
        text = page.inner_text("#toast")
        assert page.get_attribute("#toast", "data-rule") == "T-3"
        assert "T-3" in text and "draw first" in text.lower() and "Discard" in text
        shot(page, "deal-end-refusal-rule-id")
        # the private seat link is apart from the invite link, closed and masked
        page.click("[data-drawer='invite']")
        assert page.locator("#invite-link").is_visible()
        assert page.locator("#private-link").is_hidden()
        page.click("#private-box summary")
        assert page.get_attribute("#private-link", "type") == "password"
        assert "#token=" in page.input_value("#private-link")
        shot(page, "deal-end-invite-and-private-link")
    finally:
        context.close()
    assert not errors, errors


def test_scorekeeper_sends_no_incomplete_draft_and_forgets_old_errors(
    browser: Any, base_url: str
) -> None:
    """/score: a seen player without a tiplu is a draft still being filled, not a request
    the server must refuse (no 400s); an error does not outlive its evening."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    refused: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("response", lambda r: r.status == 400 and refused.append(r.url))
    try:
        page.goto(f"{base_url}/score")
        page.wait_for_selector("body[data-ready='1']")
        names = page.locator("#names input")
        for i, name in enumerate(["Asha", "Bikash", "Chandra"]):
            names.nth(i).fill(name)
        page.tap("#start")
        page.wait_for_selector("#entry:not([hidden])")
        page.locator("#rows .player-row[data-player='Asha'] [data-status='melds']").tap()
        page.wait_for_timeout(600)  # the preview's delay, twice over
        assert refused == [], refused  # incomplete (no tiplu): nothing was sent
        page.tap("#save-deal")  # saving it anyway: the server says why
        page.locator("#deal-error").wait_for(state="visible")
        assert refused  # that one is a real refusal
        page.tap("#new-evening")
        page.wait_for_selector("#setup:not([hidden])")
        page.tap("#start")
        page.wait_for_selector("#entry:not([hidden])")
        assert page.locator("#deal-error").is_hidden()  # the old evening's error is gone
    finally:
        context.close()
    assert not errors, errors


def test_offline_banner_disables_play_and_back_there_is_a_summary(
    browser: Any, base_url: str
) -> None:
    """Disconnected: a banner and no live play buttons; back: what was played meanwhile."""
    made = create(base_url, "tunisian", "1v1", [{"kind": "human"}, *bots(1)])
    code, token = made["code"], made["token"]
    context, page, errors = open_table(browser, base_url, code, token, PHONE)
    cut = {"on": False, "routes": []}

    def handle(ws: Any) -> None:
        if cut["on"]:
            ws.close()
            return
        ws.connect_to_server()
        cut["routes"].append(ws)

    try:
        page.route_web_socket("**/ws/tables/**", handle)
        page.reload()
        page.wait_for_selector("body[data-version]")
        tb.my_turn(page)
        cut["on"] = True
        for ws in cut["routes"]:
            ws.close()
        page.wait_for_selector("#offline-banner:not([hidden])")
        assert page.get_attribute("body", "data-offline") == "1"
        live = page.eval_on_selector_all(
            "#actions button", "els => els.filter(e => !e.disabled).length"
        )
        assert live == 0
        shot(page, "deal-end-offline-banner")
        # meanwhile the seat plays from elsewhere (the HTTP API) and the bot answers
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(4):
            view = _view(base_url, code, token)
            legal = view.get("legal_actions") or []
            if not legal:
                break
            move = next((a for a in legal if a in ("draw", "pass")), None) or next(
                a for a in legal if a.startswith("discard")
            )
            httpx.post(f"{base_url}/api/tables/{code}/actions", json={"action": move}, headers=auth)
        cut["on"] = False
        page.wait_for_selector("#offline-banner", state="hidden", timeout=20_000)
        page.wait_for_selector("#away:not([hidden]) li")
        assert "While you were away" in page.inner_text("#away")
        shot(page, "deal-end-back-while-away")
    finally:
        context.close()
    assert not errors, errors


def test_tunisian_result_says_why_each_player_scores(browser: Any, base_url: str) -> None:
    """T-10: went out 0, opened the cards left, not opened 100; the totals beside; the
    match-over screen (T-13, elimination 50) is titled so."""
    made = create(
        base_url,
        "tunisian",
        "1v1",
        [{"kind": "human"}, *bots(1)],
        options={"max_turns": 6, "elimination": 50},
    )
    context, page, errors = open_table(browser, base_url, made["code"], made["token"], PHONE, "ar")
    try:
        _play_to_end(page)
        page.locator("#result .overlay-card").wait_for(state="visible")
        view = _view(base_url, made["code"], made["token"])
        whys = page.locator("#result .why").all_inner_texts()
        assert len(whys) == 2 and all("T\u201110" in w or "T\u20119" in w for w in whys)
        for seat, points in enumerate(view["result"]["scores"]):
            assert page.inner_text(f"#result .points[data-seat='{seat}']") == str(points)
        if view["match"]["game_over"]:  # the match-over screen says so, not "deal over"
            assert page.inner_text("#result-title") == "انتهت المباراة"
            assert page.locator("#rematch").is_visible()
        shot(page, "deal-end-tunisian-arabic")
    finally:
        context.close()
    assert not errors, errors


# Runs the game's result module on the page with a small kit, as table.js would.
_PROBE = """async ([url, view, aids]) => {
  const cards = await import("/static/js/cards.js");
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage("en");
  const mod = await import(url);
  const el = (tag, cls, text) => {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  };
  const resultTable = (headers, rows) => {
    const table = el("table");
    for (const row of rows) {
      const tr = el("tr");
      for (const c of row) {
        const td = el("td");
        if (c instanceof Node) td.append(c);
        else td.textContent = String(c);
        tr.append(td);
      }
      table.append(tr);
    }
    return table;
  };
  const kit = {
    el, t: i18n.t, cardRow: cards.cardRow, cardElement: cards.cardElement, resultTable,
    nameOf: (s) => `Seat ${s + 1}`, wildMarks: () => [],
    signed: (x) => (x > 0 ? `+${x}` : String(x)),
    state: { view, aids },
    shown: { result: view.result, aids, rules: view.rules, live: true },
  };
  const body = [];
  mod.resultBody(kit, view.result.details, view.result, body);
  const box = el("div");
  box.append(...body);
  document.body.append(box);
  return box.innerText;
}"""


def _dublee_finish() -> tuple[dict[str, Any], dict[str, Any]]:
    """A nepali deal that ends with a dublee finish (M-9), its result and its aids."""
    import random as rnd

    from rami.marriage.game import new_deal
    from rami.marriage.web import aids

    for seed in range(60):
        state = new_deal("nepali", 4, seed)
        rng = rnd.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            finish = [a for a in legal if str(a).startswith("finish")]
            state.apply(finish[0] if finish else rng.choice(legal))
        view: Any = state.view(0)
        if (
            view["result"]["details"]["finish"]
            and view["result"]["details"]["finish"]["kind"] == "dublees"
        ):
            return view, aids(view)
    raise AssertionError("no dublee finish in 60 seeds")


def test_a_dublee_finish_is_named_with_its_bonus(browser: Any, base_url: str) -> None:
    """M-9: the game's result module names a dublee finish and the bonus each opponent
    pays, from the server's figures (``aids.deal_end``)."""
    view, aids = _dublee_finish()
    client = next(g for g in httpx.get(f"{base_url}/api/games").json() if g["name"] == "marriage")
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{base_url}/")
        text = page.evaluate(
            _PROBE,
            [client["client"]["table"], view, aids],
        )
        winner = view["result"]["winner"]
        assert f"Seat {winner + 1} finished with dublees (M-9)" in text
        assert "dublee bonus of 5" in text and "Who pays whom" in text
    finally:
        context.close()
