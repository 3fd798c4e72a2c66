"""One saved-deal layout for every game, older saves still loading, and ``check()``.

Every game's deal saves the same top-level keys (game, rules, seats, seed, dealer,
active, actions, and ``start`` for a chosen deal); ``from_json`` still reads the files
written before that layout (Marriage's ``players``/``setup``, Tunisian's missing
``seats``), so saved files and the server's database keep loading.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rami.errors import IllegalAction, InputError
from rami.marriage.game import MarriageState
from rami.marriage.game import new_deal as marriage_deal
from rami.tunisian.game import TunisianState
from rami.tunisian.game import new_deal as tunisian_deal

OLD = json.loads((Path(__file__).parent / "data" / "old_deals.json").read_text("utf-8"))
LAYOUT = {"game", "rules", "seats", "seed", "dealer", "active", "actions"}


def _played(state: Any, steps: int, seed: int) -> Any:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["marriage", "marriage_setup"])
def test_old_marriage_saves_still_load(name: str) -> None:
    saved = OLD[name]
    assert "players" in saved["doc"] and "seats" not in saved["doc"]
    state = MarriageState.from_json(saved["doc"])
    assert list(state.actions) == saved["actions"] and state.to_move == saved["to_move"]
    doc = state.to_json()
    assert set(doc) - {"start"} == LAYOUT and doc["seats"] == saved["doc"]["players"]
    assert ("start" in doc) == ("setup" in saved["doc"])
    again = MarriageState.from_json(json.loads(json.dumps(doc)))
    assert again.to_json() == doc


def test_old_tunisian_save_still_loads() -> None:
    saved = OLD["tunisian"]
    assert "seats" not in saved["doc"]
    state = TunisianState.from_json(saved["doc"])
    assert list(state.actions) == saved["actions"] and state.to_move == saved["to_move"]
    doc = state.to_json()
    assert set(doc) == LAYOUT and doc["seats"] == 4 and doc["active"] == saved["doc"]["active"]
    assert TunisianState.from_json(json.loads(json.dumps(doc))).to_json() == doc


def test_both_games_save_the_same_layout() -> None:
    marriage = _played(marriage_deal("nepali", 3, 5, 1), 20, 1).to_json()
    tunisian = _played(tunisian_deal("2v2", 4, 5, 1), 20, 1).to_json()
    assert (
        list(marriage)
        == list(tunisian)
        == [
            "game",
            "rules",
            "seats",
            "seed",
            "dealer",
            "active",
            "actions",
        ]
    )


def test_saved_seats_that_do_not_fit_are_refused() -> None:
    doc = marriage_deal("nepali", 3, 5).to_json()
    with pytest.raises(InputError, match="active"):
        MarriageState.from_json({**doc, "active": [True, False, True]})
    tdoc = tunisian_deal("1v1", 2, 5).to_json()
    with pytest.raises(InputError, match="seats"):
        TunisianState.from_json({**tdoc, "seats": 4})
    with pytest.raises(InputError, match="seats"):
        tunisian_deal("1v1", 4, 5)


@pytest.mark.parametrize("game", ["marriage", "tunisian"])
def test_check_says_why_and_changes_nothing(game: str) -> None:
    state = marriage_deal("nepali", 3, 8) if game == "marriage" else tunisian_deal("ffa", 4, 8)
    for _ in range(30):
        if state.is_over:
            break
        before = json.dumps(state.to_json())
        seat = state.to_move
        legal = state.legal_actions()
        for action in legal:
            assert state.check(action, seat) is None
        other = (seat + 1) % state.num_players
        reason = state.check(legal[0], other)
        assert reason is not None and "turn" in reason
        with pytest.raises(IllegalAction, match="turn"):
            state.apply(legal[0], seat=other)
        assert state.check("fly") is not None
        assert json.dumps(state.to_json()) == before
        state.apply(random.Random(len(state.actions)).choice(legal), seat=seat)
