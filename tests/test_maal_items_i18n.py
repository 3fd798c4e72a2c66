"""Maal items travel as codes and are worded in every page language (issue 21, M-12, M-15).

The engine's item texts ("tiplu 8♥ 8♥: 6") name their kind by a code; the deal-end panel
gets them as parts (``maal_parts``) and words them with ``maal_item_<kind>``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rami.marriage.maal import ITEM_KINDS, MaalItem, item_parts, maal
from rami.marriage.rules import rules_from

I18N = Path(__file__).resolve().parent.parent / "src" / "rami" / "server" / "static" / "i18n"


@pytest.mark.parametrize("lang", ("en", "ar", "ne", "fr", "ru", "zh"))
def test_every_item_kind_is_worded_with_its_cards_and_points(lang: str) -> None:
    strings = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    for kind in ITEM_KINDS:
        text = strings[f"maal_item_{kind}"]
        assert "{cards}" in text and "{points}" in text
        if lang in ("ar", "ne", "ru", "zh"):  # the term in the language's script
            assert kind not in text


def test_item_texts_read_back_as_parts() -> None:
    """Every item ``maal`` writes, both scorings and an exposed tunnela (M-12, M-15)."""
    from rami.cards import parse_cards

    tiplu = parse_cards("8♥")[0]
    hands = [parse_cards("7♥ 8♥ 9♥ 7♥ 2♣"), parse_cards("8♥ 8♥ 9♥ 2♣")]
    seen: set[str] = set()
    for preset, hand in ((p, h) for p in ("nepali", "indian") for h in hands):
        _, texts = maal(hand, tiplu, rules_from(preset))
        for text in texts:
            part = item_parts(text)
            assert part.kind in ITEM_KINDS and part.points > 0
            assert text == f"{part.kind} {' '.join(part.cards)}: {part.points}"
            seen.add(part.kind)
    assert {"marriage", "jhiplu", "tiplu", "poplu"} <= seen
    assert item_parts("tunnela 8♥ 8♥ 8♥: 20") == MaalItem("tunnela", ["8♥", "8♥", "8♥"], 20)


@pytest.mark.parametrize("text", ["", "tiplu", "hello 8♥: 2", "tiplu 8♥ 8♥: x", "tiplu 8♥"])
def test_a_text_that_is_no_item_is_refused_clearly(text: str) -> None:
    with pytest.raises(ValueError, match="not a maal item"):
        item_parts(text)
