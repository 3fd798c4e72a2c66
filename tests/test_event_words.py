"""Table events travel as codes and words (issue 22): every view entry of a table event
has a ``code`` and its ``args``, every language words it from the key ``ev_<code>``
(``static/i18n/*.json``), English included, and the words are today's: the English made
from the code is the engines' own text, seat for seat. The browser's ``log_text.js``
reads codes, never the English (no regular expression); readers of a history read typed
actions (``rami.engine.read_action``), not the words of a move."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from rami.engine import Action, read_action
from rami.event_words import event_text, strings
from rami.games import get_game
from rami.views import HistoryEntry

STATIC = Path(__file__).resolve().parents[1] / "src" / "rami" / "server" / "static"
LANGUAGES = sorted(p.stem for p in (STATIC / "i18n").glob("*.json"))

# (game, rules, seats): seeded random deals that between them reach most events: the
# deal, the tiplu, seeing, finishing, both restocks (M-11, T-11), openings (T-6), going
# out and both turn caps.
CASES = [
    ("marriage", {"preset": "nepali"}, 3),
    ("marriage", {"preset": "indian", "max_turns": 60}, 4),
    ("marriage", {"preset": "nepali", "max_turns": 20}, 2),
    ("marriage", {"preset": "indian", "max_turns": 400}, 4),
    ("tunisian", {"preset": "1v1"}, 2),
    ("tunisian", {"preset": "1v1", "max_turns": 12}, 2),
    ("tunisian", {"preset": "1v1", "max_turns": 0}, 2),
]


def _events(game: str, spec: dict[str, object], seats: int, seed: int) -> list[HistoryEntry]:
    g = get_game(game)
    assert g.new_deal is not None
    state = g.new_deal(g.rules_from(spec), seats, seed, seed % seats)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()), state.to_move)
    return [e for s in (None, *range(seats)) for e in state.view(s)["history"] if "move" not in e]


@pytest.fixture(scope="module")
def entries() -> list[HistoryEntry]:
    return [e for case in CASES for seed in range(3) for e in _events(*case, seed)]


def test_every_event_has_a_code_and_todays_english_words(entries: list[HistoryEntry]) -> None:
    codes = {e.get("code") for e in entries}
    assert {"deals_turned", "sees", "finishes", "deals", "opens", "goes_out"} <= codes
    assert {"recycle_shuffled", "recycle_turned", "no_finisher_turns", "no_winner_turns"} <= codes
    for e in entries:
        assert f"ev_{e.get('code')}" in strings(), e
        assert event_text(e) == e["event"], e  # the English made from the code is today's
        assert set(e.get("args") or {}) <= {"seat", "card", "n", "value", "threshold"}


def test_every_language_words_every_event(entries: list[HistoryEntry]) -> None:
    keys = set(strings())
    for lang in LANGUAGES:
        doc = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
        assert keys <= set(doc), lang
        for key in keys:  # the same placeholders as the English
            assert set(re.findall(r"\{(\w+)\}", doc[key])) == set(
                re.findall(r"\{(\w+)\}", strings()[key])
            ), (lang, key)


def test_the_rare_ends_have_codes_too() -> None:
    """The stock running out (M-11, T-11) and a set position, which seeded play rarely
    reaches: the engines' events as they write them, read by each game's view."""
    from rami.marriage.view import event_words as marriage_words
    from rami.tunisian.view import event_words as tunisian_words

    end = {"seat": None, "action": None, "news": "end"}
    assert marriage_words({**end, "data": {"winner": None, "reason": "stock"}}) == (
        "no_finisher_stock",
        {},
    )
    assert tunisian_words({**end, "data": {"winner": None, "reason": "stock"}}) == (
        "no_winner_stock",
        {},
    )
    position = {"seat": None, "action": None, "news": "position", "data": {"to_move": 1}}
    assert tunisian_words(position) == ("position", {})
    for code in ("no_finisher_stock", "no_winner_stock", "position"):
        assert event_text({"seat": None, "code": code}) == strings()[f"ev_{code}"]


def test_the_terminal_names_the_seats(entries: list[HistoryEntry]) -> None:
    sees = next(e for e in entries if e.get("code") == "sees")
    seat = (sees.get("args") or {})["seat"]
    assert event_text(sees, lambda s: f"Bot {s}") == f"Bot {seat} sees the tiplu"
    # an entry from before codes is shown as it is, never parsed
    assert event_text({"seat": None, "event": "seat 1 deals"}) == "seat 1 deals"


def test_a_deals_card_is_public_and_in_its_words(entries: list[HistoryEntry]) -> None:
    dealt = [e for e in entries if e.get("code") == "deals_turned"]
    assert dealt and all(str((e.get("args") or {})["card"]) in e["event"] for e in dealt)


def test_log_text_js_has_no_regular_expression() -> None:
    js = (STATIC / "js" / "log_text.js").read_text("utf-8")
    code = "\n".join(line.split("//")[0] for line in js.splitlines())
    assert "RegExp" not in code
    assert not re.search(r"[=(,:]\s*/[^/*\s]", code), "a regular expression literal"
    assert not re.search(r"\.(test|exec|match|matchAll|replace|search)\(", code)


def test_read_action_reads_typed_cards() -> None:
    action = read_action("add 8♥ @2")
    assert action == Action.parse("add 8h @2") and action.target == 2
    assert int(action.cards[0]) == int(Action.parse("discard 8h").cards[0])
    assert read_action("draw").cards == ()
