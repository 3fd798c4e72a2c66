"""Every refusal key the engines can produce is worded in every page language (issue 21).

The server sends an ``illegal`` error's ``reason`` key (rami.errors.Reason) and the table
page words it as ``why_<key>``; a key without a string would show the engine's English.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rami.errors import IllegalAction, Reason
from rami.marriage.game import new_deal as marriage_deal
from rami.marriage.rules import rules_from as marriage_rules
from rami.tunisian.game import new_deal as tunisian_deal
from rami.tunisian.rules import rules_from as tunisian_rules

SRC = Path(__file__).resolve().parent.parent / "src" / "rami"
I18N = SRC / "server" / "static" / "i18n"
LANGUAGES = ("en", "ar", "ne", "fr", "ru", "zh")


def _engine_keys() -> set[str]:
    """The keys written in both games' sources: ``Reason(…, key=…)``, ``IllegalAction(…)``."""
    keys: set[str] = set()
    for game in ("marriage", "tunisian"):
        for path in (SRC / game).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                    continue
                if node.func.id not in ("Reason", "IllegalAction"):
                    continue
                values = [k.value for k in node.keywords if k.arg == "key"]
                values += node.args[2:3]
                for value in values:
                    assert isinstance(value, ast.Constant), f"{path}: a key must be a literal"
                    keys.add(str(value.value))
    return keys


KEYS = sorted(_engine_keys())


def test_the_engines_name_their_refusals() -> None:
    """The usual refusals of both games carry keys (M-5, T-3, T-4, T-6)."""
    assert {"draw_first", "taken_discard", "not_held", "not_a_meld", "not_opened"} <= set(KEYS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_key_has_a_string_with_its_rule_kept_apart(lang: str) -> None:
    """``why_<key>`` exists, is not empty and does not repeat the rule id (the page adds it)."""
    strings = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    missing = [k for k in KEYS if not strings.get(f"why_{k}", "").strip()]
    assert not missing, f"{lang}: no string for {missing}"
    english = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    if lang != "en":
        same = [k for k in KEYS if strings[f"why_{k}"] == english[f"why_{k}"]]
        assert not same, f"{lang}: still English for {same}"


def test_refusals_in_play_carry_their_key_and_rule() -> None:
    """Keyed refusals reach the player: a card not held (both games), a Tunisian meld in
    the first round (T-3), a discard before drawing in Marriage (M-5)."""
    state = marriage_deal(marriage_rules("nepali"), 4, 3)
    while state.to_move is not None and "draw" not in [str(a) for a in state.legal_actions()]:
        state.apply(state.legal_actions()[0])
    hand = state.view(state.to_move)["hand"] or []
    with pytest.raises(IllegalAction) as refused:
        state.apply(f"discard {hand[0]}")
    assert (refused.value.key, refused.value.rule) == ("draw_first", "M-5")
    state.apply("draw")
    absent = next(
        c
        for c in ("A♠", "2♥", "K♦", "9♣", "5♠")
        if c not in (state.view(state.to_move)["hand"] or [])
    )
    with pytest.raises(IllegalAction) as refused:
        state.apply(f"discard {absent}")
    assert refused.value.key == "not_held"

    tunisian = tunisian_deal(tunisian_rules("1v1"), 2, 5)
    tunisian.apply(tunisian.legal_actions()[0])  # the dealer's first discard (T-2)
    tunisian.apply("draw")
    hand = tunisian.view(tunisian.to_move)["hand"] or []
    with pytest.raises(IllegalAction) as refused:
        tunisian.apply(f"meld {hand[0]} {hand[1]} {hand[2]}")
    assert refused.value.key in ("first_round_no_melds", "not_a_meld")
    assert Reason("x (T-4)", key="k").rule == "T-4"
