"""Legality once (Marriage): ``legal_actions``, ``check`` and ``apply`` agree.

Each verb's rules are stated in its ``_check_<verb>`` (M-3 … M-10); ``apply`` raises
what it says and ``legal_actions`` lists from it. Over random deals of both presets:
every listed action passes ``check``; for the verbs whose listing is complete (draw,
take, pass, expose, see, dublee, finish, discard) an action is listed exactly when
``check`` accepts it; and a refused one changes nothing.
"""

from __future__ import annotations

import json
import random

import pytest

from rami.cards import CARDS
from rami.engine import Action
from rami.errors import IllegalAction
from rami.marriage.game import MarriageState, new_deal

COMPLETE = ("draw", "take", "pass", "see", "expose", "dublee", "finish", "discard")


def _candidates() -> list[Action]:
    out = [Action("draw"), Action("take"), Action("pass"), Action("see")]
    for c in CARDS[:52]:
        out += [Action("expose", (c,)), Action("dublee", (c, c))]
        out += [Action("finish", (c,)), Action("discard", (c,))]
    return out


CANDIDATES = _candidates()


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [("nepali", 2, 1), ("nepali", 4, 2), ("nepali", 5, 3), ("indian", 3, 4), ("indian", 6, 5)],
)
def test_listing_check_and_apply_agree(preset: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    for deal in range(3):
        state: MarriageState = new_deal({"preset": preset, "max_turns": 150}, players, seed + deal)
        while not state.is_over:
            legal = state.legal_actions()
            for action in legal:
                assert state.check(action) is None, (str(action), state.check(action))
            listed = {str(a) for a in legal}
            for action in CANDIDATES:
                if action.kind in COMPLETE:
                    ok = state.check(action) is None
                    assert ok == (str(action) in listed), (str(action), state.check(action))
            refused = next((a for a in CANDIDATES if state.check(a) is not None), None)
            if refused is not None:
                before = json.dumps(state.to_json())
                with pytest.raises(IllegalAction):
                    state.apply(refused)
                assert json.dumps(state.to_json()) == before
            state.apply(rng.choice(legal))
