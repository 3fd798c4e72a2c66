"""M-15: an unseen player's value points count min(actual, ``unseen_value_cap``) — and the
end of a deal shows that capped figure with its "capped" item, as ``rami score`` does.

The deal-end explanation failed on the cap item (``item_parts`` did not read it), so
the table fell back on the engine's uncapped figure (18) with no item, while the nets
used 14. One source now: ``settle.capped_values`` for the engine and the calculator.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from marriage_support import table

from rami.marriage.deal_end import deal_document, deal_end
from rami.marriage.game import OVER, MarriageState
from rami.marriage.ledger import score_deal
from rami.marriage.maal import MaalItem, item_parts
from rami.server.aids import table_aids

I18N = Path(__file__).resolve().parent.parent / "src" / "rami" / "server" / "static" / "i18n"
CAPPED = "unseen: capped at 14"


def _ended(cap: int | None = None) -> MarriageState:
    """An indian deal settled with seat 0 seen and seat 1 unseen holding a marriage and a
    tiplu copy (7♥ 8♥ 9♥ + 8♥ under tiplu 8♥: 14 + 4 = 18 value points)."""
    rules: dict[str, object] = {"preset": "indian"}
    if cap is not None:
        rules["unseen_value_cap"] = cap
    state = table(rules, {1: "7♥ 8♥ 9♥ 8♥"}, players=3, tiplu="8♥")
    state.seen[0] = True  # the rest of the deal does not matter to the settlement
    state._tiplu_picked = True
    state._result = state._settle()
    state._phase = OVER
    return state


def test_M15_the_deal_end_shows_the_capped_value_and_its_item() -> None:
    state = _ended()
    result = state.result
    assert result is not None
    details = result.details
    unseen = details["players"][1]
    assert not unseen["seen"] and unseen["maal"] == 14 and CAPPED in unseen["maal_items"]
    rules = state.rules.to_json()
    end = deal_end(details, rules, list(result.scores))
    line = end["seats"][1]
    assert end["agrees"] and line["maal"] == 14 and line["maal_items"][-1] == CAPPED
    assert line["maal_parts"][-1] == {"kind": "capped", "cards": [], "points": 14}
    assert line["maal_part"] == 3 * 14 - 14  # the nets' pairwise difference used 14
    scored = score_deal(deal_document(details, rules))["players"][1]  # `rami score`
    assert scored["maal"] == line["maal"] and scored["maal_items"] == line["maal_items"]
    # the table's aids carry the explanation (it used to fail, and the page showed 18)
    view = state.view(None)
    aids = table_aids("marriage", view)
    shown = aids["deal_end"]["seats"][1]
    assert (shown["maal"], shown["maal_parts"]) == (14, line["maal_parts"])


def test_M15_an_uncapped_value_has_no_item_and_the_cap_is_the_option() -> None:
    state = _ended(cap=20)
    result = state.result
    assert result is not None
    unseen = result.details["players"][1]
    assert unseen["maal"] == 18 and not any("capped" in x for x in unseen["maal_items"])


def test_M15_the_notes_read_back_and_are_worded_in_every_language() -> None:
    assert item_parts(CAPPED) == MaalItem("capped", [], 14)
    assert item_parts("unseen: maal does not count") == MaalItem("uncounted", [], 0)
    for bad in ("unseen: capped at x", "unseen: maal does not count 3"):
        with pytest.raises(ValueError, match="not a maal item"):
            item_parts(bad)
    for lang in ("en", "ar", "ne", "fr", "ru", "zh"):
        strings = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        assert "{points}" in strings["maal_item_capped"], lang
        assert strings["maal_item_uncounted"], lang
