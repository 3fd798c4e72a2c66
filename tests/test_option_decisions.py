"""Issue 28's option decisions (docs/rules-marriage.md and docs/rules-tunisian.md,
"Decisions"): the words of ``unseen_value_cap`` (M-15), ``leaver_rule`` kept off for
``indian`` because it rewards leaving (M-16), and the shoe and the hand (``decks``,
``hand_size``, ``jokers``) kept for the library and the CLI, not offered in the lobby.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rami.games import get_game
from rami.marriage.match import DealRecord, Match
from rami.server.rules_info import LIBRARY_OPTIONS, rules_summary

I18N = Path(__file__).resolve().parent.parent / "src" / "rami" / "server" / "static" / "i18n"
LANGS = ("en", "ar", "ne", "fr", "ru", "zh")
OLD_CAP_HELP = {  # the help that said "lose", in each language
    "en": "Most value points an unseen player can lose (Indian).",
    "ar": "أقصى نقاط يخسرها اللاعب الذي لم يرَ (هندي).",
    "ne": "नदेखेकोले बढीमा हार्ने अंक (भारतीय)।",
    "fr": "Points maximum perdus par un joueur non vu (indien).",
    "ru": "Наибольшая потеря неувидевшего (индийский).",
    "zh": "未看牌玩家最多输的点数（印度）。",
}


def _strings(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def test_M15_the_cap_limits_what_an_unseen_player_collects() -> None:
    """The help said "lose"; the cap limits the value points an unseen player collects."""
    options = {o["name"]: o for o in rules_summary("marriage", "indian")["options"]}
    assert "collects" in options["unseen_value_cap"]["help"]
    en = _strings("en")["help_unseen_value_cap"]
    assert "collects" in en and "lose" not in en
    assert "perdus" not in _strings("fr")["help_unseen_value_cap"]
    for lang, old in OLD_CAP_HELP.items():  # every language words the rule, not "lose"
        assert _strings(lang)["help_unseen_value_cap"] != old


def test_M16_the_leaver_rule_would_reward_leaving_so_indian_keeps_it_off() -> None:
    """The seed's rule (a leaver recorded with the two best totals added) was made for
    penalty points; rami's balances count points won, so a losing leaver would be
    recorded above everyone who stayed. Off by default, said in its help."""
    assert get_game("marriage").rules_from("indian").leaver_rule is False
    match = Match({"preset": "indian", "max_turns": 30, "leaver_rule": True}, 4, seed=2)
    match.records.append(DealRecord(0, 0, 1, (), (10, 4, -6, -8), 0))
    match.leave(3)  # the worst balance leaves ...
    totals = match.totals()
    assert totals is not None and totals[3] > max(totals[:3])  # ... and is recorded best
    options = {o["name"]: o for o in rules_summary("marriage", "indian")["options"]}
    assert options["leaver_rule"]["value"] is False
    assert "reward leaving" in options["leaver_rule"]["help"]
    for lang in LANGS:
        assert _strings(lang)["help_leaver_rule"] != "Indian record rule for a player who leaves."


@pytest.mark.parametrize(
    ("game", "preset"), [("marriage", "nepali"), ("marriage", "indian"), ("tunisian", "1v1")]
)
def test_the_lobby_does_not_offer_the_shoe_and_the_hand(game: str, preset: str) -> None:
    """``decks``, ``hand_size`` and ``jokers`` are each preset's own (no rule varies them):
    marked ``lobby: false`` (lobby.js skips them), their help says so, and the library
    still takes them."""
    options = rules_summary(game, preset)["options"]
    assert isinstance(options, list)
    hidden = {o["name"] for o in options if o["lobby"] is False}
    assert hidden == {o["name"] for o in options} & LIBRARY_OPTIONS and "decks" in hidden
    for o in options:
        if o["name"] in hidden:
            assert "library and CLI only" in o["help"]
    for lang in LANGS:
        for name in hidden:
            assert _strings(lang)[f"help_{name}"] != "Printed jokers in the shoe."
    spec = get_game(game)
    more = spec.rules_from({"preset": preset, "decks": 3})
    assert more.decks == 3
