"""The scorekeeper's results are typed (issue 22): each game's ``Ledger`` TypedDict names
exactly the keys its computed ledger sends (docs/score.md, the /score API's JSON), and
a game's ``rami ledger`` prompts refuse another game's ledger with one line."""

from __future__ import annotations

from typing import Any

import pytest

from rami.errors import InputError
from rami.games import get_game
from rami.ledger import compute, compute_deal
from rami.marriage import ledger as marriage_ledger
from rami.tunisian import ledger as tunisian_ledger


def keys(typed: Any) -> set[str]:
    return set(typed.__required_keys__ | typed.__optional_keys__)


MARRIAGE = {
    "game": "marriage",
    "rules": "nepali",
    "players": ["A", "B", "C"],
    "deals": [
        {
            "tiplu": "7♣",
            "players": [{"seen": True, "maal": 3}, {"seen": True}, {"seen": False}],
            "finisher": "A",
        }
    ],
}
TUNISIAN = {
    "game": "tunisian",
    "mode": "2v2",
    "players": ["A", "B", "C", "D"],
    "deals": [
        {
            "winner": "A",
            "players": [{}, {"opened": True, "points": 40}, {"opened": False}, {"hand": ["JK"]}],
        }
    ],
}


def test_marriage_ledger_keys_are_its_types() -> None:
    """M-13, M-16: the ledger, its deal rows, results, players and pairs."""
    led = compute(MARRIAGE)
    assert marriage_ledger.is_ledger(led) and not tunisian_ledger.is_ledger(led)
    assert set(led) == keys(marriage_ledger.Ledger)
    row = led["deals"][0]
    assert set(row) == keys(marriage_ledger.DealRow)
    assert set(row["result"]) == keys(marriage_ledger.PairedScore)
    assert set(row["result"]["players"][0]) == {"name", "maal", "maal_items", "net"}
    pairs = row["result"]["pairs"]
    assert pairs and all(set(p) == keys(marriage_ledger.Payment) for p in pairs)


def test_tunisian_ledger_keys_are_its_types() -> None:
    """T-10, T-13: the ledger, its deal rows and results, teams in 2v2."""
    led = compute(TUNISIAN)
    assert tunisian_ledger.is_ledger(led) and not marriage_ledger.is_ledger(led)
    assert set(led) == keys(tunisian_ledger.Ledger)
    row = led["deals"][0]
    assert set(row) == keys(tunisian_ledger.DealRow)
    from rami.tunisian.calculator import DealPoints, TeamTotal

    assert set(row["result"]) == keys(DealPoints)
    assert row["result"]["teams"] and set(row["result"]["teams"][0]) == keys(TeamTotal)
    assert led["teams"] and set(led["teams"][0]) == keys(tunisian_ledger.LedgerTeam)


def test_a_deal_scored_alone_has_its_type() -> None:
    """N-2: ``/api/score/marriage/deal`` adds the pairs to ``rami score``'s result."""
    doc = {
        "tiplu": "7♣",
        "players": [
            {"name": "A", "cards": ["7♣"], "seen": True, "qualified": "melds"},
            {"name": "B", "cards": []},
        ],
        "finisher": "A",
    }
    assert set(compute_deal("marriage", doc)) == keys(marriage_ledger.PairedScore)


@pytest.mark.parametrize(("game", "other"), [("marriage", TUNISIAN), ("tunisian", MARRIAGE)])
def test_prompts_refuse_another_games_ledger(game: str, other: dict[str, Any]) -> None:
    """A game's prompts read only the ledger its own module computed: one line, no
    KeyError from a missing key."""
    commands = get_game(game).cli
    assert commands is not None
    prompts = commands().ledger
    assert prompts is not None
    led = compute(other)
    for call in (
        lambda: prompts.deal_cells(led, 1),
        lambda: prompts.standing_end(led, list(led["players"])),
        lambda: prompts.deal_lines(led, 1, {}),
    ):
        with pytest.raises(InputError, match=f"ledger, not a {get_game(game).title.split()[0]}"):
            call()
